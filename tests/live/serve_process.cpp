#include "serve_process.hpp"

#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <array>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace squall::live::testing {
namespace {

constexpr int kTimeoutMs = 30'000;
namespace net = boost::asio;
using tcp = net::ip::tcp;

// A stream connected to 127.0.0.1:port whose every operation gives up after kTimeoutMs.
boost::beast::tcp_stream connect(net::io_context& io, unsigned short port) {
  boost::beast::tcp_stream stream(io);
  stream.expires_after(std::chrono::milliseconds(kTimeoutMs));
  stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  return stream;
}

}  // namespace

ServeProcess::ServeProcess(const std::vector<std::string>& args, int max_open_files) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  std::vector<std::string> argv_text{SQUALL_BINARY, "serve"};
  if (max_open_files > 0) {
    // The shell sets the limit and becomes squall (exec): the same process id.
    argv_text.insert(argv_text.begin(),
                     {"/bin/sh", "-c", "ulimit -n " + std::to_string(max_open_files) + " && exec \"$0\" \"$@\""});
  }
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int spawned = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  stdout_fd_ = fds[0];
  if (spawned != 0) throw std::runtime_error("posix_spawn failed");
  const std::string first = read_line();
  const std::string prefix = "http://127.0.0.1:";
  if (first.rfind(prefix, 0) == 0) {
    base_url_ = first;
    port_ = static_cast<unsigned short>(std::stoi(first.substr(prefix.size())));
  }
}

ServeProcess::~ServeProcess() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  if (stdout_fd_ >= 0) ::close(stdout_fd_);
}

std::string ServeProcess::read_line() {
  // Each read waits at most kTimeoutMs: a silent server fails the test instead of hanging it.
  while (buffered_.find('\n') == std::string::npos) {
    pollfd p{stdout_fd_, POLLIN, 0};
    if (::poll(&p, 1, kTimeoutMs) <= 0) {
      timed_out_ = true;
      break;
    }
    char chunk[4096];
    const ssize_t n = ::read(stdout_fd_, chunk, sizeof chunk);
    if (n <= 0) {
      eof_ = true;
      break;
    }
    buffered_.append(chunk, static_cast<std::size_t>(n));
    output_.append(chunk, static_cast<std::size_t>(n));
  }
  const auto end = buffered_.find('\n');
  std::string line = buffered_.substr(0, end);
  buffered_.erase(0, end == std::string::npos ? buffered_.size() : end + 1);
  return line;
}

double ServeProcess::busy_seconds_during(int ms) const {
  // Per thread, /proc/PID/task/TID/schedstat holds the nanoseconds spent on a CPU and
  // waiting in a run queue for one: together, the time the thread was runnable. A thread
  // that spins is runnable all the time however loaded the machine is; one that waits
  // (epoll, a timer) is not.
  const auto runnable_ns = [this] {
    long long total = 0;
    for (const auto& task : std::filesystem::directory_iterator("/proc/" + std::to_string(pid_) + "/task")) {
      std::ifstream in(task.path() / "schedstat");
      long long on_cpu = 0;
      long long waiting = 0;
      if (in >> on_cpu >> waiting) total += on_cpu + waiting;
    }
    return total;
  };
  const long long before = runnable_ns();
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  return static_cast<double>(runnable_ns() - before) / 1e9;
}

int ServeProcess::wait() {
  // Reads stdout to its end: the process closes it when it exits.
  while (!eof_ && !timed_out_) read_line();
  if (timed_out_) return -1;  // still running; the destructor kills it
  int status = 0;
  if (::waitpid(pid_, &status, 0) != pid_) return -1;
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

http::response<http::string_body> send(unsigned short port, http::verb method, const std::string& target,
                                       const std::string& body,
                                       const std::vector<std::pair<std::string, std::string>>& headers) {
  net::io_context io;
  boost::beast::tcp_stream stream = connect(io, port);
  http::request<http::string_body> request{method, target, 11};
  request.set(http::field::host, "127.0.0.1");
  for (const auto& [name, value] : headers) request.set(name, value);
  if (!body.empty()) {
    // JSON unless the test names another type.
    if (request.find(http::field::content_type) == request.end()) {
      request.set(http::field::content_type, "application/json");
    }
    request.body() = body;
  }
  request.prepare_payload();
  boost::beast::flat_buffer buffer;
  http::response<http::string_body> response;
  boost::system::error_code result;
  stream.expires_after(std::chrono::milliseconds(kTimeoutMs));
  http::async_write(stream, request, [&](boost::system::error_code error, std::size_t) {
    if (error) {
      result = error;
      return;
    }
    http::async_read(stream, buffer, response, [&](boost::system::error_code e, std::size_t) { result = e; });
  });
  io.run();
  if (result) throw boost::system::system_error(result);
  return response;
}

namespace {

// One timed exchange on `io`, started after `delay`.
class TimedExchange {
 public:
  TimedExchange(net::io_context& io, unsigned short port, const std::string& target, const std::string& body)
      : stream_(connect(io, port)), timer_(io) {
    request_ = {http::verb::post, target, 11};
    request_.set(http::field::host, "127.0.0.1");
    request_.set(http::field::content_type, "application/json");
    request_.body() = body;
    request_.prepare_payload();
    parser_.body_limit(boost::none);
  }
  void start(std::chrono::milliseconds delay) {
    timer_.expires_after(delay);
    timer_.async_wait([this](boost::system::error_code) {
      stream_.expires_after(std::chrono::milliseconds(kTimeoutMs));
      http::async_write(stream_, request_, [this](boost::system::error_code e, std::size_t) {
        sent_ = Clock::now();
        if (e) return fail(e);
        http::async_read_header(stream_, buffer_, parser_, [this](boost::system::error_code e2, std::size_t) {
          timed_.head_s = since_sent();
          if (e2) return fail(e2);
          http::async_read(stream_, buffer_, parser_, [this](boost::system::error_code e3, std::size_t) {
            timed_.end_s = since_sent();
            if (e3) return fail(e3);
          });
        });
      });
    });
  }
  TimedResponse take() {
    if (error_) throw boost::system::system_error(error_);
    timed_.response = parser_.release();
    return std::move(timed_);
  }

 private:
  using Clock = std::chrono::steady_clock;
  double since_sent() const { return std::chrono::duration<double>(Clock::now() - sent_).count(); }
  void fail(boost::system::error_code e) { error_ = e; }

  boost::beast::tcp_stream stream_;
  net::steady_timer timer_;
  http::request<http::string_body> request_;
  boost::beast::flat_buffer buffer_;
  http::response_parser<http::string_body> parser_;
  Clock::time_point sent_;
  TimedResponse timed_;
  boost::system::error_code error_;
};

}  // namespace

std::vector<TimedResponse> send_timed(unsigned short port, const std::string& target, const std::string& body,
                                      int count, int gap_ms) {
  net::io_context io;
  std::vector<std::unique_ptr<TimedExchange>> exchanges;
  for (int i = 0; i < count; ++i) {
    exchanges.push_back(std::make_unique<TimedExchange>(io, port, target, body));
    exchanges.back()->start(std::chrono::milliseconds(i * gap_ms));
  }
  io.run();
  std::vector<TimedResponse> out;
  for (auto& exchange : exchanges) out.push_back(exchange->take());
  return out;
}

long long unix_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

int stop(ServeProcess& server) {
  const auto response = send(server.port(), http::verb::post, "/squall/v1/stop");
  EXPECT_EQ(response.result_int(), 200);
  EXPECT_EQ(response.body(), R"({"stopping":true})");
  return server.wait();
}

std::string temp_path(const std::string& name) {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
}

std::string send_raw(unsigned short port, const std::string& bytes) {
  net::io_context io;
  boost::beast::tcp_stream stream = connect(io, port);
  std::string out;
  std::array<char, 4096> chunk;
  std::function<void()> read_more = [&] {
    stream.async_read_some(net::buffer(chunk), [&](boost::system::error_code error, std::size_t n) {
      out.append(chunk.data(), n);
      if (!error) read_more();
    });
  };
  // Reads while it writes: a server may answer (413) before it has read the whole request.
  read_more();
  net::async_write(stream, net::buffer(bytes), [](boost::system::error_code, std::size_t) {});
  io.run();
  return out;
}

struct RawConnection::State {
  net::io_context io;
  boost::beast::tcp_stream stream{io};
  // Runs the operation started on `stream` to its end.
  void run() {
    io.restart();
    io.run();
  }
};

RawConnection::RawConnection(unsigned short port) : state_(std::make_unique<State>()) {
  state_->stream.expires_after(std::chrono::milliseconds(kTimeoutMs));
  state_->stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
}

RawConnection::~RawConnection() { close(); }

bool RawConnection::write(const std::string& bytes) {
  if (closed_) return false;
  boost::system::error_code result;
  state_->stream.expires_after(std::chrono::milliseconds(kTimeoutMs));
  net::async_write(state_->stream, net::buffer(bytes), [&](boost::system::error_code e, std::size_t) { result = e; });
  state_->run();
  return !result;
}

std::size_t RawConnection::trickle(const std::string& bytes, int gap_ms) {
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (!write(bytes.substr(i, 1))) return i;
    std::this_thread::sleep_for(std::chrono::milliseconds(gap_ms));
  }
  return bytes.size();
}

bool RawConnection::read_some() {
  if (closed_) return false;
  std::array<char, 4096> chunk;
  boost::system::error_code result;
  std::size_t n = 0;
  state_->stream.expires_after(std::chrono::milliseconds(kTimeoutMs));
  state_->stream.async_read_some(net::buffer(chunk), [&](boost::system::error_code e, std::size_t k) {
    result = e;
    n = k;
  });
  state_->run();
  received_.append(chunk.data(), n);
  if (result == boost::beast::error::timeout) return false;  // gave up; the server has not closed
  if (result) closed_ = true;                                // end of stream or reset
  return !result;
}

const std::string& RawConnection::read_until(const std::string& text) {
  while (received_.find(text) == std::string::npos && read_some()) {
  }
  return received_;
}

const std::string& RawConnection::read_to_close() {
  const auto start = std::chrono::steady_clock::now();
  while (read_some()) {
  }
  waited_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return received_;
}

void RawConnection::finish_sending() {
  boost::system::error_code ignored;
  state_->stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
}

void RawConnection::close() {
  boost::system::error_code ignored;
  state_->stream.socket().close(ignored);
  closed_ = true;
}

}  // namespace squall::live::testing
