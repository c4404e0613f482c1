#include "reports/sweep_names.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace squall {
namespace {

std::vector<std::string> pointers_of(const SweepParams& params) {
  std::vector<std::string> out;
  out.reserve(params.size());
  for (const auto& [pointer, value] : params) out.push_back(pointer);
  return out;
}

// KEY=VALUE of each param, keys computed over all of `params`, for those `keep` selects.
template <typename Keep>
std::string key_values(const SweepParams& params, Keep keep) {
  const std::vector<std::string> pointers = pointers_of(params);
  std::string out;
  for (std::size_t a = 0; a < params.size(); ++a) {
    if (!keep(params[a].first)) continue;
    if (!out.empty()) out += ',';
    out += fmt::format("{}={}", grid_axis_key(pointers, a), params[a].second);
  }
  return out;
}

}  // namespace

bool is_scenario_pointer(std::string_view pointer) {
  return pointer.starts_with(kScenarioAxisPrefix) &&
         (pointer.size() == kScenarioAxisPrefix.size() || pointer[kScenarioAxisPrefix.size()] == '/');
}

std::string pointer_last_token(const std::string& pointer) {
  if (pointer.empty() || pointer.front() != '/') return pointer;
  try {
    return nlohmann::json::json_pointer(pointer).back();
  } catch (const nlohmann::json::exception&) {
    return pointer;
  }
}

std::string grid_axis_key(const std::vector<std::string>& pointers, std::size_t a) {
  const auto unique = [&](const auto& key_of) {
    for (std::size_t b = 0; b < pointers.size(); ++b) {
      if (b != a && key_of(b) == key_of(a)) return false;
    }
    return true;
  };
  const auto last = [&](std::size_t i) { return pointer_last_token(pointers[i]); };
  if (unique(last)) return last(a);
  const auto first_last = [&](std::size_t i) {
    nlohmann::json::json_pointer p(pointers[i]);
    while (!p.parent_pointer().empty()) p = p.parent_pointer();
    return fmt::format("{}.{}", p.back(), last(i));
  };
  if (unique(first_last)) return first_last(a);
  return pointers[a];
}

std::string grid_suffix(const SweepParams& params) {
  if (params.empty()) return "";
  return fmt::format("[{}]", key_values(params, [](const std::string&) { return true; }));
}

SweepParams scenario_params(const SweepParams& params) {
  SweepParams out;
  for (const auto& p : params) {
    if (is_scenario_pointer(p.first)) out.push_back(p);
  }
  return out;
}

SweepParams policy_params(const SweepParams& params) {
  SweepParams out;
  for (const auto& p : params) {
    if (!is_scenario_pointer(p.first)) out.push_back(p);
  }
  return out;
}

std::string policy_part_name(const std::string& name, const SweepParams& params) {
  const std::string suffix = grid_suffix(params);
  const std::string base =
      name.ends_with(suffix) ? name.substr(0, name.size() - suffix.size()) : name;  // made from params
  return fmt::format("{}{}", base, grid_suffix(policy_params(params)));
}

std::vector<bool> shares_baseline_scenario(const std::vector<SweepParams>& params, std::size_t baseline) {
  const auto setting = [](const SweepParams& p) {
    SweepParams s = scenario_params(p);
    std::sort(s.begin(), s.end());
    return s;
  };
  const SweepParams base = setting(params[baseline]);
  std::vector<bool> out;
  out.reserve(params.size());
  for (const SweepParams& p : params) out.push_back(setting(p) == base);
  return out;
}

std::string scenario_setting_label(const SweepParams& params) {
  return key_values(params, [](const std::string& p) { return is_scenario_pointer(p); });
}

}  // namespace squall
