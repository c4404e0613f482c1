#include "sim/world.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "engine/runtime/clock.hpp"
#include "engine/runtime/duration.hpp"
#include "sim/provider_record.hpp"

namespace squall {
namespace {

// The event loop's components (EventLoop::set_component): 0 is the simulator itself, 1 the
// workload's arrivals, 2 + i the tasks of template i.
constexpr ComponentId kArrivalsComponent = 1;
constexpr ComponentId kFirstTemplateComponent = 2;

const std::vector<StrategyConfig>& policy_of(const PolicyConfig& policy, std::string_view name) {
  static const std::vector<StrategyConfig> kNoStrategies;
  const auto it = policy.find(name);
  return it != policy.end() ? it->second : kNoStrategies;
}

}  // namespace

World::World(const Scenario& scenario, std::uint64_t seed)
    : own_corpora_(load_corpora(scenario)),
      scenario_(scenario),
      policy_(scenario.policy),
      corpora_(own_corpora_),
      seed_(seed),
      events_(recorder_) {
  build();
}

World::World(const Scenario& scenario, const PolicyConfig& policy, const Corpora& corpora, std::uint64_t seed,
             EventSink* observer, RunLimits limits)
    : scenario_(scenario),
      policy_(policy),
      corpora_(corpora),
      seed_(seed),
      tee_(observer != nullptr ? std::optional<TeeSink>(std::in_place, recorder_, *observer) : std::nullopt),
      events_(tee_ ? static_cast<EventSink&>(*tee_) : recorder_),
      limits_(limits) {
  build();
}

void World::build() {
  const RngFactory rngs = [this](std::string_view component) { return stream(component); };
  build_providers(rngs);
  build_tools(rngs);
  build_plans();
  arrival_rng_ = stream("workload/arrivals");
  task_rng_ = stream("workload/templates");
  query_rng_ = stream("workload/queries");
}

World::~World() = default;

void World::build_providers(const RngFactory& rngs) {
  for (const ProviderConfig& config : scenario_.providers) {
    const LoadedCorpus* corpus = corpus_of(scenario_, corpora_, config);
    BuiltProvider& built =
        providers_
            .emplace(config.name, make_provider(config, corpus != nullptr ? corpus->corpus : nullptr, loop_, loop_,
                                                rngs, corpus != nullptr ? corpus->index : nullptr,
                                                CapacitySeriesOptions{recorder_.window(), kMaxWindows},
                                                scenario_.start_unix_seconds, quotas_.find(config.quota_group)))
            .first->second;
    // The provider's stack: its own policy entry (only a scenario with a `tools` block
    // gives providers entries of their own), then the SDK's retries innermost. The SDK
    // retry's stream is "policy/<provider>/sdk/0/retry", apart from any tool's of the
    // same name.
    std::vector<std::unique_ptr<Strategy>> strategies;
    if (scenario_.explicit_tools) {
      strategies = build_strategies(config.name, policy_of(policy_, config.name), registry_.env(), rngs, policy_rngs_);
    }
    if (config.sdk_retry) {
      auto sdk = build_strategies(config.name + "/sdk", {StrategyConfig(*config.sdk_retry)}, registry_.env(), rngs,
                                  policy_rngs_);
      strategies.push_back(std::move(sdk.front()));
    }
    registry_.add(describe(config), *built.provider, std::move(strategies));
  }
}

void World::build_tools(const RngFactory& rngs) {
  tools_.reserve(scenario_.tools.size());  // plans point into it
  for (const ToolConfig& tool : scenario_.tools) {
    BuiltPipeline& built = pipelines_.emplace_back(
        build_pipeline(tool.name, policy_of(policy_, tool.name), registry_, registry_.env(), rngs));
    tools_.push_back(ToolPlan{tool.name, *registry_.find(tool.provider), built.pipeline.get(),
                              find_escalation(policy_of(policy_, tool.name))});
  }
}

void World::build_plans() {
  for (const TaskTemplate& tpl : scenario_.workload.tasks) {
    TaskPlan& plan = plans_.emplace_back();
    const std::vector<PoolQuery>*& queries = plan_queries_.emplace_back(nullptr);
    plan.name = tpl.name;
    plan.deadline = tpl.deadline;
    for (const StepConfig& step : tpl.steps) {
      const auto tool =
          std::find_if(tools_.begin(), tools_.end(), [&](const ToolPlan& t) { return t.name == step.tool; });
      plan.steps.push_back(StepPlan{&*tool, step.optional, step.query_from.has_value(), step.prompt_tokens,
                                    step.max_output_tokens, step.required, step.top_k, step.min_score,
                                    step.search_mode});
      if (step.query_from && queries == nullptr) queries = &scenario_.workload.queries.find(*step.query_from)->second;
    }
    plan.resolve_escalation();
  }
}

std::unique_ptr<Rng> World::stream(std::string_view component) const {
  return std::make_unique<Xoshiro256>(stream_seed(seed_, component));
}

Task<void> World::arrivals() {
  const WorkloadConfig& workload = scenario_.workload;
  ArrivalSchedule schedule(workload.arrivals, scenario_.duration);
  std::vector<double> weights;
  weights.reserve(workload.tasks.size());
  for (const TaskTemplate& t : workload.tasks) weights.push_back(t.weight);
  const std::int64_t max_tasks = workload.arrivals.max_tasks.value_or(INT64_MAX);
  // Lists of one query each leave nothing to choose; the stream serves only these choices,
  // so not drawing from it changes nothing else. With any longer list every task draws, as
  // the draws of one template's tasks shift those of another's.
  const bool draw_queries = std::any_of(plan_queries_.begin(), plan_queries_.end(),
                                        [](const std::vector<PoolQuery>* q) { return q != nullptr && q->size() > 1; });

  // Every task starts from this context but for its id (TaskContext::id says why it is
  // set here, not built afresh per task).
  TaskContext fresh;
  for (std::int64_t n = 0; n < max_tasks; ++n) {
    const std::optional<TimePoint> at = schedule.next(*arrival_rng_);
    if (!at) break;
    co_await sleep_until(loop_, *at);
    // One template leaves nothing to choose; its stream serves only this choice, so not
    // drawing from it changes nothing else.
    const std::size_t index = plans_.size() == 1 ? 0 : task_rng_->weighted_index(weights);
    // The first search step's query is drawn now, from the workload's own stream.
    const std::vector<PoolQuery>* queries = plan_queries_[index];
    const PoolQuery* query = nullptr;
    if (queries != nullptr) query = &(*queries)[draw_queries ? query_rng_->uniform_int(queries->size()) : 0];
    ++tasks_started_;
    const std::uint64_t in_flight = tasks_started_ - recorder_.tasks_finished();
    peak_in_flight_ = std::max(peak_in_flight_, in_flight);
    if (in_flight > limits_.max_tasks_in_flight) {
      throw RunLimitExceeded(
          RunLimitExceeded::Limit::tasks_in_flight,
          fmt::format(
              "at {} of simulated time, more than {} tasks were in flight (the limit) while tasks arrived at {:g} "
              "per second: tasks arrive faster than they finish, or the limit is too low for this workload",
              format_duration(*at), limits_.max_tasks_in_flight, schedule.rate_at(*at)));
    }
    loop_.set_component(kFirstTemplateComponent + static_cast<ComponentId>(index));
    fresh.id = static_cast<std::uint64_t>(n);
    spawn(runner_.run(fresh, plans_[index], query), tasks_);
    loop_.set_component(kArrivalsComponent);
  }
}

std::string World::component_name(ComponentId component) const {
  if (component == kArrivalsComponent) return "the workload's arrivals";
  if (component >= kFirstTemplateComponent && component - kFirstTemplateComponent < plans_.size()) {
    return fmt::format("a task of template \"{}\"", plans_[component - kFirstTemplateComponent].name);
  }
  return "the simulator";
}

void World::record_providers(Nanos duration) {
  // In the scenario's order, as the report lists injected faults.
  for (const ProviderConfig& config : scenario_.providers) {
    record_provider(recorder_, config, providers_.find(config.name)->second, duration);
  }
}

Report World::run() {
  loop_.set_component(kArrivalsComponent);
  spawn(arrivals(), tasks_);
  try {
    // In slices, so that a component's error (a run limit) stops the run at once rather
    // than after every task in flight has finished.
    constexpr std::uint64_t kSlice = 1 << 16;
    while (!tasks_.error() && !loop_.empty()) {
      loop_.run(kSlice);
      if (progress_)
        progress_(RunProgress{loop_.now(), scenario_.duration, tasks_started_, recorder_.tasks_finished()});
    }
  } catch (const SimulationStalled& stall) {
    throw RunLimitExceeded(
        RunLimitExceeded::Limit::events_per_instant,
        fmt::format(
            "virtual time stopped advancing at {}: {} events in a row at that instant, the last scheduled by {} "
            "(a loop that never waits, EventLoop::kMaxEventsPerInstant)",
            format_duration(stall.at()), EventLoop::kMaxEventsPerInstant, component_name(stall.component())));
  }
  if (tasks_.error()) std::rethrow_exception(tasks_.error());
  if (tasks_started_ != recorder_.tasks_finished()) {
    throw std::logic_error("simulation ended with unfinished tasks: a coroutine was never resumed");
  }
  const RunInfo info{scenario_.name, seed_, std::max(scenario_.duration, loop_.now())};
  record_providers(info.duration);
  return build_report(recorder_, info, scenario_.thresholds);
}

}  // namespace squall
