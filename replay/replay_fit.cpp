#include "replay/replay_fit.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace squall::replay {
namespace {

// The duration's grain: a millisecond, so that a short trace's fitted rate, over the
// duration, gives back its tasks (a second's rounding made 6 tasks in 141 ms into 42).
constexpr std::int64_t kMsNs = 1'000'000;

// The least-squares slope of latency (s) on output tokens, or nullopt.
std::optional<double> seconds_per_token(const std::vector<const AttemptRecord*>& ok) {
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const AttemptRecord* a : ok) {
    if (!a->output_tokens) continue;
    const double x = static_cast<double>(*a->output_tokens);
    const double y = static_cast<double>(a->end_ns - a->start_ns) / 1e9;
    n += 1;
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  if (n < static_cast<double>(kMinSlopeSamples)) return std::nullopt;
  const double var = sxx - sx * sx / n;
  if (var <= 0) return std::nullopt;
  const double slope = (sxy - sx * sy / n) / var;
  if (!(slope > 1e-9)) return std::nullopt;
  return slope;
}

// The mock draws output tokens from an exponential and cuts them at the request's cap (a
// truncated answer): the censored exponential's maximum-likelihood mean is every output
// token, cut ones included, over the uncut (successful) answers.
void fit_output_tokens(FittedProvider& p, const std::vector<const AttemptRecord*>& attempts) {
  double tokens = 0;
  for (const AttemptRecord* a : attempts) {
    if (!a->output_tokens) continue;
    if (a->outcome == OutcomeKind::truncated) tokens += static_cast<double>(*a->output_tokens);
    if (a->outcome != OutcomeKind::success) continue;
    tokens += static_cast<double>(*a->output_tokens);
    ++p.output_samples;
  }
  if (p.output_samples > 0)
    p.mean_output_tokens = std::max<std::int64_t>(1, std::llround(tokens / static_cast<double>(p.output_samples)));
}

// Prices: cost = a * input + b * output over the attempts that record all three, by least
// squares (normal equations), a and b kept non-negative (a negative one is set to 0 and the
// other refitted alone): a provider bills tokens at a price per token.
void fit_price(FittedProvider& p, const std::vector<const AttemptRecord*>& attempts) {
  double xx = 0, xy = 0, yy = 0, xc = 0, yc = 0;
  for (const AttemptRecord* a : attempts) {
    if (!a->cost_usd || !a->input_tokens || !a->output_tokens) continue;
    const double x = static_cast<double>(*a->input_tokens);
    const double y = static_cast<double>(*a->output_tokens);
    xx += x * x, xy += x * y, yy += y * y, xc += x * *a->cost_usd, yc += y * *a->cost_usd;
    ++p.price_samples;
  }
  if (p.price_samples < kMinPriceSamples) return;
  const double det = xx * yy - xy * xy;
  double in = det > 0 ? (xc * yy - yc * xy) / det : -1;
  double out = det > 0 ? (yc * xx - xc * xy) / det : -1;
  if (in < 0 || out < 0) {
    // One price alone, the other 0: the one that explains more of the cost (a one-variable
    // least-squares fit takes xc^2 / xx off the residual sum of squares).
    const double gain_in = xx > 0 ? xc * xc / xx : 0;
    const double gain_out = yy > 0 ? yc * yc / yy : 0;
    in = gain_in >= gain_out && xx > 0 ? std::max(0.0, xc / xx) : 0;
    out = gain_out > gain_in && yy > 0 ? std::max(0.0, yc / yy) : 0;
  }
  if (!std::isfinite(in) || !std::isfinite(out)) return;
  p.price = PricePerMTok{in * 1e6, out * 1e6};
}

void fit_llm(FittedProvider& p, const std::vector<const AttemptRecord*>& ok) {
  std::vector<AttemptRecord> first_token;
  if (const auto slope = seconds_per_token(ok)) {
    p.tokens_per_second = 1.0 / *slope;
    p.tokens_per_second_fitted = true;
  } else {
    // The prior, but never so slow that an answer's generation would outlast half its
    // latency: 20 tokens in 30 ms at 80 tokens/s would leave no time to a first token.
    for (const AttemptRecord* a : ok) {
      const double seconds = static_cast<double>(a->end_ns - a->start_ns) / 1e9;
      if (a->output_tokens && *a->output_tokens > 0 && seconds > 0)
        p.tokens_per_second = std::max(p.tokens_per_second, 2.0 * static_cast<double>(*a->output_tokens) / seconds);
    }
  }
  for (const AttemptRecord* a : ok) {
    AttemptRecord copy = *a;
    copy.request_model.clear();
    const std::int64_t tokens = a->output_tokens.value_or(0);
    p.slope_samples += a->output_tokens ? 1 : 0;
    const double generation = std::round(static_cast<double>(tokens) * 1e9 / p.tokens_per_second);
    copy.end_ns = std::max(copy.start_ns, copy.end_ns - static_cast<std::int64_t>(generation));
    first_token.push_back(std::move(copy));
  }
  const std::vector<LatencyFit> fits = fit_latency(first_token);
  if (!fits.empty()) p.latency = fits.front();
}

std::vector<FittedProvider> fit_providers(const TraceData& data) {
  std::map<std::string, std::vector<const AttemptRecord*>> by_provider;
  for (const AttemptRecord& a : data.attempts) by_provider[a.provider].push_back(&a);
  std::vector<FittedProvider> out;
  for (const auto& [name, attempts] : by_provider) {
    FittedProvider p;
    p.name = name;
    p.attempts = attempts.size();
    p.kind = kind_of_operation(attempts.front()->operation);
    p.embeddings = std::all_of(attempts.begin(), attempts.end(),
                               [](const AttemptRecord* a) { return a->operation == "embeddings"; });
    std::map<std::string, std::uint64_t> models;
    std::vector<const AttemptRecord*> ok;
    for (const AttemptRecord* a : attempts) {
      if (!a->request_model.empty()) ++models[a->request_model];
      if (answered(a->outcome)) ok.push_back(a);
    }
    std::uint64_t best = 0;
    for (const auto& [model, n] : models) {
      if (n > best) {
        p.model = model;
        best = n;
      }
    }
    p.latency.provider = name;
    if (p.kind == ProviderKind::llm) {
      fit_llm(p, ok);
      fit_output_tokens(p, attempts);
      fit_price(p, attempts);
    } else {
      std::vector<AttemptRecord> copies;
      for (const AttemptRecord* a : ok) copies.push_back(*a), copies.back().request_model.clear();
      const std::vector<LatencyFit> fits = fit_latency(copies);
      if (!fits.empty()) p.latency = fits.front();
    }
    out.push_back(std::move(p));
  }
  return out;
}

// Windows starting at or after the duration cannot be written (the loader refuses a
// `from` past the run's end); the last one kept ends at the duration.
void clip_windows(FaultFit& faults, std::int64_t duration_ns) {
  std::erase_if(faults.windows, [&](const FaultWindowFit& w) { return w.from_ns >= duration_ns; });
  for (FaultWindowFit& w : faults.windows) {
    w.to_ns = std::min(w.to_ns, duration_ns);
    for (FittedFaultRule& r : w.rules) {
      r.fault.from = w.from_ns;
      r.fault.to = w.to_ns;
    }
  }
}

// A scenario has a `tools` block only when some tool is named apart from its provider; a
// tool in it may not share a provider's name, so such a tool becomes "NAME-tool" in the
// tools, steps and policy alike.
void name_tools(ReplayFit& fit) {
  fit.explicit_tools = false;
  for (const FittedTool& t : fit.workload.tools) fit.explicit_tools = fit.explicit_tools || t.name != t.provider;
  if (!fit.explicit_tools) return;
  std::set<std::string> providers;
  for (const FittedProvider& p : fit.providers) providers.insert(p.name);
  auto rename = [&](std::string& tool) {
    if (providers.count(tool) > 0) tool += "-tool";
  };
  for (FittedTool& t : fit.workload.tools) rename(t.name);
  for (FittedTemplate& t : fit.workload.templates)
    for (FittedStep& s : t.steps) rename(s.tool);
  for (ToolPolicyFit& t : fit.policy) rename(t.tool);
}

}  // namespace

ReplayFit fit_replay(const TraceData& data, const Grouping& grouping) {
  ReplayFit fit;
  fit.origin_ns = grouping.tasks.front().start_ns;
  const std::int64_t last_start = grouping.tasks.back().start_ns - fit.origin_ns;
  fit.duration_ns = (last_start / kMsNs + 1) * kMsNs;
  fit.arrivals = fit_arrivals(grouping, fit.origin_ns);
  FitFaultsOptions options;
  options.origin_ns = fit.origin_ns;
  options.end_ns = fit.origin_ns + fit.duration_ns;
  fit.faults = fit_faults(data.attempts, options);
  clip_windows(fit.faults, fit.duration_ns);
  fit.providers = fit_providers(data);
  fit.workload = fit_workload(data, grouping);
  fit.policy = fit_policy(data, grouping);
  name_tools(fit);
  return fit;
}

}  // namespace squall::replay
