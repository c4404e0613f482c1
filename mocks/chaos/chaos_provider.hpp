// ChaosProvider: a decorator that injects the faults of a scenario's provider entry into
// any Provider (the mocks, or a live client later).
//
// Faults come in three phases (Envoy's HTTP fault filter; fault.hpp lists each
// kind's phase):
// - delay (latency_spike, brownout): latency is added, then the call goes on, to an
//   abort or transform chosen for the same call or to the inner provider;
// - abort (timeout, rate_limited, overloaded, server_error, empty, index_not_ready,
//   client_error, throttled_empty): the decorator answers itself, the inner provider is
//   not called and its stream not touched;
// - transform (masked_error, stream_cut): the inner provider is called, then its answer
//   is rewritten.
// Each injected fault is counted by kind (injected()) and so by phase (injected_phases()),
// and by time window of its decision (injected_by_window()), so a report can chart when
// the faults came; a fault found not to apply after all (a stream_cut whose stream ended
// before the cut) is taken back from both, so the windows always sum to the totals.
//
// Per call, in this order:
// 1. The call gets the next call number (from 1); scripted rules (first_call/last_call)
//    are by definition about that count, so they depend on what the provider received.
// 2. Two uniforms in [0, 1), one for the delay rules and one for the abort and transform
//    rules, each a hash (mocks/keyed_uniform.hpp) of the decorator's decision key (the
//    scenario's seed and the provider's name) and of the attempt's identity in
//    CallOptions: task id, tool, step and attempt number. A decision is therefore a
//    function of (provider, task, step, attempt) and of time (windows, flapping), never
//    of the provider's call count: two policies run on one seed face the same faults on
//    every attempt they share (DESIGN section 3). A call without identity
//    (CallOptions::attempt == 0: not from the engine, e.g. a test) draws the abort
//    uniform from the decorator's stream `rng` instead, one draw per call, and hashes
//    the delay uniform from its call number. (A decorator without delay rules hashes no
//    delay uniform: it could choose nothing; nor does a call for which none of the group's
//    own rules is active, for the same reason.)
// 3. Per group (delay; abort and transform) the active rules (window, scripted calls and
//    flapping: fault_active) are walked in file order: first the rules of shared
//    outages, each with its own uniform hashed from the outage's key (the same for every
//    provider in the outage, so they fail together on the same attempts) and chosen when
//    it falls below the rule's probability; then the provider's own rules, accumulating
//    their probabilities, the first whose cumulative sum exceeds the uniform chosen.
//    Own rules are therefore mutually exclusive per call and group, and each gets
//    exactly its probability because the active ones of a group sum to at most 1: the
//    scenario loader rejects rules whose probabilities sum to more wherever they overlap
//    (sim/scenario/fault_overlaps.hpp, check_fault_overlaps), so no rule is silently
//    shrunk. An outage takes precedence: a provider's own rules apply to the attempts
//    its outages spare.
// 4. With nothing chosen the call goes to the inner provider untouched.
// Steps 1 to 3 happen when call() is called, not when its Task is first awaited: callers
// await at once (Pipeline's attempt does), so both are the same virtual time.
//
// Latency samples of a faulty answer (fault.latency, else the provider's latency given to
// the constructor) come from a generator seeded by the same hash as the decision (or,
// without identity, from `rng` after the draw), so they too line up across policies.
//
// Abort answers:
// - timeout: no answer. The call returns Transport::timeout at CallOptions::deadline, or
//   when the server closes the silent connection if that comes first: after the fault's
//   `latency` when the rule sets one (a load balancer's idle timeout), else after
//   hang_cap. A task's deadline is at most the scenario's, so the cap only keeps a caller
//   without a deadline (live mode's connections) from hanging, the way an HTTP client gives
//   up on a silent server (10 minutes is the OpenAI Python SDK's default request timeout).
// - rate_limited: 429; overloaded: fault.status, default 529 (Anthropic's
//   overloaded_error), or 503. Both carry the delay the server asks for when the rule
//   sets one, in the rule's RetryAfterForm: Retry-After as delay-seconds, verbatim;
//   Retry-After as an IMF-fixdate (start_unix_seconds + now + delay, rounded up to the
//   second; RFC 9110 section 10.2.3); `retry-after-ms` beside a Retry-After in whole
//   seconds rounded up (what OpenAI and Azure OpenAI send); or no header and
//   google.rpc.RetryInfo's retry_delay in the body ("2.5s").
// - server_error: fault.status, default 500. client_error: fault.status, default 400
//   (401, 403, 404, 422 allowed): not retryable (engine/classify.hpp).
// - empty: 200 with an empty body of the provider's kind: no hits for a search, a
//   completion of 0 output tokens for an LLM. throttled_empty: the same 200 with no
//   hits, from a search that throttles silently instead of answering 429 (counted
//   apart, so a report shows the masked 429s).
// - index_not_ready: 503 with the error code "index_not_ready", what a vector index
//   answers while it is still being built or loaded (Elasticsearch's
//   no_shard_available_action_exception, Milvus's collection not loaded, Pinecone before
//   describe_index reports ready); the loader allows it on vector_search providers only.
// Abort answers take one latency sample and are bound by the deadline like any answer
// (mocks/answer_time.hpp): past it, the caller sees a timeout, the fault still counts as
// injected, and also as cut short (cut_short()): injected but not what the engine saw.
// They bill nothing: rejected requests (429, 5xx, 4xx) are not billed by real APIs.
//
// Delay phase:
// - latency_spike: a sample of fault.latency is waited before the call goes on.
// - brownout: the call goes on; when its answer arrives after d, a further
//   (multiplier - 1) * d is waited (rounded to the nanosecond), so it arrives after
//   multiplier * d. The answer's billed usage is the inner answer's.
// A delay that reaches the deadline (or a cancel) ends the call there, with the usage
// billed so far, and counts the fault as cut short.
//
// Transform phase:
// - masked_error: the inner answer, its ErrorDetails::body_error set to a JSON error object:
//   a 200 the engine takes for a success unless a validate "no_error" check reads it.
// - stream_cut: the inner LLM is asked for at most after_tokens output tokens; when its
//   stream reaches them (it would have gone on), the answer is turned into fault.status
//   (default 500) with error code "stream_error", its after_tokens output tokens billed,
//   and arrives when they are generated. A stream that ends on its own before them is
//   passed on untouched and not counted. The partial output is never part of a later
//   answer: the engine sees a failed attempt, and a retry's answer is the retry's alone.
// An inner answer that does not arrive (deadline, cancel) is passed on and the fault
// counted as cut short.
//
// Cancellation (CallOptions::cancellation): a faulty answer, an injected hang or a delay
// that is cancelled returns at once with Transport::cancelled (the fault still counts as
// injected). A call whose token is already cancelled is passed to the inner provider
// untouched, without a call number or a draw: it is never sent, and the inner mock says so.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/provider.hpp"
#include "engine/runtime/clock.hpp"
#include "engine/runtime/rng.hpp"
#include "mocks/chaos/fault.hpp"
#include "mocks/latency.hpp"

namespace squall {

// Default ChaosProvider hang cap: the OpenAI Python SDK's default timeout, 600 s.
inline constexpr Nanos kDefaultHangCap = 10 * kMinute;

struct ChaosSettings {
  Nanos hang_cap = kDefaultHangCap;
  // The key of the decorator's hashed decisions (make_provider draws it from the stream
  // "chaos/<name>/decisions"). Default 0 (tests).
  std::uint64_t decision_key = 0;
  // The wall-clock time at virtual time 0, in seconds since the Unix epoch (the
  // scenario's start_time), for Retry-After HTTP-dates. Default 0: 1970-01-01T00:00:00Z.
  std::int64_t start_unix_seconds = 0;
  // The windows of injected_by_window(): as wide as the report's time series (the
  // recorder's window, reports/recorder.hpp), from virtual time 0; a fault decided past
  // max_windows windows is counted in the last one, which bounds memory (DESIGN
  // section 9), as the recorder and the capacity layer do.
  Nanos window = 10 * kSecond;
  std::size_t max_windows = 100'000;
  // An llm's input price, USD per million tokens (its price_per_mtok.input): an `empty`
  // fault on a completion is a 200 with no content, for which the provider read, and
  // bills, the prompt (OpenAI's and Anthropic's usage counts input tokens on every
  // completed request). 0 for other providers, whose empty answers bill nothing.
  double prompt_usd_per_mtok = 0;
};

class ChaosProvider final : public Provider {
 public:
  // Owns `inner` (not null). `latency` is the provider's own latency (a web search's
  // latency, an LLM's time to first token), used by faulty answers whose fault sets none;
  // `body` is the kind of body the inner provider answers with. The clock, scheduler and
  // rng must outlive the decorator; `rng` is its own stream, separate from the inner's.
  ChaosProvider(std::unique_ptr<Provider> inner, std::vector<FaultConfig> faults, LatencyConfig latency, Body body,
                Clock& clock, Scheduler& scheduler, Rng& rng, ChaosSettings settings = {});

  // The inner provider's name: the decorator is invisible in reports.
  std::string_view name() const override { return inner_->name(); }
  Task<Response> call(Request request, CallOptions options) override;
  // Answers at once (engine/provider.hpp) when the call is clean and the inner provider
  // does, or when the fault is an abort without a delay; otherwise the Task call() gives.
  Task<Response> start(const Request& request, const CallOptions& options, Response& response,
                       ScheduledAnswer& answer) override;

  // Faults injected so far, by kind (index_of(FaultKind)), and by phase.
  const FaultCounts& injected() const { return injected_; }
  FaultPhaseCounts injected_phases() const;
  // The same faults by window of the time call() decided them (settings.window wide,
  // from 0), up to the last window with a fault: for every kind, the windows' counts sum
  // to injected()'s.
  const std::vector<FaultCounts>& injected_by_window() const { return injected_by_window_; }
  // Of those, the ones whose answer the caller never saw as injected: the deadline or a
  // cancel came first (an injected 529 answered after the client's timeout is a timeout
  // to the engine). Injected hangs (timeout) are never cut short: the hang is the fault.
  const FaultCounts& cut_short() const { return cut_short_; }
  // Calls received so far, faulty or not.
  std::uint64_t calls() const { return calls_; }
  Provider& inner() const { return *inner_; }

 private:
  struct Decision {
    const FaultConfig* delay = nullptr;
    const FaultConfig* fault = nullptr;  // abort or transform
    std::uint64_t latency_seed = 0;      // seeds the latency samples when keyed and faulty
    bool keyed = false;
  };
  Decision decide(TimePoint now, std::uint64_t call, const CallOptions& options);
  // `uniform()` gives the group's uniform; it is called only when one of the provider's own
  // rules of the group is active, since a keyed uniform is a pure hash that nothing else
  // reads (most calls of a run fall outside its fault windows).
  template <class Uniform>
  const FaultConfig* choose(bool delay_group, TimePoint now, std::uint64_t call, Uniform uniform,
                            const CallOptions& options, std::uint64_t tool_crc) const;
  // The text part of the keyed decisions' hash for a tool (mocks/keyed_uniform.hpp): its
  // crc64_xz (engine/runtime/rng.hpp) and that CRC mixed with the decision key of each
  // salt, taken once per tool name rather than once per decision: a decorator serves one
  // provider, called for one tool or a few, so the last name's are kept.
  struct ToolSeeds {
    std::uint64_t crc = 0;      // crc64_xz(tool), for the outages' keys
    std::uint64_t delay = 0;    // stream_seed_of_crc(decision_key ^ delay salt, crc)
    std::uint64_t abort = 0;    // the same for the abort and transform group
    std::uint64_t latency = 0;  // the same for the latency samples
  };
  const ToolSeeds& tool_seeds(std::string_view tool);
  const ToolSeeds& new_tool_seeds(std::string_view tool);  // a name other than the last one's
  Task<Response> run(Decision decision, TimePoint now, Request request, CallOptions options);
  // The call's number and decision, with the injected faults counted.
  Decision next_decision(TimePoint now, const CallOptions& options);
  // `prompt_tokens`: the request's, which an empty completion bills.
  Task<Response> abort(const FaultConfig& fault, TimePoint now, std::int64_t prompt_tokens, CallOptions options,
                       Rng& rng);
  Task<Response> transform(const FaultConfig& fault, TimePoint decided, const Request& request, CallOptions options);
  // Counts a fault decided at `decided` as injected, or takes it back (in its total and
  // its window alike).
  void count_injected(FaultKind kind, TimePoint decided);
  void uncount_injected(FaultKind kind, TimePoint decided);
  std::size_t window_of(TimePoint decided) const;
  void abort_now(const FaultConfig& fault, TimePoint now, std::int64_t prompt_tokens, const CallOptions& options,
                 Rng& rng, Response& response, ScheduledAnswer& answer);
  Response faulty_answer(const FaultConfig& fault, TimePoint now);
  // Sets the retry-delay hint `fault` sends (its Retry-After, retry-after-ms or RetryInfo)
  // in `details`.
  void set_retry_after(const FaultConfig& fault, TimePoint now, ErrorDetails& details);
  std::string_view keep(std::string text);

  std::string seeds_tool_;  // the tool name seeds_ are of
  ToolSeeds seeds_;
  bool seeds_set_ = false;
  // The rules of each group (kDelayGroup, kAbortGroup: abort and transform), in file
  // order, split into the shared outages' and the provider's own, so that choose() walks
  // only the rules it may pick. Pointers into faults_, which never changes. A group
  // without rules chooses nothing, so its uniform is not hashed (the stream's draw of an
  // unkeyed call is still taken, so the stream is where it was).
  static constexpr std::size_t kDelayGroup = 0;
  static constexpr std::size_t kAbortGroup = 1;
  std::array<std::vector<const FaultConfig*>, 2> outage_rules_;
  std::array<std::vector<const FaultConfig*>, 2> own_rules_;
  bool has_rules(std::size_t group) const { return !outage_rules_[group].empty() || !own_rules_[group].empty(); }
  std::unique_ptr<Provider> inner_;
  std::vector<FaultConfig> faults_;
  LatencyModel latency_;
  Body body_;
  Clock& clock_;
  Scheduler& scheduler_;
  Rng& rng_;
  ChaosSettings settings_;
  FaultCounts injected_{};
  std::vector<FaultCounts> injected_by_window_;
  FaultCounts cut_short_{};
  std::uint64_t calls_ = 0;
  // Header and body texts made per answer (dates, delays), kept for the run since a
  // Response only points at them; one per distinct text.
  std::set<std::string, std::less<>> texts_;
  ErrorDetailsStore details_;  // the answers' error details, one per distinct set
};

}  // namespace squall
