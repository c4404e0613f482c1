#include "engine/provider_descriptor.hpp"

namespace squall {
namespace {

constexpr std::array<std::string_view, kProviderKindCount> kKindNames{SQUALL_PROVIDER_KINDS(SQUALL_NAME)};
constexpr std::array<std::string_view, kCapabilityCount> kCapabilityNames{SQUALL_CAPABILITIES(SQUALL_NAME)};

}  // namespace

std::string_view to_string(ProviderKind kind) { return kKindNames[static_cast<std::size_t>(kind)]; }
std::optional<ProviderKind> parse_provider_kind(std::string_view name) {
  return parse_name<ProviderKind>(kKindNames, name);
}
std::string_view to_string(Capability capability) { return kCapabilityNames[static_cast<std::size_t>(capability)]; }
std::optional<Capability> parse_capability(std::string_view name) {
  return parse_name<Capability>(kCapabilityNames, name);
}
const std::array<std::string_view, kCapabilityCount>& capability_names() { return kCapabilityNames; }

std::string to_string(Capabilities capabilities) {
  std::string out;
  for (std::size_t i = 0; i < kCapabilityCount; ++i) {
    if (!capabilities.has(static_cast<Capability>(i))) continue;
    if (!out.empty()) out += ", ";
    out += kCapabilityNames[i];
  }
  return out;
}

}  // namespace squall
