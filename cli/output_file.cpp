#include "cli/output_file.hpp"

#include <optional>

#include <fmt/core.h>

#include "mocks/input_file.hpp"
#include "sim/scenario/json_document.hpp"

namespace squall::cli {

namespace {

// Why `text`, which is not what squall writes, is refused: when it reads as one of squall's
// input files (JSON with comments, or YAML), what kind it is and how to use it.
std::optional<std::string> input_file_instead(const std::string& text, const std::filesystem::path& file,
                                              FileKind expected) {
  Diagnostics ignored(file.string());
  const auto document = parse_document(text, file, ignored);
  if (!document) return std::nullopt;
  return wrong_kind_problem(document->root, expected);
}

}  // namespace

std::variant<Json, std::string> read_output_file(const std::filesystem::path& file, FileKind expected) {
  auto text = read_input_file(file);
  if (const auto* error = std::get_if<InputFileError>(&text))
    return fmt::format("{}: {}", file.string(), error->message);
  return read_output_text(std::get<std::string>(text), file, expected);
}

std::variant<Json, std::string> read_output_text(const std::string& text, const std::filesystem::path& file,
                                                 FileKind expected) {
  const std::string name = file.string();
  if (const auto encoding = other_unicode_encoding(text)) {
    return fmt::format("{}: {}", name, *encoding);
  }
  // The first repeated key stops the parse: one is enough to refuse the file.
  struct Duplicate {
    std::string message;
  };
  const auto on_duplicate = [&name](const std::string& pointer, const std::string& key) {
    throw Duplicate{fmt::format("{}: {}: duplicate key \"{}\"", name, pointer, key)};
  };
  try {
    auto parsed = parse_strict_json(text, JsonComments::rejected, on_duplicate);
    if (const auto* error = std::get_if<JsonSyntaxError>(&parsed)) {
      if (const auto kind = input_file_instead(text, file, expected)) {
        return fmt::format("{}: {}", name, *kind);
      }
      return fmt::format("{}:{}:{}: not JSON: {}", name, error->line, error->column, error->message);
    }
    if (const auto kind = wrong_kind_problem(std::get<Json>(parsed), expected))
      return fmt::format("{}: {}", name, *kind);
    return std::get<Json>(std::move(parsed));
  } catch (const Duplicate& d) {
    return d.message;
  }
}

}  // namespace squall::cli
