#include "engine/provider_descriptor.hpp"

namespace squall {
namespace {

constexpr std::array<std::string_view, kProviderKindCount> kKindNames{
#define SQUALL_X(name, doc) #name,
    SQUALL_PROVIDER_KINDS(SQUALL_X)
#undef SQUALL_X
};

constexpr std::array<std::string_view, kCapabilityCount> kCapabilityNames{
#define SQUALL_X(name, doc) #name,
    SQUALL_CAPABILITIES(SQUALL_X)
#undef SQUALL_X
};

template <class E, std::size_t N>
std::optional<E> parse(const std::array<std::string_view, N>& names, std::string_view name) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == name) return static_cast<E>(i);
  }
  return std::nullopt;
}

}  // namespace

std::string_view to_string(ProviderKind kind) { return kKindNames[static_cast<std::size_t>(kind)]; }
std::optional<ProviderKind> parse_provider_kind(std::string_view name) {
  return parse<ProviderKind>(kKindNames, name);
}
std::string_view to_string(Capability capability) { return kCapabilityNames[static_cast<std::size_t>(capability)]; }
std::optional<Capability> parse_capability(std::string_view name) { return parse<Capability>(kCapabilityNames, name); }
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
