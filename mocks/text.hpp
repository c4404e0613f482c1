// Text rules shared by the corpus index and the web-search query matcher, so that a
// document and a query are cut into words the same way. Case folding and whitespace
// normalisation (ascii_lower, append_normalized) are engine/text.hpp's, which the cache's
// keys share.
//
// A word is a maximal run of word bytes: ASCII letters and digits, and every byte >= 0x80
// (so UTF-8 letters such as "ü" never split a word). Everything else, ASCII punctuation
// and whitespace included, separates words: "Series-B" is the two words "series" and "b".
// Case folding is ASCII-only on purpose: it is locale-independent, hence deterministic,
// and the shipped corpora are English.
#pragma once

#include <string_view>

#include "engine/text.hpp"

namespace squall {

constexpr bool is_word_byte(char c) {
  const auto b = static_cast<unsigned char>(c);
  return (b >= '0' && b <= '9') || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || b >= 0x80;
}

// Calls f(word) for each word of `text`, in order (see the rules above).
template <class F>
void for_each_word(std::string_view text, F&& f) {
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && !is_word_byte(text[i])) ++i;
    const std::size_t start = i;
    while (i < text.size() && is_word_byte(text[i])) ++i;
    if (i > start) f(text.substr(start, i - start));
  }
}

}  // namespace squall
