// Text normalisation shared by the engine and the mocks: ASCII case folding and
// whitespace collapsing, so that two spellings of one query ("Acme  Revenue",
// "acme revenue") are one query for the web-search mock's matcher (mocks/text.hpp,
// mocks/query_matcher.hpp) and for the cache's keys (engine/strategies/cache_key.hpp).
//
// Case folding is ASCII-only on purpose: it is locale-independent, hence deterministic,
// and the shipped corpora are English. Bytes >= 0x80 (UTF-8) are copied as they are.
#pragma once

#include <string>
#include <string_view>

namespace squall {

// " \t\n\r\f\v", the C locale's isspace set.
constexpr bool is_space_byte(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

constexpr char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// Appends `text` to `out` lower-cased (ASCII), with every run of whitespace replaced by a
// single space and no leading or trailing space, so that phrase matching does not depend
// on how a document or a query was spaced. `out` is appended to, never shrunk, so that a
// caller can reuse its capacity.
void append_normalized(std::string_view text, std::string& out);

}  // namespace squall
