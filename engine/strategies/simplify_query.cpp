#include "engine/strategies/simplify_query.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <boost/algorithm/string/constants.hpp>
#include <boost/algorithm/string/split.hpp>
#include <boost/algorithm/string/trim.hpp>
#include <string_view>
#include <utility>

#include "engine/pool_query.hpp"

namespace squall {
namespace {

// Views into the query being simplified: a rung splits, filters and joins without copying
// each word into its own string.
using Words = std::vector<std::string_view>;

// ASCII only, so that the ladder does not depend on the process's locale. Plain range tests
// rather than boost::algorithm::is_any_of: is_any_of copies its character set into every
// finder/functor copy, which dominated the ladder's cost (a memcpy per split step).

// " \t\n\r\f\v": space, and '\t' (9) through '\r' (13) contiguously.
bool is_whitespace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// "!#$%&'()*+,-./:;<=>?@[\\]^_`{|}~": the four ASCII punctuation ranges, without '"'.
bool is_punctuation_but_quote(char c) {
  const bool punctuation =
      (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') || (c >= '{' && c <= '~');
  return punctuation && c != '"';
}

Words split_words(std::string_view query) {
  Words words;
  boost::algorithm::split(words, query, is_whitespace, boost::algorithm::token_compress_on);
  std::erase_if(words, [](std::string_view w) { return w.empty(); });
  return words;
}

std::string join_words(const Words& words) { return fmt::format("{}", fmt::join(words, " ")); }

// The word without leading and trailing punctuation (double quotes kept): "(2024)," -> "2024".
std::string_view core_of(std::string_view word) {
  return boost::algorithm::trim_copy_if(word, is_punctuation_but_quote);
}

bool is_year(std::string_view word) {
  const std::string_view core = core_of(word);
  if (core.size() != 4 || !std::all_of(core.begin(), core.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return false;
  }
  return core.starts_with("19") || core.starts_with("20");
}

// ASCII lower case, the same folding as the classic locale's, without a facet lookup per
// character (std::locale-based iequals cost more than the rest of the rung).
char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool is_filler(std::string_view word, const std::vector<std::string>& filler_words) {
  const std::string_view core = core_of(word);
  return std::any_of(filler_words.begin(), filler_words.end(),
                     [&](const std::string& f) { return std::ranges::equal(core, f, {}, ascii_lower, ascii_lower); });
}

Words first_words(Words words, std::size_t n) {
  if (words.size() > n) words.resize(n);
  return words;
}

}  // namespace

std::string_view to_string(SimplifyStep step) {
  switch (step) {
    case SimplifyStep::drop_quotes: return "drop_quotes";
    case SimplifyStep::drop_years: return "drop_years";
    case SimplifyStep::first_5_words: return "first_5_words";
    case SimplifyStep::first_3_words: return "first_3_words";
    case SimplifyStep::drop_filler_words: return "drop_filler_words";
  }
  return "drop_quotes";
}

std::string apply_simplify_step(SimplifyStep step, std::string_view query,
                                const std::vector<std::string>& filler_words) {
  switch (step) {
    case SimplifyStep::drop_quotes: {
      std::string unquoted(query);
      std::erase(unquoted, '"');
      return join_words(split_words(unquoted));
    }
    case SimplifyStep::drop_years: {
      Words words = split_words(query);
      std::erase_if(words, is_year);
      return join_words(words);
    }
    case SimplifyStep::first_5_words: return join_words(first_words(split_words(query), 5));
    case SimplifyStep::first_3_words: return join_words(first_words(split_words(query), 3));
    case SimplifyStep::drop_filler_words: {
      Words words = split_words(query);
      std::erase_if(words, [&](std::string_view w) { return is_filler(w, filler_words); });
      return join_words(words);
    }
  }
  return std::string(query);
}

std::string normalised_query(std::string_view query) { return join_words(split_words(query)); }

void change_query(const EngineEnv& env, const CallContext& ctx, Request& request, std::string_view strategy,
                  std::string_view step, std::string_view query) {
  const std::string_view previous = std::exchange(request.query, query);
  env.events.on_query_change(
      QueryChangeEvent{ctx.task.id, ctx.tool, strategy, step, env.clock.now(), previous, request.query});
}

SimplifyQueryStrategy::SimplifyQueryStrategy(SimplifyQueryConfig config, EngineEnv env)
    : config_(std::move(config)), env_(env) {}

const std::string& SimplifyQueryStrategy::rung(SimplifyStep step, std::string_view query) {
  return rungs_[static_cast<std::size_t>(step)].get(
      query, [&](std::string_view text) { return apply_simplify_step(step, text, config_.filler_words); });
}

const std::string& SimplifyQueryStrategy::normalised(std::string_view query) {
  return normalised_.get(query, [](std::string_view text) { return normalised_query(text); });
}

SimplifyQueryStrategy::Ladder SimplifyQueryStrategy::ladder(std::string_view query) {
  std::vector<std::string> tried{normalised(query)};
  std::string base(query);  // what the next rung simplifies
  Ladder rungs;
  for (const SimplifyStep step : config_.steps) {
    std::string candidate = rung(step, base);
    if (candidate.empty()) continue;
    base = candidate;
    if (std::find(tried.begin(), tried.end(), candidate) != tried.end()) continue;
    tried.push_back(candidate);
    rungs.push_back(Rung{step, std::move(candidate)});
  }
  return rungs;
}

Task<Outcome> SimplifyQueryStrategy::execute_gated(OuterGates gates, CallContext& ctx, Request& request, Next next) {
  // The outcome is built where it is returned (Task::result_slot): the outer gates'
  // refusal, or the answer to the last query sent.
  Outcome& outcome = co_await Task<Outcome>::result_slot();
  if (!gates.admit(ctx, request, outcome)) {
    gates.settle(ctx, outcome);
    co_return Task<Outcome>::kSlotFilled;
  }
  co_await next(ctx, request).into(outcome);
  if (outcome.kind != OutcomeKind::empty) {
    gates.settle(ctx, outcome);
    co_return Task<Outcome>::kSlotFilled;
  }
  // The ladder is worked out only when the answer is empty, so a call whose answer is not
  // empty pays for nothing more. Its rungs: the memo's, which stay where they are while
  // this call waits for answers, or a copy in this frame when the memo cannot keep them.
  // Either outlives every request that views a rung.
  const std::string_view given = request.query;  // the caller's text (Request::query)
  Ladder own;
  const Ladder* rungs = &own;
  const Ladder& kept = ladders_.get(given, [&](std::string_view text) { return ladder(text); });
  if (ladders_.kept(kept)) {
    rungs = &kept;
  } else {
    own = kept;
  }
  bool simplified = false;
  for (const Rung& rung : *rungs) {
    if (outcome.kind != OutcomeKind::empty) break;
    change_query(env_, ctx, request, SimplifyQueryConfig::kName, to_string(rung.step), rung.query);
    simplified = true;
    co_await next(ctx, request).into(outcome);
  }
  request.query = given;
  if (simplified && outcome.kind == OutcomeKind::success) ctx.task.mark(Degradation::simplified_query);
  gates.settle(ctx, outcome);
  co_return Task<Outcome>::kSlotFilled;
}

std::unique_ptr<Strategy> make_strategy(const SimplifyQueryConfig& config, const StrategyBuild& build) {
  return std::make_unique<SimplifyQueryStrategy>(config, build.env);
}

}  // namespace squall
