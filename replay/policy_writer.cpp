#include "replay/policy_writer.hpp"

#include <algorithm>

#include <fmt/core.h>

#include "engine/runtime/duration.hpp"

namespace squall::replay {
namespace {

std::vector<std::string> kind_names(const std::vector<OutcomeKind>& kinds) {
  std::vector<std::string> names;
  for (OutcomeKind k : kinds) names.emplace_back(to_string(k));
  return names;
}

FitSource calls_prov(std::uint64_t samples, std::string method) {
  FitSource p;
  p.window = "whole trace";
  p.samples = samples;
  p.method = std::move(method);
  return p;
}

FitSource prior_prov(std::string method) {
  FitSource p;
  p.method = std::move(method);
  p.prior = true;
  return p;
}

void emit_backoff(FittedEmitter& e, const RetryFit& r, const std::string& at) {
  if (r.backoff_samples == 0) {
    const std::string why = "no backoff wait in the trace (every retry waited a Retry-After): the engine's default";
    e.fitted(at + "/backoff", "backoff", "exponential", prior_prov(why));
    return;
  }
  const std::string how =
      fmt::format("waits between attempts over {} retry numbers; shape by d2/d1 in [1.5, 3]", r.backoff_retries);
  e.fitted(at + "/backoff", "backoff", std::string(to_string(r.backoff)), calls_prov(r.backoff_samples, how));
  const std::string base_how =
      r.jitter == Jitter::none   ? "median wait before attempt 2"
      : r.jitter == Jitter::full ? "twice the median wait before attempt 2 (full jitter: uniform in [0, d])"
                                 : fmt::format("the median wait before attempt 2 over {} (a factor uniform in [{}, 1])",
                                               (1 + r.jitter_low) / 2, r.jitter_low);
  e.fitted(at + "/base_delay", "base_delay", ms_text(r.base_delay), calls_prov(r.backoff_samples, base_how));
  if (r.backoff == Backoff::exponential)
    e.fitted(at + "/multiplier", "multiplier", "2", calls_prov(r.backoff_samples, "d2/d1 near 2"));
  e.fitted(at + "/max_delay", "max_delay", ms_text(std::max(r.max_delay, r.base_delay)),
           calls_prov(r.backoff_samples, "largest d_n"));
  e.fitted(at + "/jitter", "jitter", std::string(to_string(r.jitter)),
           calls_prov(r.backoff_samples,
                      "waits of one retry number within 5%: none; else a factor uniform in [low, 1], low by the "
                      "uniform's unbiased endpoint estimators: proportional from 0.2, else full"));
  if (r.jitter == Jitter::proportional) {
    e.fitted_list(at + "/jitter_range", "jitter_range", {fmt::format("{}", r.jitter_low), "1"},
                  calls_prov(r.backoff_samples, "the median low end over retry numbers, to 0.05"));
  }
}

void emit_retry_after(FittedEmitter& e, const RetryFit& r, const std::string& at) {
  if (!r.honour_retry_after) {
    e.fitted(at + "/honour_retry_after", "honour_retry_after", "true",
             prior_prov("no retried failure recorded a Retry-After: the engine's default"));
    return;
  }
  const std::string how =
      fmt::format("{} of {} retries after a Retry-After waited it out", r.retry_after_honoured, r.retry_after_samples);
  e.fitted(at + "/honour_retry_after", "honour_retry_after", *r.honour_retry_after ? "true" : "false",
           calls_prov(r.retry_after_samples, how));
  if (*r.honour_retry_after)
    e.fitted(at + "/max_retry_after", "max_retry_after", ms_text(r.max_retry_after),
             calls_prov(r.retry_after_honoured, "longest Retry-After waited"));
}

void emit_retry(FittedEmitter& e, const RetryFit& r, const std::string& at) {
  YAML::Emitter& out = e.out();
  out << YAML::BeginMap << YAML::Key << "retry" << YAML::Value << YAML::BeginMap;
  e.fitted(at + "/max_attempts", "max_attempts", std::to_string(r.max_attempts),
           calls_prov(r.calls, "longest run of attempts to one provider in a logical call"));
  e.fitted_list(at + "/retry_on", "retry_on", kind_names(r.retry_on),
                calls_prov(r.retries, "outcomes followed by another attempt to the same provider"));
  emit_backoff(e, r, at);
  emit_retry_after(e, r, at);
  out << YAML::EndMap << YAML::EndMap;
}

// A truncated answer (finish_reason "length") that was retried or moved on: the
// application rejects cut answers, which squall's engine accepts unless a validate check
// says otherwise (engine/strategies/validate.hpp), innermost so retry and fallback see it.
bool contains_truncated(const std::vector<OutcomeKind>& kinds) {
  return std::find(kinds.begin(), kinds.end(), OutcomeKind::truncated) != kinds.end();
}

bool rejects_truncation(const ToolPolicyFit& t) {
  return (t.retry.max_attempts > 1 && contains_truncated(t.retry.retry_on)) ||
         (t.fallback && contains_truncated(t.fallback->on));
}

void emit_validate_complete(FittedEmitter& e, const ToolPolicyFit& t, const std::string& at) {
  YAML::Emitter& out = e.out();
  out << YAML::BeginMap << YAML::Key << "validate" << YAML::Value << YAML::BeginMap;
  e.fitted_list(at + "/require", "require", {"complete"},
                calls_prov(t.retry.retries + (t.fallback ? t.fallback->moves : 0),
                           "answers cut at max_output_tokens were retried or moved on: the application rejects them"));
  out << YAML::EndMap << YAML::EndMap;
}

void emit_tool(FittedEmitter& e, const ToolPolicyFit& t, const std::string& at) {
  YAML::Emitter& out = e.out();
  out << YAML::Key << t.tool << YAML::Value << YAML::BeginSeq;
  int index = 0;
  if (t.timeout) {
    out << YAML::BeginMap << YAML::Key << "timeout" << YAML::Value << YAML::BeginMap;
    e.fitted(fmt::format("{}/{}/timeout/per_attempt", at, index++), "per_attempt", ms_text(t.timeout->per_attempt),
             calls_prov(t.timeout->samples, "the length most timeout attempts share (a client's latency ceiling)"));
    out << YAML::EndMap << YAML::EndMap;
  }
  if (t.fallback) {
    const std::string f = fmt::format("{}/{}/fallback", at, index++);
    out << YAML::BeginMap << YAML::Key << "fallback" << YAML::Value << YAML::BeginMap;
    e.fitted_list(f + "/providers", "providers", t.fallback->providers,
                  calls_prov(t.fallback->moves, "providers called after the primary, in order of first use"));
    e.fitted_list(f + "/on", "on", kind_names(t.fallback->on),
                  calls_prov(t.fallback->moves, "outcomes after which a call moved to another provider"));
    out << YAML::EndMap << YAML::EndMap;
  }
  if (t.retry.max_attempts > 1) emit_retry(e, t.retry, fmt::format("{}/{}/retry", at, index++));
  if (rejects_truncation(t)) emit_validate_complete(e, t, fmt::format("{}/{}/validate", at, index++));
  out << YAML::EndSeq;
}

}  // namespace

void emit_policy(FittedEmitter& e, const std::vector<ToolPolicyFit>& policy, const std::string& root) {
  e.out() << YAML::BeginMap;
  for (const ToolPolicyFit& t : policy) {
    if (t.retry.max_attempts <= 1 && !t.fallback && !t.timeout) {
      e.out() << YAML::Key << t.tool << YAML::Value << YAML::Flow << YAML::BeginSeq << YAML::EndSeq
              << YAML::Comment(fmt::format("no retry, fallback or timeout seen in {} calls", t.retry.calls));
      continue;
    }
    emit_tool(e, t, root + "/" + pointer_token(t.tool));
  }
  e.out() << YAML::EndMap;
}

}  // namespace squall::replay
