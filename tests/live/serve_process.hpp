// ServeProcess: `squall serve` started as a child process for the live-mode tests, and
// a minimal Beast HTTP client to reach it on 127.0.0.1. Every wait is bounded by a
// generous timeout (30 s), so a broken server fails the test instead of hanging it.
#pragma once

#include <sys/types.h>

#include <boost/beast/http.hpp>
#include <string>
#include <vector>

namespace squall::live::testing {

namespace http = boost::beast::http;

class ServeProcess {
 public:
  // Starts SQUALL_BINARY serve with `args`; reads the base URL from its first line.
  explicit ServeProcess(const std::vector<std::string>& args);
  ~ServeProcess();
  const std::string& base_url() const { return base_url_; }
  unsigned short port() const { return port_; }
  // Waits for the process to exit; returns its exit code, and its stdout (all lines).
  int wait();
  const std::string& output() const { return output_; }
  // The first line when the process exited without printing one (a usage error).
  bool started() const { return port_ != 0; }

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

}  // namespace squall::live::testing
