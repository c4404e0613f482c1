// An interrupted run (cli/interrupt.hpp) as a user or a CI runner interrupts it: the real
// binary in its own process, a real signal sent once the trace's temporary file exists
// (watched with inotify, so nothing waits on the clock), then its exit code, its one line
// on stderr and a directory with nothing left in it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/inotify.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_support.hpp"

extern char** environ;

namespace {

using namespace squall::test_support;
namespace fs = std::filesystem;

// A run of hundreds of millions of tasks: minutes on any machine, so the signal, sent as
// soon as the trace's temporary file appears, always finds it running.
fs::path endless_scenario() {
  const fs::path file = temp_path("endless.json");
  std::ofstream(file) << R"({ "name": "endless", "duration": "100h",
    "workload": { "arrivals": { "process": "constant", "rate_per_s": 1000 },
                  "tasks": [ { "name": "t", "steps": [ { "tool": "llm" } ] } ] },
    "providers": { "llm": { "type": "llm", "price_per_mtok": { "input": 1, "output": 1 } } } })";
  return file;
}

// Waits (up to a minute, for a loaded machine) until a file whose name starts with
// `prefix` is created in `dir`, watched through `inotify`.
bool wait_for_file(int inotify, const fs::path& dir, const std::string& prefix) {
  for (int round = 0; round < 600; ++round) {
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.path().filename().string().starts_with(prefix)) return true;
    }
    pollfd p{inotify, POLLIN, 0};
    if (::poll(&p, 1, 100) > 0) {
      std::array<char, 4096> events{};
      [[maybe_unused]] const ::ssize_t n = ::read(inotify, events.data(), events.size());
    }
  }
  return false;
}

struct Interrupted {
  int exit_code = -1;
  std::string err;
  std::vector<std::string> left;  // what remains in the output directory
};

// Runs `squall run <endless> --report jsonl=<dir>/trace.jsonl`, sends `signal_number`
// once the trace's temporary file exists, and reports how squall ended.
Interrupted interrupt_run(int signal_number) {
  const fs::path dir = temp_path("out");
  fs::create_directories(dir);
  const fs::path err_file = temp_path("stderr.txt");
  const int inotify = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  EXPECT_GE(inotify, 0);
  EXPECT_GE(::inotify_add_watch(inotify, dir.c_str(), IN_CREATE), 0);

  const std::string scenario = endless_scenario().string();
  const std::string report = "jsonl=" + (dir / "trace.jsonl").string();
  std::vector<std::string> args{SQUALL_BINARY, "run", "-q", scenario, "--report", report};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  ::posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  // The signals at their default disposition, whatever the test runner ignores: squall
  // leaves a signal ignored at its start ignored.
  posix_spawnattr_t attributes;
  ::posix_spawnattr_init(&attributes);
  sigset_t defaults;
  ::sigemptyset(&defaults);
  for (const int s : {SIGINT, SIGTERM, SIGHUP}) ::sigaddset(&defaults, s);
  ::posix_spawnattr_setsigdefault(&attributes, &defaults);
  ::posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  EXPECT_EQ(::posix_spawn(&pid, SQUALL_BINARY, &actions, &attributes, argv.data(), environ), 0);
  ::posix_spawn_file_actions_destroy(&actions);
  ::posix_spawnattr_destroy(&attributes);

  const bool appeared = wait_for_file(inotify, dir, ".trace.jsonl.tmp.");
  EXPECT_TRUE(appeared);
  ::close(inotify);
  ::kill(pid, appeared ? signal_number : SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  Interrupted result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  result.err = read_file(err_file);
  for (const auto& entry : fs::directory_iterator(dir)) result.left.push_back(entry.path().filename().string());
  return result;
}

TEST(InterruptTest, CtrlCRemovesTheHalfWrittenTraceAndExits130) {
  const Interrupted r = interrupt_run(SIGINT);
  EXPECT_EQ(r.exit_code, 130);
  // After the warning that so long a run takes long.
  EXPECT_EQ(last_line(r.err), "squall: interrupted by SIGINT; unfinished files removed");
  EXPECT_EQ(r.left, std::vector<std::string>{});
}

TEST(InterruptTest, SigtermRemovesTheHalfWrittenTraceAndExits143) {
  const Interrupted r = interrupt_run(SIGTERM);
  EXPECT_EQ(r.exit_code, 143);
  EXPECT_EQ(last_line(r.err), "squall: interrupted by SIGTERM; unfinished files removed");
  EXPECT_EQ(r.left, std::vector<std::string>{});
}

TEST(InterruptTest, SighupRemovesTheHalfWrittenTraceAndExits129) {
  const Interrupted r = interrupt_run(SIGHUP);
  EXPECT_EQ(r.exit_code, 129);
  EXPECT_EQ(last_line(r.err), "squall: interrupted by SIGHUP; unfinished files removed");
  EXPECT_EQ(r.left, std::vector<std::string>{});
}

}  // namespace
