// The one generic reader of configs: reads a config object from its field table
// (engine/config_fields.hpp), collecting every error by JSON Pointer as the other readers
// do. Keys are read in the table's order; before a written key is read, its `applies`
// rule may refuse it; after it is read, its `check` rule may find it inconsistent; after
// all keys, the table's `post_load` rule judges the whole object. Unknown keys are errors
// listing the table's keys.
#pragma once

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "engine/config_fields.hpp"
#include "sim/scenario/config_values.hpp"
#include "sim/scenario/json_reader.hpp"

namespace squall {
namespace config_reader {

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};

// What the rules see: the object's keys, and which were read without error.
template <std::size_t N>
class WrittenKeys final : public Written {
 public:
  WrittenKeys(const ObjectReader& obj, const std::array<std::string_view, N>& keys) : obj_(obj), keys_(keys) {}
  bool has(std::string_view key) const override { return obj_.find(key) != nullptr; }
  bool ok(std::string_view key) const override {
    for (std::size_t i = 0; i < N; ++i) {
      if (keys_[i] == key) return !failed_[i];
    }
    return true;
  }
  std::string_view text(std::string_view key) const override {
    const Json* v = obj_.find(key);
    return v != nullptr && v->is_string() ? std::string_view(v->get_ref<const std::string&>()) : std::string_view();
  }
  std::string quoted(std::string_view key) const override {
    const Json* v = obj_.find(key);
    return v != nullptr ? describe(*v) : std::string();
  }
  void fail(std::size_t index) { failed_[index] = true; }

 private:
  const ObjectReader& obj_;
  const std::array<std::string_view, N>& keys_;
  std::array<bool, N> failed_{};
};

// Reads the value of `field` at `path` into `out`; false after recording why it cannot.
template <class C, class T>
bool read_value(const Json& v, const std::string& path, Diagnostics& diag, const Field<C, T>& field, T& out) {
  if constexpr (IsOptional<T>::value) {
    typename T::value_type value{};
    Field<C, typename T::value_type> inner;
    inner.kind = field.kind;
    inner.ints = field.ints;
    inner.numbers = field.numbers;
    inner.durations = field.durations;
    inner.per = field.per;
    inner.note = field.note;
    inner.longest = field.longest;
    if (!read_value(v, path, diag, inner, value)) return false;
    out = std::move(value);
    return true;
  } else if constexpr (std::is_same_v<T, bool>) {
    return assign(read_bool(v, path, diag), out);
  } else if constexpr (std::is_same_v<T, std::string>) {
    return assign(read_nonempty_string(v, path, diag), out);
  } else if constexpr (std::is_enum_v<T>) {
    static_assert(!std::is_same_v<typename Field<C, T>::Choice, detail::NoChoice>);
    const auto names = choice_names(field.values);
    const auto index = read_choice(v, path, diag, names);
    if (index) out = field.values[*index];
    return index.has_value();
  } else if constexpr (std::is_same_v<T, std::vector<OutcomeKind>>) {
    return field.kind == FieldKind::provider_kinds ? read_provider_kinds(v, path, diag, field.note, out)
                                                   : read_kinds(v, path, diag, out);
  } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    return field.kind == FieldKind::names ? read_names(v, path, diag, out) : read_words(v, path, diag, out);
  } else if constexpr (!std::is_same_v<typename Field<C, T>::Choice, detail::NoChoice>) {  // a list of choices
    const auto names = choice_names(field.values);
    return assign(read_choice_list<typename Field<C, T>::Choice>(v, path, diag, names, field.values), out);
  } else if constexpr (std::is_integral_v<T> || std::is_floating_point_v<T>) {
    return read_scalar(v, path, diag, field.kind,
                       Scalar{field.ints, field.numbers, field.durations, field.per, field.note, field.longest}, out);
  } else {
    return read_shaped(v, path, diag, out);  // sim/scenario/config_values.hpp
  }
}

// Reads one key of `config`, with its rules.
template <class C, class T, std::size_t N>
void read_field(const ObjectReader& obj, WrittenKeys<N>& written, std::size_t index, const Field<C, T>& field,
                C& config) {
  const Json* v = field.required ? obj.require(field.key) : obj.find(field.key);
  if (v == nullptr) return;
  Diagnostics& diag = obj.diag();
  const std::size_t errors_before = diag.count();
  const auto report = [&](const Finding& finding) {
    if (!finding.message.empty()) diag.error(finding.at_object ? obj.path() : obj.path_of(field.key), finding.message);
  };
  if (field.applies != nullptr) {
    const Finding refused = field.applies(config, written);
    if (refused.found()) {
      report(refused);
      written.fail(index);
      return;
    }
  }
  T value = config.*field.member;
  if (read_value(*v, obj.path_of(field.key), diag, field, value)) {
    config.*field.member = std::move(value);
    if (field.check != nullptr) report(field.check(config, written));
  }
  if (diag.count() != errors_before) written.fail(index);
}

}  // namespace config_reader

// Reads config C from the object `value` at `path`; nullopt after recording every error.
template <class C>
std::optional<C> read_config(const Json& value, const std::string& path, Diagnostics& diag) {
  static constexpr auto kTable = fields_of<C>();
  static constexpr auto kKeys = kTable.keys();
  const std::size_t errors_before = diag.count();
  const ObjectReader obj(value, path, diag, kKeys);
  if (!obj.valid()) return std::nullopt;
  C config;
  config_reader::WrittenKeys<kKeys.size()> written(obj, kKeys);
  std::size_t index = 0;
  std::apply([&](const auto&... field) { (config_reader::read_field(obj, written, index++, field, config), ...); },
             kTable.fields);
  if (kTable.post_load != nullptr) {
    const Finding finding = kTable.post_load(config, written);
    if (!finding.message.empty()) {
      diag.error(finding.at_object ? obj.path() : path, finding.message);
    }
  }
  if (diag.count() != errors_before) return std::nullopt;
  return config;
}

}  // namespace squall
