// Size limits of production code (the project's charter): no file over 400 lines, no
// function over 60. Production is engine/, sim/, mocks/, reports/, cli/, and replay/ and
// live/ once they exist. Offenders that predate the rule are listed in
// tests/source/size_allowlist.txt with their current size; the list may only shrink. The
// test fails when a listed offender grows, when an unlisted offender appears, and when a
// listed entry is within its limit or gone (so its line is deleted, and cannot return).
//
// Function extents come from universal-ctags (Debian's universal-ctags, which
// scripts/setup.sh installs): its C++ parser knows templates, raw strings and lambdas, and
// `--fields=+ne` gives each definition's first and last line. A function's size counts
// from the line its definition starts on to the line of its closing brace, both included.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

constexpr int kMaxFileLines = 400;
constexpr int kMaxFunctionLines = 60;
const char* const kProductionDirs[] = {"engine", "sim", "mocks", "reports", "cli", "replay", "live"};

// What is over its limit: "file <path>" or "function <path> <scope::name>", to its lines.
// Overloads with the same name in one file are told apart by "#2", "#3" in file order.
using Sizes = std::map<std::string, int>;

bool is_cpp(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".cpp" || ext == ".hpp" || ext == ".h" || ext == ".cc";
}

std::vector<std::string> production_dirs() {
  std::vector<std::string> dirs;
  for (const char* dir : kProductionDirs) {
    if (fs::is_directory(fs::path(SQUALL_SOURCE_DIR) / dir)) dirs.emplace_back(dir);
  }
  return dirs;
}

int count_lines(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  int lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  return lines;
}

Sizes oversized_files() {
  Sizes found;
  for (const std::string& dir : production_dirs()) {
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(SQUALL_SOURCE_DIR) / dir)) {
      if (!entry.is_regular_file() || !is_cpp(entry.path())) continue;
      const int lines = count_lines(entry.path());
      if (lines > kMaxFileLines) {
        found["file " + fs::relative(entry.path(), SQUALL_SOURCE_DIR).generic_string()] = lines;
      }
    }
  }
  return found;
}

// The value of ctags' field `name:` on a tag line, or "".
std::string field(const std::string& tag_line, const std::string& name) {
  const std::string key = "\t" + name + ":";
  const std::size_t at = tag_line.find(key);
  if (at == std::string::npos) return "";
  const std::size_t start = at + key.size();
  return tag_line.substr(start, tag_line.find('\t', start) - start);
}

// Runs ctags over the production folders; fails the test when it cannot.
std::string ctags_output() {
  std::string command = std::string("cd '") + SQUALL_SOURCE_DIR + "' && '" + SQUALL_CTAGS +
                        "' -R --sort=no --languages=C++ --langmap=C++:+.h --kinds-C++=f --fields=+neZ --extras=-F -o -";
  for (const std::string& dir : production_dirs()) command += " " + dir;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return "";
  std::string out;
  char buffer[65536];
  while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe.get())) out.append(buffer, n);
  EXPECT_EQ(pclose(pipe.release()), 0) << "ctags failed: " << command;
  return out;
}

Sizes oversized_functions() {
  Sizes found;
  std::map<std::string, int> seen;  // overloads per key
  std::istringstream tags(ctags_output());
  int functions = 0;
  for (std::string line; std::getline(tags, line);) {
    const std::size_t tab1 = line.find('\t');
    const std::size_t tab2 = line.find('\t', tab1 + 1);
    const std::string name = line.substr(0, tab1);
    const std::string path = line.substr(tab1 + 1, tab2 - tab1 - 1);
    const std::string first = field(line, "line");
    const std::string last = field(line, "end");
    EXPECT_FALSE(first.empty() || last.empty())
        << "ctags gave no line range for " << name << " in " << path << ": universal-ctags is needed";
    if (first.empty() || last.empty()) continue;
    ++functions;
    std::string scope = field(line, "scope");
    scope = scope.substr(scope.find(':') + 1);  // "class:squall::World" -> "squall::World"
    // ctags names an anonymous namespace by a hash of its place: "__anon4238fe310211".
    static const std::regex kAnonymous("__anon[0-9a-f]+");
    scope = std::regex_replace(scope, kAnonymous, "(anonymous)");
    std::string key = "function " + path + " " + (scope.empty() ? "" : scope + "::") + name;
    if (const int n = ++seen[key]; n > 1) {
      key += '#';  // appended apart: GCC 12 at -O3 warns on "#" + std::to_string(n) (-Wrestrict)
      key += std::to_string(n);
    }
    const int lines = std::stoi(last) - std::stoi(first) + 1;
    if (lines > kMaxFunctionLines) found[key] = lines;
  }
  // A tool that finds nothing would pass everything.
  EXPECT_GT(functions, 1000) << "ctags found only " << functions << " functions";
  return found;
}

Sizes allowlist() {
  Sizes listed;
  std::ifstream in(std::string(SQUALL_SOURCE_DIR) + "/tests/source/size_allowlist.txt");
  EXPECT_TRUE(in) << "tests/source/size_allowlist.txt is missing";
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    const std::size_t space = line.rfind(' ');
    const std::string key = line.substr(0, space);
    const int lines = space == std::string::npos ? 0 : std::atoi(line.c_str() + space + 1);
    EXPECT_GT(lines, 0) << "size_allowlist.txt:" << number << ": expected \"<entry> <lines>\", found \"" << line
                        << "\"";
    EXPECT_TRUE(listed.emplace(key, lines).second) << "size_allowlist.txt:" << number << ": listed twice: " << key;
  }
  return listed;
}

TEST(SizeLimitsTest, NoProductionFileOrFunctionGrowsPastItsLimitOrItsListedSize) {
  ASSERT_STRNE(SQUALL_CTAGS, "") << "universal-ctags was not found when configuring (scripts/setup.sh installs it)";
  Sizes offenders = oversized_files();
  offenders.merge(oversized_functions());
  const Sizes listed = allowlist();
  for (const auto& [key, lines] : offenders) {
    const int limit = key.starts_with("file ") ? kMaxFileLines : kMaxFunctionLines;
    const auto it = listed.find(key);
    if (it == listed.end()) {
      ADD_FAILURE() << key << " has " << lines << " lines, over the limit of " << limit
                    << ": split it (new code may not be added to tests/source/size_allowlist.txt)";
    } else if (lines > it->second) {
      ADD_FAILURE() << key << " grew from " << it->second << " to " << lines << " lines (the limit is " << limit
                    << "; listed offenders may only shrink)";
    }
  }
  for (const auto& [key, lines] : listed) {
    if (!offenders.contains(key)) {
      ADD_FAILURE() << key << " is listed with " << lines
                    << " lines but is now within its limit or gone: delete its line from "
                       "tests/source/size_allowlist.txt";
    }
  }
}

}  // namespace
