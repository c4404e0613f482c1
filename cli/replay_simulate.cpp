#include "cli/replay_simulate.hpp"

#include <fmt/core.h>

#include <exception>
#include <string>
#include <string_view>

#include "cli/run_outputs.hpp"
#include "replay/grouping.hpp"
#include "replay/otlp_reader.hpp"
#include "reports/writers/otlp_writer.hpp"
#include "sim/parallel_runs.hpp"
#include "sim/run.hpp"

namespace squall::cli {
namespace {

struct SeedResult {
  SeedFigures figures;
  std::exception_ptr error;
};

SeedFigures one_seed(const PreparedScenario& prepared, const PolicyConfig& policy, std::uint64_t seed,
                     const std::vector<std::int64_t>& edges) {
  std::string document;
  OtlpWriter writer([&document](std::string_view piece) { document.append(piece); },
                    otlp_run_info(prepared.scenario(), seed));
  Provenance provenance{std::string(squall_version()), prepared.scenario().source.string(), std::nullopt, "", {}};
  prepared.run(policy, seed, provenance, &writer);
  writer.finish();
  replay::TraceData data;
  try {
    replay::read_otlp_text(document, fmt::format("seed {}", seed), data);
  } catch (const replay::TraceInputError&) {
    // squall's own export is well formed: the one refusal is a run that sent no request
    // (no task arrived), whose figures are all zero.
    if (!data.attempts.empty() || !data.agents.empty()) throw;
  }
  const replay::Grouping grouping = replay::group_attempts(data);
  // Scenario time 0 is the export's time 0 (start_time), not the first task's start.
  const std::int64_t origin = prepared.scenario().start_unix_seconds * 1'000'000'000;
  SeedFigures out;
  out.windows = replay::window_figures(data, grouping, origin, edges);
  out.whole = replay::window_figures(data, grouping, origin, {0, edges.back()}).front();
  return out;
}

}  // namespace

std::vector<SeedFigures> simulate_figures(const Scenario& scenario, const PolicyConfig& policy, std::size_t seeds,
                                          std::size_t jobs, const std::vector<std::int64_t>& edges) {
  const PreparedScenario prepared(scenario);
  const std::function<SeedResult(std::size_t)> run = [&](std::size_t i) {
    SeedResult r;
    try {  // run_parallel's tasks must not throw: the error travels in the result
      r.figures = one_seed(prepared, policy, i + 1, edges);
    } catch (...) {
      r.error = std::current_exception();
    }
    return r;
  };
  std::vector<SeedResult> results = run_parallel<SeedResult>(seeds, jobs == 0 ? default_jobs() : jobs, run);
  std::vector<SeedFigures> out;
  for (SeedResult& r : results) {
    if (r.error) std::rethrow_exception(r.error);
    out.push_back(std::move(r.figures));
  }
  return out;
}

}  // namespace squall::cli
