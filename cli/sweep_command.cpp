// `squall sweep` and `squall merge` (cli/commands.hpp, docs/sweeps.md).
#include <chrono>
#include <cstdio>
#include <set>
#include <variant>

#include <fmt/core.h>

#include "cli/commands.hpp"
#include "cli/output_file.hpp"
#include "cli/output_path.hpp"
#include "cli/progress.hpp"
#include "cli/report_requests.hpp"
#include "cli/run_inputs.hpp"
#include "cli/sweep_gate.hpp"
#include "cli/terminal.hpp"
#include "engine/text.hpp"
#include "reports/atomic_file.hpp"
#include "reports/sweep_json.hpp"
#include "reports/sweep_merge.hpp"
#include "reports/sweep_names.hpp"
#include "reports/writers/sweep_html.hpp"
#include "reports/writers/sweep_tables.hpp"
#include "sim/parallel_runs.hpp"
#include "sim/sweep/sweep_runner.hpp"

namespace squall::cli {
namespace {

namespace fs = std::filesystem;

// Checks --out and --report for a sweep's outputs: json, markdown, csv and html.
std::optional<std::string> check_requests(const ReportRequests& requests, std::string_view command) {
  if (requests.error) return requests.error;
  for (const ReportRequest& r : requests.requests) {
    const std::string_view name = r.format->name;
    if (name != "json" && name != "markdown" && name != "csv" && name != "html") {
      return fmt::format(
          "{} writes json, markdown, csv and html reports; {} is one run's report: use `squall run "
          "SCENARIO --report {}=PATH`",
          command, name, name);
    }
  }
  return std::nullopt;
}

std::string render(std::string_view format, const SweepResult& result, const SweepAnalysis& analysis) {
  if (format == "json") return sweep_json_text(result, analysis);
  if (format == "markdown") return sweep_markdown(result, analysis);
  if (format == "csv") return sweep_csv(result, analysis);
  return sweep_html_page(result, analysis);
}

// The table on stdout (unless quiet), the requested files, then the gate's verdict. Returns
// the exit code.
int write_outputs(const SweepResult& result, const std::vector<ReportRequest>& requests, bool quiet,
                  std::string_view command, const std::optional<SweepGateRequest>& gate) {
  const SweepAnalysis analysis = analyse(result);
  if (!quiet) fmt::print("{}", sweep_table(result, analysis));
  try {
    // Every file is written before any is published (AtomicFileBatch).
    AtomicFileBatch batch;
    for (const ReportRequest& r : requests) batch.add(resolve_output(r.path), render(r.format->name, result, analysis));
    batch.commit();
    for (const ReportRequest& r : requests) {
      if (!quiet) fmt::print("{} report written to {}\n", r.format->name, r.path.string());
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "squall {}: cannot write report: {}\n", command, e.what());
    return kExitBadInput;
  }
  return gate ? judge_sweep_gate(result, analysis, *gate) : kExitOk;
}

// --fail-on and --candidate against the variants' names: the gate (none without
// --fail-on), or exit_code set to a usage error.
std::optional<SweepGateRequest> read_gate(const std::vector<std::string>& fail_on,
                                          const std::optional<std::string>& candidate,
                                          const std::vector<std::string>& variants,
                                          const std::vector<SweepParams>& params, std::size_t baseline,
                                          std::string_view command, int& exit_code) {
  auto parsed = parse_sweep_gate(fail_on, candidate, variants, baseline);
  if (const auto* problem = std::get_if<std::string>(&parsed)) {
    fmt::print(stderr, "squall {}: {}\n", command, *problem);
    exit_code = kExitBadInput;
    return std::nullopt;
  }
  const auto* request = std::get_if<SweepGateRequest>(&parsed);
  if (request == nullptr) return std::nullopt;
  if (!shares_baseline_scenario(params, baseline)[request->candidate]) {
    // A verdict between two scenarios would judge the scenario, not the policy.
    const auto setting = [&](std::size_t v) {
      const std::string label = scenario_setting_label(params[v]);
      return label.empty() ? std::string("the scenario as written") : label;
    };
    fmt::print(stderr,
               "squall {}: --candidate \"{}\" runs other scenario settings ({}) than the baseline {} ({}): the gate "
               "compares variants on the same scenario\n",
               command, escape_controls(variants[request->candidate]), setting(request->candidate), variants[baseline],
               setting(baseline));
    exit_code = kExitBadInput;
    return std::nullopt;
  }
  return *request;
}

std::optional<SweepShard> parse_shard(const std::string& text) {
  const std::size_t slash = text.find('/');
  if (slash == std::string::npos) return std::nullopt;
  const auto i = parse_seed(text.substr(0, slash));
  const auto n = parse_seed(text.substr(slash + 1));
  if (!i || !n || *i < 1 || *i > *n || *n > kMaxShards) return std::nullopt;
  return SweepShard{static_cast<std::size_t>(*i), static_cast<std::size_t>(*n)};
}

// The files no output may overwrite: the sweep file, the scenario and the corpora it reads
// (cli/run_inputs.hpp), and every variant's policy file.
std::vector<fs::path> inputs_of(const SweepSpec& spec) {
  std::vector<fs::path> inputs{spec.file};
  for (fs::path& input : run_inputs(spec.scenario_file)) inputs.push_back(std::move(input));
  for (const SweepVariant& v : spec.variants) {
    if (v.policy_file) inputs.push_back(spec.file.parent_path() / *v.policy_file);
  }
  return inputs;
}

// Messages name files and values as given: escaped for the terminal (engine/text.hpp).
int bad_input(const std::string& message) {
  fmt::print(stderr, "{}\n", escape_controls(message));
  return kExitBadInput;
}

// The plan of `--dry-run`: what the sweep would run, from the file alone. Runs are
// numbered variant-major as the sweep numbers them, so a shard's share is every run k with
// k mod n = i - 1.
void print_plan(const SweepSpec& spec, const std::optional<SweepShard>& shard) {
  const std::size_t seeds = spec.target ? spec.target->max_seeds : spec.seeds;
  const std::uint64_t last_seed = spec.first_seed + (seeds - 1);  // the loader checked it fits
  const std::size_t runs = spec.variants.size() * seeds;
  fmt::print("squall sweep {}: scenario {}, {} x {} ({}..{}), baseline {}\n", spec.name, spec.scenario.name,
             counted(spec.variants.size(), "variant"),
             spec.target ? fmt::format("{} to {} seeds", spec.target->min_seeds, spec.target->max_seeds)
                         : counted(seeds, "seed"),
             spec.first_seed, last_seed, spec.variants[spec.baseline].name);
  std::size_t width = 0;
  for (const SweepVariant& v : spec.variants) width = std::max(width, v.name.size());
  for (const SweepVariant& v : spec.variants) {
    fmt::print("  {:<{}}  {}\n", v.name, width, v.policy_file ? *v.policy_file : "the scenario's policy");
  }
  if (shard) {
    const std::size_t share = runs / shard->count + (shard->index - 1 < runs % shard->count ? 1 : 0);
    // A sweep with a target is never sharded: its runs are known.
    fmt::print("dry run: shard {}/{} would run {} of the {}; nothing was run or written\n", shard->index, shard->count,
               share, counted(runs, "run"));
  } else {
    fmt::print("dry run: {}{}; nothing was run or written\n", spec.target ? "at most " : "", counted(runs, "run"));
  }
}

// --shard i/n, well formed, with --out (unless a dry run) and without --report: the
// shard, or nullopt with `exit_code` set when the flags are wrong.
std::optional<SweepShard> read_shard_flags(const SweepOptions& options, int& exit_code) {
  exit_code = kExitOk;
  if (!options.shard) return std::nullopt;
  std::optional<SweepShard> shard = parse_shard(*options.shard);
  if (!shard) {
    exit_code = bad_input(fmt::format("squall sweep: --shard expects i/n with 1 <= i <= n <= {}, got \"{}\"",
                                      kMaxShards, *options.shard));
  } else if (!options.out && !options.dry_run) {
    exit_code = bad_input("squall sweep: --shard writes a partial result: give --out PATH");
  } else if (!options.reports.empty()) {
    exit_code =
        bad_input("squall sweep: --shard writes only the partial result (--out); `squall merge` writes the reports");
  }
  return exit_code == kExitOk ? shard : std::nullopt;
}

// Runs every variant on `jobs` threads with the progress line the flags ask for; the
// result, or nullopt with `exit_code` set when the corpora or a run failed.
std::optional<SweepResult> run_variants(const SweepSpec& spec, const SweepOptions& options,
                                        const std::optional<SweepShard>& shard, std::size_t jobs, int& exit_code) {
  const auto wall_start = std::chrono::steady_clock::now();
  ProgressLine progress_line(stderr, is_terminal(stderr));
  SweepRunOptions run_options;
  run_options.jobs = jobs;
  run_options.shard = shard;
  if (show_progress(options.progress, options.quiet, is_terminal(stderr))) {
    run_options.progress = [&](std::size_t done, std::size_t planned) {
      const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - wall_start;
      progress_line.show([&] { return sweep_progress_text(done, planned, elapsed.count()); }, elapsed.count());
    };
  }
  std::optional<SweepResult> result;
  try {
    const PreparedScenario prepared(spec.scenario);
    result = run_sweep(spec, prepared, run_options);
    progress_line.finish();
  } catch (const CorpusError& e) {
    progress_line.finish();
    exit_code = bad_input(e.what());
    return std::nullopt;
  } catch (const SweepRunFailed& e) {
    progress_line.finish();
    fmt::print(stderr, "squall sweep: {}\n", e.what());
    exit_code = e.limit() ? kExitBadInput : kExitInternalError;
    return std::nullopt;
  }
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - wall_start;
  // Wall time varies from run to run: stderr, so stdout is the same for any --jobs.
  if (!options.quiet) {
    fmt::print(stderr, "ran {} on {} in {:.2f} s of wall time\n", counted(result->runs.size(), "run"),
               counted(jobs, "job"), wall.count());
  }
  return result;
}

int write_partial(const SweepSpec& spec, const SweepResult& result, const SweepShard& shard,
                  const SweepOptions& options) {
  try {
    const fs::path target = resolve_output(*options.out);
    write_file_atomic(target, partial_json_text(result, shard.index, shard.count,
                                                path_from_directory_of(target, options.sweep).string()));
  } catch (const std::exception& e) {
    return bad_input(fmt::format("squall sweep: cannot write the partial result: {}", e.what()));
  }
  if (!options.quiet) {
    fmt::print("squall sweep {}: shard {}/{}: {} runs; partial result written to {}\n", spec.name, shard.index,
               shard.count, result.runs.size(), options.out->string());
  }
  return kExitOk;
}

// The gate `sweep --fail-on` asks for, its candidate checked against the expanded variants.
std::optional<SweepGateRequest> sweep_gate(const SweepOptions& options, const SweepSpec& spec, int& exit_code) {
  std::vector<std::string> names;
  std::vector<SweepParams> params;
  for (const SweepVariant& v : spec.variants) {
    names.push_back(v.name);
    params.push_back(v.params);
  }
  return read_gate(options.fail_on, options.candidate, names, params, spec.baseline, "sweep", exit_code);
}

// Each variant policy's merge notes, once per policy file (a grid's variants share them).
void print_policy_notes(const SweepSpec& spec) {
  std::set<std::string> printed;
  for (const SweepVariant& v : spec.variants) {
    for (const std::string& note : v.policy_notes) {
      if (printed.insert(note).second) fmt::print(stderr, "squall sweep: note: {}\n", escape_controls(note));
    }
  }
}

}  // namespace

int sweep_command(const SweepOptions& options) {
  int exit_code = kExitOk;
  const std::optional<SweepShard> shard = read_shard_flags(options, exit_code);
  if (exit_code != kExitOk) return exit_code;
  SweepLoadResult loaded = load_sweep(options.sweep);
  if (!loaded.ok()) {
    for (const ValidationError& e : loaded.errors) fmt::print(stderr, "{}\n", to_string(e));
    return kExitBadInput;
  }
  const SweepSpec& spec = *loaded.spec;
  if (shard && spec.target) {
    return bad_input(
        fmt::format("squall sweep: {}: a sweep with a target cannot be sharded (each shard would stop on "
                    "its own evidence): give \"seeds\" instead",
                    options.sweep.string()));
  }
  if (shard && !options.fail_on.empty()) {
    return bad_input("squall sweep: --fail-on judges the whole sweep: give it to `squall merge`, not to a shard");
  }
  const std::optional<SweepGateRequest> gate = sweep_gate(options, spec, exit_code);
  if (exit_code != kExitOk) return exit_code;
  const std::vector<fs::path> inputs = inputs_of(spec);
  const ReportRequests requests = parse_report_requests(shard ? std::vector<std::string>{} : options.reports,
                                                        shard ? std::nullopt : options.out, inputs);
  if (const auto problem = check_requests(requests, "sweep"))
    return bad_input(fmt::format("squall sweep: {}", *problem));
  if (shard && options.out) {
    if (const auto problem = output_problem(*options.out, inputs)) {
      return bad_input(
          fmt::format("squall sweep: cannot write the partial result (--out {}): {}", options.out->string(), *problem));
    }
  }

  if (options.dry_run) {
    // What only the loaded corpora can tell (ground-truth links) is checked as a run
    // checks it: a dry run passes exactly the sweeps a run does not refuse.
    try {
      const PreparedScenario prepared(spec.scenario);
    } catch (const CorpusError& e) {
      return bad_input(e.what());
    }
    print_plan(spec, shard);
    return kExitOk;
  }
  const std::size_t jobs = options.jobs == 0 ? default_jobs() : options.jobs;
  const std::size_t seeds = spec.target ? spec.target->min_seeds : spec.seeds;
  print_policy_notes(spec);
  if (!options.quiet) {
    fmt::print(stderr, "squall sweep {}: {} x {}{}, {}\n", spec.name, counted(spec.variants.size(), "variant"),
               spec.target ? fmt::format("{} or more seeds", seeds) : counted(seeds, "seed"),
               shard ? fmt::format(", shard {}/{}", shard->index, shard->count) : "", counted(jobs, "job"));
  }
  const std::optional<SweepResult> result = run_variants(spec, options, shard, jobs, exit_code);
  if (!result) return exit_code;
  if (shard) return write_partial(spec, *result, *shard, options);
  return write_outputs(*result, requests.requests, options.quiet, "sweep", gate);
}

// The files a merge's outputs must not overwrite: the partials, and the sweep's inputs as
// the partials name them (the sweep file, the scenario and its corpora, each variant's
// policy file, resolved as the sweep resolved them) and, when the sweep file can still be
// read, as it names them now, so that an edited or broken sweep file protects no less.
// A partial names the sweep file from its own directory too (sweep_file_from_partial):
// that is where merge, run from another directory than the sweep, finds it.
std::vector<fs::path> merge_inputs(const MergeOptions& options, const std::vector<PartialFile>& files,
                                   const SweepResult& result) {
  std::vector<fs::path> inputs = options.partials;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const Json* from =
        files[i].doc.contains("sweep_file_from_partial") ? &files[i].doc["sweep_file_from_partial"] : nullptr;
    if (from == nullptr) continue;
    const fs::path sweep_file = options.partials[i].parent_path() / from->get<std::string>();
    inputs.push_back(sweep_file);
    for (const SweepVariantInfo& v : result.variants) {
      if (v.policy != "scenario") inputs.push_back(sweep_file.parent_path() / v.policy);
    }
    const SweepLoadResult loaded = load_sweep(sweep_file);
    if (loaded.ok()) {
      for (fs::path& input : inputs_of(*loaded.spec)) inputs.push_back(std::move(input));
    }
  }
  inputs.push_back(result.sweep_file);
  for (fs::path& input : run_inputs(result.scenario_file)) inputs.push_back(std::move(input));
  for (const SweepVariantInfo& v : result.variants) {
    if (v.policy != "scenario") inputs.push_back(fs::path(result.sweep_file).parent_path() / v.policy);
  }
  const SweepLoadResult loaded = load_sweep(result.sweep_file);
  if (loaded.ok()) {
    for (fs::path& input : inputs_of(*loaded.spec)) inputs.push_back(std::move(input));
  }
  return inputs;
}

int merge_command(const MergeOptions& options) {
  if (const auto problem =
          check_requests(parse_report_requests(options.reports, options.out, options.partials), "merge")) {
    return bad_input(fmt::format("squall merge: {}", *problem));
  }
  std::vector<PartialFile> files;
  for (const fs::path& file : options.partials) {
    auto doc = read_output_file(file, FileKind::sweep_partial);
    if (const auto* error = std::get_if<std::string>(&doc)) return bad_input(fmt::format("squall merge: {}", *error));
    files.push_back(PartialFile{file.string(), std::get<Json>(std::move(doc))});
  }
  SweepResult result;
  try {
    result = merge_partials(files);
  } catch (const std::runtime_error& e) {
    return bad_input(fmt::format("squall merge: {}", e.what()));
  }
  const ReportRequests requests =
      parse_report_requests(options.reports, options.out, merge_inputs(options, files, result));
  if (const auto problem = check_requests(requests, "merge"))
    return bad_input(fmt::format("squall merge: {}", *problem));
  std::vector<std::string> names;
  std::vector<SweepParams> params;
  for (const SweepVariantInfo& v : result.variants) {
    names.push_back(v.name);
    params.push_back(v.params);
  }
  int exit_code = kExitOk;
  const std::optional<SweepGateRequest> gate =
      read_gate(options.fail_on, options.candidate, names, params, result.baseline, "merge", exit_code);
  if (exit_code != kExitOk) return exit_code;
  return write_outputs(result, requests.requests, options.quiet, "merge", gate);
}

}  // namespace squall::cli
