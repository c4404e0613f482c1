#include "sim/scenario/json_document.hpp"

#include <cstdint>

#include <fmt/format.h>

#include "mocks/input_file.hpp"

namespace squall {
namespace {

enum class Blank : std::uint8_t { no, empty, comments };

// Whether `text` holds no JSON value: nothing but whitespace (Blank::empty) or whitespace
// and complete comments (Blank::comments), after a UTF-8 byte-order mark if any (which
// the parser skips). An unterminated block comment is not blank: the parser reports it
// where it starts.
Blank blank(std::string_view text) {
  bool comments = false;
  std::size_t i = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
    } else if (text.substr(i, 2) == "//") {
      const std::size_t end = text.find('\n', i);
      i = end == std::string_view::npos ? text.size() : end;
      comments = true;
    } else if (text.substr(i, 2) == "/*") {
      const std::size_t end = text.find("*/", i + 2);
      if (end == std::string_view::npos) return Blank::no;
      i = end + 2;
      comments = true;
    } else {
      return Blank::no;
    }
  }
  return comments ? Blank::comments : Blank::empty;
}

}  // namespace

std::optional<std::string> read_text_file(const std::filesystem::path& file, Diagnostics& diag) {
  auto contents = read_input_file(file);
  if (auto* error = std::get_if<InputFileError>(&contents)) {
    diag.error("", std::move(error->message));
    return std::nullopt;
  }
  return std::get<std::string>(std::move(contents));
}

std::optional<Json> parse_json_document(std::string_view text, Diagnostics& diag) {
  const auto report_duplicate = [&diag](const std::string& pointer, const std::string& key) {
    diag.error(pointer, fmt::format("duplicate key \"{}\"", key));
  };
  // The parser would say "unexpected end of input", which reads as a file cut short; a
  // file with nothing in it is told so.
  if (const Blank b = blank(text); b != Blank::no) {
    diag.error("", b == Blank::empty ? "the file is empty: it holds no JSON value"
                                     : "the file is empty: it holds no JSON value, only comments");
    return std::nullopt;
  }
  auto parsed = parse_strict_json(text, JsonComments::allowed, report_duplicate);
  if (auto* error = std::get_if<JsonSyntaxError>(&parsed)) {
    diag.syntax_error(error->line, error->column, std::move(error->message));
    return std::nullopt;
  }
  return std::get<Json>(std::move(parsed));
}

std::optional<ParsedDocument> parse_document(std::string_view text, const std::filesystem::path& file,
                                             Diagnostics& diag) {
  if (const auto encoding = other_unicode_encoding(text)) {
    diag.error("", *encoding);
    return std::nullopt;
  }
  if (is_yaml_file(file)) return parse_yaml_document(text, diag);
  auto root = parse_json_document(text, diag);
  if (!root) return std::nullopt;
  return ParsedDocument{std::move(*root), {}};
}

}  // namespace squall
