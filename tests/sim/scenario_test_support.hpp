// Helpers of the scenario loader's tests: a valid base scenario to change one thing in,
// and readable failure output for ValidationError.
#pragma once

#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "sim/scenario/json_reader.hpp"
#include "sim/scenario_loader.hpp"

namespace squall {

inline void PrintTo(const ValidationError& error, std::ostream* os) { *os << to_string(error); }

namespace test {

inline std::string data_path(std::string_view name) {
  return std::string(SQUALL_SOURCE_DIR) + "/tests/sim/data/" + std::string(name);
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return std::move(text).str();
}

// The name scenarios built in memory are loaded under. It is never read; it places them
// in tests/sim/data, so that "corpus.jsonl" resolves to the test corpus.
inline const std::string kBaseFile = data_path("base.json");

// A valid scenario using both provider types, a query list, a fault and a policy for
// each provider: the smallest document in which every cross-check has something to check.
inline Json base_scenario() {
  return Json::parse(R"({
    "name": "base",
    "duration": "10m",
    "workload": {
      "tasks": [ { "name": "research",
                   "steps": [ { "tool": "search", "query_from": "companies" },
                              { "tool": "gpt", "prompt_tokens": 100 } ] } ],
      "queries": { "companies": [ "acme" ] }
    },
    "providers": {
      "search": { "type": "web_search", "corpus": "corpus.jsonl",
                  "faults": [ { "kind": "server_error", "probability": 0.1 } ] },
      "gpt": { "type": "llm" }
    },
    "policy": { "search": [ { "retry": {} } ], "gpt": [ { "timeout": {} } ] }
  })");
}

// `doc` with the value at `pointer` set (created if absent, as nlohmann does).
inline Json with(Json doc, std::string_view pointer, Json value) {
  doc[Json::json_pointer(std::string(pointer))] = std::move(value);
  return doc;
}

// The base scenario with a vector_search provider "kb" over the test corpus (two
// documents) and a third step that calls it.
inline Json base_vector() {
  Json doc = with(base_scenario(), "/providers/kb", Json{{"type", "vector_search"}, {"corpus", "corpus.jsonl"}});
  return with(doc, "/workload/tasks/0/steps/2", Json{{"tool", "kb"}, {"query_from", "companies"}});
}

// `doc` without the member or element at `pointer`.
inline Json without(Json doc, std::string_view pointer) {
  const Json::json_pointer ptr{std::string(pointer)};
  Json& parent = doc.at(ptr.parent_pointer());
  if (parent.is_array()) {
    parent.erase(static_cast<std::size_t>(std::stoul(ptr.back())));
  } else {
    parent.erase(ptr.back());
  }
  return doc;
}

// A file in the temporary directory, named after the running test and `suffix`, holding
// `content`; removed when it goes out of scope.
class TempFile {
 public:
  TempFile(std::string_view suffix, std::string_view content) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            (std::string("squall_") + info->test_suite_name() + "_" + info->name() + std::string(suffix));
    std::ofstream(path_, std::ios::binary) << content;
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    std::error_code ec;
    std::filesystem::remove(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }
  std::string string() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

inline std::vector<ValidationError> errors_of(const Json& doc) {
  return load_scenario_text(doc.dump(), kBaseFile).errors;
}

// The one error expected of a document built on base_scenario().
inline std::vector<ValidationError> only(std::string path, std::string message) {
  return {ValidationError{kBaseFile, std::move(path), std::move(message)}};
}

}  // namespace test
}  // namespace squall
