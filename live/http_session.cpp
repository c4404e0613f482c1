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

// The version of a request line that ends in a well-formed HTTP version other than 1.0 and
// 1.1 ("2.0" for "PRI * HTTP/2.0"), else empty: the line is malformed instead.
std::string other_version(std::string_view bytes) {
  const std::string_view line = bytes.substr(0, bytes.find("\r\n"));
  const std::string_view version = line.substr(line.rfind(' ') + 1);
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (line.find(' ') == std::string_view::npos || version.size() != 8 || !version.starts_with("HTTP/") ||
      !digit(version[5]) || version[6] != '.' || !digit(version[7])) {
    return {};
  }
  return std::string(version.substr(5));
}
}  // namespace

HttpSession::HttpSession(boost::asio::ip::tcp::socket socket, const ServerLimits& limits, RequestHandler handler,
                         std::size_t& open_connections)
    : stream_(std::move(socket)), limits_(limits), handler_(std::move(handler)), open_connections_(open_connections) {
  ++open_connections_;
  boost::system::error_code error;
  const auto endpoint = stream_.socket().remote_endpoint(error);
  if (!error) peer_ = endpoint.address().to_string();
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
  if (error) return reject_read(error);
  HttpRequest request = parser_->release();
  if (static_cast<std::size_t>(std::distance(request.begin(), request.end())) > limits_.max_headers) {
    reject(http::status::request_header_fields_too_large,
           fmt::format("The request has more than the server's limit of {} header fields.", limits_.max_headers));
    return;
  }
  version_ = request.version();
  keep_alive_ = request.keep_alive();
  awaiting_answer_ = true;
  stream_.expires_never();  // the answer takes what the scenario says it takes
  handler_(shared_from_this(), std::move(request));
}

void HttpSession::reject_read(beast::error_code error) {
  if (error == http::error::end_of_stream || error == beast::error::timeout ||
      error == boost::asio::error::connection_reset || error == boost::asio::error::operation_aborted) {
    abort();  // the client left, was too slow, or the server is stopping: nobody to answer
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
  if (error == http::error::bad_version) {
    // Beast refuses every version but 1.0 and 1.1 as malformed; the request line is still
    // in the buffer (nothing of it was consumed) to tell another version from garbage.
    const auto bytes = buffer_.data();
    const std::string version = other_version(std::string_view(static_cast<const char*>(bytes.data()), bytes.size()));
    if (!version.empty()) {
      reject(http::status::http_version_not_supported,
             fmt::format("The server speaks HTTP/1.0 and HTTP/1.1; the request is HTTP/{}.", version));
      return;
    }
  }
  // Malformed HTTP, or a body the client ended (closing its side) before its length.
  reject(http::status::bad_request, fmt::format("The request is not valid HTTP/1.1: {}.", error.message()));
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
  awaiting_answer_ = false;
  if (close || !keep_alive_) keep_alive_ = false;
  response.version(version_);
  response.keep_alive(keep_alive_);
  response.prepare_payload();
  if (hooks_.on_head) hooks_.on_head(response.base(), response.body());
  std::ostringstream bytes;
  bytes << response;
  queue(std::move(bytes).str());
  finish_exchange();
}

void HttpSession::begin_stream(http::response_header<> head) {
  awaiting_answer_ = false;
  // HTTP/1.0 has no chunked coding: the body runs to the close of the connection.
  if (version_ == 10) keep_alive_ = false;
  head.version(version_);
  if (version_ == 11 && !keep_alive_) head.set(http::field::connection, "close");
  if (version_ == 11) head.set(http::field::transfer_encoding, "chunked");
  if (hooks_.on_head) hooks_.on_head(head, {});
  std::ostringstream bytes;
  bytes << head;
  queue(std::move(bytes).str());
}

void HttpSession::send(std::string_view data) {
  if (data.empty()) return;  // an empty chunk would end the body
  queue(version_ == 10 ? std::string(data) : fmt::format("{:x}\r\n{}\r\n", data.size(), data));
}

void HttpSession::end_stream() {
  if (version_ == 11) queue("0\r\n\r\n");
  finish_exchange();
}

void HttpSession::finish_exchange() {
  end_hooks();
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

void HttpSession::end_hooks() {
  ExchangeHooks hooks = std::move(hooks_);
  hooks_ = {};
  if (hooks.on_end) hooks.on_end();
}

void HttpSession::abort() {
  end_hooks();
  if (!open_) return;
  open_ = false;  // the queued bytes stay until the session goes: a write in flight reads them
  beast::error_code ignored;
  stream_.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
  stream_.close();
}

}  // namespace squall::live
