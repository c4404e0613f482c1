// Fakes for the tests of the semantic recovery ladder (relax_threshold, rewrite_query):
// a vector search that honours Request::min_score and Request::mode, and a search tool
// with an LLM in one registry. Nothing here sleeps in real time.
#pragma once

#include <fmt/format.h>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/provider_registry.hpp"
#include "test_runtime.hpp"

namespace squall::test {

// What the fake vector search knows of each query: the best similarity a document
// reaches in dense mode (absent: no document shares a word with it), and whether BM25
// finds a document in keyword mode.
struct FakeIndex {
  std::map<std::string, double, std::less<>> best_score;
  std::set<std::string, std::less<>> keyword_hits;
};

// How the tests pin a search request: "q dense 0.85", "q keyword".
inline std::string describe_search(const Request& r) {
  if (r.mode == SearchMode::keyword) return fmt::format("{} keyword", r.query);
  return fmt::format("{} dense {}", r.query, r.min_score);
}

// One hit scoring `score`.
inline Response hit(double score) {
  Response r;
  r.set_results(kept_hits({SearchResult{"title", "https://example.com", "snippet", 3, score}}));
  return r;
}

// A fake vector search over `index`: a hit when the query's best score clears min_score
// (dense) or BM25 finds it (keyword), else empty; call i answers failures[i] instead
// when given (a systemic failure). Each request is appended to `sent`.
inline ScriptedProvider::Responder vector_search(FakeIndex index, std::vector<std::string>& sent,
                                                 std::map<std::size_t, Response> failures = {},
                                                 Nanos latency = 100 * kMillisecond) {
  return [index = std::move(index), &sent, failures = std::move(failures), latency](std::size_t i, const Request& r) {
    sent.push_back(describe_search(r));
    if (const auto f = failures.find(i); f != failures.end()) return Reply{f->second, latency};
    if (r.mode == SearchMode::keyword) {
      return Reply{index.keyword_hits.contains(r.query) ? hit(7.5) : no_results(), latency};
    }
    const auto best = index.best_score.find(r.query);
    const bool found = best != index.best_score.end() && best->second >= r.min_score;
    return Reply{found ? hit(best->second) : no_results(), latency};
  };
}

// An LLM's answer to a rewrite request: `text` (a literal or a string that outlives the
// response) in tool_result, billed `in` + `out` tokens and `usd`.
inline Response rewritten(std::string_view text, std::int64_t in, std::int64_t out, double usd) {
  Response r;
  r.body = Body::completion;
  r.set_tool_result(text);
  r.input_tokens = in;
  r.output_tokens = out;
  r.cost_usd = usd;
  return r;
}

// A search tool served by "vector" and an LLM "mini" (0.4 / 1.6 USD per million tokens)
// in one registry; the tool's pipeline [strategies...] ends in the registry. The LLM
// records every request it gets.
struct SearchAgent {
  SearchAgent(Harness& h, ScriptedProvider::Responder search_script, ScriptedProvider::Responder llm_script)
      : registry(EngineEnv{h.loop, h.loop, h.log}),
        search_provider(h.loop, std::move(search_script)),
        llm_provider(h.loop, [this, script = std::move(llm_script)](std::size_t i, const Request& r) {
          llm_requests.push_back(r);
          return script(i, r);
        }) {
    ProviderDescriptor search;
    search.name = "vector";
    search.kind = ProviderKind::web_search;
    vector = registry.add(search, search_provider, {});
    ProviderDescriptor llm;
    llm.name = "mini";
    llm.kind = ProviderKind::llm;
    llm.context_window = 128'000;
    llm.max_output_tokens = 16'384;
    llm.price_per_mtok = {0.4, 1.6};
    registry.add(llm, llm_provider, {});
  }
  template <class... S>
  void pipeline_of(std::unique_ptr<S>... strategies) {
    pipeline = make_pipeline(registry, std::move(strategies)...);
  }
  Outcome run(Harness& h, Call& call) {
    call.ctx.provider = vector;
    return test::run(h, *pipeline, call);
  }

  ProviderRegistry registry;
  ScriptedProvider search_provider;
  ScriptedProvider llm_provider;
  std::vector<Request> llm_requests;
  ProviderId vector = kNoProvider;
  std::unique_ptr<Pipeline> pipeline;
};

}  // namespace squall::test
