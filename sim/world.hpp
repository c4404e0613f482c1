// World: one simulation of one scenario under one seed.
//
// Wires the scenario into the kernel: an EventLoop, a random stream per component
// (stream_seed(seed, name)), the mock providers wrapped in their chaos decorators, the
// engine's ProviderRegistry (each provider with its own stack: its policy entry, then its
// SDK retries innermost), one pipeline per tool ending in the registry, the TaskRunner,
// the workload that starts tasks, and the Recorder that sees every event. run() advances virtual time until the
// scenario's duration has passed and every started task has finished, then returns the report.
//
// Everything a task draws at random (its template, its query) is drawn when it arrives,
// from the workload's own streams, so two policies run on the same seed see the same
// tasks in the same order (common random numbers).
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/policy.hpp"
#include "engine/provider_registry.hpp"
#include "engine/task_runner.hpp"
#include "engine/tee_sink.hpp"
#include "mocks/make_provider.hpp"
#include "reports/recorder.hpp"
#include "reports/report.hpp"
#include "sim/arrivals.hpp"
#include "sim/corpora.hpp"
#include "sim/event_loop.hpp"
#include "sim/scenario.hpp"

namespace squall {

// Bounds that stop a run a scenario made too big to finish, instead of letting it eat the
// machine's memory (DESIGN section 9).
struct RunLimits {
  // Tasks started and not yet finished. A task in flight holds its coroutine frames
  // (bench/README.md states the bytes per task), so a million is a few gigabytes at most;
  // a model whose tasks pile up past it is overloaded beyond any answer, and its run
  // would not end in reasonable time. `squall run --max-in-flight` changes it.
  std::uint64_t max_tasks_in_flight = 1'000'000;
};

// Thrown by World::run when the run exceeded a limit of the simulator: the scenario asks
// for more than it will hold or do (exit 2, no report). Two limits:
//   - tasks_in_flight: RunLimits::max_tasks_in_flight (`squall run --max-in-flight`); the
//     message names the time, the arrival rate and the limit;
//   - events_per_instant: virtual time stopped advancing (EventLoop::kMaxEventsPerInstant
//     events in a row at one instant: retries with no delay against answers that take no
//     time, nested so that they never run out); the message names the time and the task
//     template or arrival process that scheduled the last of them.
// Both are verdicts on the scenario, not internal errors: the same file always stops at
// the same point.
class RunLimitExceeded : public std::runtime_error {
 public:
  enum class Limit { tasks_in_flight, events_per_instant };
  RunLimitExceeded(Limit limit, const std::string& message) : std::runtime_error(message), limit_(limit) {}
  Limit limit() const { return limit_; }

 private:
  Limit limit_;
};

// How far a run has got, for a progress display on stderr (cli/progress.hpp). World
// reports it between slices of events (every 65,536 events); reading it changes nothing in
// the run, so a run with a progress callback gives the same report as one without.
struct RunProgress {
  TimePoint now = 0;   // the virtual clock
  Nanos duration = 0;  // the scenario's duration (a run may go past it)
  std::uint64_t tasks_started = 0;
  std::uint64_t tasks_finished = 0;
};
using ProgressCallback = std::function<void(const RunProgress&)>;

class World {
 public:
  // Builds every component with `policy` (the scenario's own, or a replacement checked
  // against it) and the scenario's corpora, loaded once (sim/corpora.hpp). The scenario,
  // policy and corpora must outlive the world. `observer`, when given (and then it must
  // outlive the world too), sees every event after the recorder, in the same order (the
  // JSONL trace); without one the engine talks to the recorder directly.
  World(const Scenario& scenario, const PolicyConfig& policy, const Corpora& corpora, std::uint64_t seed,
        EventSink* observer = nullptr, RunLimits limits = {});
  // The same with the scenario's own policy, loading its corpora. Throws CorpusError.
  World(const Scenario& scenario, std::uint64_t seed);
  World(const World&) = delete;
  World& operator=(const World&) = delete;
  ~World();

  // Runs the simulation to completion. Call once. Throws RunLimitExceeded (above), and
  // whatever a component or the progress callback threw; the tasks still in flight are
  // then destroyed with the world.
  Report run();
  // Called by run() between slices of events, and once at the end (RunProgress above).
  void set_progress(ProgressCallback progress) { progress_ = std::move(progress); }

  const EventLoop& loop() const { return loop_; }
  // The most tasks in flight (started, not finished) when a task arrived; for the bytes
  // per in-flight task of bench/README.md.
  std::uint64_t peak_tasks_in_flight() const { return peak_in_flight_; }

 private:
  void build();
  Task<void> arrivals();
  std::unique_ptr<Rng> stream(std::string_view component) const;
  // Who scheduled an event, for the stalled run's message.
  std::string component_name(ComponentId component) const;
  void build_providers(const RngFactory& rngs);
  void build_tools(const RngFactory& rngs);
  void build_plans();
  // The end-of-run counters of the chaos and capacity layers, handed to the recorder
  // (sim/provider_record.hpp).
  void record_providers(Nanos duration);

  Corpora own_corpora_;  // loaded by the second constructor only
  const Scenario& scenario_;
  const PolicyConfig& policy_;
  const Corpora& corpora_;
  std::uint64_t seed_;
  EventLoop loop_;
  Recorder recorder_;
  std::optional<TeeSink> tee_;  // the recorder, then the observer; only with an observer
  EventSink& events_;           // what the engine reports to: tee_ or recorder_
  QuotaBucketMap quotas_{scenario_.quota_groups};
  std::map<std::string, BuiltProvider, std::less<>> providers_;  // the mocks
  ProviderRegistry registry_{EngineEnv{loop_, loop_, events_, nullptr, scenario_.start_unix_seconds}};
  std::vector<std::unique_ptr<Rng>> policy_rngs_;  // the streams of every strategy
  std::vector<BuiltPipeline> pipelines_;           // the tools' pipelines
  std::vector<ToolPlan> tools_;                    // sorted by name, as scenario.tools
  std::vector<TaskPlan> plans_;                    // by index into workload.tasks
  // Per plan: the first search step's query list, drawn from when a task arrives.
  std::vector<const std::vector<PoolQuery>*> plan_queries_;
  TaskRunner runner_{registry_.env()};
  std::unique_ptr<Rng> arrival_rng_;
  std::unique_ptr<Rng> task_rng_;
  std::unique_ptr<Rng> query_rng_;
  std::uint64_t tasks_started_ = 0;
  std::uint64_t peak_in_flight_ = 0;
  RunLimits limits_;
  ProgressCallback progress_;
  // The arrivals and every task, until they finish. Last, so that it is destroyed first:
  // a run stopped early (a run limit, an exception, an interrupt thrown from the progress
  // callback) leaves tasks suspended, and their frames reference everything above.
  SpawnScope tasks_;
};

}  // namespace squall
