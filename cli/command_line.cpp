#include "cli/command_line.hpp"

#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <functional>
#include <variant>

#include "engine/runtime/duration.hpp"
#include "engine/text.hpp"

namespace squall::cli {

CLI::Validator seed_validator() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (parse_seed(text)) return {};
        return fmt::format("expected an integer in [0, 18446744073709551615], got \"{}\"", escape_controls(text));
      },
      "UINT64");
}

CLI::Validator integer_in(std::uint64_t lo, std::uint64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        const auto value = parse_seed(text);
        if (value && *value >= lo && *value <= hi) return {};
        return fmt::format("expected an integer in [{}, {}], got \"{}\"", lo, hi, escape_controls(text));
      },
      fmt::format("INT in [{}, {}]", lo, hi));
}

CLI::Validator duration_validator() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const auto parsed = parse_duration(text);
        if (std::holds_alternative<Nanos>(parsed)) return {};
        return fmt::format("expected {}, got \"{}\"", duration_expectation(std::get<DurationError>(parsed)),
                           escape_controls(text));
      },
      "DURATION");
}

void one_value_per_occurrence(CLI::App& app) {
  for (CLI::App* command : app.get_subcommands(std::function<bool(CLI::App*)>{}))
    for (CLI::Option* option : command->get_options())
      if (option->nonpositional()) option->allow_extra_args(false);
}

}  // namespace squall::cli
