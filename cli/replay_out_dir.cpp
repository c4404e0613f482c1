#include "cli/replay_out_dir.hpp"

#include <fmt/core.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <system_error>

#include "cli/commands.hpp"
#include "cli/output_path.hpp"
#include "cli/replay_simulate.hpp"
#include "reports/atomic_file.hpp"
#include "replay/calibration_report.hpp"
#include "replay/replay_fit.hpp"
#include "replay/scenario_writer.hpp"
#include "sim/scenario_loader.hpp"

namespace squall::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kScenarioFile = "scenario.yaml";
constexpr const char* kPolicyFile = "as-deployed.yaml";
constexpr const char* kCalibrationJson = "calibration.json";
constexpr const char* kCalibrationMd = "calibration.md";

// Why DIR cannot take the files, or nullopt (creating it when missing).
std::optional<std::string> prepare_dir(const fs::path& dir, const std::vector<fs::path>& inputs) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    return fmt::format("--out-dir {}: \"{}\" exists and is not a directory", dir.string(), dir.string());
  if (!fs::exists(dir, ec)) {
    const fs::path parent = dir.has_parent_path() ? dir.parent_path() : fs::path(".");
    if (!fs::is_directory(parent, ec))
      return fmt::format("--out-dir {}: directory \"{}\" does not exist", dir.string(), parent.string());
    if (!fs::create_directory(dir, ec) && ec)
      return fmt::format("--out-dir {}: cannot create it: {}", dir.string(), ec.message());
  }
  for (const char* name : {kScenarioFile, kPolicyFile, kCalibrationJson, kCalibrationMd}) {
    if (auto problem = output_problem(dir / name, inputs)) return fmt::format("--out-dir {}: {}", dir.string(), *problem);
  }
  return std::nullopt;
}

std::string describe(const ReplayOptions& options, const replay::TraceData& data, const replay::Grouping& g) {
  std::string files;
  for (const fs::path& f : options.traces) files += (files.empty() ? "" : ", ") + f.filename().string();
  return fmt::format("Fitted by squall replay from {}: {} tasks, {} logical calls, {} attempts", files, g.counts.tasks,
                     g.counts.calls, data.attempts.size());
}

nlohmann::json sources_json(const replay::FitSources& sources) {
  nlohmann::json list = nlohmann::json::array();
  for (const replay::FitSource& s : sources) {
    list.push_back({{"file", s.file},
                    {"path", s.path},
                    {"value", s.value},
                    {"window", s.window},
                    {"samples", s.samples},
                    {"method", s.method},
                    {"prior", s.prior}});
  }
  return list;
}

// The loader's verdict on a file replay wrote: its own output refused is a bug in replay.
void check_loads(const std::vector<ValidationError>& errors, const char* file) {
  if (errors.empty()) return;
  std::string text;
  for (const ValidationError& e : errors) text += "\n  " + to_string(e);
  throw std::logic_error(fmt::format("replay wrote a {} the loader refuses:{}", file, text));
}

}  // namespace

int replay_out_dir(const ReplayOptions& options, const replay::TraceData& data, const replay::Grouping& grouping) {
  const fs::path& dir = *options.out_dir;
  if (grouping.tasks.empty()) {
    fmt::print(stderr, "squall replay: --out-dir {}: the trace holds no task to fit\n", dir.string());
    return kExitBadInput;
  }
  if (auto problem = prepare_dir(dir, options.traces)) {
    fmt::print(stderr, "squall replay: {}\n", *problem);
    return kExitBadInput;
  }
  const replay::ReplayFit fit = replay::fit_replay(data, grouping);
  replay::ScenarioText text;
  text.name = "replay-" + options.traces.front().stem().string();
  text.description = describe(options, data, grouping);
  replay::FitSources sources;
  const std::string scenario_text = replay::scenario_yaml(fit, text, sources);
  const std::string policy_text = replay::policy_yaml(fit, sources);
  LoadResult loaded = load_scenario_text(scenario_text, dir / kScenarioFile);
  check_loads(loaded.errors, kScenarioFile);
  check_loads(load_policy_text(policy_text, dir / kPolicyFile).errors, kPolicyFile);

  const Scenario& scenario = *loaded.scenario;
  const std::vector<std::int64_t> edges = replay::calibration_edges(fit);
  const std::vector<replay::Figures> observed = replay::window_figures(data, grouping, fit.origin_ns, edges);
  const std::vector<SeedFigures> simulated =
      simulate_figures(scenario, scenario.policy, options.calibration_seeds, options.jobs, edges);
  std::vector<std::vector<replay::Figures>> bands;
  for (const SeedFigures& seed : simulated) bands.push_back(seed.windows);
  const replay::Calibration calibrated = replay::calibrate(edges, observed, bands);
  const nlohmann::json calibration = {{"calibration", replay::calibration_json(calibrated)},
                                      {"provenance", sources_json(sources)}};
  const std::string markdown = replay::calibration_markdown(calibrated);
  try {
    AtomicFileBatch batch;
    batch.add(resolve_output(dir / kScenarioFile), scenario_text);
    batch.add(resolve_output(dir / kPolicyFile), policy_text);
    batch.add(resolve_output(dir / kCalibrationJson), calibration.dump(2) + "\n");
    batch.add(resolve_output(dir / kCalibrationMd), markdown);
    batch.commit();
  } catch (const std::runtime_error& e) {
    fmt::print(stderr, "squall replay: {}\n", e.what());
    return kExitBadInput;
  }
  for (const char* name : {kScenarioFile, kPolicyFile, kCalibrationJson, kCalibrationMd})
    fmt::print("wrote {}\n", (dir / name).string());
  fmt::print("{}", replay::calibration_summary(calibrated));
  return calibrated.passed ? kExitOk : kExitThresholdFailed;
}

}  // namespace squall::cli
