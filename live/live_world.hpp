// LiveWorld: a scenario's providers served to real clients, on real time.
//
// Builds every provider of the scenario exactly as the simulator does (make_provider: the
// mock, its capacity model, its chaos decorator, each drawing from the stream
// stream_seed(seed, name) the simulator gives it), on a RealTimeLoop instead of the
// simulator's EventLoop, and records what each HTTP request met into the same Recorder
// the simulator reports through. Only the clock differs (docs/live.md).
//
// Request identity, the key of the chaos decorator's fault decisions (CallOptions: task,
// tool, step, attempt; mocks/chaos/chaos_provider.hpp). Per provider, requests are numbered
// from 0 in the order they arrive: task = that number, step 0, attempt 1, tool = the
// endpoint ("chat.completions", "messages", "embeddings", "search", "query"); the report
// numbers them across providers (RequestIdentity::trace). A request
// carrying an Idempotency-Key header already seen by that provider is a retry of the
// request that first carried it: it keeps that request's number and its attempt is 1 + the times the key was seen
// before, so a client that retries with a key meets the decisions keyed on (request, attempt). The same client making
// the same requests in the same order therefore meets the same decisions; fault windows are measured on the scaled real
// clock, which a client's timing moves.
//
// Every decision made by a chaos decorator (every request that reaches one) is counted
// and folded, in the order made, into a fingerprint of (provider, request, attempt, the
// fault kinds chosen): two runs of one client against one seed give the same count and
// fingerprint exactly when they met the same faults on the same requests.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/call.hpp"
#include "engine/provider.hpp"
#include "mocks/make_provider.hpp"
#include "reports/fingerprint.hpp"
#include "reports/recorder.hpp"
#include "reports/report.hpp"
#include "sim/corpora.hpp"
#include "sim/scenario.hpp"

namespace squall::live {

// Who a request is, for the chaos decisions and the report.
struct RequestIdentity {
  std::uint64_t request = 0;  // among its provider's requests: the chaos decisions' key
  std::int32_t attempt = 1;
  // Among every provider's requests, from 0: the task id of its events (the report's
  // logical calls, the trace's and the OTLP export's trace ids), unique in the run.
  std::uint64_t trace = 0;
};

struct LiveProvider {
  const ProviderConfig* config = nullptr;
  BuiltProvider built;
  std::uint64_t next_request = 0;  // requests numbered so far
  // Idempotency keys seen: the identity of the request that first carried each, with the
  // times it came as its attempt.
  std::map<std::string, RequestIdentity, std::less<>> keys;
};

class LiveWorld {
 public:
  // The scenario and corpora must outlive the world, as must the clock and scheduler.
  // `start_unix_seconds`: the wall-clock time at time 0, for Retry-After HTTP-dates and
  // the `created` of answers.
  // `observer`, when given (it must outlive the world), sees every event after the
  // recorder (the JSONL trace).
  LiveWorld(const Scenario& scenario, const Corpora& corpora, std::uint64_t seed, Clock& clock, Scheduler& scheduler,
            std::int64_t start_unix_seconds, EventSink* observer = nullptr);
  LiveWorld(const LiveWorld&) = delete;
  LiveWorld& operator=(const LiveWorld&) = delete;

  // The llm provider serving `model`: the one whose `model` is it, else the one named it.
  LiveProvider* find_llm(std::string_view model);
  // The provider named `name` (any type), or null.
  LiveProvider* find(std::string_view name);
  // The llm providers, by name, for GET /v1/models.
  std::vector<const LiveProvider*> llms() const;
  // The scenario's tools `provider` serves (those whose provider it is, by name), else its
  // own name: the tools its MCP endpoint lists. Views of the scenario's strings.
  std::vector<std::string_view> tool_names(const LiveProvider& provider) const;
  // The identity of a request to `provider`, with its Idempotency-Key when it has one.
  RequestIdentity identify(LiveProvider& provider, std::optional<std::string_view> idempotency_key);

  // Calls the provider's stack as the request `identity` on `endpoint` (the tool of the
  // decisions; must outlive the call), records the fault decision at once and the attempt
  // when it ends. `meter`, when given, is set by an llm that generates the answer
  // (GenerationMeter) and `cancellation` ends the wait (a server stopping). A
  // `prompt_only` call (an embedding) asks for no text: its output capped at one token is
  // no truncation, so the report does not count it as invalid output.
  Task<Response> call(LiveProvider& provider, Request request, RequestIdentity identity, std::string_view endpoint,
                      GenerationMeter* meter, CancellationToken cancellation, bool prompt_only = false);

  std::uint64_t decisions() const { return decisions_; }
  std::uint64_t decision_fingerprint() const { return decision_fingerprint_.value(); }
  std::int64_t start_unix_seconds() const { return start_unix_seconds_; }
  std::uint64_t seed() const { return seed_; }
  Clock& clock() { return clock_; }

  // The report of the run, covering `duration` of (virtual) time, with the same provider
  // sections as `run` (sim/provider_record.hpp: injected faults, capacity); its
  // fingerprint is decision_fingerprint() (the trace of a live run has real latencies in
  // it). Once, when serving has ended: the capacity layers' counters end there.
  // `clients`, when given, is the report's `clients` section and measures the client_*
  // thresholds (live/client_tracker.hpp).
  Report report(Nanos duration, const Provenance& provenance, const ClientReport* clients = nullptr);

 private:
  void record_decision(const LiveProvider& provider, RequestIdentity identity, const FaultCounts& before);

  const Scenario& scenario_;
  std::uint64_t seed_;
  Clock& clock_;
  std::int64_t start_unix_seconds_;
  Recorder recorder_;
  EventSink* observer_;
  QuotaBucketMap quotas_{scenario_.quota_groups};  // before the providers, which take from it
  std::map<std::string, LiveProvider, std::less<>> providers_;
  std::uint64_t next_trace_ = 0;
  std::uint64_t decisions_ = 0;
  Fingerprint decision_fingerprint_;
};

}  // namespace squall::live
