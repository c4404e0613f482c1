#include "sim/world.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "engine/runtime/clock.hpp"
#include "mocks/corpus.hpp"

namespace squall {

struct World::Tool {
  std::string name;  // owns the storage CallContext::tool points into
  BuiltPipeline built;
};

namespace {

// A task ends at its first step that does not succeed; this maps that step's outcome to
// the task's status and reason. An empty search that the policy could not repair, and a
// spent budget, end the task with a structured "no answer" (seed 000, seed 001): the
// agent reports it instead of guessing, which is a safe failure, not a failure.
TaskResult classify_task_end(OutcomeKind kind) {
  TaskResult r;
  switch (kind) {
    case OutcomeKind::empty:
      r.status = TaskStatus::safe_failed;
      r.reason = "no_records_found";
      break;
    case OutcomeKind::budget_exhausted:
      r.status = TaskStatus::safe_failed;
      r.reason = "budget_exhausted";
      break;
    default:
      r.status = TaskStatus::failed;
      r.reason = to_string(kind);
      break;
  }
  return r;
}

std::shared_ptr<const Corpus> corpus_for(const Scenario& scenario, const ProviderConfig& config,
                                         std::map<std::filesystem::path, std::shared_ptr<const Corpus>>& cache) {
  const auto* search = std::get_if<WebSearchConfig>(&config.spec);
  if (search == nullptr) return nullptr;
  auto& slot = cache[corpus_path(scenario, *search)];
  if (!slot) slot = std::make_shared<const Corpus>(Corpus::load(corpus_path(scenario, *search)));
  return slot;
}

}  // namespace

World::World(const Scenario& scenario, std::uint64_t seed) : scenario_(scenario), seed_(seed) {
  const RngFactory rngs = [this](std::string_view component) { return stream(component); };
  std::map<std::filesystem::path, std::shared_ptr<const Corpus>> corpora;
  for (const ProviderConfig& config : scenario.providers) {
    providers_.emplace(config.name,
                       make_provider(config, corpus_for(scenario, config, corpora), loop_, loop_, rngs));
  }
  const EngineEnv env{loop_, loop_, recorder_};
  for (const ProviderConfig& config : scenario.providers) {
    auto tool = std::make_unique<Tool>();
    tool->name = config.name;
    const auto policy = scenario.policy.find(config.name);
    static const std::vector<StrategyConfig> kNoStrategies;
    const auto& strategies = policy != scenario.policy.end() ? policy->second : kNoStrategies;
    tool->built = build_pipeline(tool->name, strategies, *providers_.at(config.name).provider, env, rngs);
    tools_.emplace(config.name, std::move(tool));
  }
  for (const TaskTemplate& tpl : scenario.workload.tasks) {
    Plan& plan = plans_.emplace_back();
    plan.tpl = &tpl;
    for (const StepConfig& step : tpl.steps) {
      plan.step_tools.push_back(tools_.find(step.tool)->second.get());
      if (step.query_from && plan.queries == nullptr) {
        plan.queries = &scenario.workload.queries.find(*step.query_from)->second;
      }
    }
  }
  arrival_rng_ = stream("workload/arrivals");
  task_rng_ = stream("workload/templates");
  query_rng_ = stream("workload/queries");
}

World::~World() = default;

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

  for (std::int64_t n = 0; n < max_tasks; ++n) {
    const std::optional<TimePoint> at = schedule.next(*arrival_rng_);
    if (!at) break;
    co_await sleep_until(loop_, *at);
    // One template leaves nothing to choose; its stream serves only this choice, so not
    // drawing from it changes nothing else.
    const Plan& plan = plans_.size() == 1 ? plans_.front() : plans_[task_rng_->weighted_index(weights)];
    // The first search step's query is drawn now, from the workload's own stream.
    const std::string* query = nullptr;
    if (plan.queries != nullptr) query = &(*plan.queries)[query_rng_->uniform_int(plan.queries->size())];
    spawn(run_task(static_cast<std::uint64_t>(n), plan, query), &error_);
  }
}

Task<void> World::run_task(std::uint64_t id, const Plan& plan, const std::string* query) {
  const TaskTemplate& tpl = *plan.tpl;
  ++tasks_started_;
  TaskContext task;
  task.id = id;
  task.started = loop_.now();
  task.deadline = add_saturating(task.started, tpl.deadline);

  std::int64_t context_tokens = 0;  // tokens of the previous step's hits, fed to an LLM step
  TaskResult result;
  result.status = TaskStatus::succeeded;
  for (std::size_t i = 0; i < tpl.steps.size(); ++i) {
    const StepConfig& step = tpl.steps[i];
    Tool& tool = *plan.step_tools[i];
    Request request;
    if (step.query_from && query != nullptr) request.query = *query;
    request.prompt_tokens = step.prompt_tokens + context_tokens;
    request.max_output_tokens = step.max_output_tokens;
    CallContext ctx{task, tool.name};
    const Outcome outcome = co_await tool.built.pipeline->execute(ctx, request);
    recorder_.on_logical_call(tool.name, ctx.attempts, outcome.kind);
    if (outcome.kind != OutcomeKind::success) {
      result = classify_task_end(outcome.kind);
      break;
    }
    context_tokens = 0;
    for (const SearchResult& hit : outcome.response.results) context_tokens += hit.snippet_tokens;
  }
  if (result.status == TaskStatus::succeeded && task.has(Degradation::simplified_query)) {
    result.status = TaskStatus::degraded;
    result.reason = "simplified_query";
  }
  result.id = id;
  result.template_name = tpl.name;
  result.started = task.started;
  result.finished = loop_.now();
  result.tokens = task.tokens_spent;
  result.cost_usd = task.cost_spent_usd;
  recorder_.on_task_finished(result);
  ++tasks_finished_;
}

Report World::run() {
  spawn(arrivals(), &error_);
  loop_.run();
  if (error_) std::rethrow_exception(error_);
  if (tasks_started_ != tasks_finished_) {
    throw std::logic_error("simulation ended with unfinished tasks: a coroutine was never resumed");
  }
  for (const auto& [name, built] : providers_) {
    const FaultCounts counts = built.injected_faults();
    for (std::size_t i = 0; i < kFaultKindCount; ++i) {
      recorder_.set_injected_faults(name, to_string(static_cast<FaultKind>(i)), counts[i]);
    }
  }
  const RunInfo info{scenario_.name, seed_, std::max(scenario_.duration, loop_.now())};
  return build_report(recorder_, info, scenario_.thresholds);
}

}  // namespace squall
