#include "cli/replay_out_dir.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <system_error>
#include <variant>

#include "cli/commands.hpp"
#include "cli/output_path.hpp"
#include "cli/replay_counterfactual.hpp"
#include "cli/replay_simulate.hpp"
#include "engine/strategies/fallback.hpp"
#include "replay/calibration_report.hpp"
#include "replay/replay_fit.hpp"
#include "replay/scenario_writer.hpp"
#include "reports/atomic_file.hpp"
#include "sim/scenario_loader.hpp"

namespace squall::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kScenarioFile = "scenario.yaml";
constexpr const char* kPolicyFile = "as-deployed.yaml";
constexpr const char* kCalibrationJson = "calibration.json";
constexpr const char* kCalibrationMd = "calibration.md";

// Why DIR cannot take the files, or nullopt; creates nothing.
std::optional<std::string> dir_problem(const fs::path& dir, const std::vector<fs::path>& inputs) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    return fmt::format("--out-dir {}: \"{}\" exists and is not a directory", dir.string(), dir.string());
  if (!fs::exists(dir, ec)) {
    const fs::path parent = dir.has_parent_path() ? dir.parent_path() : fs::path(".");
    if (fs::exists(parent, ec) && !fs::is_directory(parent, ec))
      return fmt::format("--out-dir {}: \"{}\" is not a directory", dir.string(), parent.string());
    if (!fs::is_directory(parent, ec))
      return fmt::format("--out-dir {}: directory \"{}\" does not exist", dir.string(), parent.string());
    return std::nullopt;
  }
  for (const char* name : {kScenarioFile, kPolicyFile, kCalibrationJson, kCalibrationMd}) {
    if (auto problem = output_problem(dir / name, inputs))
      return fmt::format("--out-dir {}: {}", dir.string(), *problem);
  }
  return std::nullopt;
}

// Why DIR cannot take the files, or nullopt (creating it when missing).
std::optional<std::string> prepare_dir(const fs::path& dir, const std::vector<fs::path>& inputs) {
  if (auto problem = dir_problem(dir, inputs)) return problem;
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    if (!fs::create_directory(dir, ec) && ec)
      return fmt::format("--out-dir {}: cannot create it: {}", dir.string(), ec.message());
  }
  for (const char* name : {kScenarioFile, kPolicyFile, kCalibrationJson, kCalibrationMd}) {
    if (auto problem = output_problem(dir / name, inputs))
      return fmt::format("--out-dir {}: {}", dir.string(), *problem);
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

// Writes the four files, all or none; false (after saying why) when one cannot be written.
bool publish(const fs::path& dir, const std::array<std::string, 4>& contents) {
  const std::array<const char*, 4> names{kScenarioFile, kPolicyFile, kCalibrationJson, kCalibrationMd};
  try {
    AtomicFileBatch batch;
    for (std::size_t i = 0; i < names.size(); ++i) batch.add(resolve_output(dir / names[i]), contents[i]);
    batch.commit();
  } catch (const std::runtime_error& e) {
    fmt::print(stderr, "squall replay: {}\n", e.what());
    return false;
  }
  for (const char* name : names) fmt::print("wrote {}\n", (dir / name).string());
  return true;
}

// The fallback providers `policy` names that the trace never called: declared with the
// loader's defaults and flagged, so that the new policy can reach them.
std::vector<replay::PriorProvider> prior_providers(const replay::ReplayFit& fit, const PolicyConfig& policy,
                                                   const fs::path& file) {
  std::map<std::string, replay::PriorProvider> priors;
  for (const auto& [tool, strategies] : policy) {
    for (const StrategyConfig& s : strategies) {
      const auto* fallback = std::get_if<FallbackConfig>(&s);
      if (fallback == nullptr) continue;
      for (const std::string& name : fallback->providers) {
        const bool known = std::any_of(fit.providers.begin(), fit.providers.end(),
                                       [&](const replay::FittedProvider& p) { return p.name == name; });
        if (!known)
          priors.emplace(name, replay::PriorProvider{
                                   name, ProviderKind::llm,
                                   fmt::format("named by {}'s fallback for {}", file.filename().string(), tool)});
      }
    }
  }
  std::vector<replay::PriorProvider> out;
  for (auto& [name, p] : priors) out.push_back(std::move(p));
  return out;
}

// The fitted files, loaded back: the loader's verdict on them before anything is written.
struct FittedFiles {
  replay::ReplayFit fit;
  replay::ScenarioText text;
  replay::FitSources sources;
  std::string scenario_text;
  std::string policy_text;
  Scenario scenario;
};

FittedFiles fit_files(const ReplayOptions& options, const replay::TraceData& data, const replay::Grouping& grouping,
                      const std::optional<PolicyConfig>& candidate) {
  FittedFiles f;
  f.fit = replay::fit_replay(data, grouping);
  f.text.name = "replay-" + options.traces.front().stem().string();
  f.text.description = describe(options, data, grouping);
  if (candidate) f.text.priors = prior_providers(f.fit, *candidate, *options.policy);
  f.scenario_text = replay::scenario_yaml(f.fit, f.text, f.sources);
  f.policy_text = replay::policy_yaml(f.fit, f.sources);
  LoadResult loaded = load_scenario_text(f.scenario_text, *options.out_dir / kScenarioFile);
  check_loads(loaded.errors, kScenarioFile);
  check_loads(load_policy_text(f.policy_text, *options.out_dir / kPolicyFile).errors, kPolicyFile);
  f.scenario = std::move(*loaded.scenario);
  return f;
}

// The new policy on the fitted world, beside the trace and the as-deployed runs.
void print_counterfactual(const ReplayOptions& options, const replay::Figures& recorded, const FittedFiles& f,
                          const Scenario& with_candidate, const std::vector<SeedFigures>& as_deployed,
                          const std::vector<std::int64_t>& edges) {
  for (const replay::PriorProvider& p : f.text.priors)
    fmt::print("PRIOR provider \"{}\": {}; its calls are drawn from the loader's defaults, not the trace\n", p.name,
               p.why);
  const std::vector<SeedFigures> next =
      simulate_figures(with_candidate, with_candidate.policy, options.calibration_seeds, options.jobs, edges);
  fmt::print("counterfactual: {} on the fitted world, seeds 1..{} (common random numbers)\n", options.policy->string(),
             options.calibration_seeds);
  fmt::print("{}", counterfactual_table(recorded, as_deployed, next));
}

std::optional<PolicyConfig> read_candidate(const ReplayOptions& options, bool& ok) {
  ok = true;
  if (!options.policy) return std::nullopt;
  PolicyLoadResult loaded = load_policy_file(*options.policy);
  for (const ValidationError& e : loaded.errors) fmt::print(stderr, "squall replay: --policy: {}\n", to_string(e));
  ok = loaded.ok();
  return std::move(loaded.policy);
}

}  // namespace

bool outputs_refused(const ReplayOptions& options) {
  if (options.out_dir) {
    if (auto problem = dir_problem(*options.out_dir, options.traces)) {
      fmt::print(stderr, "squall replay: {}\n", *problem);
      return true;
    }
  }
  bool policy_ok = true;
  read_candidate(options, policy_ok);
  return !policy_ok;
}

int replay_out_dir(const ReplayOptions& options, const replay::TraceData& data, const replay::Grouping& grouping) {
  const fs::path& dir = *options.out_dir;
  if (grouping.tasks.empty()) {
    fmt::print(stderr, "squall replay: --out-dir {}: the trace holds no task to fit\n", dir.string());
    return kExitBadInput;
  }
  bool policy_ok = true;
  const std::optional<PolicyConfig> candidate = read_candidate(options, policy_ok);
  if (!policy_ok) return kExitBadInput;
  if (auto problem = prepare_dir(dir, options.traces)) {
    fmt::print(stderr, "squall replay: {}\n", *problem);
    return kExitBadInput;
  }
  const FittedFiles f = fit_files(options, data, grouping, candidate);
  // The candidate merges into the fitted world before anything runs or is written: a policy
  // for another world is exit 2.
  Scenario with_candidate = f.scenario;
  std::vector<std::string> notes;
  if (options.policy) {
    const std::vector<ValidationError> errors = apply_policy_file(with_candidate, *options.policy, &notes);
    for (const ValidationError& e : errors) fmt::print(stderr, "squall replay: {}\n", to_string(e));
    if (!errors.empty()) return kExitBadInput;
  }
  const std::vector<std::int64_t> edges = replay::calibration_edges(f.fit);
  const std::vector<SeedFigures> simulated =
      simulate_figures(f.scenario, f.scenario.policy, options.calibration_seeds, options.jobs, edges);
  std::vector<std::vector<replay::Figures>> bands;
  for (const SeedFigures& seed : simulated) bands.push_back(seed.windows);
  const replay::Calibration calibrated =
      replay::calibrate(edges, replay::window_figures(data, grouping, f.fit.origin_ns, edges), bands);
  const nlohmann::json calibration = {{"calibration", replay::calibration_json(calibrated)},
                                      {"provenance", sources_json(f.sources)}};
  if (!publish(dir,
               {f.scenario_text, f.policy_text, calibration.dump(2) + "\n", replay::calibration_markdown(calibrated)}))
    return kExitBadInput;
  fmt::print("{}", replay::calibration_summary(calibrated));
  for (const std::string& note : notes) fmt::print("{}\n", note);
  if (options.policy) {
    const replay::Figures recorded = replay::window_figures(data, grouping, f.fit.origin_ns, {0, edges.back()}).front();
    print_counterfactual(options, recorded, f, with_candidate, simulated, edges);
  }
  return calibrated.passed ? kExitOk : kExitThresholdFailed;
}

}  // namespace squall::cli
