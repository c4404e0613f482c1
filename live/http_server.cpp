#include "live/http_server.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>

#include <fmt/format.h>

namespace squall::live {
namespace {

constexpr std::chrono::milliseconds kFirstBackoff{5};
constexpr std::chrono::milliseconds kMostBackoff{1000};

}  // namespace

HttpServer::HttpServer(boost::asio::io_context& io, const boost::asio::ip::tcp::endpoint& endpoint,
                       const ServerLimits& limits, RequestHandler handler)
    : io_(io), acceptor_(io), limits_(limits), handler_(std::move(handler)), retry_(io) {
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(boost::asio::socket_base::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen(boost::asio::socket_base::max_listen_connections);
  accept();
}

void HttpServer::stop() {
  boost::system::error_code ignored;
  acceptor_.close(ignored);
  retry_.cancel();
  for (const std::weak_ptr<HttpSession>& weak : sessions_) {
    if (const std::shared_ptr<HttpSession> session = weak.lock()) session->close_when_idle();
  }
  sessions_.clear();
}

void HttpServer::accept() {
  acceptor_.async_accept(io_, [this](boost::system::error_code error, boost::asio::ip::tcp::socket socket) {
    on_accept(error, std::move(socket));
  });
}

void HttpServer::on_accept(boost::system::error_code error, boost::asio::ip::tcp::socket socket) {
  if (error == boost::asio::error::operation_aborted || !acceptor_.is_open()) return;
  if (error == boost::asio::error::connection_aborted) return accept();  // the client left first: no shortage
  if (error) return back_off(error);
  backoff_ = std::chrono::milliseconds{0};
  std::erase_if(sessions_, [](const std::weak_ptr<HttpSession>& s) { return s.expired(); });
  if (open_connections_ >= limits_.max_connections + kMaxRefusals) {
    boost::system::error_code ignored;
    socket.close(ignored);  // a flood: no answer, not even a 503
    return accept();
  }
  const bool full = open_connections_ >= limits_.max_connections;
  auto session = std::make_shared<HttpSession>(std::move(socket), limits_, handler_, open_connections_);
  sessions_.push_back(session);
  if (full) {
    session->refuse(
        fmt::format("The server has reached its limit of {} open connections; retry later.", limits_.max_connections));
  } else {
    session->start();
  }
  accept();
}

void HttpServer::back_off(boost::system::error_code error) {
  if (backoff_.count() == 0) {
    // Once per episode: the client side sees its connections wait in the backlog.
    fmt::print(stderr, "squall: cannot accept a connection: {}; retrying with back-off up to {}ms\n", error.message(),
               kMostBackoff.count());
    backoff_ = kFirstBackoff;
  } else {
    backoff_ = std::min(backoff_ * 2, kMostBackoff);
  }
  retry_.expires_after(backoff_);
  retry_.async_wait([this](boost::system::error_code wait_error) {
    if (!wait_error && acceptor_.is_open()) accept();
  });
}

}  // namespace squall::live
