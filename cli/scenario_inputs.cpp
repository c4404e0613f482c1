#include "cli/scenario_inputs.hpp"

#include <algorithm>
#include <system_error>

#include <fmt/core.h>

#include "sim/scenario/yaml_document.hpp"

namespace squall::cli {
namespace {

namespace fs = std::filesystem;

ScenarioInputs refused(std::string message) {
  ScenarioInputs r;
  r.error = std::move(message);
  return r;
}

// Hidden files are not scenarios: editors' swap and backup files (.x.json.swp aside,
// `.#x.json`), macOS's AppleDouble `._x.json` and squall's own `.x.json.tmp.*`.
bool is_scenario_name(const fs::path& file) {
  return !file.filename().string().starts_with('.') && (has_extension(file, ".json") || is_yaml_file(file));
}

}  // namespace

ScenarioInputs expand_scenario_inputs(const std::vector<fs::path>& arguments) {
  if (arguments.empty()) return refused("give at least one scenario file or directory");
  ScenarioInputs result;
  for (const fs::path& argument : arguments) {
    std::error_code ec;
    const fs::file_status status = fs::status(argument, ec);
    if (!fs::exists(status)) return refused(fmt::format("{}: no such file or directory", argument.string()));
    if (!fs::is_directory(status)) {
      result.files.push_back(argument);
      continue;
    }
    std::vector<fs::path> found;
    for (const fs::directory_entry& entry : fs::directory_iterator(argument, ec)) {
      if (!entry.is_directory(ec) && is_scenario_name(entry.path())) found.push_back(entry.path());
    }
    if (ec) return refused(fmt::format("{}: cannot be read: {}", argument.string(), ec.message()));
    if (found.empty()) {
      return refused(fmt::format("{}: no scenario files (*.json, *.yaml, *.yml) in this directory", argument.string()));
    }
    // Byte order of the names: the same on every machine, whatever the locale.
    std::sort(found.begin(), found.end(),
              [](const fs::path& a, const fs::path& b) { return a.filename().string() < b.filename().string(); });
    result.files.insert(result.files.end(), found.begin(), found.end());
  }
  return result;
}

}  // namespace squall::cli
