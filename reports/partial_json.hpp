// Checked reads of squall's own JSON files that `squall merge` reads back (a sweep's partial
// results, reports/sweep_json.hpp): every value is checked before it is used, and a value
// that is not what squall writes throws std::runtime_error naming the file, the JSON
// Pointer, what was expected and what was found ("b.json: /runs/0/seed: expected one of
// the sweep's seeds (100..105), got 12345"). A value is shown as compact JSON of at most 40
// characters.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace squall::partial_json {

using Json = nlohmann::ordered_json;

[[noreturn]] void bad(const std::string& file, const std::string& what);
// A value as a message shows it.
std::string shown(const Json& v);
// `pointer: expected ..., got ...`; `found` null: "got nothing".
[[noreturn]] void bad_value(const std::string& file, const std::string& pointer, std::string_view expected,
                            const Json* found);
// object[key], or null when absent or `object` is not an object.
const Json* member(const Json& object, const char* key);
// The unsigned integer at object[key] within [low, high].
std::uint64_t unsigned_at(const std::string& file, const Json& object, const std::string& pointer, const char* key,
                          std::uint64_t low, std::uint64_t high);
// The JSON Pointer of member `key` below `pointer` (RFC 6901: ~ as ~0, / as ~1).
std::string member_pointer(const std::string& pointer, const std::string& key);
// Every key of `object` is one of `known`: an unknown key is an error, not ignored (these
// files are squall's own output, so anything else was added by hand or by another tool).
void only_keys(const std::string& file, const Json& object, const std::string& pointer,
               std::initializer_list<std::string_view> known);

// What a string may hold, as the sweep loader allows it (sim/sweep/sweep_spec.cpp): names
// are printed in tables and on the terminal, so they are not empty and hold no control
// character (engine/text.hpp); a description may hold newlines and tabs; a path may be
// anything but empty.
enum class Text : std::uint8_t { name, description, path };
// The string `v` (null when absent) at `at` by `rule`.
std::string text_at(const std::string& file, const Json* v, const std::string& at, Text rule);
// The string at object[key] by `rule`.
std::string string_at(const std::string& file, const Json& object, const std::string& pointer, const char* key,
                      Text rule);
// A digest as squall writes them: 16 lowercase hex digits.
std::string digest_at(const std::string& file, const Json& object, const std::string& pointer, const char* key);
// The array at object[key] with `min` to `max` items.
const Json& array_at(const std::string& file, const Json& object, const std::string& pointer, const char* key,
                     std::size_t min, std::size_t max);
// A headline metric's name (reports/compare.hpp) at `pointer`, and, with `among`, one of those.
std::string metric_at(const std::string& file, const Json& v, const std::string& pointer,
                      const std::vector<std::string>* among);

}  // namespace squall::partial_json
