// squall_live_floor: the floor of the live-mode benchmark (bench/live_load.sh,
// bench/README.md "Live mode"). A minimal HTTP/1.1 server on Boost.Beast, as `squall
// serve` is, on one thread as `squall serve` is, answering every request with the same
// fixed chat completion: no routing, no JSON parsing, no scenario, no provider. The same
// load against it and against `squall serve` tells what squall's own request path costs
// over what Beast and the kernel cost.
//
//   squall_live_floor [PORT]     (default 0: a free port)
//
// Prints its base URL (http://127.0.0.1:PORT) on the first line of stdout, as `squall
// serve` does, and serves until SIGINT or SIGTERM.
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <memory>
#include <string>

#include <fmt/format.h>

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

// A chat.completion of ten tokens, the mean answer of bench/scenarios/live-zero-latency.json,
// with the headers `squall serve` sends with one (x-request-id, openai-processing-ms).
constexpr std::string_view kCompletion =
    R"({"id":"chatcmpl-squall0123456789abcdef","object":"chat.completion","created":1767225600,)"
    R"("model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":)"
    R"("The mock is calm, and it answers The mock is calm,","refusal":null},"logprobs":null,)"
    R"("finish_reason":"stop"}],"usage":{"prompt_tokens":17,"completion_tokens":10,"total_tokens":27},)"
    R"("system_fingerprint":null})";

class Session : public std::enable_shared_from_this<Session> {
 public:
  explicit Session(tcp::socket socket) : stream_(std::move(socket)) {}
  void read() {
    request_ = {};
    http::async_read(stream_, buffer_, request_, [self = shared_from_this()](beast::error_code error, std::size_t) {
      if (error) return self->close();
      self->answer();
    });
  }

 private:
  void answer() {
    response_ = {http::status::ok, 11};
    response_.set(http::field::content_type, "application/json");
    response_.set("x-request-id", "req_0123456789abcdef");
    response_.set("openai-processing-ms", "0");
    response_.body() = kCompletion;
    response_.keep_alive(request_.keep_alive());
    response_.prepare_payload();
    http::async_write(stream_, response_, [self = shared_from_this()](beast::error_code error, std::size_t) {
      if (error || !self->response_.keep_alive()) return self->close();
      self->read();
    });
  }
  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.close();
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  http::request<http::string_body> request_;
  http::response<http::string_body> response_;
};

void accept(tcp::acceptor& acceptor) {
  acceptor.async_accept([&acceptor](beast::error_code error, tcp::socket socket) {
    if (!acceptor.is_open()) return;
    if (!error) std::make_shared<Session>(std::move(socket))->read();
    accept(acceptor);
  });
}

}  // namespace

int main(int argc, char** argv) {
  unsigned short port = 0;
  if (argc > 1) {
    const std::string text = argv[1];
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), port);
    if (error != std::errc() || end != text.data() + text.size() || argc > 2) {
      fmt::print(stderr, "usage: squall_live_floor [PORT]\n");
      return 2;
    }
  }
  net::io_context io(1);
  tcp::acceptor acceptor(io, tcp::endpoint(net::ip::address_v4::loopback(), port));
  accept(acceptor);
  net::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const beast::error_code&, int) {
    beast::error_code ignored;
    acceptor.close(ignored);
    io.stop();
  });
  fmt::print("http://127.0.0.1:{}\n", acceptor.local_endpoint().port());
  std::fflush(stdout);
  io.run();
  return 0;
}
