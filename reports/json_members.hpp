// Appending members to an nlohmann::ordered_json object in linear time.
//
// ordered_json keeps an object's members in a std::vector (nlohmann's ordered_map, "a
// minimal map-like container that preserves insertion order"), and its operator[],
// emplace and insert search every key first: an object of n members built that way costs
// O(n^2) key comparisons (a report of 12,500 providers took seconds to write). The report's
// objects are built from sorted, unique names, so the search could only fail: these
// helpers append at the end of the vector without it.
#pragma once

#include <cassert>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

namespace squall {

// Appends member `key` (which `object` must not hold yet) with `value` and returns it.
inline nlohmann::ordered_json& append_member(nlohmann::ordered_json& object, std::string key,
                                             nlohmann::ordered_json value = nlohmann::ordered_json::object()) {
  auto& members = object.get_ref<nlohmann::ordered_json::object_t&>();
  assert(!object.contains(key));
  members.emplace_back(std::move(key), std::move(value));
  return members.back().second;
}

// The last member of `object` when its key is `key`, else a new empty object appended
// under `key`: for rows grouped by key (sorted), such as faults by provider then kind.
inline nlohmann::ordered_json& last_or_append_member(nlohmann::ordered_json& object, const std::string& key) {
  auto& members = object.get_ref<nlohmann::ordered_json::object_t&>();
  if (!members.empty() && members.back().first == key) return members.back().second;
  return append_member(object, key);
}

}  // namespace squall
