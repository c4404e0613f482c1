// LoadConnection: one keep-alive HTTP/1.1 client connection of the live-mode load generator
// (bench/live/load_generator.cpp). It sends the same request bytes again and again, one
// request at a time (no pipelining, as the OpenAI and Anthropic SDKs send), and reads each
// answer just far enough to know it is whole: the status code and Content-Length. It
// parses nothing else, so that the generator costs the machine less than the servers it
// loads (a chunked answer is counted as an error: the benchmarked answers are not chunked).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace squall::bench::live {

// What one answer was: a 200 read whole, or not (another status, a broken connection).
enum class Outcome { ok, bad_status, failed };

class LoadConnection {
 public:
  // Called once per request, with the tag given to send() and how it ended. A `failed`
  // connection is closed and sends nothing more.
  using Done = std::function<void(LoadConnection&, std::int64_t tag, Outcome)>;

  LoadConnection(boost::asio::io_context& io, const std::string& request, Done done);
  // Connects; `connected(ok)` is called once.
  void connect(const boost::asio::ip::tcp::endpoint& endpoint, std::function<void(bool)> connected);
  // Sends the request; done(tag, ...) when its answer is read. One request at a time.
  void send(std::int64_t tag);
  void close();
  bool open() const { return socket_.is_open(); }

 private:
  void read_more();
  // Whether the buffer holds a whole answer; sets `outcome_` and consumes it when it does.
  bool take_answer();
  void finish(Outcome outcome);

  boost::asio::ip::tcp::socket socket_;
  const std::string& request_;
  Done done_;
  std::vector<char> buffer_;
  std::size_t have_ = 0;
  std::int64_t tag_ = 0;
  Outcome outcome_ = Outcome::ok;
};

// The header block's end (the index past "\r\n\r\n"), or 0 when it has not all arrived.
std::size_t header_end(std::string_view bytes);
// The status code of a response's header block, or 0 when it is not "HTTP/1.x NNN".
int status_code(std::string_view head);
// The Content-Length of a header block (its name in any case), or -1 when absent or not a
// decimal number.
std::int64_t content_length(std::string_view head);

}  // namespace squall::bench::live
