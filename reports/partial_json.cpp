#include "reports/partial_json.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "engine/text.hpp"
#include "reports/compare.hpp"

namespace squall::partial_json {

[[noreturn]] void bad(const std::string& file, const std::string& what) {
  throw std::runtime_error(fmt::format("{}: {}", file, what));
}

// A value as a message shows it: compact JSON, at most 40 characters.
std::string shown(const Json& v) {
  std::string text = v.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

// `pointer: expected ..., got ...` for a value of a partial file.
[[noreturn]] void bad_value(const std::string& file, const std::string& pointer, std::string_view expected,
                            const Json* found) {
  bad(file, fmt::format("{}: expected {}, got {}", pointer, expected, found != nullptr ? shown(*found) : "nothing"));
}

const Json* member(const Json& object, const char* key) {
  return object.is_object() && object.contains(key) ? &object[key] : nullptr;
}

// The unsigned integer at object[key] within [low, high], or an error naming its pointer.
std::uint64_t unsigned_at(const std::string& file, const Json& object, const std::string& pointer, const char* key,
                          std::uint64_t low, std::uint64_t high) {
  const Json* v = member(object, key);
  const std::string at = pointer + "/" + key;
  if (v == nullptr || !v->is_number_unsigned() || v->get<std::uint64_t>() < low || v->get<std::uint64_t>() > high) {
    bad_value(file, at, fmt::format("an integer in [{}, {}]", low, high), v);
  }
  return v->get<std::uint64_t>();
}

// The JSON Pointer of member `key` of the object at `pointer`, the key escaped as RFC 6901
// says (~ as ~0, / as ~1).
std::string member_pointer(const std::string& pointer, const std::string& key) {
  std::string escaped;
  for (const char c : key) escaped += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return pointer + "/" + escaped;
}

// Every key of `object` is one of `known`: an unknown key is an error, not ignored (a
// partial is squall's own output, so anything else was added by hand or by another tool).
void only_keys(const std::string& file, const Json& object, const std::string& pointer,
               std::initializer_list<std::string_view> known) {
  for (const auto& [key, value] : object.items()) {
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      bad(file, fmt::format("{}: unknown key \"{}\" (expected one of {})", member_pointer(pointer, key), key,
                            fmt::join(known, ", ")));
    }
  }
}

// The string `v` (null when absent) at `at` by `rule`, or an error naming its pointer.
std::string text_at(const std::string& file, const Json* v, const std::string& at, Text rule) {
  if (v == nullptr || !v->is_string() || (rule != Text::description && v->get_ref<const std::string&>().empty())) {
    bad_value(file, at, rule == Text::description ? "a string" : "a non-empty string", v);
  }
  const std::string& text = v->get_ref<const std::string&>();
  if (rule == Text::path) return text;
  if (const auto problem = printable_problem(text, rule == Text::description)) bad(file, at + ": " + *problem);
  return text;
}

// The string at object[key] by `rule`, or an error naming its pointer.
std::string string_at(const std::string& file, const Json& object, const std::string& pointer, const char* key,
                      Text rule) {
  return text_at(file, member(object, key), pointer + "/" + key, rule);
}

// A digest as squall writes them: 16 lowercase hex digits.
std::string digest_at(const std::string& file, const Json& object, const std::string& pointer, const char* key) {
  const Json* v = member(object, key);
  const bool ok = v != nullptr && v->is_string() && v->get_ref<const std::string&>().size() == 16 &&
                  v->get_ref<const std::string&>().find_first_not_of("0123456789abcdef") == std::string::npos;
  if (!ok) bad_value(file, pointer + "/" + key, "a digest of 16 lowercase hex digits", v);
  return v->get<std::string>();
}

// The array at object[key] with `min` to `max` items, or an error naming its pointer.
const Json& array_at(const std::string& file, const Json& object, const std::string& pointer, const char* key,
                     std::size_t min, std::size_t max) {
  const Json* v = member(object, key);
  if (v == nullptr || !v->is_array() || v->size() < min || v->size() > max) {
    bad_value(file, pointer + "/" + key, fmt::format("an array of {} to {} items", min, max), v);
  }
  return *v;
}

// A metric name at `pointer`: a headline metric (reports/compare.hpp), and, with `among`,
// one of those.
std::string metric_at(const std::string& file, const Json& v, const std::string& pointer,
                      const std::vector<std::string>* among) {
  const auto& names = among != nullptr ? *among : headline_metric_names();
  if (!v.is_string() || std::find(names.begin(), names.end(), v.get_ref<const std::string&>()) == names.end()) {
    bad_value(file, pointer, among != nullptr ? "one of the sweep's metrics" : "a headline metric's name", &v);
  }
  return v.get<std::string>();
}

}  // namespace squall::partial_json
