#include "sim/scenario/json_reader.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "engine/runtime/duration.hpp"
#include "engine/text.hpp"

namespace squall {
namespace {

// Integers may be written with a zero fraction (3.0, 1e3) as JSON Schema allows. Every
// double of magnitude 2^53 or more is an integer, and each below 2^63 in magnitude is an
// exact int64, so those convert without loss.
std::optional<std::int64_t> as_integer(const Json& v) {
  if (v.is_number_integer()) {
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max())) {
      return std::nullopt;
    }
    return v.get<std::int64_t>();
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    constexpr double kTwoTo63 = 9223372036854775808.0;
    if (std::trunc(d) == d && d >= -kTwoTo63 && d < kTwoTo63) return static_cast<std::int64_t>(d);
  }
  return std::nullopt;
}

// Every integer field's message states its whole range, the upper bound included, so that
// a value rejected for being too large (such as 2^63) is not told it should be >= 1.
std::string describe_range(IntRange range) { return fmt::format("an integer in [{}, {}]", range.min, range.max); }

std::string describe_range(NumberRange range) {
  if (!std::isinf(range.max)) {
    return fmt::format("a number in {}{}, {}]", range.min_exclusive ? "(" : "[", range.min, range.max);
  }
  return fmt::format("a number {} {}", range.min_exclusive ? ">" : ">=", range.min);
}

bool in_range(double d, NumberRange range) {
  const bool above_min = range.min_exclusive ? d > range.min : d >= range.min;
  return above_min && d <= range.max;
}

}  // namespace

void Diagnostics::add(ValidationError error) {
  ++count_;
  if (errors_.size() < kMaxReportedErrors) errors_.push_back(std::move(error));
}

void Diagnostics::error(std::string path, std::string message) {
  if (!judged_.empty() && judged_.contains(path)) {
    ++count_;
    ++repeated_;
    return;
  }
  SourceMark mark;
  if (marks_ != nullptr && !path.empty()) {
    // The path itself, else its nearest ancestor with a mark (the root has none).
    std::string_view prefix = path;
    while (!prefix.empty()) {
      if (const auto it = marks_->find(std::string(prefix)); it != marks_->end()) {
        mark = it->second;
        break;
      }
      prefix = prefix.substr(0, prefix.rfind('/'));
    }
  }
  add(ValidationError{file_, std::move(path), std::move(message), mark.line, mark.column});
}

void Diagnostics::error_at(std::string path, SourceMark mark, std::string message) {
  add(ValidationError{file_, std::move(path), std::move(message), mark.line, mark.column});
}

void Diagnostics::value_error_at(std::string path, SourceMark mark, std::string message) {
  judged_.insert(path);
  error_at(std::move(path), mark, std::move(message));
}

void Diagnostics::syntax_error(std::size_t line, std::size_t column, std::string message) {
  add(ValidationError{file_, "", std::move(message), line, column});
}

std::vector<ValidationError> Diagnostics::take() {
  if (count_ - repeated_ > errors_.size()) {
    errors_.push_back(
        ValidationError{file_, "", fmt::format("{} more errors not shown", count_ - repeated_ - errors_.size())});
  }
  std::vector<ValidationError> errors = std::move(errors_);
  errors_.clear();
  count_ = 0;
  repeated_ = 0;
  judged_.clear();
  return errors;
}

std::string pointer_append(std::string_view path, std::string_view key) {
  std::string out(path);
  out += '/';
  for (const char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string pointer_append(std::string_view path, std::size_t index) { return fmt::format("{}/{}", path, index); }

std::string join(std::span<const std::string_view> items) { return fmt::format("{}", fmt::join(items, ", ")); }

std::string join_quoted(std::span<const std::string_view> items) {
  std::string out;
  for (const std::string_view item : items) {
    if (!out.empty()) out += ", ";
    out += fmt::format("\"{}\"", item);
  }
  return out;
}

std::optional<std::string> read_string(const Json& v, const std::string& path, Diagnostics& diag) {
  if (!v.is_string()) {
    diag.error(path, fmt::format("expected a string, got {}", describe(v)));
    return std::nullopt;
  }
  return v.get<std::string>();
}

std::optional<std::string> read_nonempty_string(const Json& v, const std::string& path, Diagnostics& diag) {
  if (!v.is_string() || v.get_ref<const std::string&>().empty()) {
    diag.error(path, fmt::format("expected a non-empty string, got {}", describe(v)));
    return std::nullopt;
  }
  return v.get<std::string>();
}

std::optional<bool> read_bool(const Json& v, const std::string& path, Diagnostics& diag) {
  if (!v.is_boolean()) {
    diag.error(path, fmt::format("expected true or false, got {}", describe(v)));
    return std::nullopt;
  }
  return v.get<bool>();
}

std::optional<std::int64_t> read_integer(const Json& v, const std::string& path, Diagnostics& diag, IntRange range) {
  const auto i = as_integer(v);
  if (!i || *i < range.min || *i > range.max) {
    diag.error(path, fmt::format("expected {}, got {}", describe_range(range), describe(v)));
    return std::nullopt;
  }
  return i;
}

std::optional<std::uint64_t> read_unsigned(const Json& v, const std::string& path, Diagnostics& diag) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (const auto i = as_integer(v); i && *i >= 0) return static_cast<std::uint64_t>(*i);
  if (v.is_number_float()) {
    // An integral double in [2^63, 2^64), such as 1e19, is an exact uint64.
    const double d = v.get<double>();
    constexpr double kTwoTo64 = 18446744073709551616.0;
    if (std::trunc(d) == d && d >= 0 && d < kTwoTo64) return static_cast<std::uint64_t>(d);
    // An integer literal beyond int64 and uint64 is read as a double: shown as the exact
    // integer it holds (18446744073709551616, as written), not as 1.8446744073709552e+19.
    if (std::abs(d) >= 0x1p63 && std::abs(d) < 1e300) {
      diag.error(path, fmt::format("expected an integer in [0, {}], got {:.0f}",
                                   std::numeric_limits<std::uint64_t>::max(), d));
      return std::nullopt;
    }
  }
  diag.error(path, fmt::format("expected an integer in [0, {}], got {}", std::numeric_limits<std::uint64_t>::max(),
                               describe(v)));
  return std::nullopt;
}

std::optional<double> read_number(const Json& v, const std::string& path, Diagnostics& diag, NumberRange range) {
  if (!v.is_number() || !in_range(v.get<double>(), range)) {
    diag.error(path, fmt::format("expected {}, got {}", describe_range(range), describe(v)));
    return std::nullopt;
  }
  return v.get<double>();
}

std::optional<Nanos> read_duration(const Json& v, const std::string& path, Diagnostics& diag, DurationMin min) {
  if (!v.is_string()) {
    diag.error(path, fmt::format("expected {}, got {}", duration_expectation(DurationError::malformed), describe(v)));
    return std::nullopt;
  }
  const auto parsed = parse_duration(v.get_ref<const std::string&>());
  const auto* error = std::get_if<DurationError>(&parsed);
  if (error != nullptr && *error != DurationError::too_large) {
    diag.error(path, fmt::format("expected {}, got {}", duration_expectation(*error), describe(v)));
    return std::nullopt;
  }
  if (error != nullptr || std::get<Nanos>(parsed) > kLongestScenarioDuration) {
    diag.error(path, fmt::format("expected {}, got {}", longest_duration_expectation(), describe(v)));
    return std::nullopt;
  }
  const Nanos d = std::get<Nanos>(parsed);
  if (min == DurationMin::positive && d == 0) {
    diag.error(path, fmt::format("expected a duration > 0, got {}", describe(v)));
    return std::nullopt;
  }
  return d;
}

std::optional<std::size_t> read_choice(const Json& v, const std::string& path, Diagnostics& diag,
                                       std::span<const std::string_view> names) {
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (names[i] == s) return i;
    }
  }
  diag.error(path, fmt::format("expected one of {}, got {}", join_quoted(names), describe(v)));
  return std::nullopt;
}

bool check_name(std::string_view name, std::string_view what, const std::string& path, Diagnostics& diag) {
  const bool ok = !name.empty() && std::all_of(name.begin(), name.end(), is_name_char);
  if (!ok) {
    diag.error(path, fmt::format("expected a {} of ASCII letters, digits, '.', '_' and '-', got {}", what,
                                 describe(Json(name))));
  }
  return ok;
}

bool check_printable(std::string_view text, const std::string& path, Diagnostics& diag, AllowedControls allowed) {
  if (auto problem = printable_problem(text, allowed == AllowedControls::newline_and_tab)) {
    diag.error(path, std::move(*problem));
    return false;
  }
  return true;
}

ObjectReader::ObjectReader(const Json& value, std::string path, Diagnostics& diag,
                           std::span<const std::string_view> keys)
    : path_(std::move(path)), diag_(&diag) {
  if (!value.is_object()) {
    diag.error(path_, fmt::format("expected an object, got {}", describe(value)));
    return;
  }
  object_ = &value;
  for (const auto& [key, member] : value.items()) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      diag.error(path_of(key), fmt::format("unknown key \"{}\"; expected one of: {}", key, join(keys)));
    }
  }
}

const Json* ObjectReader::find(std::string_view key) const {
  if (object_ == nullptr) return nullptr;
  const auto it = object_->find(key);
  return it == object_->end() ? nullptr : &*it;
}

const Json* ObjectReader::require(std::string_view key) const {
  const Json* v = find(key);
  if (v == nullptr && object_ != nullptr) diag_->error(path_, fmt::format("missing required key \"{}\"", key));
  return v;
}

bool ObjectReader::get(std::string_view key, std::string& out) const {
  const Json* v = find(key);
  if (v == nullptr) return false;
  auto s = read_string(*v, path_of(key), *diag_);
  if (s) out = std::move(*s);
  return s.has_value();
}

bool ObjectReader::get_nonempty(std::string_view key, std::string& out) const {
  const Json* v = find(key);
  if (v == nullptr) return false;
  auto s = read_nonempty_string(*v, path_of(key), *diag_);
  if (s) out = std::move(*s);
  return s.has_value();
}

bool ObjectReader::get(std::string_view key, bool& out) const {
  const Json* v = find(key);
  if (v == nullptr) return false;
  const auto b = read_bool(*v, path_of(key), *diag_);
  if (b) out = *b;
  return b.has_value();
}

bool ObjectReader::get(std::string_view key, double& out, NumberRange range) const {
  const Json* v = find(key);
  if (v == nullptr) return false;
  const auto d = read_number(*v, path_of(key), *diag_, range);
  if (d) out = *d;
  return d.has_value();
}

bool ObjectReader::get(std::string_view key, std::int64_t& out, IntRange range) const {
  const Json* v = find(key);
  if (v == nullptr) return false;
  const auto i = read_integer(*v, path_of(key), *diag_, range);
  if (i) out = *i;
  return i.has_value();
}

bool ObjectReader::get(std::string_view key, std::int32_t& out, IntRange range) const {
  range.min = std::max<std::int64_t>(range.min, std::numeric_limits<std::int32_t>::min());
  range.max = std::min<std::int64_t>(range.max, std::numeric_limits<std::int32_t>::max());
  std::int64_t wide = 0;
  if (!get(key, wide, range)) return false;
  out = static_cast<std::int32_t>(wide);
  return true;
}

bool ObjectReader::get_duration(std::string_view key, Nanos& out, DurationMin min) const {
  const Json* v = find(key);
  if (v == nullptr) return false;
  const auto d = read_duration(*v, path_of(key), *diag_, min);
  if (d) out = *d;
  return d.has_value();
}

bool ObjectReader::get_duration_required(std::string_view key, Nanos& out, DurationMin min) const {
  if (require(key) == nullptr) return false;
  return get_duration(key, out, min);
}

bool ObjectReader::get_number_required(std::string_view key, double& out, NumberRange range) const {
  if (require(key) == nullptr) return false;
  return get(key, out, range);
}

std::span<const Json> read_array(const Json& v, const std::string& path, Diagnostics& diag, bool nonempty) {
  if (!v.is_array() || (nonempty && v.empty())) {
    diag.error(path, fmt::format("expected {}, got {}", nonempty ? "a non-empty array" : "an array", describe(v)));
    return {};
  }
  const auto& elements = v.get_ref<const Json::array_t&>();
  return {elements.data(), elements.size()};
}

}  // namespace squall
