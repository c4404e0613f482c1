#include "replay/scenario_writer.hpp"

#include <fmt/core.h>

#include "engine/runtime/duration.hpp"
#include "mocks/llm.hpp"
#include "replay/policy_writer.hpp"

namespace squall::replay {
namespace {

std::string number(double x) { return fmt::format("{:.6g}", x); }

std::string window_of(std::int64_t from_ns, std::int64_t to_ns) {
  return fmt::format("[{}, {})", ms_text(from_ns), ms_text(to_ns));
}

FitSource prov(std::string window, std::uint64_t samples, std::string method) {
  FitSource p;
  p.window = std::move(window);
  p.samples = samples;
  p.method = std::move(method);
  return p;
}

void emit_arrivals(FittedEmitter& e, const ReplayFit& fit) {
  YAML::Emitter& out = e.out();
  const ArrivalFit& a = fit.arrivals;
  const std::string method = fmt::format("Bayesian Blocks (Scargle et al. 2013, p0 0.05, ncp_prior {:.3f}{})",
                                         a.ncp_prior, a.binned ? ", binned" : "");
  out << YAML::Key << "arrivals" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "process" << YAML::Value << "poisson";
  e.fitted("/workload/arrivals/rate_per_s", "rate_per_s", number(a.arrivals.rate_per_s),
           prov("whole trace", a.tasks, "duration-weighted median block rate; " + method));
  if (!a.arrivals.bursts.empty()) {
    out << YAML::Key << "bursts" << YAML::Value << YAML::BeginSeq;
    for (std::size_t i = 0; i < a.arrivals.bursts.size(); ++i) {
      const Burst& b = a.arrivals.bursts[i];
      if (to_ms(b.from) >= to_ms(b.to)) continue;  // narrower than the writing's millisecond
      std::uint64_t events = 0;
      for (const RateBlock& block : a.blocks)
        if (block.from_ns - fit.origin_ns == b.from) events = block.events;
      const std::string at = fmt::format("/workload/arrivals/bursts/{}", i);
      out << YAML::BeginMap;
      e.fitted(at + "/from", "from", ms_text(b.from), prov("", events, "block edge; " + method));
      e.fitted(at + "/to", "to", ms_text(b.to), prov("", events, "block edge; " + method));
      e.fitted(at + "/rate_per_s", "rate_per_s", number(b.rate_per_s),
               prov(window_of(b.from, b.to), events, "tasks / width of the block; " + method));
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;
}

void emit_step(FittedEmitter& e, const FittedStep& s, const std::string& at) {
  YAML::Emitter& out = e.out();
  out << YAML::BeginMap;
  e.name("tool", s.tool);
  if (s.optional) {
    out << YAML::Key << "optional" << YAML::Value << true << YAML::Comment("a task went on after this step failed");
  }
  if (s.prompt_tokens > 0)
    e.fitted(at + "/prompt_tokens", "prompt_tokens", std::to_string(s.prompt_tokens),
             prov("whole trace", s.calls, "median input tokens of the calls' first attempts"));
  if (s.max_output_tokens > 0)
    e.fitted(at + "/max_output_tokens", "max_output_tokens", std::to_string(s.max_output_tokens),
             prov("whole trace", s.calls, "longest output, at which attempts were cut (truncated)"));
  out << YAML::EndMap;
}

void emit_tasks(FittedEmitter& e, const WorkloadFit& w) {
  YAML::Emitter& out = e.out();
  out << YAML::Key << "tasks" << YAML::Value << YAML::BeginSeq;
  for (std::size_t i = 0; i < w.templates.size(); ++i) {
    const FittedTemplate& t = w.templates[i];
    const std::string at = fmt::format("/workload/tasks/{}", i);
    out << YAML::BeginMap;
    e.name("name", t.name);
    e.fitted(at + "/weight", "weight", std::to_string(t.tasks),
             prov("whole trace", t.tasks,
                  "tasks calling this sequence of tools (those cut short by a failure "
                  "joined the longest sequence they began)"));
    FitSource deadline = w.deadline_seen
                             ? prov("whole trace", w.tasks_at_deadline,
                                    "longest task, rounded up to a second: tasks failed at that length")
                             : prov("", w.tasks,
                                    "no task failed at the longest length, so the trace shows no deadline: the "
                                    "loader's default, or the longest task when longer");
    deadline.prior = !w.deadline_seen;
    e.fitted(at + "/deadline", "deadline", format_duration(w.deadline_ns), deadline);
    out << YAML::Key << "steps" << YAML::Value << YAML::BeginSeq;
    for (std::size_t s = 0; s < t.steps.size(); ++s) emit_step(e, t.steps[s], fmt::format("{}/steps/{}", at, s));
    out << YAML::EndSeq << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

std::string rule_method(const FaultWindowFit& w, const FittedFaultRule& r) {
  return fmt::format("{}/{} attempts, SE {:.4f}; window by PELT (multinomial cost, BIC penalty)", r.failures,
                     w.attempts, r.standard_error);
}

void emit_faults(FittedEmitter& e, const ReplayFit& fit, const std::string& provider, const std::string& at) {
  YAML::Emitter& out = e.out();
  std::size_t index = 0;
  for (const FaultWindowFit& w : fit.faults.windows) {
    if (w.provider != provider || to_ms(w.from_ns) >= to_ms(w.to_ns)) continue;
    for (const FittedFaultRule& r : w.rules) {
      if (index == 0) out << YAML::Key << "faults" << YAML::Value << YAML::BeginSeq;
      const std::string rule = fmt::format("{}/faults/{}", at, index++);
      out << YAML::BeginMap << YAML::Key << "kind" << YAML::Value << std::string(to_string(r.fault.kind));
      e.fitted(rule + "/probability", "probability", number(r.fault.probability),
               prov(window_of(w.from_ns, w.to_ns), w.attempts, rule_method(w, r)));
      e.fitted(rule + "/from", "from", ms_text(w.from_ns), prov("", w.attempts, "PELT change point"));
      e.fitted(rule + "/to", "to", ms_text(w.to_ns), prov("", w.attempts, "PELT change point"));
      if (r.fault.status) out << YAML::Key << "status" << YAML::Value << *r.fault.status;
      if (r.fault.error_code) out << YAML::Key << "error_code" << YAML::Value << *r.fault.error_code;
      if (r.fault.retry_after_delay)
        e.fitted(rule + "/retry_after", "retry_after", ms_text(*r.fault.retry_after_delay),
                 prov(window_of(w.from_ns, w.to_ns), r.retry_after_samples, "median recorded Retry-After"));
      out << YAML::EndMap;
    }
  }
  if (index > 0) out << YAML::EndSeq;
}

void emit_latency(FittedEmitter& e, const FittedProvider& p, const std::string& at, const char* key) {
  YAML::Emitter& out = e.out();
  out << YAML::Key << key << YAML::Value << YAML::BeginMap;
  const std::string base = at + "/" + key;
  if (p.latency.latency) {
    const std::string how = fmt::format(
        "lognormal by maximum likelihood (mu {:.4f}, sigma {:.4f}) on answered "
        "attempts{}",
        p.latency.mu_log_s, p.latency.sigma_log,
        p.kind == ProviderKind::llm ? ", less output tokens / tokens_per_second" : "");
    e.fitted(base + "/median", "median", ms_text(p.latency.latency->median),
             prov("whole trace", p.latency.samples, how));
    e.fitted(base + "/p99", "p99", ms_text(p.latency.latency->p99), prov("whole trace", p.latency.samples, how));
  } else {
    FitSource prior = prov("", p.latency.samples, "fewer than 2 answered attempts: the loader's default");
    prior.prior = true;
    const bool llm = p.kind == ProviderKind::llm;
    e.fitted(base + "/median", "median", llm ? "500ms" : "100ms", prior);
    e.fitted(base + "/p99", "p99", llm ? "3s" : "1s", prior);
  }
  out << YAML::EndMap;
}

void emit_price(FittedEmitter& e, const FittedProvider& p, const std::string& at) {
  if (!p.price) return;
  YAML::Emitter& out = e.out();
  out << YAML::Key << "price_per_mtok" << YAML::Value << YAML::BeginMap;
  const std::string how = "least squares of recorded cost on input and output tokens, USD per million";
  e.fitted(at + "/price_per_mtok/input", "input", number(p.price->input), prov("whole trace", p.price_samples, how));
  e.fitted(at + "/price_per_mtok/output", "output", number(p.price->output), prov("whole trace", p.price_samples, how));
  out << YAML::EndMap;
}

void emit_llm(FittedEmitter& e, const FittedProvider& p, const std::string& at) {
  if (!p.model.empty()) e.name("model", p.model);
  emit_price(e, p, at);
  emit_latency(e, p, at, "time_to_first_token");
  FitSource tps = prov("whole trace", p.slope_samples, "inverse least-squares slope of latency on output tokens");
  if (!p.tokens_per_second_fitted) {
    tps = prov("", p.slope_samples,
               "no positive slope of latency on output tokens: the mock's default, or twice the fastest answer's "
               "tokens per second when higher (no answer's generation outlasts half its latency)");
    tps.prior = true;
  }
  e.fitted(at + "/tokens_per_second", "tokens_per_second", number(p.tokens_per_second), tps);
  if (p.embeddings) {
    e.fitted(at + "/mean_output_tokens", "mean_output_tokens", "1",
             prov("whole trace", p.attempts, "embeddings generate no text: one token, the least the mock draws"));
  } else if (p.mean_output_tokens) {
    e.fitted(at + "/mean_output_tokens", "mean_output_tokens", std::to_string(*p.mean_output_tokens),
             prov("whole trace", p.output_samples,
                  "censored exponential: output tokens of successful and cut attempts / successful attempts"));
  } else {
    FitSource prior = prov("", 0, "no answer with output tokens: the mock's default");
    prior.prior = true;
    e.fitted(at + "/mean_output_tokens", "mean_output_tokens", std::to_string(LlmConfig{}.mean_output_tokens), prior);
  }
}

void emit_providers(FittedEmitter& e, const ReplayFit& fit, const ScenarioText& text) {
  YAML::Emitter& out = e.out();
  out << YAML::Key << "providers" << YAML::Value << YAML::BeginMap;
  for (const FittedProvider& p : fit.providers) {
    const std::string at = "/providers/" + pointer_token(p.name);
    out << YAML::Key << p.name << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "type" << YAML::Value << std::string(to_string(p.kind))
        << YAML::Comment(fmt::format("{} attempts", p.attempts));
    if (p.kind == ProviderKind::llm) {
      emit_llm(e, p, at);
    } else {
      emit_latency(e, p, at, "latency");
    }
    emit_faults(e, fit, p.name, at);
    out << YAML::EndMap;
  }
  for (const PriorProvider& p : text.priors) {
    out << YAML::Key << p.name << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "type" << YAML::Value << std::string(to_string(p.kind))
        << YAML::Comment("PRIOR: never called in the trace (" + p.why + "); the loader's defaults, no faults");
    out << YAML::EndMap;
  }
  out << YAML::EndMap;
}

}  // namespace

std::string scenario_yaml(const ReplayFit& fit, const ScenarioText& text, FitSources& provenance) {
  FittedEmitter e("scenario.yaml", provenance);
  YAML::Emitter& out = e.out();
  out << YAML::Comment("Fitted by squall replay; numbers marked PRIOR are not from the trace (docs/replay.md)");
  out << YAML::BeginMap;
  e.name("name", text.name);
  e.name("description", text.description);
  out << YAML::Key << "seed" << YAML::Value << 1;
  e.fitted("/duration", "duration", format_duration(fit.duration_ns),
           prov("whole trace", fit.workload.tasks, "last task's start, rounded up to a millisecond"));
  out << YAML::Key << "workload" << YAML::Value << YAML::BeginMap;
  emit_arrivals(e, fit);
  emit_tasks(e, fit.workload);
  out << YAML::EndMap;
  emit_providers(e, fit, text);
  if (fit.explicit_tools) {
    out << YAML::Key << "tools" << YAML::Value << YAML::BeginMap;
    for (const FittedTool& t : fit.workload.tools) {
      out << YAML::Key << t.name << YAML::Value << YAML::BeginMap;
      e.name("provider", t.provider);
      out << YAML::EndMap << YAML::Comment(fmt::format("the provider most of its {} calls reached first", t.calls));
    }
    out << YAML::EndMap;
  }
  out << YAML::Key << "policy" << YAML::Value << YAML::Comment("the as-deployed policy (as-deployed.yaml)");
  emit_policy(e, fit.policy, "/policy");
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

std::string policy_yaml(const ReplayFit& fit, FitSources& provenance) {
  FittedEmitter e("as-deployed.yaml", provenance);
  e.out() << YAML::Comment("The policy the trace shows was deployed, fitted by squall replay (docs/replay.md)");
  emit_policy(e, fit.policy, "");
  return std::string(e.out().c_str()) + "\n";
}

}  // namespace squall::replay
