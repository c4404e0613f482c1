// A shard's partial result as `squall merge` reads it: the strict JSON reader of squall's
// own files (cli/output_file.hpp, which also recognises files of another kind), then
// merge_partials (reports/sweep_merge.hpp) on it as the one shard of its sweep, then the
// merged sweep analysed and written as JSON, as merge does. std::runtime_error is
// merge_partials' documented refusal.
#include <stdexcept>
#include <variant>

#include "cli/output_file.hpp"
#include "fuzz/fuzz_support.hpp"
#include "reports/sweep_json.hpp"
#include "reports/sweep_merge.hpp"
#include "reports/sweep_stats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(squall::fuzz::text_of(data, size));
  auto parsed = squall::cli::read_output_text(text, "part.json", squall::FileKind::sweep_partial);
  if (std::holds_alternative<std::string>(parsed)) return 0;
  std::vector<squall::PartialFile> partials;
  partials.push_back(squall::PartialFile{"part.json", std::get<squall::Json>(std::move(parsed))});
  try {
    const squall::SweepResult result = squall::merge_partials(partials);
    const squall::SweepAnalysis analysis = squall::analyse(result);
    squall::fuzz::require(!squall::sweep_json_text(result, analysis).empty(), "a merged sweep is written");
  } catch (const std::runtime_error&) {
  }
  return 0;
}
