// Running the squall binary from the CLI tests: its exit code, stdout and stderr.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace squall::test_support {

namespace fs = std::filesystem;

struct Result {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `[env] squall <args>` from directory `dir`, capturing stdout and stderr apart.
// `env` holds variable assignments such as "NO_COLOR=1 ". $GITHUB_STEP_SUMMARY is removed
// first, so that tests run inside GitHub Actions do not append to the job's summary.
inline Result squall_in(const fs::path& dir_to_run_in, const std::string& args, const std::string& env = "") {
  const fs::path dir = fs::temp_directory_path() / "squall_cli_test";
  fs::create_directories(dir);
  // ctest runs tests in parallel processes: each call gets its own stderr file.
  static int calls = 0;
  const fs::path err_file = dir / (std::string(testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
                                   std::to_string(++calls) + ".stderr");
  const std::string cmd = "cd '" + dir_to_run_in.string() + "' && env -u GITHUB_STEP_SUMMARY " + env + SQUALL_BINARY +
                          " " + args + " 2>" + err_file.string();
  Result r;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (pipe == nullptr) return r;
  char buf[4096];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) r.out.append(buf, n);
  const int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = read_file(err_file);
  return r;
}

// squall_in the source directory.
inline Result squall(const std::string& args, const std::string& env = "") {
  return squall_in(SQUALL_SOURCE_DIR, args, env);
}

inline std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

inline std::string last_line(const std::string& s) {
  const std::string trimmed = s.substr(0, s.find_last_not_of('\n') + 1);
  return trimmed.substr(trimmed.rfind('\n') + 1);
}

// A fresh path in the tests' temporary directory (removed if it exists), in a directory
// of the running test's own: ctest runs the tests of one binary as parallel processes, and
// two tests writing, removing and reading one shared file name raced.
inline fs::path temp_dir() {
  const fs::path dir =
      fs::temp_directory_path() / "squall_cli_test" / testing::UnitTest::GetInstance()->current_test_info()->name();
  fs::create_directories(dir);
  return dir;
}
inline fs::path temp_path(const std::string& name) {
  const fs::path dir = temp_dir();
  fs::remove_all(dir / name);
  return dir / name;
}
// temp_path(name) as a new empty directory.
inline fs::path fresh_dir(const std::string& name) {
  const fs::path dir = temp_path(name);
  fs::create_directories(dir);
  return dir;
}

// The quickstart (seed 42) with its `thresholds` block replaced and its name set to
// `scenario_name`, written as `file_stem`.json into temp_path(dir), its corpus path made
// absolute since the copy lives elsewhere.
inline fs::path quickstart_with_thresholds(const std::string& dir_name, const std::string& file_stem,
                                           const std::string& thresholds,
                                           const std::string& scenario_name = "quickstart") {
  std::string text = read_file(fs::path(SQUALL_SOURCE_DIR) / "scenarios/quickstart.json");
  const auto replace = [&](const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
  };
  replace("\"corpora/crm.jsonl\"", std::string("\"") + SQUALL_SOURCE_DIR + "/scenarios/corpora/crm.jsonl\"");
  replace("\"name\": \"quickstart\"", "\"name\": \"" + scenario_name + "\"");
  const std::size_t from = text.find("\"thresholds\"");
  const std::size_t to = text.rfind('}');
  text.replace(from, to - from, "\"thresholds\": " + thresholds + "\n");
  const fs::path dir = temp_path(dir_name);
  fs::create_directories(dir);
  std::ofstream(dir / (file_stem + ".json")) << text;
  return dir / (file_stem + ".json");
}

}  // namespace squall::test_support
