// ProviderDescriptor: what a provider says about itself (DESIGN section 1b), so that
// strategies can route without calling it: its kind, model, context window, output cap,
// prices, capabilities and idempotency.
//
// The closed vocabularies (provider kinds, capabilities) are each one X-macro table: the
// enumerator, its scenario-file name and its documentation line live on one row, and the
// count and the string conversions are generated from it, so no list is kept by hand in parallel.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/vocabulary.hpp"

namespace squall {

// X(enumerator, what it is)
#define SQUALL_PROVIDER_KINDS(X)                                         \
  X(web_search, "a search engine over documents (title, link, snippet)") \
  X(llm, "a chat-completion model billed per token")                     \
  X(tool, "a generic tool or API the agent calls with arguments")        \
  X(vector_search, "a vector database: similarity or BM25 over documents")

enum class ProviderKind : std::uint8_t { SQUALL_PROVIDER_KINDS(SQUALL_ENUMERATOR) };

// X(enumerator, what a provider with it can do). The names are LiteLLM's and OpenAI's
// capability words (`supports_vision`, `response_format` json_mode, tool calling).
#define SQUALL_CAPABILITIES(X)                                   \
  X(json_mode, "returns output constrained to JSON on request")  \
  X(tools, "accepts tool (function) definitions and calls them") \
  X(vision, "accepts images in the prompt")                      \
  X(streaming, "streams output token by token")                  \
  X(reasoning, "spends hidden reasoning tokens before answering")

enum class Capability : std::uint8_t { SQUALL_CAPABILITIES(SQUALL_ENUMERATOR) };

inline constexpr std::size_t kProviderKindCount = 0 SQUALL_PROVIDER_KINDS(SQUALL_COUNT);
inline constexpr std::size_t kCapabilityCount = 0 SQUALL_CAPABILITIES(SQUALL_COUNT);

std::string_view to_string(ProviderKind kind);
std::optional<ProviderKind> parse_provider_kind(std::string_view name);
std::string_view to_string(Capability capability);
std::optional<Capability> parse_capability(std::string_view name);
// Every capability's name, in declaration order.
const std::array<std::string_view, kCapabilityCount>& capability_names();

// A set of capabilities as a bitmask: bit i is Capability i.
class Capabilities {
 public:
  constexpr Capabilities() = default;
  constexpr void add(Capability c) { bits_ |= bit(c); }
  constexpr bool has(Capability c) const { return (bits_ & bit(c)) != 0; }
  // True when every capability of `required` is in this set.
  constexpr bool covers(Capabilities required) const { return (required.bits_ & ~bits_) == 0; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr std::uint32_t bits() const { return bits_; }
  friend constexpr bool operator==(Capabilities, Capabilities) = default;

 private:
  static constexpr std::uint32_t bit(Capability c) { return std::uint32_t{1} << static_cast<unsigned>(c); }
  std::uint32_t bits_ = 0;
};

// "json_mode, tools" for messages and reports.
std::string to_string(Capabilities capabilities);

struct PricePerMTok {
  double input = 0;   // USD per million input tokens
  double output = 0;  // USD per million output tokens
};

struct ProviderDescriptor {
  std::string name;  // the key in the scenario's `providers`
  ProviderKind kind = ProviderKind::llm;
  std::string model;  // the model or service behind it, for reports; default: the name
  // Tokens of prompt plus output the model accepts; 0 for providers without one.
  std::int64_t context_window = 0;
  // The model's own cap on output tokens per request: what a request without
  // max_output_tokens may generate at most; 0 for providers without one.
  std::int64_t max_output_tokens = 0;
  PricePerMTok price_per_mtok;
  Capabilities capabilities;
  // Whether re-sending a request that may already have been processed is safe. A
  // non-idempotent provider is never re-sent a request after an outcome that may have
  // reached it (timeout, 5xx): engine/retry_safety.hpp. Default true (reads).
  bool idempotent = true;
  // The quota group the provider shares its rate limits with (the scenario's
  // `quota_groups`: models or deployments behind one API key's RPM/TPM bucket); empty for
  // none. A 429 on one member cools the whole group (engine/cooldown_board.hpp).
  std::string quota_group;

  // Output tokens a request may generate at most: the smaller of its own cap and the
  // model's, either where the other is 0 (none); 0 for providers that generate nothing.
  std::int64_t output_cap(std::int64_t requested_max_output_tokens) const {
    if (requested_max_output_tokens > 0 && max_output_tokens > 0) {
      return requested_max_output_tokens < max_output_tokens ? requested_max_output_tokens : max_output_tokens;
    }
    return requested_max_output_tokens > 0 ? requested_max_output_tokens : max_output_tokens;
  }
  // True when the prompt plus the output the request asks for fits the context window:
  // OpenAI rejects a request whose prompt plus max_tokens exceeds it, and one without
  // max_tokens only when the prompt alone does. A provider without a window fits all.
  bool fits(std::int64_t prompt_tokens, std::int64_t requested_max_output_tokens) const {
    if (context_window <= 0) return true;
    return prompt_tokens + requested_max_output_tokens <= context_window;
  }
  // The worst-case USD of a request: the prompt in full and the output cap in full.
  double worst_case_cost_usd(std::int64_t prompt_tokens, std::int64_t requested_max_output_tokens) const {
    return (static_cast<double>(prompt_tokens) * price_per_mtok.input +
            static_cast<double>(output_cap(requested_max_output_tokens)) * price_per_mtok.output) /
           1e6;
  }
};

}  // namespace squall
