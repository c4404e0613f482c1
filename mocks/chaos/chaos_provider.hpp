// ChaosProvider: a decorator that injects the faults of a scenario's provider entry into
// any Provider (the mocks, or a live client later).
//
// Per call, in this order:
// 1. The call gets the next call number (from 1) and ONE uniform draw u in [0, 1) from
//    the decorator's own stream, whether or not any fault is active, so the draws of call
//    n do not depend on windows.
// 2. The faults active for it (from <= now < to, and first_call <= n <= last_call) are
//    walked in file order, accumulating their probabilities; the first whose cumulative
//    sum exceeds u is injected. Faults are therefore mutually exclusive per call, and each
//    gets exactly its probability because the active ones sum to at most 1: the scenario
//    loader rejects rules whose probabilities sum to more wherever they overlap
//    (sim/scenario/fault_reader.hpp, check_fault_overlaps), so no rule is silently
//    shrunk. (Given such rules anyway, the walk would give the later ones what is left.)
// 3. With no fault chosen the call goes to the inner provider untouched.
// Steps 1 and 2 happen when call() is called, not when its Task is first awaited: callers
// await at once (Pipeline's attempt does), so both are the same virtual time.
// An injected fault is counted (injected()) and answered without calling the inner
// provider, so the inner mock's stream is not touched:
// - timeout: no answer. The call returns Transport::timeout at CallOptions::deadline,
//   or hang_cap after the call if that comes first. The engine always sets a finite
//   deadline; the cap keeps a caller without one from hanging the simulation, the way
//   an HTTP client gives up on a silent server (10 minutes is the OpenAI Python SDK's
//   default request timeout, 600 s).
// - rate_limited: 429, with the header Retry-After set to fault.retry_after verbatim.
// - overloaded: fault.status, default 529 (Anthropic's overloaded_error).
// - server_error: fault.status, default 500.
// - empty: 200 with an empty body of the provider's kind: no hits for a search, a
//   completion of 0 output tokens for an LLM.
// - index_not_ready: 503 with the error code "index_not_ready", what a vector index
//   answers while it is still being built or loaded: Elasticsearch and OpenSearch answer
//   a search on an index whose shards are not yet allocated with 503
//   (no_shard_available_action_exception), Milvus refuses a collection not yet loaded,
//   and a Pinecone index answers only once describe_index reports it ready. A 503 is
//   classified overloaded (engine/classify.hpp): systemic and retryable, as it should be;
//   the loader allows it on vector_search providers only.
//   These five take one latency sample (fault.latency, else the provider's latency given
//   to the constructor), drawn from the decorator's stream after u, and are bound by the
//   deadline like any answer (mocks/answer_time.hpp): past it, the caller sees a timeout,
//   and the fault still counts as injected.
// Cancellation (CallOptions::cancellation): a faulty answer or an injected hang that is
// cancelled returns at once with Transport::cancelled (the fault still counts as injected).
// A call whose token is already cancelled is passed to the inner provider untouched,
// without a call number or a draw: it is never sent, and the inner mock says so.
// Faulty answers bill nothing: the decorator does not know the provider's prices, and
// rejected requests (429, 5xx) are not billed by real APIs.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/provider.hpp"
#include "engine/runtime/clock.hpp"
#include "engine/runtime/rng.hpp"
#include "mocks/chaos/fault.hpp"
#include "mocks/latency.hpp"

namespace squall {

// Default ChaosProvider hang cap: the OpenAI Python SDK's default timeout, 600 s.
inline constexpr Nanos kDefaultHangCap = 10 * kMinute;

class ChaosProvider final : public Provider {
 public:
  // Owns `inner` (not null). `latency` is the provider's own latency (a web search's
  // latency, an LLM's time to first token), used by faulty answers whose fault sets none;
  // `body` is the kind of body the inner provider answers with. The clock, scheduler and
  // rng must outlive the decorator; `rng` is its own stream, separate from the inner's.
  ChaosProvider(std::unique_ptr<Provider> inner, std::vector<FaultConfig> faults, LatencyConfig latency,
                Body body, Clock& clock, Scheduler& scheduler, Rng& rng, Nanos hang_cap = kDefaultHangCap);

  // The inner provider's name: the decorator is invisible in reports.
  std::string_view name() const override { return inner_->name(); }
  Task<Response> call(const Request& request, const CallOptions& options) override;

  // Faults injected so far, by kind (index_of(FaultKind)).
  const FaultCounts& injected() const { return injected_; }
  // Calls received so far, faulty or not.
  std::uint64_t calls() const { return calls_; }
  Provider& inner() const { return *inner_; }

 private:
  // The fault chosen for call number `call` at time `now` with draw `u`, or null.
  const FaultConfig* choose(TimePoint now, std::uint64_t call, double u) const;
  Task<Response> inject(const FaultConfig& fault, TimePoint now, const CallOptions& options);
  Response faulty_answer(const FaultConfig& fault) const;

  std::unique_ptr<Provider> inner_;
  std::vector<FaultConfig> faults_;
  LatencyModel latency_;
  Body body_;
  Clock& clock_;
  Scheduler& scheduler_;
  Rng& rng_;
  Nanos hang_cap_;
  FaultCounts injected_{};
  std::uint64_t calls_ = 0;
};

}  // namespace squall
