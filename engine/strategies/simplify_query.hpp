// simplify_query: when a search comes back empty, retry with a simpler query.
//
// The ladder is the one from the seed article on search retry chains. Rungs apply
// cumulatively, each to the query the previous rung produced; the query is split into
// words on ASCII whitespace and every rung's output is its words joined by single spaces:
//   drop_quotes        remove ASCII double quotes, so phrases match as separate terms
//   drop_years         remove words that are a year, 1900-2099 (leading and trailing
//                      punctuation other than a double quote is ignored: "(2024)," is a
//                      year; the default order drops quotes first)
//   first_5_words      keep the first five words
//   first_3_words      keep the first three words
//   drop_filler_words  remove filler words (compared case-insensitively, ignoring
//                      leading and trailing punctuation)
// A rung that yields a query already tried in this call (compared after whitespace
// normalisation, so "a  b" and "a b" are the same query) is skipped, and so is one that
// yields an empty query: the strategy never re-issues an identical query. A skipped empty
// rung leaves the next rung working on the previous query.
//
// The strategy acts only on `empty`; any other outcome, from the first query or a
// simplified one, ends the ladder and is returned as is. A success after any rung marks
// the task degraded (Degradation::simplified_query). When the ladder is exhausted the last
// empty outcome is returned. Each change emits a QueryChangeEvent before its attempt.
// The query is restored before the strategy returns: a change is scoped to the call
// (Request::query), so the caller's request is the one it passed. An inner strategy that
// changes a query (a rewrite) changes only the call it forwards; the ladder simplifies
// its own queries.
#pragma once

#include <array>

#include <string>
#include <vector>

#include "engine/config_fields.hpp"
#include "engine/pipeline.hpp"
#include "engine/runtime/text_memo.hpp"

namespace squall {

enum class SimplifyStep : std::uint8_t { drop_quotes, drop_years, first_5_words, first_3_words, drop_filler_words };

struct SimplifyQueryConfig {
  // The strategy's name in policies; its keys are its field table's, below.
  static constexpr std::string_view kName = "simplify_query";

  // The rungs in order. Default: all five, in the order above.
  std::vector<SimplifyStep> steps = {SimplifyStep::drop_quotes, SimplifyStep::drop_years, SimplifyStep::first_5_words,
                                     SimplifyStep::first_3_words, SimplifyStep::drop_filler_words};
  // Words drop_filler_words removes (compared case-insensitively). Default: a short list
  // of English function words.
  std::vector<std::string> filler_words = {"the", "a",    "an",    "of",    "for",    "in",     "on",  "to",
                                           "and", "or",   "with",  "about", "from",   "by",     "at",  "is",
                                           "are", "what", "which", "how",   "latest", "recent", "best"};
};

inline constexpr std::array<SimplifyStep, 5> kSimplifySteps{SimplifyStep::drop_quotes, SimplifyStep::drop_years,
                                                            SimplifyStep::first_5_words, SimplifyStep::first_3_words,
                                                            SimplifyStep::drop_filler_words};

constexpr auto field_table(std::type_identity<SimplifyQueryConfig>) {
  using C = SimplifyQueryConfig;
  constexpr FieldRule<C> dropped = [](const C& c, const Written& w) {
    if (!w.ok("steps")) return Finding{};
    for (const SimplifyStep step : c.steps) {
      if (step == SimplifyStep::drop_filler_words) return Finding{};
    }
    return Finding::error("applies only when steps include \"drop_filler_words\"");
  };
  return table<C>(
      field("steps", &C::steps, FieldKind::choices)
          .choices(kSimplifySteps)
          .with_default(R"(["drop_quotes", "drop_years", "first_5_words", "first_3_words", "drop_filler_words"])")
          .doc("the rungs of the ladder, in order")
          .source("seed 000's ladder"),
      field("filler_words", &C::filler_words, FieldKind::words)
          .only_if(dropped)
          .with_default(R"(["the", "a", "an", "of", "for", "in", "on", "to", "and", "or", "with", "about", "from",
                            "by", "at", "is", "are", "what", "which", "how", "latest", "recent", "best"])")
          .doc("the words drop_filler_words removes")
          .source("a short list of English function words"));
}

// The rung's name in scenario files and QueryChangeEvent::step, e.g. "drop_quotes".
std::string_view to_string(SimplifyStep step);

// Applies one rung to `query`; the result's words are joined by single spaces and may be
// empty. Exposed for tests.
std::string apply_simplify_step(SimplifyStep step, std::string_view query,
                                const std::vector<std::string>& filler_words);

// `query`'s words (split on ASCII whitespace) joined by single spaces: the form in which
// query ladders (this one, rewrite_query) compare queries, so that "a  b" and "a b" are
// the same query.
std::string normalised_query(std::string_view query);

// Points the request's query at `query` and emits the QueryChangeEvent of `strategy`'s
// rung `step` (from the query it replaces), before the new query's attempt: how a query
// ladder (this one, rewrite_query) issues a new query. The caller keeps `query`'s text
// alive while the request is in use, and restores the query it was given before it
// returns (Request::query).
void change_query(const EngineEnv& env, const CallContext& ctx, Request& request, std::string_view strategy,
                  std::string_view step, std::string_view query);

class SimplifyQueryStrategy final : public Strategy {
 public:
  SimplifyQueryStrategy(SimplifyQueryConfig config, EngineEnv env);
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override {
    return execute_gated(OuterGates{}, ctx, request, next);
  }
  // The ladder with the gates before it (a tool's timeout) admitted and settled in its
  // frame (engine/pipeline.hpp), so they hold no frame of their own.
  Task<Outcome> execute_gated(OuterGates gates, CallContext& ctx, Request& request, Next next) override;

 private:
  // The rung `step` applied to `query` (apply_simplify_step), kept per step and query text:
  // a run's tasks send the same few queries, so the ladder meets the same texts again.
  const std::string& rung(SimplifyStep step, std::string_view query);
  // normalised_query(query), kept per query text.
  const std::string& normalised(std::string_view query);

  // A query the ladder sends if every answer before it was empty, and its rung.
  struct Rung {
    SimplifyStep step;
    std::string query;
  };
  using Ladder = std::vector<Rung>;
  // The queries the ladder sends, in order, if every answer is empty, for a first query
  // `query`: each rung applied to the last non-empty one (from `query`), skipping empty
  // results and queries already tried in normalised form (`query`'s first). A pure
  // function of the text and the config, so execute() sends a prefix of it, and kept per
  // text (ladders_).
  Ladder ladder(std::string_view query);

  SimplifyQueryConfig config_;
  EngineEnv env_;
  // One memo per SimplifyStep (engine/runtime/text_memo.hpp, default cap), by its value.
  std::array<TextMemo<std::string>, static_cast<std::size_t>(SimplifyStep::drop_filler_words) + 1> rungs_;
  TextMemo<std::string> normalised_;
  // ladder(query) per query text.
  TextMemo<Ladder> ladders_;
};

// Builds the strategy for a pipeline (engine/policy.hpp's one list of strategies).
std::unique_ptr<Strategy> make_strategy(const SimplifyQueryConfig& config, const StrategyBuild& build);

}  // namespace squall
