// `squall ci [FILE|DIR ...]`: the scenario files the arguments name. A file is taken as
// given (whatever its extension); a directory stands for its own scenario files, those
// whose names end in ".json", ".yaml" or ".yml", in any case, and do not start with a dot (hidden files: editors'
// and macOS's `._x.json`), (not its subdirectories' files: scenarios/ holds corpora
// and policies in subfolders that are not scenarios), in byte order of their names, so the list, and so every output of
// `ci`, is the same on every machine.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace squall::cli {

struct ScenarioInputs {
  std::vector<std::filesystem::path> files;  // arguments' order, each directory's files sorted
  std::optional<std::string> error;          // set when the arguments are refused; then files is empty
};

// Refused (a usage error: nothing can be run as asked):
//   a path that does not exist:    scenarios/cii: no such file or directory
//   a directory without scenarios: scenarios/corpora: no scenario files (*.json, *.yaml, *.yml) in this directory
//   no arguments at all:           give at least one scenario file or directory
ScenarioInputs expand_scenario_inputs(const std::vector<std::filesystem::path>& arguments);

}  // namespace squall::cli
