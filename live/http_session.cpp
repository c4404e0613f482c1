#include "live/http_session.hpp"

#include <boost/asio/write.hpp>
#include <sstream>

#include <fmt/format.h>

#include "live/openai_wire.hpp"

namespace squall::live {

namespace beast = boost::beast;

namespace {
// How long a closing connection reads what its client still sends, and in what pieces.
constexpr std::chrono::seconds kLingerTime{2};
constexpr std::size_t kLingerChunk = 64 * 1024;
}  // namespace

HttpSession::HttpSession(boost::asio::ip::tcp::socket socket, const ServerLimits& limits, RequestHandler handler,
                         std::size_t& open_connections)
    : stream_(std::move(socket)), limits_(limits), handler_(std::move(handler)), open_connections_(open_connections) {
  ++open_connections_;
}

HttpSession::~HttpSession() { --open_connections_; }

void HttpSession::start() { read(); }

void HttpSession::read() {
  parser_.emplace();
  parser_->body_limit(limits_.body_limit);
  parser_->header_limit(limits_.header_limit);
  stream_.expires_after(limits_.request_timeout);
  reading_ = true;
  http::async_read(stream_, buffer_, *parser_,
                   [self = shared_from_this()](beast::error_code error, std::size_t) { self->on_read(error); });
}

void HttpSession::on_read(beast::error_code error) {
  reading_ = false;
  if (error == http::error::end_of_stream || error == beast::error::timeout ||
      error == boost::asio::error::connection_reset || error == boost::asio::error::operation_aborted) {
    abort();
    return;
  }
  if (error == http::error::body_limit) {
    reject(http::status::payload_too_large,
           fmt::format("The request body is larger than the server's limit of {} bytes.", limits_.body_limit));
    return;
  }
  if (error == http::error::header_limit) {
    reject(http::status::request_header_fields_too_large,
           fmt::format("The request's headers are larger than the server's limit of {} bytes.", limits_.header_limit));
    return;
  }
  if (error) {
    reject(http::status::bad_request, fmt::format("The request is not valid HTTP/1.1: {}.", error.message()));
    return;
  }
  HttpRequest request = parser_->release();
  if (static_cast<std::size_t>(std::distance(request.begin(), request.end())) > limits_.max_headers) {
    reject(http::status::request_header_fields_too_large,
           fmt::format("The request has more than the server's limit of {} header fields.", limits_.max_headers));
    return;
  }
  keep_alive_ = request.keep_alive();
  stream_.expires_never();  // the answer takes what the scenario says it takes
  handler_(shared_from_this(), std::move(request));
}

void HttpSession::reject(http::status status, std::string_view message) {
  HttpResponse response{status, 11};
  response.set(http::field::content_type, "application/json");
  response.body() = error_body(message, "invalid_request_error", "", "");
  response.prepare_payload();
  reply(std::move(response), /*close=*/true);
}

void HttpSession::refuse(std::string_view message) {
  HttpResponse response{http::status::service_unavailable, 11};
  response.set(http::field::content_type, "application/json");
  response.body() = error_body(message, "server_error", "", "");
  response.prepare_payload();
  reply(std::move(response), /*close=*/true);
}

void HttpSession::reply(HttpResponse response, bool close) {
  if (close || !keep_alive_) keep_alive_ = false;
  response.keep_alive(keep_alive_);
  response.prepare_payload();
  std::ostringstream bytes;
  bytes << response;
  queue(std::move(bytes).str());
  finish_exchange();
}

void HttpSession::begin_stream(http::response_header<> head) {
  head.version(11);
  if (!keep_alive_) head.set(http::field::connection, "close");
  head.set(http::field::transfer_encoding, "chunked");
  std::ostringstream bytes;
  bytes << head;
  queue(std::move(bytes).str());
}

void HttpSession::send(std::string_view data) {
  if (data.empty()) return;  // an empty chunk would end the body
  queue(fmt::format("{:x}\r\n{}\r\n", data.size(), data));
}

void HttpSession::end_stream() {
  queue("0\r\n\r\n");
  finish_exchange();
}

void HttpSession::finish_exchange() {
  read_after_write_ = true;
  if (!writing_) write_next();
}

void HttpSession::queue(std::string bytes) {
  if (!open_) return;
  outbox_.push_back(std::move(bytes));
  if (!writing_) write_next();
}

void HttpSession::write_next() {
  if (!open_) return;
  if (outbox_.empty()) {
    if (!read_after_write_) return;
    read_after_write_ = false;
    if (keep_alive_) {
      read();
    } else {
      linger();
    }
    return;
  }
  writing_ = true;
  stream_.expires_after(limits_.request_timeout);
  boost::asio::async_write(stream_, boost::asio::buffer(outbox_.front()),
                           [self = shared_from_this()](beast::error_code error, std::size_t) {
                             self->writing_ = false;
                             if (error) {
                               self->abort();
                               return;
                             }
                             self->outbox_.pop_front();
                             self->stream_.expires_never();
                             self->write_next();
                           });
}

void HttpSession::linger() {
  // A lingering close (nginx's lingering_close): the answer is sent and the sending side
  // shut, then what the client still sends (the rest of an oversized body) is read and
  // dropped for a bounded time, so that closing with unread data does not reset the
  // connection and destroy the answer before the client reads it.
  if (!lingering_) {
    lingering_ = true;
    beast::error_code ignored;
    stream_.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_send, ignored);
    stream_.expires_after(kLingerTime);  // once: a client that keeps sending is cut at the end
  }
  buffer_.clear();
  stream_.async_read_some(buffer_.prepare(kLingerChunk),
                          [self = shared_from_this()](beast::error_code error, std::size_t) {
                            if (error) {
                              self->abort();
                              return;
                            }
                            self->linger();
                          });
}

void HttpSession::close_when_idle() {
  keep_alive_ = false;
  if (reading_ && (!parser_ || !parser_->got_some())) abort();
}

void HttpSession::abort() {
  if (!open_) return;
  open_ = false;  // the queued bytes stay until the session goes: a write in flight reads them
  beast::error_code ignored;
  stream_.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
  stream_.close();
}

}  // namespace squall::live
