#include "sim/scenario/validation_error.hpp"

#include <fmt/format.h>

namespace squall {

std::string to_string(const ValidationError& error) {
  if (error.line > 0 && !error.path.empty()) {
    return escape_controls(
        fmt::format("{}:{}:{}: {}: {}", error.file, error.line, error.column, error.path, error.message));
  }
  if (error.line > 0) {
    return escape_controls(fmt::format("{}:{}:{}: {}", error.file, error.line, error.column, error.message));
  }
  if (error.path.empty()) return escape_controls(fmt::format("{}: {}", error.file, error.message));
  return escape_controls(fmt::format("{}: {}: {}", error.file, error.path, error.message));
}

}  // namespace squall
