#include "engine/strategies/relax_threshold.hpp"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

namespace squall {
namespace {

// Thresholds are kept on a grid of 1e-9, so that repeated subtraction of a decimal step
// lands on the decimal a reader expects (see the header). + 0.0 turns the -0 that a
// difference just below 0 rounds to (0.3 - 3 x 0.1) into 0, which std::max(-0.0, 0.0)
// would keep and the label would print as "dense -0".
double on_grid(double threshold) { return std::round(threshold * 1e9) / 1e9 + 0.0; }

RelaxRung dense(double min_score) {
  return RelaxRung{min_score, SearchMode::dense, fmt::format("dense {}", min_score)};
}

}  // namespace

bool is_relax_label(std::string_view label) {
  if (label == to_string(SearchMode::keyword)) return true;
  constexpr std::string_view kDense = "dense ";
  if (!label.starts_with(kDense)) return false;
  const std::string_view score = label.substr(kDense.size());
  double value = 0;
  const auto [end, error] = std::from_chars(score.data(), score.data() + score.size(), value);
  return error == std::errc() && end == score.data() + score.size() && !std::signbit(value) && value <= 1 &&
         fmt::format("{}", value) == score;
}

std::vector<RelaxRung> relax_ladder(const RelaxThresholdConfig& config) {
  assert(config.step >= 0.01 && config.floor <= config.initial);
  const double floor = on_grid(config.floor);
  std::vector<RelaxRung> ladder{dense(on_grid(config.initial))};
  // Each rung is at least `step` lower than the one before until the floor, so the loop
  // makes at most 1 / step + 1 rungs: 101 with the smallest step.
  for (int k = 1; ladder.back().min_score > floor; ++k) {
    ladder.push_back(dense(std::max(on_grid(config.initial - k * config.step), floor)));
  }
  if (config.keyword) ladder.push_back(RelaxRung{0, SearchMode::keyword, std::string(to_string(SearchMode::keyword))});
  return ladder;
}

RelaxThresholdStrategy::RelaxThresholdStrategy(const RelaxThresholdConfig& config, EngineEnv env)
    : ladder_(relax_ladder(config)), env_(env) {}

Task<Outcome> RelaxThresholdStrategy::execute(CallContext& ctx, Request& request, Next next) {
  // The threshold and mode the request came with, restored before returning: the rungs'
  // changes are scoped to the call, as a changed query is (Request::query).
  const double given_score = std::exchange(request.min_score, ladder_[0].min_score);
  const SearchMode given_mode = std::exchange(request.mode, ladder_[0].mode);
  // The rungs sent in this call, by index. The query is the same in all of them: an inner
  // strategy's change is scoped to the call it forwards (Request::query).
  std::vector<std::size_t> sent{0};
  Outcome outcome = co_await next(ctx, request);
  std::size_t reached = 0;  // the rung whose outcome is `outcome`
  for (std::size_t i = 1; i < ladder_.size(); ++i) {
    if (outcome.kind != OutcomeKind::empty || env_.clock.now() >= ctx.deadline) break;
    const RelaxRung& rung = ladder_[i];
    const bool repeated = std::any_of(sent.begin(), sent.end(), [&](std::size_t s) {
      return ladder_[s].mode == rung.mode && ladder_[s].min_score == rung.min_score;
    });
    if (repeated) continue;
    request.min_score = rung.min_score;
    request.mode = rung.mode;
    if (next.refuses(ctx, request)) break;
    env_.events.on_threshold_relax(ThresholdRelaxEvent{ctx.task.id, ctx.tool, static_cast<std::int32_t>(i), rung.label,
                                                       env_.clock.now(), rung.min_score, rung.mode});
    sent.push_back(i);
    reached = i;
    outcome = co_await next(ctx, request);
  }
  if (reached > 0 && outcome.kind == OutcomeKind::success) {
    ctx.task.mark(ladder_[reached].mode == SearchMode::keyword ? Degradation::keyword_fallback
                                                               : Degradation::relaxed_threshold);
  }
  request.min_score = given_score;
  request.mode = given_mode;
  co_return outcome;
}

std::unique_ptr<Strategy> make_strategy(const RelaxThresholdConfig& config, const StrategyBuild& build) {
  return std::make_unique<RelaxThresholdStrategy>(config, build.env);
}

}  // namespace squall
