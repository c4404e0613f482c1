#include "engine/config_fields.hpp"

#include <fmt/format.h>

namespace squall {

std::string format_number(double value) { return fmt::format("{}", value); }

std::string quote(std::string_view name) { return fmt::format("\"{}\"", name); }

}  // namespace squall
