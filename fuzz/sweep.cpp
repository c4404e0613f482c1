// A sweep file (sim/sweep/sweep_spec.hpp load_sweep_text): its own keys, the grid's
// expansion and the scenario and policies it names (read from scenarios/, as a sweep
// file placed there would).
#include "fuzz/load_checks.hpp"
#include "sim/sweep/sweep_spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string file = squall::fuzz::scenario_file_name(".json");
  const squall::SweepLoadResult result = squall::load_sweep_text(squall::fuzz::text_of(data, size), file);
  squall::fuzz::check_load_result(result, result.spec.has_value());
  return 0;
}
