// A scenario file in JSON (sim/scenario_loader.hpp load_scenario_text): the document
// reader with comments, then every block's reader and the cross-checks.
#include "fuzz/load_checks.hpp"
#include "sim/scenario_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string file = squall::fuzz::scenario_file_name(".json");
  const squall::LoadResult result = squall::load_scenario_text(squall::fuzz::text_of(data, size), file);
  squall::fuzz::check_load_result(result, result.scenario.has_value());
  return 0;
}
