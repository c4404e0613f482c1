// relax_threshold: when a vector search comes back empty, lower its similarity threshold
// a step at a time down to a floor, then switch from dense to keyword (BM25) search
// (seed 001's semantic recovery ladder).
//
// The ladder is fixed by the config. Rung 0 is a dense search at `initial`; rung k >= 1
// is a dense search at max(initial - k * step, floor) for as long as the previous rung
// was above the floor, then, with `keyword`, one keyword search:
//   defaults:  dense 0.85  ->  dense 0.75  ->  dense 0.7  ->  keyword
// (0.85 - 2 * 0.10 = 0.65 is below the floor, so the third rung is the floor itself).
// Thresholds are rounded to 9 decimal places, so that 0.85 - 2 * 0.05 is 0.75, not
// 0.7499999999999999, and a rung within 1e-9 of the floor is the floor. A keyword rung
// sends min_score 0: BM25 scores are not similarities, and keyword mode has no threshold
// (engine/call.hpp SearchMode).
//
//   set request (min_score, mode) to rung 0; outcome = next(request)
//   for rung in 1 .. last:
//     if outcome is not `empty`: stop            # success, or a systemic failure
//     if now >= the call's deadline: stop        # no rung could start
//     if (min_score, mode) of the rung was already sent in this call: skip it
//     if the rest of the pipeline would refuse it (a spent budget, Next::refuses): stop
//     emit ThresholdRelaxEvent; outcome = next(request at the rung)
//   return outcome
//
// The strategy owns the threshold and the mode: it sets both on entry, whatever the
// request carried, so a query re-issued through it (rewrite_query above it) starts the
// ladder again at `initial`. It acts only on `empty` (an empty result, or every hit
// below the threshold: a semantic failure). Timeouts, 429s and 5xx are systemic
// failures: they end the ladder and pass up untouched; retry and fallback inside the
// strategy handle them. The request sent by rung k is never identical to one sent
// before in the call (the thresholds strictly decrease, and the query is the same in
// every rung: a strategy inside that changes it changes only the call it forwards,
// Request::query).
//
// Result. A success at a dense rung k >= 1 marks the task degraded
// (Degradation::relaxed_threshold); a success in keyword mode marks keyword_fallback.
// When the ladder ends empty, the last empty outcome is returned (the task runner makes
// it a safe-fail, no_records_found). The request's threshold and mode are restored before
// the strategy returns: like a changed query (Request::query), a rung is scoped to the call
// it sends, so a caller sees the request as it gave it.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "engine/config_fields.hpp"
#include "engine/pipeline.hpp"

namespace squall {

struct RelaxThresholdConfig {
  // The strategy's name in policies; its keys are its field table's, below.
  static constexpr std::string_view kName = "relax_threshold";

  // The first search's similarity threshold, in [0, 1]. Default 0.85 (seed 001's first
  // threshold).
  double initial = 0.85;
  // How much each rung lowers the threshold, in [0.01, 1]. Default 0.10: with the
  // default initial and floor it gives seed 001's ladder 0.85 -> 0.75 -> 0.70 exactly
  // (a step of 0.05 would add a rung at 0.80 that the seed does not have).
  double step = 0.10;
  // The lowest threshold tried, in [0, initial]. Default 0.70 (seed 001's floor).
  double floor = 0.70;
  // After the floor, one keyword (BM25) search. Default true (seed 001 switches dense
  // retrieval to keyword search when the floor finds nothing).
  bool keyword = true;
};

// A step of 0.01 at least: a ladder has at most 101 dense rungs, each a provider call (a
// finer step is below any difference in similarity that matters).
inline constexpr NumberRange kRelaxStep{0.01, false, 1};

constexpr auto field_table(std::type_identity<RelaxThresholdConfig>) {
  using C = RelaxThresholdConfig;
  // The floor is at most the first threshold, whichever is left at its default: a ladder
  // only goes down.
  constexpr FieldRule<C> above_floor = [](const C& c, const Written& w) {
    if (w.has("floor") || c.initial >= c.floor) return Finding{};
    return Finding::error("expected a number >= floor (" + format_number(c.floor) +
                          ", its default; set floor to go lower), got " + w.quoted("initial"));
  };
  constexpr FieldRule<C> below_initial = [](const C& c, const Written& w) {
    if (!w.ok("initial") || c.floor <= c.initial) return Finding{};
    return Finding::error("expected a number <= initial (" + format_number(c.initial) + "), got " + w.quoted("floor"));
  };
  return table<C>(number("initial", &C::initial, kProbability)
                      .checked(above_floor)
                      .with_default("0.85")
                      .unit("similarity")
                      .doc("the first search's threshold")
                      .source("seed 001's first threshold"),
                  number("step", &C::step, kRelaxStep)
                      .with_default("0.1")
                      .unit("similarity")
                      .doc("how much each rung lowers the threshold")
                      .source("seed 001's ladder 0.85, 0.75, 0.70"),
                  number("floor", &C::floor, kProbability)
                      .checked(below_initial)
                      .with_default("0.7")
                      .unit("similarity")
                      .doc("the lowest threshold tried")
                      .source("seed 001's floor"),
                  field("keyword", &C::keyword, FieldKind::boolean)
                      .with_default("true")
                      .doc("after the floor, one keyword (BM25) search")
                      .source("seed 001 switches dense retrieval to keyword search"));
}

// One rung of the ladder.
struct RelaxRung {
  double min_score = 0;
  SearchMode mode = SearchMode::dense;
  std::string label;  // "dense 0.75", "keyword": the rung's name in events and reports
};

// The ladder `config` gives, rung 0 first. Exposed for tests.
std::vector<RelaxRung> relax_ladder(const RelaxThresholdConfig& config);

// Whether `label` is a label some ladder could give: "keyword", or "dense " and a score
// in [0, 1] written as the ladder writes it (the shortest form that reads back the same:
// "dense 0.75", not "dense 0.750"). A threshold on ladder_rungs naming another could
// never count anything (sim/scenario/threshold_reader.hpp).
bool is_relax_label(std::string_view label);

class RelaxThresholdStrategy final : public Strategy {
 public:
  // `config` must satisfy the loader's rules (floor <= initial, step >= 0.01).
  RelaxThresholdStrategy(const RelaxThresholdConfig& config, EngineEnv env);
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override;

  const std::vector<RelaxRung>& ladder() const { return ladder_; }

 private:
  std::vector<RelaxRung> ladder_;
  EngineEnv env_;
};

// Builds the strategy for a pipeline (engine/policy.hpp's one list of strategies).
std::unique_ptr<Strategy> make_strategy(const RelaxThresholdConfig& config, const StrategyBuild& build);

}  // namespace squall
