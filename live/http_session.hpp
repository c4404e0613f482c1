// HttpSession: one client connection of `squall serve`, over Boost.Beast (1.74).
//
// Reads one request at a time (keep-alive; pipelined requests wait for the answer before),
// hands it to the server's handler, and writes what the handler answers: a whole
// response (reply), or an SSE stream in HTTP/1.1 chunks (begin_stream, send, end_stream),
// which the handler paces from its own coroutine without blocking any other connection.
// Writes are queued and go out in order, one at a time.
//
// Limits (ServerLimits, docs/live.md): a request whose headers exceed header_limit bytes
// or max_headers fields gets 431, a body over body_limit 413, malformed HTTP (a bad
// request line, a bad or conflicting Content-Length, a bad chunk, a body cut short by the
// client's close) 400, an HTTP version other than 1.0 and 1.1 505, each with an
// OpenAI-shaped error body, then the connection closes; a request not received whole
// within request_timeout (a slow client, slowloris), counted from when the server starts
// waiting for it (an idle keep-alive connection included), closes the connection without
// an answer, as does a write the client does not take within it.
//
// HTTP/1.0: answers carry the request's version, keep-alive only when the request asked
// for it (Connection: keep-alive), and a stream is sent without chunking, its end marked
// by the close of the connection.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace squall::live {

namespace http = boost::beast::http;
using HttpRequest = http::request<http::string_body>;
using HttpResponse = http::response<http::string_body>;

struct ServerLimits {
  // Bytes of a request body; 4 MiB (a long chat history; Beast's own default is 1 MiB).
  std::uint64_t body_limit = 4 * 1024 * 1024;
  // Bytes of the request line and headers; 16 KiB (Beast's default is 8 KiB; an SDK sends
  // about 1 KiB).
  std::uint32_t header_limit = 16 * 1024;
  // Header fields of a request; 100 (Node's and Go's servers allow about as many).
  std::size_t max_headers = 100;
  // Connections open at once; more are answered 503 and closed. 1024 (`--max-connections`).
  std::size_t max_connections = 1024;
  // Time to receive one whole request, or for the client to take one write; 30 s
  // (`--request-timeout`). Real time, whatever the --time-scale.
  std::chrono::milliseconds request_timeout{30'000};
};

class HttpSession;
using RequestHandler = std::function<void(const std::shared_ptr<HttpSession>&, HttpRequest&&)>;

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  // `open_connections` is decremented when the session ends; it must outlive the session.
  HttpSession(boost::asio::ip::tcp::socket socket, const ServerLimits& limits, RequestHandler handler,
              std::size_t& open_connections);
  ~HttpSession();
  void start();

  // A whole answer to the current request; then the next request is read, or the
  // connection closes when the request or the answer asked for it (or `close` is set).
  void reply(HttpResponse response, bool close = false);
  // An answer sent in chunks: `head`'s status and headers now, then each send() as a chunk,
  // then end_stream() (the last chunk, then on to the next request).
  void begin_stream(http::response_header<> head);
  void send(std::string_view data);
  void end_stream();
  // Closes the connection without (more of) an answer.
  void abort();
  // Whether the client is still there to write to.
  bool open() const { return open_; }
  // Answers 503 and closes: the server is at max_connections or shutting down.
  void refuse(std::string_view message);
  // Closes the connection now if it waits for a request, else after the current answer.
  void close_when_idle();
  // Whether the request handed to the handler has no answer begun yet.
  bool awaiting_answer() const { return awaiting_answer_; }
  // Told of the current exchange's answer, for this exchange only (set by the handler):
  // on_head when its status and headers are sent (with the body of a whole answer), on_end
  // once when the exchange ends, answered or not (the connection closed first).
  struct ExchangeHooks {
    std::function<void(const http::response_header<>& head, std::string_view body)> on_head;
    std::function<void()> on_end;
  };
  void watch(ExchangeHooks hooks) { hooks_ = std::move(hooks); }
  // The client's IP address ("" when the socket could not tell).
  const std::string& peer() const { return peer_; }

 private:
  void read();
  void on_read(boost::beast::error_code error);
  void reject(http::status status, std::string_view message);
  // The error answer for a read that failed, if the failure deserves one.
  void reject_read(boost::beast::error_code error);
  void queue(std::string bytes);
  void write_next();
  void finish_exchange();
  void linger();
  void end_hooks();

  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  const ServerLimits& limits_;
  RequestHandler handler_;
  std::size_t& open_connections_;
  std::deque<std::string> outbox_;
  bool writing_ = false;
  bool open_ = true;
  bool keep_alive_ = true;
  bool read_after_write_ = false;  // the exchange is answered: read the next request once written
  bool reading_ = false;           // waiting for a request: no exchange in progress
  bool lingering_ = false;
  bool awaiting_answer_ = false;
  unsigned version_ = 11;  // the current request's HTTP version: 10 or 11
  ExchangeHooks hooks_;
  std::string peer_;
};

}  // namespace squall::live
