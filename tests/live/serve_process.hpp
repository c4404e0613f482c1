// ServeProcess: `squall serve` started as a child process for the live-mode tests, and
// a minimal Beast HTTP client to reach it on 127.0.0.1. Every wait is bounded by a
// generous timeout (30 s), so a broken server fails the test instead of hanging it.
#pragma once

#include <sys/types.h>

#include <boost/beast/http.hpp>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace squall::live::testing {

namespace http = boost::beast::http;

class ServeProcess {
 public:
  // Starts SQUALL_BINARY serve with `args`; reads the base URL from its first line. With
  // `max_open_files` > 0 the process may open at most that many files (`ulimit -n`).
  explicit ServeProcess(const std::vector<std::string>& args, int max_open_files = 0);
  ~ServeProcess();
  const std::string& base_url() const { return base_url_; }
  unsigned short port() const { return port_; }
  // Waits for the process to exit; returns its exit code, and its stdout (all lines).
  int wait();
  const std::string& output() const { return output_; }
  // The first line when the process exited without printing one (a usage error).
  bool started() const { return port_ != 0; }
  // The seconds the process's threads were runnable (on a CPU, or waiting in a run queue
  // for one) in the next `ms` milliseconds of wall-clock time: about 0 for a server that
  // waits, about ms / 1000 for one that spins, however busy the machine is.
  double busy_seconds_during(int ms) const;

 private:
  std::string read_line();
  pid_t pid_ = -1;
  int stdout_fd_ = -1;
  std::string buffered_;
  bool eof_ = false;
  bool timed_out_ = false;
  std::string output_;
  std::string base_url_;
  unsigned short port_ = 0;
};

// One request on a new connection; the whole response (a chunked one read to its end). A
// body is sent as application/json unless `headers` name another content-type.
http::response<http::string_body> send(unsigned short port, http::verb method, const std::string& target,
                                       const std::string& body = {},
                                       const std::vector<std::pair<std::string, std::string>>& headers = {});
// A response with when its parts arrived, counted from when the request was written.
struct TimedResponse {
  http::response<http::string_body> response;
  double head_s = 0;  // the status line and headers
  double end_s = 0;   // the whole body
};
// `count` POSTs of `body`, each on its own connection, the i-th sent i * gap_ms after the
// first (all on one event loop); the responses in that order.
std::vector<TimedResponse> send_timed(unsigned short port, const std::string& target, const std::string& body,
                                      int count = 1, int gap_ms = 0);
// The wall clock's now, in nanoseconds since the Unix epoch.
long long unix_now_ns();
// POST /squall/v1/stop, then the exit code.
int stop(ServeProcess& server);
// `name` in $TMPDIR (ctest gives each run its own).
std::string temp_path(const std::string& name);
// The same with the raw bytes given, for malformed requests; the response's raw bytes.
std::string send_raw(unsigned short port, const std::string& bytes);

// A connection to 127.0.0.1:port that a test drives byte by byte, as a hostile or broken
// client would: it writes what it is told, reads what the server sends, and sees when the
// server closes. Every wait gives up after 30 s (the connection then counts as open).
class RawConnection {
 public:
  explicit RawConnection(unsigned short port);
  ~RawConnection();
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;
  // Writes all of `bytes`; false when the server has closed the connection.
  bool write(const std::string& bytes);
  // Writes `bytes` one at a time, `gap_ms` apart, until all are written or the server
  // closes; the number written.
  std::size_t trickle(const std::string& bytes, int gap_ms);
  // Reads until what was received contains `text` (or the server closes); all received.
  const std::string& read_until(const std::string& text);
  // Reads until the server closes the connection; all received. closed() says whether it
  // did within 30 s.
  const std::string& read_to_close();
  // The seconds read_to_close() waited, from its call to the close.
  double waited_s() const { return waited_s_; }
  bool closed() const { return closed_; }
  // Ends what this side sends (a TCP half-close); the server's answers can still be read.
  void finish_sending();
  // Closes this side at once (the client disconnects).
  void close();

 private:
  bool read_some();
  struct State;
  std::unique_ptr<State> state_;
  std::string received_;
  bool closed_ = false;
  double waited_s_ = 0;
};

}  // namespace squall::live::testing
