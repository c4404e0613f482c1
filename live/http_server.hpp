// HttpServer: the listening socket of `squall serve`; one HttpSession per connection.
//
// Connections beyond ServerLimits::max_connections are answered 503 and closed; while
// kMaxRefusals of those are still closing, further ones are closed at once without an
// answer, so that a flood cannot hold more than max_connections + kMaxRefusals sockets.
// When accept() fails for want of resources (EMFILE, ENFILE, ENOBUFS, ENOMEM: the
// connection stays queued in the backlog, so an immediate retry fails again and spins),
// the server waits before the next accept, from 5 ms doubling to 1 s, as Go's net/http
// does, and says so once on stderr; the first accept that succeeds resets the wait.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstddef>
#include <memory>
#include <vector>

#include "live/http_session.hpp"

namespace squall::live {

// Refused connections (503) being closed at once; beyond them, connections are dropped.
inline constexpr std::size_t kMaxRefusals = 64;

class HttpServer {
 public:
  // Listens on `endpoint` (port 0: a free port the system picks). Throws
  // boost::system::system_error when the address cannot be bound. `limits` and the
  // handler's captures must outlive the server and its sessions.
  HttpServer(boost::asio::io_context& io, const boost::asio::ip::tcp::endpoint& endpoint, const ServerLimits& limits,
             RequestHandler handler);
  // The address and port listened on.
  boost::asio::ip::tcp::endpoint local_endpoint() const { return acceptor_.local_endpoint(); }
  // Stops accepting; connections waiting for a request close, the others after their answer.
  void stop();
  std::size_t open_connections() const { return open_connections_; }

 private:
  void accept();
  void on_accept(boost::system::error_code error, boost::asio::ip::tcp::socket socket);
  // After an accept() that failed: the next one after the back-off.
  void back_off(boost::system::error_code error);

  boost::asio::io_context& io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  const ServerLimits& limits_;
  RequestHandler handler_;
  std::size_t open_connections_ = 0;
  boost::asio::steady_timer retry_;
  std::chrono::milliseconds backoff_{0};              // 0: the last accept succeeded
  std::vector<std::weak_ptr<HttpSession>> sessions_;  // for stop(); pruned as sessions end
};

}  // namespace squall::live
