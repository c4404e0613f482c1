// A scenario file in YAML (sim/scenario/yaml_document.hpp, through load_scenario_text as
// a .yaml file): yaml-cpp's parse, squall's YAML rules (aliases bounded by nodes and bytes,
// YAML 1.1 booleans, tags, duplicate keys) and then the same readers as JSON.
#include "fuzz/load_checks.hpp"
#include "sim/scenario_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string file = squall::fuzz::scenario_file_name(".yaml");
  const squall::LoadResult result = squall::load_scenario_text(squall::fuzz::text_of(data, size), file);
  squall::fuzz::check_load_result(result, result.scenario.has_value());
  return 0;
}
