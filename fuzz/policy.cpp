// A policy file (`--policy FILE`, sim/scenario_loader.hpp load_policy_text).
#include "fuzz/load_checks.hpp"
#include "sim/scenario_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string file = squall::fuzz::scenario_file_name(".json");
  const squall::PolicyLoadResult result = squall::load_policy_text(squall::fuzz::text_of(data, size), file);
  squall::fuzz::check_load_result(result, result.policy.has_value());
  return 0;
}
