// PoolQuery: one entry of a workload query list (scenario `workload.queries`), with what
// the simulator knows about it and the agent does not.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace squall {

struct PoolQuery {
  // The query a task searches for.
  std::string text;
  // The query's intended form: what a helpful LLM rewrite returns (rewrite_query,
  // engine/strategies/rewrite_query.hpp). Empty: no rewrite helps.
  std::string rewrite;
  // What an unhelpful rewrite returns: `text`'s words (mocks/text.hpp) lower-cased, in
  // reverse order, one space apart. Every bag-of-words ranking (the web search's match,
  // TF-IDF cosine, BM25) scores it exactly as `text`, so it cannot help, yet it is a new
  // string; for a one-word query it is the query itself, which is never re-issued. Set by
  // the loader (sim/scenario/workload_reader.cpp).
  std::string paraphrase;
  // Ground truth: the links of the documents that answer the query, sorted and unique.
  // Empty: the scenario does not say, and the report counts no answers for it.
  std::vector<std::string> relevant;

  bool has_ground_truth() const { return !relevant.empty(); }
  bool is_relevant(std::string_view link) const {
    return std::binary_search(relevant.begin(), relevant.end(), link, std::less<>{});
  }
};

}  // namespace squall
