// Text handling shared by every layer.
//
// Normalisation for the engine and the mocks: ASCII case folding and whitespace
// collapsing, so that two spellings of one query ("Acme  Revenue", "acme revenue") are one
// query for the web-search mock's matcher (mocks/text.hpp, mocks/query_matcher.hpp) and
// for the cache's keys (engine/strategies/cache_key.hpp). Case folding is ASCII-only on
// purpose: it is locale-independent, hence deterministic, and the shipped corpora are
// English. Bytes >= 0x80 (UTF-8) are copied as they are.
//
// Control characters, for every line squall prints with text read from a file.
#pragma once

#include <cstddef>
#include <optional>
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

// The code point of the control character that starts at byte `i` of UTF-8 `text`, or
// nullopt. Control characters here are Unicode's Cc (U+0000-U+001F, U+007F-U+009F; C1
// controls take two bytes) and the bidirectional embedding, override and isolate
// characters (U+202A-U+202E, U+2066-U+2069; three bytes), which reorder how the rest of
// a line is displayed: the "Trojan Source" characters of CVE-2021-42574, the set rustc's
// text_direction_codepoint lints refuse. A name holding U+202E can print as another name.
std::optional<char32_t> control_character_at(std::string_view text, std::size_t i);

// Why `text` is not printable text, or nullopt: its first control character
// (control_character_at), newline and tab allowed when `newline_and_tab`. Text that squall
// prints (names, descriptions) must hold none: they would break the line or, as ANSI
// escape sequences, rewrite the terminal. The messages:
//   `expected text without control characters, got U+001B at byte 5`
//   `expected text without control characters other than newline and tab, got U+000D at byte 12`
std::optional<std::string> printable_problem(std::string_view text, bool newline_and_tab);

// `text` with each control character (control_character_at) written as \u and its four
// hex digits, as a ValidationError's line is written (sim/scenario/validation_error.hpp): the one escape for every line
// squall prints that holds text read from a file (names, paths), so that a raw newline or ANSI escape sequence (ECMA-48
// CSI, ESC [) in it can neither break the line nor drive the terminal. `a\x1b[31mred\nX` prints as
// `a\u001b[31mred\u000aX`.
// A byte that starts no well-formed UTF-8 sequence is written as \x and two hex digits: a
// raw 0x9B is CSI on 8-bit terminals. A word (a run of bytes without a space) longer than
// kLongestShownWord bytes, a 1 MB key, is cut to its first kShownOfLongWord bytes (whole
// characters) followed by its length: `aaaa...(1048576 bytes)`, so that no line printed
// about a hostile file is longer than a screen's worth per word.
inline constexpr std::size_t kLongestShownWord = 256;
inline constexpr std::size_t kShownOfLongWord = 64;
std::string escape_controls(std::string_view text);

// Whether `c` may stand in a name a scenario gives (a provider, a task, an error code): an
// ASCII letter, digit, '.', '_' or '-'. The loader's rule (sim/scenario/json_reader.hpp
// check_name), and what replay writes names with (replay/provider_names.hpp).
constexpr bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

}  // namespace squall
