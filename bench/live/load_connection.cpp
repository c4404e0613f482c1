#include "bench/live/load_connection.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/write.hpp>
#include <charconv>
#include <cstring>

namespace squall::bench::live {

namespace net = boost::asio;

namespace {
// The first read's room; a larger answer grows the buffer, up to kMaxAnswer.
constexpr std::size_t kInitialBuffer = 16 * 1024;
constexpr std::size_t kMaxAnswer = 16 * 1024 * 1024;

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool starts_with_nocase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (lower(text[i]) != prefix[i]) return false;
  }
  return true;
}
}  // namespace

std::size_t header_end(std::string_view bytes) {
  const std::size_t at = bytes.find("\r\n\r\n");
  return at == std::string_view::npos ? 0 : at + 4;
}

int status_code(std::string_view head) {
  if (!head.starts_with("HTTP/1.") || head.size() < 12 || head[8] != ' ') return 0;
  int code = 0;
  const auto [end, error] = std::from_chars(head.data() + 9, head.data() + 12, code);
  return error == std::errc() && end == head.data() + 12 ? code : 0;
}

std::int64_t content_length(std::string_view head) {
  std::size_t line = head.find("\r\n");
  while (line != std::string_view::npos && line + 2 < head.size()) {
    const std::string_view rest = head.substr(line + 2);
    if (starts_with_nocase(rest, "content-length:")) {
      std::string_view value = rest.substr(15, rest.find("\r\n") - 15);
      while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
      while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
      std::int64_t length = -1;
      const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), length);
      return error == std::errc() && end == value.data() + value.size() && !value.empty() ? length : -1;
    }
    line = head.find("\r\n", line + 2);
  }
  return -1;
}

LoadConnection::LoadConnection(net::io_context& io, const std::string& request, Done done)
    : socket_(io), request_(request), done_(std::move(done)), buffer_(kInitialBuffer) {}

void LoadConnection::connect(const net::ip::tcp::endpoint& endpoint, std::function<void(bool)> connected) {
  socket_.async_connect(endpoint, [this, connected = std::move(connected)](const boost::system::error_code& error) {
    if (!error) {
      boost::system::error_code ignored;
      socket_.set_option(net::ip::tcp::no_delay(true), ignored);
    }
    connected(!error);
  });
}

void LoadConnection::send(std::int64_t tag) {
  tag_ = tag;
  net::async_write(socket_, net::buffer(request_), [this](const boost::system::error_code& error, std::size_t) {
    if (error) finish(Outcome::failed);
  });
  read_more();
}

void LoadConnection::read_more() {
  if (have_ == buffer_.size()) {
    if (buffer_.size() >= kMaxAnswer) {
      finish(Outcome::failed);
      return;
    }
    buffer_.resize(buffer_.size() * 2);
  }
  socket_.async_read_some(net::buffer(buffer_.data() + have_, buffer_.size() - have_),
                          [this](const boost::system::error_code& error, std::size_t n) {
                            if (error) {
                              finish(Outcome::failed);
                              return;
                            }
                            have_ += n;
                            if (take_answer()) {
                              finish(outcome_);
                            } else if (open()) {
                              read_more();
                            }
                          });
}

bool LoadConnection::take_answer() {
  const std::string_view bytes(buffer_.data(), have_);
  const std::size_t head = header_end(bytes);
  if (head == 0) return false;
  const std::string_view header = bytes.substr(0, head);
  const std::int64_t length = content_length(header);
  if (length < 0 || static_cast<std::size_t>(length) > kMaxAnswer) {
    outcome_ = Outcome::failed;  // chunked, or no length: not an answer this generator reads
    return true;
  }
  const std::size_t whole = head + static_cast<std::size_t>(length);
  if (have_ < whole) return false;
  outcome_ = status_code(header) == 200 ? Outcome::ok : Outcome::bad_status;
  std::memmove(buffer_.data(), buffer_.data() + whole, have_ - whole);
  have_ -= whole;
  return true;
}

void LoadConnection::finish(Outcome outcome) {
  if (!open()) return;  // the write's error and the read's both report one failure
  if (outcome == Outcome::failed) close();
  done_(*this, tag_, outcome);
}

void LoadConnection::close() {
  boost::system::error_code ignored;
  socket_.shutdown(net::ip::tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
}

}  // namespace squall::bench::live
