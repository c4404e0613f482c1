// HttpServer: the listening socket of `squall serve`; one HttpSession per connection.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <cstddef>
#include <memory>
#include <vector>

#include "live/http_session.hpp"

namespace squall::live {

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

  boost::asio::io_context& io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  const ServerLimits& limits_;
  RequestHandler handler_;
  std::size_t open_connections_ = 0;
  std::vector<std::weak_ptr<HttpSession>> sessions_;  // for stop(); pruned as sessions end
};

}  // namespace squall::live
