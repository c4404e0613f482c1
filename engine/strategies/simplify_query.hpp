// simplify_query: when a search comes back empty, retry with a simpler query.
//
// The ladder is the one from the seed article on search retry chains; each rung applies
// to the query the previous rung produced:
//   drop_quotes        remove double quotes, so phrases match as separate terms
//   drop_years         remove year tokens (1900-2099)
//   first_5_words      keep the first five words
//   first_3_words      keep the first three words
//   drop_filler_words  remove filler words (the, a, of, for, ...)
// A rung that yields a query already tried in this call, or an empty query, is skipped:
// the strategy never re-issues an identical query. A success after any rung marks the
// task degraded (Degradation::simplified_query). Other outcomes pass through unchanged.
#pragma once

#include <string>
#include <vector>

#include "engine/pipeline.hpp"

namespace squall {

enum class SimplifyStep : std::uint8_t { drop_quotes, drop_years, first_5_words, first_3_words, drop_filler_words };

struct SimplifyQueryConfig {
  // The rungs in order. Default: all five, in the order above.
  std::vector<SimplifyStep> steps = {SimplifyStep::drop_quotes, SimplifyStep::drop_years,
                                     SimplifyStep::first_5_words, SimplifyStep::first_3_words,
                                     SimplifyStep::drop_filler_words};
  // Words drop_filler_words removes (compared case-insensitively). Default: a short list
  // of English function words.
  std::vector<std::string> filler_words = {"the", "a", "an", "of", "for", "in", "on", "to", "and",
                                           "or", "with", "about", "from", "by", "at", "is", "are",
                                           "what", "which", "how", "latest", "recent", "best"};
};

std::string_view to_string(SimplifyStep step);

// Applies one rung to `query`. Exposed for tests.
std::string apply_simplify_step(SimplifyStep step, std::string_view query,
                                const std::vector<std::string>& filler_words);

class SimplifyQueryStrategy final : public Strategy {
 public:
  SimplifyQueryStrategy(SimplifyQueryConfig config, EngineEnv env);
  Task<Outcome> execute(CallContext& ctx, Request& request, Next next) override;

 private:
  SimplifyQueryConfig config_;
  EngineEnv env_;
};

}  // namespace squall
