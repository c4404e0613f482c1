#include "engine/strategies/simplify_query.hpp"

#include <algorithm>
#include <boost/algorithm/string/classification.hpp>
#include <boost/algorithm/string/join.hpp>
#include <boost/algorithm/string/predicate.hpp>
#include <boost/algorithm/string/split.hpp>
#include <boost/algorithm/string/trim.hpp>
#include <locale>
#include <utility>

namespace squall {
namespace {

using Words = std::vector<std::string>;

// ASCII only, so that the ladder does not depend on the process's locale.
constexpr const char* kWhitespace = " \t\n\r\f\v";
constexpr const char* kPunctuationButQuote = "!#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

Words split_words(std::string_view query) {
  Words words;
  boost::algorithm::split(words, query, boost::algorithm::is_any_of(kWhitespace),
                          boost::algorithm::token_compress_on);
  std::erase_if(words, [](const std::string& w) { return w.empty(); });
  return words;
}

std::string join_words(const Words& words) { return boost::algorithm::join(words, " "); }

// The word without leading and trailing punctuation (double quotes kept): "(2024)," -> "2024".
std::string core_of(const std::string& word) {
  return boost::algorithm::trim_copy_if(word, boost::algorithm::is_any_of(kPunctuationButQuote));
}

bool is_year(const std::string& word) {
  const std::string core = core_of(word);
  if (core.size() != 4 ||
      !std::all_of(core.begin(), core.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return false;
  }
  return core.starts_with("19") || core.starts_with("20");
}

bool is_filler(const std::string& word, const std::vector<std::string>& filler_words) {
  const std::string core = core_of(word);
  return std::any_of(filler_words.begin(), filler_words.end(),
                     [&](const std::string& f) { return boost::algorithm::iequals(core, f, std::locale::classic()); });
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
      std::erase_if(words, [&](const std::string& w) { return is_filler(w, filler_words); });
      return join_words(words);
    }
  }
  return std::string(query);
}

SimplifyQueryStrategy::SimplifyQueryStrategy(SimplifyQueryConfig config, EngineEnv env)
    : config_(std::move(config)), env_(env) {}

Task<Outcome> SimplifyQueryStrategy::execute(CallContext& ctx, Request& request, Next next) {
  // Tried queries in normalised form; a ladder has at most one entry per rung.
  std::vector<std::string> tried{join_words(split_words(request.query))};
  Outcome outcome = co_await next(ctx, request);
  std::string base = request.query;  // what the next rung simplifies
  bool simplified = false;
  for (const SimplifyStep step : config_.steps) {
    if (outcome.kind != OutcomeKind::empty) break;
    std::string candidate = apply_simplify_step(step, base, config_.filler_words);
    if (candidate.empty()) continue;
    base = candidate;
    if (std::find(tried.begin(), tried.end(), candidate) != tried.end()) continue;
    tried.push_back(candidate);
    const std::string previous = std::exchange(request.query, std::move(candidate));
    env_.events.on_query_change(QueryChangeEvent{ctx.task.id, ctx.tool, "simplify_query", to_string(step),
                                                 env_.clock.now(), previous, request.query});
    simplified = true;
    outcome = co_await next(ctx, request);
  }
  if (simplified && outcome.kind == OutcomeKind::success) ctx.task.mark(Degradation::simplified_query);
  co_return outcome;
}

}  // namespace squall
