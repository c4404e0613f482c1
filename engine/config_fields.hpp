// Field tables: each config struct declares its keys once, beside it, as gRPC's
// JsonObjectLoader<T>().Field("maxAttempts", &T::max_attempts_) does. One entry per key:
// the key, the member, how the value is written (FieldKind), its bounds, its default as a
// scenario file would write it (checked against the member initialiser, which stays the
// source, by tests/engine/config_defaults_test.cpp), its unit, a one-line doc and the
// source of the default. A table also holds the config's rules between keys: `applies`
// (may the key be written, given the keys before it), `check` (is its value consistent
// with the others) and `post_load` (rules of the whole object, gRPC's JsonPostLoad).
//
// Tables are constexpr and read nothing themselves: the scenario loader's one generic
// reader (sim/scenario/config_reader.hpp) reads any config from its table, and live mode
// can read them the same way without sim/. A table is found by ADL:
//   constexpr auto field_table(std::type_identity<RetryConfig>) { return table<RetryConfig>(...); }
// A long table is a constant beside its config, with its rules in a namespace of their
// own (engine/strategies/retry.hpp), and field_table returns it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "engine/runtime/duration.hpp"  // format_duration, for rules' messages
#include "engine/vocabulary.hpp"

namespace squall {

// An inclusive integer range; messages state both bounds, "an integer in [500, 599]".
struct IntRange {
  std::int64_t min = std::numeric_limits<std::int64_t>::min();
  std::int64_t max = std::numeric_limits<std::int64_t>::max();
};
inline constexpr IntRange kPositiveInt{1};

// Real numbers from min (exclusive or inclusive) up to an inclusive max: "a number > 0",
// "a number in [0, 1]", "a number in (0, 1000000000]".
struct NumberRange {
  double min = 0;
  bool min_exclusive = false;
  double max = std::numeric_limits<double>::infinity();
};
inline constexpr NumberRange kProbability{0, false, 1};

// Smallest accepted duration: ">= 0" or "> 0".
enum class DurationMin : std::uint8_t { zero, positive };

// How a key's value is written in a scenario file.
enum class FieldKind : std::uint8_t {
  integer,         // an integer in `ints`
  number,          // a number in `numbers`
  scaled,          // a number in `numbers`, a multiple of 1/`per` (kept as integer 1/per units)
  duration,        // a duration string, >= 0 or > 0 (`durations`)
  whole_seconds,   // a duration of whole seconds from 1s to `longest`
  boolean,         //
  text,            // a non-empty string
  choice,          // one of an enum's names (`choices`)
  choices,         // a non-empty list of distinct names of an enum
  kinds,           // a non-empty list of distinct outcome kinds other than success
  provider_kinds,  // kinds counted only for calls that reached the provider: no local refusal
  names,           // a non-empty list of distinct non-empty names (providers, tools)
  words,           // a list of non-empty strings
  shaped,          // an object or array of the config's own shape, read by its own reader
};

// What a config's rules see of the object being read: the keys written, and whether each
// was read without error (an absent key counts as read).
class Written {
 public:
  virtual bool has(std::string_view key) const = 0;
  virtual bool ok(std::string_view key) const = 0;
  // The written value when it is a string ("decorrelated"), else empty.
  virtual std::string_view text(std::string_view key) const = 0;
  // The written value as messages quote it: `"5s"`, `3`.
  virtual std::string quoted(std::string_view key) const = 0;

 protected:
  ~Written() = default;
};

// A rule's finding: nothing (the key applies, the value is consistent), an error at the key
// or at the object, or a silent skip (another key's error already says enough).
struct Finding {
  std::string message;
  bool at_object = false;
  bool silent = false;
  bool found() const { return silent || !message.empty(); }
  static Finding error(std::string message) { return Finding{std::move(message)}; }
  static Finding object_error(std::string message) { return Finding{std::move(message), true}; }
  static Finding skip() { return Finding{{}, false, true}; }
};

// A number as messages write it (fmt's "{}": 0.85, 1e+09), for rules' messages.
std::string format_number(double value);
// `"name"`, for rules' messages.
std::string quote(std::string_view name);

template <class C>
using FieldRule = Finding (*)(const C& config, const Written& written);

// Every value of an enum whose values are 0..N-1, with static storage for spans.
template <class E, std::size_t N>
inline constexpr std::array<E, N> kAllValues = all_values<E, N>();

namespace detail {
enum class NoChoice : std::uint8_t {};
template <class T>
struct ChoiceOf {
  using type = std::conditional_t<std::is_enum_v<T>, T, NoChoice>;
};
template <class E>
struct ChoiceOf<std::vector<E>> {
  using type = std::conditional_t<std::is_enum_v<E>, E, NoChoice>;
};
}  // namespace detail

// One key of config C whose member has type T.
template <class C, class T>
struct Field {
  using Config = C;
  using Value = T;
  using Choice = typename detail::ChoiceOf<T>::type;

  std::string_view key;
  T C::*member = nullptr;
  FieldKind kind = FieldKind::shaped;
  IntRange ints{};
  NumberRange numbers{};
  DurationMin durations = DurationMin::zero;
  double per = 0;                  // scaled: units per 1 (10000: a percent kept in ppm)
  std::int64_t longest = 0;        // whole_seconds: the longest, in nanoseconds
  std::span<const Choice> values;  // choice, choices: the enum's accepted values
  std::string_view note;           // scaled: who keeps the units; provider_kinds: who counts
  bool required = false;
  std::string_view default_json;  // the default as JSON text; empty: none (the key is optional)
  std::string_view unit_text;
  std::string_view doc_text;
  std::string_view source_text;  // where the default comes from
  FieldRule<C> applies = nullptr;
  FieldRule<C> check = nullptr;

  // Chained setters, so that a table reads as one declaration per key.
  constexpr Field& with_default(std::string_view json) { return default_json = json, *this; }
  constexpr Field& unit(std::string_view u) { return unit_text = u, *this; }
  constexpr Field& doc(std::string_view d) { return doc_text = d, *this; }
  constexpr Field& source(std::string_view s) { return source_text = s, *this; }
  constexpr Field& needed() { return required = true, *this; }
  constexpr Field& only_if(FieldRule<C> rule) { return applies = rule, *this; }
  constexpr Field& checked(FieldRule<C> rule) { return check = rule, *this; }
  constexpr Field& choices(std::span<const Choice> v) { return values = v, *this; }
  constexpr Field& noted(std::string_view n) { return note = n, *this; }
};

template <class C, class T>
constexpr Field<C, T> field(std::string_view key, T C::*member, FieldKind kind) {
  Field<C, T> f;
  f.key = key;
  f.member = member;
  f.kind = kind;
  return f;
}
template <class C, class T>
constexpr Field<C, T> integer(std::string_view key, T C::*member, IntRange range) {
  auto f = field(key, member, FieldKind::integer);
  f.ints = range;
  return f;
}
template <class C, class T>
constexpr Field<C, T> number(std::string_view key, T C::*member, NumberRange range) {
  auto f = field(key, member, FieldKind::number);
  f.numbers = range;
  return f;
}
template <class C, class T>
constexpr Field<C, T> scaled(std::string_view key, T C::*member, NumberRange range, double per,
                             std::string_view keeps) {
  auto f = number(key, member, range);
  f.kind = FieldKind::scaled;
  f.per = per;
  f.note = keeps;
  return f;
}
template <class C, class T>
constexpr Field<C, T> duration(std::string_view key, T C::*member, DurationMin min) {
  auto f = field(key, member, FieldKind::duration);
  f.durations = min;
  return f;
}
template <class C, class T>
constexpr Field<C, T> whole_seconds(std::string_view key, T C::*member, std::int64_t longest) {
  auto f = field(key, member, FieldKind::whole_seconds);
  f.durations = DurationMin::positive;
  f.longest = longest;
  return f;
}

// A config's table: its fields in the order the documentation lists them (the loader's
// unknown-key messages list them so), and the rules of the whole object.
template <class C, class... F>
struct FieldTable {
  std::tuple<F...> fields;
  FieldRule<C> post_load = nullptr;

  static constexpr std::size_t size() { return sizeof...(F); }
  constexpr std::array<std::string_view, sizeof...(F)> keys() const {
    return std::apply([](const auto&... f) { return std::array<std::string_view, sizeof...(F)>{f.key...}; }, fields);
  }
  constexpr FieldTable& then(FieldRule<C> rule) { return post_load = rule, *this; }
};

template <class C, class... F>
constexpr FieldTable<C, F...> table(F... fields) {
  return FieldTable<C, F...>{std::tuple<F...>{fields...}};
}

// The table of config C (found by ADL beside C).
template <class C>
constexpr auto fields_of() {
  return field_table(std::type_identity<C>{});
}

}  // namespace squall
