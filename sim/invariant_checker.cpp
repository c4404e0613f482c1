#include "sim/invariant_checker.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "engine/retry_safety.hpp"
#include "engine/runtime/duration.hpp"

namespace squall {
namespace {

bool same_usd(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)}); }

}  // namespace

InvariantChecker::InvariantChecker(const Scenario& scenario) : scenario_(scenario) {
  for (const ProviderConfig& p : scenario.providers) idempotent_.emplace(p.name, p.idempotent);
}

void InvariantChecker::violate(std::string_view rule, std::string what, TimePoint at) {
  if (++count_ <= kMaxKept) kept_.push_back(fmt::format("{}: {}, at {}", rule, what, format_duration(at)));
}

void InvariantChecker::on_attempt(const AttemptEvent& e) {
  ++attempts_;
  if (e.finished < e.started || e.finished < last_finished_) {
    violate("attempt_in_order",
            fmt::format("task {} attempt {} on {} ran [{}, {}] after an attempt that ended at {}", e.task_id, e.attempt,
                        e.provider, format_duration(e.started), format_duration(e.finished),
                        format_duration(last_finished_)),
            e.finished);
  }
  last_finished_ = std::max(last_finished_, e.finished);
  TaskSpend& task = tasks_[e.task_id];
  task.tokens += e.input_tokens + e.output_tokens;
  task.cost_usd += e.cost_usd;
  task.latest_start = std::max(task.latest_start, e.started);
  task.billed.push_back({std::string(e.provider), e.finished, e.input_tokens + e.output_tokens, e.cost_usd});
  if (const auto it = idempotent_.find(e.provider); it == idempotent_.end() || it->second) return;
  auto& ends = ambiguous_[{e.task_id, std::string(e.tool)}];
  const auto earlier = ends.find(e.provider);
  if (earlier != ends.end() && e.started >= earlier->second) {
    violate("not_resent",
            fmt::format("task {} sent attempt {} to non-idempotent {} at {}, after an attempt ended at {} in an "
                        "outcome that may have reached it",
                        e.task_id, e.attempt, e.provider, format_duration(e.started), format_duration(earlier->second)),
            e.started);
  }
  if (!proves_unprocessed(e.kind)) {
    TimePoint& end = ends.try_emplace(std::string(e.provider), e.finished).first->second;
    end = std::min(end, e.finished);
  }
}

void InvariantChecker::on_logical_call(const LogicalCallEvent& e) {
  ambiguous_.erase({e.task_id, std::string(e.tool)});
}

void InvariantChecker::on_hedge(const HedgeEvent& e) {
  if (e.action != HedgeAction::loser_cancelled) return;
  const std::int64_t tokens = e.input_tokens + e.output_tokens;
  if (tokens == 0 && e.cost_usd == 0) return;  // refused before it reached a provider: nothing billed
  const std::vector<Billed>& billed = tasks_[e.task_id].billed;
  const bool found = std::any_of(billed.begin(), billed.end(), [&](const Billed& a) {
    return a.provider == e.provider && a.finished <= e.at && a.tokens == tokens && same_usd(a.cost_usd, e.cost_usd);
  });
  if (found) return;
  violate("loser_billed",
          fmt::format("task {}'s hedge {} on {} was cancelled billing {} tokens and {} USD, which no attempt of the "
                      "task on {} billed",
                      e.task_id, e.hedge, e.provider, tokens, e.cost_usd, e.provider),
          e.at);
}

void InvariantChecker::on_task_finished(const TaskResult& r) {
  if (r.id >= finished_.size()) finished_.resize(std::max<std::size_t>(r.id + 1, 2 * finished_.size()), false);
  if (finished_[r.id]) violate("finished_once", fmt::format("task {} finished a second time", r.id), r.finished);
  finished_[r.id] = true;
  const auto found = tasks_.find(r.id);
  const TaskSpend spend = found != tasks_.end() ? std::move(found->second) : TaskSpend{};
  if (found != tasks_.end()) tasks_.erase(found);
  if (spend.tokens != r.tokens || !same_usd(spend.cost_usd, r.cost_usd)) {
    violate("spend_is_attempts",
            fmt::format("task {} spent {} tokens and {} USD; its attempts billed {} tokens and {} USD", r.id, r.tokens,
                        r.cost_usd, spend.tokens, spend.cost_usd),
            r.finished);
  }
  const auto tpl = std::find_if(scenario_.workload.tasks.begin(), scenario_.workload.tasks.end(),
                                [&](const TaskTemplate& t) { return t.name == r.template_name; });
  if (tpl != scenario_.workload.tasks.end() && spend.latest_start >= r.started + tpl->deadline) {
    violate("before_deadline",
            fmt::format("task {} started an attempt at {}, at or after its deadline {}", r.id,
                        format_duration(spend.latest_start), format_duration(r.started + tpl->deadline)),
            spend.latest_start);
  }
}

std::string InvariantChecker::summary() const {
  if (count_ == 0) return {};
  std::string out = fmt::format("{} invariant violation{}:\n", count_, count_ == 1 ? "" : "s");
  for (const std::string& v : kept_) out += "  " + v + "\n";
  if (count_ > kept_.size()) out += fmt::format("  ... and {} more\n", count_ - kept_.size());
  return out;
}

}  // namespace squall
