#include "sim/scenario/json_document.hpp"

#include <fmt/format.h>

#include "mocks/input_file.hpp"

namespace squall {

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
  auto parsed = parse_strict_json(text, JsonComments::allowed, report_duplicate);
  if (auto* error = std::get_if<JsonSyntaxError>(&parsed)) {
    diag.syntax_error(error->line, error->column, std::move(error->message));
    return std::nullopt;
  }
  return std::get<Json>(std::move(parsed));
}

}  // namespace squall
