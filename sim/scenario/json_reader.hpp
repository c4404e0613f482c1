// Reading typed values out of a parsed JSON document while collecting every error with
// its JSON Pointer path, so that one run of the loader reports all problems of a file.
//
// Readers never throw and never stop at the first error: a value that is missing, of the
// wrong type or out of range is recorded in Diagnostics and leaves the destination at its
// default. Messages say what was expected and what was found:
//   `expected a number in [0, 1], got "high"`
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "engine/config_fields.hpp"  // IntRange, NumberRange, DurationMin
#include "engine/runtime/time.hpp"
#include "mocks/strict_json.hpp"  // Json, describe()
#include "sim/scenario/validation_error.hpp"

namespace squall {

// The errors kept of one file. A file of 64 MiB could otherwise hold millions of unknown
// keys, and their messages would take gigabytes; nobody reads past the first screens.
inline constexpr std::size_t kMaxReportedErrors = 1000;

// Where the node at a JSON Pointer starts in its file: 1-based line and column. Filled by
// the YAML reader (sim/scenario/yaml_document.hpp) so that errors about YAML files name
// a line as well as a path; JSON files have none (their errors are located by path only).
struct SourceMark {
  std::size_t line = 0;
  std::size_t column = 0;
};
using SourceMarks = std::unordered_map<std::string, SourceMark>;

class Diagnostics {
 public:
  explicit Diagnostics(std::string file) : file_(std::move(file)) {}
  // Errors recorded from now on at a non-empty path get the mark of that path, or of its
  // nearest ancestor that has one (a missing key is located at its object). `marks` must
  // outlive this object's use; nullptr stops locating.
  void locate_with(const SourceMarks* marks) { marks_ = marks; }
  void error(std::string path, std::string message);
  // An error at `path` whose line and column are known (a YAML key written twice).
  void error_at(std::string path, SourceMark mark, std::string message);
  // An error about the value at `path` itself, found while parsing (a YAML 1.1 boolean, an
  // unsupported tag): the one error of that fault. Later errors at exactly `path` (the
  // loader's "expected an integer, got \"yes\"") are counted in count() but not
  // reported, so a fault gives one message, not two.
  void value_error_at(std::string path, SourceMark mark, std::string message);
  // A syntax error at a 1-based line and column.
  void syntax_error(std::size_t line, std::size_t column, std::string message);
  const std::string& file() const { return file_; }
  // Every error recorded, the ones beyond kMaxReportedErrors included, so that readers
  // can tell whether a value had errors by comparing counts.
  std::size_t count() const { return count_; }
  // The first kMaxReportedErrors errors, followed, when more were recorded, by one whole-
  // document error `<n> more errors not shown`.
  std::vector<ValidationError> take();

 private:
  void add(ValidationError error);

  std::string file_;
  const SourceMarks* marks_ = nullptr;
  std::vector<ValidationError> errors_;
  std::size_t count_ = 0;
  std::unordered_set<std::string> judged_;  // paths of value_error_at errors
  std::size_t repeated_ = 0;                // errors not reported: at a judged path
};

// JSON Pointer of a member or an element below `path` (RFC 6901: "~" -> "~0", "/" -> "~1").
std::string pointer_append(std::string_view path, std::string_view key);
std::string pointer_append(std::string_view path, std::size_t index);

// `a, b, c`, for "expected one of" lists.
std::string join(std::span<const std::string_view> items);
// `"a", "b", "c"`, for lists of accepted string values.
std::string join_quoted(std::span<const std::string_view> items);

// IntRange, NumberRange and DurationMin, the bounds of values, are the field tables' (engine/config_fields.hpp).

// Value readers: the value, or nullopt after recording why it is not acceptable.
// Integers may be written as 3 or 3.0 (JSON Schema's "integer"), not as 2.5.
std::optional<std::string> read_string(const Json& v, const std::string& path, Diagnostics& diag);
std::optional<std::string> read_nonempty_string(const Json& v, const std::string& path, Diagnostics& diag);
std::optional<bool> read_bool(const Json& v, const std::string& path, Diagnostics& diag);
std::optional<std::int64_t> read_integer(const Json& v, const std::string& path, Diagnostics& diag, IntRange range);
std::optional<std::uint64_t> read_unsigned(const Json& v, const std::string& path, Diagnostics& diag);
std::optional<double> read_number(const Json& v, const std::string& path, Diagnostics& diag, NumberRange range);
// A duration (engine/runtime/duration.hpp) of at most kLongestScenarioDuration, 100 years
// (engine/runtime/time.hpp): `expected a duration of at most 876000h (100 years), got
// "3000000h"`.
std::optional<Nanos> read_duration(const Json& v, const std::string& path, Diagnostics& diag, DurationMin min);
// The scenario-file names of enum values: each value's to_string (found by ADL), so that
// names are defined once, next to their enum.
template <class E, std::size_t N>
std::array<std::string_view, N> names_of(const std::array<E, N>& values) {
  std::array<std::string_view, N> names{};
  for (std::size_t i = 0; i < N; ++i) names[i] = to_string(values[i]);
  return names;
}

// One of `names`; returns its index.
std::optional<std::size_t> read_choice(const Json& v, const std::string& path, Diagnostics& diag,
                                       std::span<const std::string_view> names);
// A name usable in reports, stream names and k6-style tag selectors: letters, digits,
// '.', '_' and '-' (e.g. "gpt-4.1", "web_search"). `what` says whose name it is.
bool check_name(std::string_view name, std::string_view what, const std::string& path, Diagnostics& diag);

// Text that squall prints (a scenario's name and description, a model's name) must not
// hold control characters; descriptions may hold newlines and tabs. The error at `path`
// is printable_problem's (engine/text.hpp), naming the first offender and its byte:
//   `expected text without control characters, got U+001B at byte 5`
enum class AllowedControls : std::uint8_t { none, newline_and_tab };
bool check_printable(std::string_view text, const std::string& path, Diagnostics& diag,
                     AllowedControls allowed = AllowedControls::none);

// An object at `path` whose keys are fixed. Construction records an error when the value
// is not an object, and one "unknown key" error per key outside `keys` (at the key's own
// path). The getters read optional members; `require` records `missing required key`.
class ObjectReader {
 public:
  ObjectReader(const Json& value, std::string path, Diagnostics& diag, std::span<const std::string_view> keys);
  ObjectReader(const Json& value, std::string path, Diagnostics& diag, std::initializer_list<std::string_view> keys)
      : ObjectReader(value, std::move(path), diag, std::span<const std::string_view>(keys.begin(), keys.size())) {}

  bool valid() const { return object_ != nullptr; }
  const std::string& path() const { return path_; }
  std::string path_of(std::string_view key) const { return pointer_append(path_, key); }
  Diagnostics& diag() const { return *diag_; }

  // The member, or nullptr when it is absent (or this is not an object).
  const Json* find(std::string_view key) const;
  // The member; when absent and this is an object, records `missing required key "<key>"`.
  const Json* require(std::string_view key) const;

  // Each getter assigns `out` when the member is present and valid and returns whether it
  // did. The *_required forms also report a missing member.
  bool get(std::string_view key, std::string& out) const;
  bool get_nonempty(std::string_view key, std::string& out) const;
  bool get(std::string_view key, bool& out) const;
  bool get(std::string_view key, double& out, NumberRange range) const;
  bool get(std::string_view key, std::int64_t& out, IntRange range) const;
  bool get(std::string_view key, std::int32_t& out, IntRange range) const;
  bool get_duration(std::string_view key, Nanos& out, DurationMin min) const;
  bool get_duration_required(std::string_view key, Nanos& out, DurationMin min) const;
  bool get_number_required(std::string_view key, double& out, NumberRange range) const;

  // One of `names`, stored as the matching entry of `values`.
  template <class E>
  bool get_choice(std::string_view key, E& out, std::span<const std::string_view> names,
                  std::span<const E> values) const {
    const Json* v = find(key);
    if (v == nullptr) return false;
    const auto index = read_choice(*v, path_of(key), *diag_, names);
    if (index) out = values[*index];
    return index.has_value();
  }

 private:
  const Json* object_ = nullptr;
  std::string path_;
  Diagnostics* diag_;
};

// The elements of an array, or an empty span after recording `expected an array` (or, with
// nonempty, `expected a non-empty array`).
std::span<const Json> read_array(const Json& v, const std::string& path, Diagnostics& diag, bool nonempty);

// A non-empty array of distinct values from `names`, stored as the matching entries of
// `values`. A repeated value is reported at its second position:
// `duplicate "timeout" (also /policy/search/0/retry/retry_on/0)`.
template <class E>
std::optional<std::vector<E>> read_choice_list(const Json& v, const std::string& path, Diagnostics& diag,
                                               std::span<const std::string_view> names, std::span<const E> values) {
  const std::size_t errors_before = diag.count();
  std::vector<E> out;
  std::vector<std::size_t> positions;  // each accepted value's index in the array
  const auto elements = read_array(v, path, diag, /*nonempty=*/true);
  for (std::size_t i = 0; i < elements.size(); ++i) {
    const auto index = read_choice(elements[i], pointer_append(path, i), diag, names);
    if (!index) continue;
    bool repeated = false;
    for (std::size_t j = 0; j < out.size(); ++j) {
      if (out[j] == values[*index]) {
        diag.error(pointer_append(path, i), "duplicate \"" + std::string(names[*index]) + "\" (also " +
                                                pointer_append(path, positions[j]) + ")");
        repeated = true;
      }
    }
    if (repeated) continue;
    out.push_back(values[*index]);
    positions.push_back(i);
  }
  if (diag.count() != errors_before) return std::nullopt;
  return out;
}

}  // namespace squall
