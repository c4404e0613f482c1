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
// The same with the raw bytes given, for malformed requests; the response's raw bytes.
std::string send_raw(unsigned short port, const std::string& bytes);

}  // namespace squall::live::testing
