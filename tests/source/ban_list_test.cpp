// The ban-list (DESIGN section 3): wall clocks, real sleeps and the standard library's
// random facilities appear nowhere outside cli/. Their output differs between machines and
// standard libraries, so one use would make reports irreproducible. Comments and string
// literals are stripped first, so documentation may name what it bans.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

// Code with comments, string literals and character literals blanked out (newlines kept,
// so reported line numbers stay right).
std::string strip_comments_and_literals(const std::string& src) {
  std::string out;
  out.reserve(src.size());
  enum class Mode { code, line_comment, block_comment, string, character } mode = Mode::code;
  for (std::size_t i = 0; i < src.size(); ++i) {
    const char c = src[i];
    const char next = i + 1 < src.size() ? src[i + 1] : '\0';
    switch (mode) {
      case Mode::code:
        if (c == '/' && next == '/') {
          mode = Mode::line_comment;
          ++i;
        } else if (c == '/' && next == '*') {
          mode = Mode::block_comment;
          ++i;
        } else if (c == '"') {
          mode = Mode::string;
        } else if (c == '\'' && !(i > 0 && std::isxdigit(static_cast<unsigned char>(src[i - 1])))) {
          mode = Mode::character;  // a quote after a digit is a digit separator (1'000)
        } else {
          out += c;
        }
        break;
      case Mode::line_comment:
        if (c == '\n') {
          mode = Mode::code;
          out += c;
        }
        break;
      case Mode::block_comment:
        if (c == '*' && next == '/') {
          mode = Mode::code;
          ++i;
        } else if (c == '\n') {
          out += c;
        }
        break;
      case Mode::string:
      case Mode::character:
        if (c == '\\') {
          ++i;
        } else if ((mode == Mode::string && c == '"') || (mode == Mode::character && c == '\'')) {
          mode = Mode::code;
        } else if (c == '\n') {
          out += c;
        }
        break;
    }
  }
  return out;
}

struct Ban {
  std::regex pattern;
  const char* why;
};

const std::vector<Ban>& bans() {
  static const std::vector<Ban> list = {
      {std::regex(R"(\b(system_clock|steady_clock|high_resolution_clock|utc_clock|file_clock)\b)"), "wall clock"},
      {std::regex(R"(\b(gettimeofday|clock_gettime|timespec_get|localtime|gmtime)\s*\()"), "wall clock"},
      {std::regex(R"((^|[^:\w.>])time\s*\(\s*(nullptr|NULL|0)?\s*\))"), "wall clock"},
      {std::regex(R"(#\s*include\s*<(chrono|ctime|random|thread)>)"), "banned header"},
      {std::regex(R"(\bthis_thread\b)"), "real sleep"},
      {std::regex(R"(\b(usleep|nanosleep)\s*\()"), "real sleep"},
      {std::regex(R"((^|[^:\w.>])sleep\s*\()"), "real sleep"},
      {std::regex(R"(\brandom_device\b|\bmt19937|\bminstd_rand|\bdefault_random_engine\b|\branlux)"), "std random"},
      {std::regex(R"(\b\w+_distribution\s*<)"), "std random"},
      {std::regex(R"((^|[^:\w.>])s?rand\s*\()"), "std random"},
  };
  return list;
}

// Violations in `source`, as "line N: <why>: <text>".
std::vector<std::string> violations(const std::string& source) {
  std::vector<std::string> found;
  std::istringstream lines(strip_comments_and_literals(source));
  std::string line;
  for (int n = 1; std::getline(lines, line); ++n) {
    for (const Ban& ban : bans()) {
      if (std::regex_search(line, ban.pattern))
        found.push_back("line " + std::to_string(n) + ": " + ban.why + ": " + line);
    }
  }
  return found;
}

TEST(BanListTest, DetectsEveryBannedFacility) {
  // The scanner itself must be able to fail: each of these lines is banned.
  const std::vector<std::string> banned = {
      "auto t = std::chrono::system_clock::now();",
      "auto t = std::chrono::steady_clock::now();",
      "#include <random>",
      "#include <chrono>",
      "std::this_thread::sleep_for(x);",
      "usleep(10);",
      "std::random_device rd;",
      "std::mt19937 gen(1);",
      "std::uniform_int_distribution<int> d(1, 6);",
      "int r = rand();",
      "time_t t = time(nullptr);",
      "sleep(1);",
  };
  for (const std::string& line : banned) EXPECT_EQ(violations(line).size(), 1U) << line;
}

TEST(BanListTest, IgnoresCommentsStringsAndLookalikes) {
  const std::vector<std::string> allowed = {
      "// std::random_device is banned",
      "/* steady_clock */ int x = 1;",
      "const char* s = \"rand() sleep(1)\";",
      "co_await sleep_until(scheduler, t);",  // the engine's virtual sleep
      "x = rng.uniform_range(lo, hi);",
      "TimePoint time(int x);",  // a declaration named time with parameters
      "int n = 1'000'000;",
      "auto d = lognormal_median_p99(a, b);",
  };
  for (const std::string& line : allowed) EXPECT_TRUE(violations(line).empty()) << line;
}

TEST(BanListTest, NoBannedFacilityOutsideCli) {
  const fs::path root = SQUALL_SOURCE_DIR;
  std::vector<std::string> found;
  std::size_t scanned = 0;
  // Live mode's adapters to real time (docs/live.md, "Time"): its Clock and Scheduler, the
  // socket timeouts of its HTTP sessions, and those of the tests' client of it; and the
  // live-mode benchmark's load generator, which measures real latencies (bench/README.md).
  const std::vector<std::string> real_time = {"live/real_time_loop.hpp",      "live/real_time_loop.cpp",
                                              "live/http_session.hpp",        "live/http_session.cpp",
                                              "tests/live/serve_process.cpp", "bench/live/load_generator.cpp"};
  for (const char* dir : {"engine", "sim", "mocks", "reports", "bench", "tests", "live"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root / dir)) {
      const fs::path& p = entry.path();
      if (!entry.is_regular_file() || (p.extension() != ".cpp" && p.extension() != ".hpp")) continue;
      if (p.filename() == "ban_list_test.cpp") continue;  // it spells the bans out
      if (std::find(real_time.begin(), real_time.end(), fs::relative(p, root).string()) != real_time.end()) continue;
      std::ifstream in(p);
      std::stringstream text;
      text << in.rdbuf();
      ++scanned;
      for (const std::string& v : violations(text.str())) found.push_back(fs::relative(p, root).string() + ": " + v);
    }
  }
  EXPECT_GT(scanned, 20U);
  EXPECT_TRUE(found.empty()) << [&] {
    std::string all;
    for (const auto& f : found) all += f + "\n";
    return all;
  }();
}

}  // namespace
