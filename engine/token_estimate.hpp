// How many tokens a piece of text makes in a prompt or a completion, when only its bytes
// are known: ceil(bytes / 4), OpenAI's rule of thumb of about four characters per token
// of English text ("What are tokens and how to count them?", OpenAI help center). Used
// for what an agent quotes to a model (an error message, a query) and for what a mock
// model answers with (a rewritten query).
#pragma once

#include <cstdint>
#include <string_view>

namespace squall {

constexpr std::int64_t estimate_tokens(std::string_view text) {
  return static_cast<std::int64_t>((text.size() + 3) / 4);
}

}  // namespace squall
