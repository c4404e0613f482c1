#include "cli/output_file.hpp"

#include <optional>

#include <fmt/core.h>

#include "mocks/input_file.hpp"

namespace squall::cli {

std::variant<Json, std::string> read_output_file(const std::filesystem::path& file) {
  const std::string name = file.string();
  auto text = read_input_file(file);
  if (const auto* error = std::get_if<InputFileError>(&text)) return fmt::format("{}: {}", name, error->message);
  // The first repeated key stops the parse: one is enough to refuse the file.
  struct Duplicate {
    std::string message;
  };
  const auto on_duplicate = [&name](const std::string& pointer, const std::string& key) {
    throw Duplicate{fmt::format("{}: {}: duplicate key \"{}\"", name, pointer, key)};
  };
  try {
    auto parsed = parse_strict_json(std::get<std::string>(text), JsonComments::rejected, on_duplicate);
    if (const auto* error = std::get_if<JsonSyntaxError>(&parsed)) {
      return fmt::format("{}:{}:{}: not JSON: {}", name, error->line, error->column, error->message);
    }
    return std::get<Json>(std::move(parsed));
  } catch (const Duplicate& d) {
    return d.message;
  }
}

}  // namespace squall::cli
