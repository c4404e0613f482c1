#include "live/http_server.hpp"

#include <memory>

#include <fmt/format.h>

namespace squall::live {

HttpServer::HttpServer(boost::asio::io_context& io, const boost::asio::ip::tcp::endpoint& endpoint,
                       const ServerLimits& limits, RequestHandler handler)
    : io_(io), acceptor_(io), limits_(limits), handler_(std::move(handler)) {
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(boost::asio::socket_base::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen(boost::asio::socket_base::max_listen_connections);
  accept();
}

void HttpServer::stop() {
  boost::system::error_code ignored;
  acceptor_.close(ignored);
  for (const std::weak_ptr<HttpSession>& weak : sessions_) {
    if (const std::shared_ptr<HttpSession> session = weak.lock()) session->close_when_idle();
  }
  sessions_.clear();
}

void HttpServer::accept() {
  acceptor_.async_accept(io_, [this](boost::system::error_code error, boost::asio::ip::tcp::socket socket) {
    if (error == boost::asio::error::operation_aborted || !acceptor_.is_open()) return;
    if (!error) {
      const bool full = open_connections_ >= limits_.max_connections;
      auto session = std::make_shared<HttpSession>(std::move(socket), limits_, handler_, open_connections_);
      std::erase_if(sessions_, [](const std::weak_ptr<HttpSession>& s) { return s.expired(); });
      sessions_.push_back(session);
      if (full) {
        session->refuse(fmt::format("The server has reached its limit of {} open connections; retry later.",
                                    limits_.max_connections));
      } else {
        session->start();
      }
    }
    accept();
  });
}

}  // namespace squall::live
