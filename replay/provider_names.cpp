#include "replay/provider_names.hpp"

#include <map>
#include <set>
#include <string>

#include "engine/text.hpp"

namespace squall::replay {
namespace {

std::string allowed_bytes(std::string name) {
  for (char& c : name) {
    if (!is_name_char(c)) c = '-';
  }
  return name.empty() ? "provider" : name;
}

// The split rule: provider -> its most frequent model, for names with several models.
std::map<std::string, std::string> names_to_split(const TraceData& data) {
  std::map<std::string, std::map<std::string, std::uint64_t>> models;  // provider -> model -> attempts
  for (const AttemptRecord& a : data.attempts) {
    if (!a.request_model.empty()) ++models[a.provider][a.request_model];
  }
  std::map<std::string, std::string> split;
  for (const auto& [provider, counts] : models) {
    if (counts.size() < 2) continue;
    std::uint64_t best = 0;
    for (const auto& [model, n] : counts) {
      if (n > best) {
        split[provider] = model;
        best = n;
      }
    }
  }
  return split;
}

}  // namespace

ProviderNaming name_providers(TraceData& data) {
  const std::map<std::string, std::string> split = names_to_split(data);
  ProviderNaming naming;
  naming.split = split.size();
  std::map<std::string, std::string> renamed;  // the name before (split) -> the name written
  std::set<std::string> taken;
  for (AttemptRecord& a : data.attempts) {
    if (const auto s = split.find(a.provider); s != split.end()) {
      if (a.request_model.empty()) a.request_model = s->second;
      a.provider += "." + a.request_model;
    }
    auto [it, first] = renamed.try_emplace(a.provider);
    if (first) {
      std::string name = allowed_bytes(a.provider);
      const std::string base = name;
      for (int n = 2; taken.contains(name); ++n) name = base + "-" + std::to_string(n);
      taken.insert(name);
      naming.renamed += name != a.provider && !split.contains(a.provider) ? 1 : 0;
      it->second = std::move(name);
    }
    a.provider = it->second;
  }
  return naming;
}

}  // namespace squall::replay
