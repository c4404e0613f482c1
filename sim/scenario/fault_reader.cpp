#include "sim/scenario/fault_reader.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <set>
#include <span>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "engine/runtime/duration.hpp"
#include "sim/scenario/latency_reader.hpp"
#include "sim/scenario/time_window.hpp"

namespace squall {
namespace {

constexpr auto kKinds = all_values<FaultKind, kFaultKindCount>();
constexpr auto kForms = all_values<RetryAfterForm, kRetryAfterFormCount>();
constexpr std::size_t kMaxErrorCodeBytes = 100;
constexpr std::size_t kMaxErrorMessageBytes = 1000;

// Records an error for `key` when present on a fault whose kind is not one of `kinds`.
void only_for(const ObjectReader& obj, std::string_view key, FaultKind kind, std::span<const FaultKind> kinds) {
  if (obj.find(key) == nullptr || std::find(kinds.begin(), kinds.end(), kind) != kinds.end()) return;
  // `"a"`, `"a" and "b"`, `"a", "b" and "c"`.
  std::string allowed;
  std::size_t i = 0;
  for (const FaultKind k : kinds) {
    const char* separator = i == 0 ? "" : i + 1 == kinds.size() ? " and " : ", ";
    allowed += fmt::format("{}\"{}\"", separator, to_string(k));
    ++i;
  }
  obj.diag().error(obj.path_of(key), fmt::format("applies only to kind {}, not \"{}\"", allowed, to_string(kind)));
}

void only_for(const ObjectReader& obj, std::string_view key, FaultKind kind, std::initializer_list<FaultKind> kinds) {
  only_for(obj, key, kind, std::span<const FaultKind>(kinds.begin(), kinds.size()));
}

void read_status(const ObjectReader& obj, FaultConfig& fault) {
  const Json* v = obj.find("status");
  if (v == nullptr) return;
  const std::string path = obj.path_of("status");
  if (fault.kind == FaultKind::overloaded) {
    // 529 is Anthropic's "overloaded_error", 503 the generic "service unavailable".
    const auto status = v->is_number_integer() ? v->get<std::int64_t>() : 0;
    if (status != 503 && status != 529) {
      obj.diag().error(path, fmt::format("expected 503 or 529, got {}", describe(*v)));
      return;
    }
    fault.status = static_cast<int>(status);
  } else if (fault.kind == FaultKind::server_error) {
    const auto status = v->is_number_integer() ? v->get<std::int64_t>() : 0;
    if (status < 500 || status > 599 || status == 503) {
      obj.diag().error(path, fmt::format("expected an integer in [500, 599] other than 503 (503 is kind "
                                         "\"overloaded\"), got {}",
                                         describe(*v)));
      return;
    }
    fault.status = static_cast<int>(status);
  } else if (fault.kind == FaultKind::client_error) {
    // The 4xx answers the issue names: 400 bad request, 401 and 403 auth, 404 not found
    // (a model or index name that does not exist), 422 unprocessable (invalid arguments).
    const auto status = v->is_number_integer() ? v->get<std::int64_t>() : 0;
    if (status != 400 && status != 401 && status != 403 && status != 404 && status != 422) {
      obj.diag().error(path, fmt::format("expected 400, 401, 403, 404 or 422, got {}", describe(*v)));
      return;
    }
    fault.status = static_cast<int>(status);
  } else if (fault.kind == FaultKind::stream_cut) {
    const auto status = v->is_number_integer() ? v->get<std::int64_t>() : 0;
    if (status < 500 || status > 599) {
      obj.diag().error(path, fmt::format("expected an integer in [500, 599], got {}", describe(*v)));
      return;
    }
    fault.status = static_cast<int>(status);
  }
}

void read_retry_after(const ObjectReader& obj, FaultConfig& fault) {
  if (fault.kind != FaultKind::rate_limited && fault.kind != FaultKind::overloaded) return;
  Nanos delay = 0;
  if (obj.get_duration("retry_after", delay, DurationMin::zero)) fault.retry_after_delay = delay;
  static const auto form_names = names_of(kForms);
  if (obj.find("retry_after_form") != nullptr) {
    if (obj.find("retry_after") == nullptr) {
      obj.diag().error(obj.path_of("retry_after_form"), "applies only with retry_after");
    } else {
      obj.get_choice<RetryAfterForm>("retry_after_form", fault.retry_after_form, form_names, kForms);
    }
  }
  if (fault.retry_after_delay && fault.retry_after_form == RetryAfterForm::delay_seconds) {
    fault.retry_after = format_delta_seconds(delay);
  }
  if (obj.find("retry_after_header") == nullptr) return;
  if (obj.find("retry_after") != nullptr) {
    obj.diag().error(obj.path_of("retry_after_header"), "retry_after and retry_after_header are mutually exclusive");
    return;
  }
  std::string header;
  if (obj.get("retry_after_header", header)) fault.retry_after = std::move(header);
}

void read_calls(const ObjectReader& obj, FaultConfig& fault) {
  std::int64_t first = 1;
  std::int64_t last = 0;
  const bool first_ok = obj.get("first_call", first, kPositiveInt);
  if (first_ok) fault.first_call = static_cast<std::uint64_t>(first);
  if (!obj.get("last_call", last, kPositiveInt)) return;
  if (first_ok && last < first) {
    obj.diag().error(obj.path_of("last_call"),
                     fmt::format("expected an integer in [{}, {}] (at least first_call), got {}", first,
                                 kPositiveInt.max, describe(*obj.find("last_call"))));
    return;
  }
  fault.last_call = static_cast<std::uint64_t>(last);
}

// period and duty_cycle: flapping (fault.hpp). Both or neither.
void read_flapping(const ObjectReader& obj, FaultConfig& fault) {
  const bool has_period = obj.find("period") != nullptr;
  const bool has_duty = obj.find("duty_cycle") != nullptr;
  if (has_period != has_duty) {
    obj.diag().error(obj.path_of(has_period ? "period" : "duty_cycle"), "period and duty_cycle go together");
    return;
  }
  if (!has_period) return;
  Nanos period = 0;
  double duty = 0;
  const bool period_ok = obj.get_duration("period", period, DurationMin::positive);
  const bool duty_ok = obj.get("duty_cycle", duty, NumberRange{0, true, 1});
  if (!period_ok || !duty_ok) return;
  fault.flap_period = period;
  fault.flap_on = static_cast<Nanos>(std::llround(static_cast<double>(period) * duty));
}

// A string key of at most `max_bytes`; a body's code and message are a word and a sentence
// or two, and the bounds keep every answer's body small.
std::optional<std::string> read_bounded(const ObjectReader& obj, std::string_view key, std::size_t max_bytes) {
  std::string text;
  if (!obj.get_nonempty(key, text)) return std::nullopt;
  if (text.size() > max_bytes) {
    obj.diag().error(obj.path_of(key), fmt::format("expected at most {} bytes, got {}", max_bytes, text.size()));
    return std::nullopt;
  }
  return text;
}

// should_retry, error_code and error_message: what an error answer says beside its status.
void read_error_words(const ObjectReader& obj, FaultConfig& fault) {
  bool should_retry = false;
  if (obj.get("should_retry", should_retry)) fault.should_retry = should_retry;
  auto code = read_bounded(obj, "error_code", kMaxErrorCodeBytes);
  if (code && check_name(*code, "code", obj.path_of("error_code"), obj.diag())) fault.error_code = std::move(code);
  auto message = read_bounded(obj, "error_message", kMaxErrorMessageBytes);
  if (message && check_printable(*message, obj.path_of("error_message"), obj.diag())) {
    fault.error_message = std::move(message);
  }
}

// The keys of the delay and transform kinds.
void read_phase_keys(const ObjectReader& obj, FaultConfig& fault) {
  if (fault.kind == FaultKind::latency_spike) obj.require("latency");
  if (fault.kind == FaultKind::brownout) {
    obj.require("multiplier");
    // Above 1: a multiplier of 1 or less would not be a brownout (nor time run backwards).
    obj.get("multiplier", fault.multiplier, NumberRange{1, true, 1000});
  }
  if (fault.kind == FaultKind::stream_cut) {
    obj.require("after_tokens");
    obj.get("after_tokens", fault.after_tokens, kPositiveInt);
  }
}

}  // namespace

std::optional<FaultConfig> read_fault(const Json& value, const std::string& path, std::optional<Nanos> run_end,
                                      Diagnostics& diag, std::span<const std::string_view> extra_keys) {
  std::vector<std::string_view> keys(extra_keys.begin(), extra_keys.end());
  keys.insert(keys.end(), {"kind", "probability", "from", "to", "first_call", "last_call", "period", "duty_cycle",
                           "retry_after", "retry_after_form", "retry_after_header", "status", "latency", "multiplier",
                           "after_tokens", "should_retry", "error_code", "error_message"});
  const ObjectReader obj(value, path, diag, keys);
  if (!obj.valid()) return std::nullopt;
  const std::size_t errors_before = diag.count();

  FaultConfig fault;
  static const auto names = names_of(kKinds);
  const bool kind_ok = obj.require("kind") != nullptr && obj.get_choice<FaultKind>("kind", fault.kind, names, kKinds);
  obj.get_number_required("probability", fault.probability, kProbability);
  read_window(obj, /*required=*/false, run_end, fault.from, fault.to);
  read_calls(obj, fault);
  read_flapping(obj, fault);
  if (kind_ok) {
    only_for(obj, "retry_after", fault.kind, {FaultKind::rate_limited, FaultKind::overloaded});
    only_for(obj, "retry_after_form", fault.kind, {FaultKind::rate_limited, FaultKind::overloaded});
    only_for(obj, "retry_after_header", fault.kind, {FaultKind::rate_limited, FaultKind::overloaded});
    only_for(obj, "status", fault.kind,
             {FaultKind::overloaded, FaultKind::server_error, FaultKind::client_error, FaultKind::stream_cut});
    only_for(obj, "multiplier", fault.kind, {FaultKind::brownout});
    only_for(obj, "after_tokens", fault.kind, {FaultKind::stream_cut});
    for (const std::string_view key : {"should_retry", "error_code", "error_message"}) {
      only_for(obj, key, fault.kind, kAnswersWithError);
    }
    if (phase_of(fault.kind) != FaultPhase::abort && fault.kind != FaultKind::latency_spike &&
        obj.find("latency") != nullptr) {
      obj.diag().error(obj.path_of("latency"),
                       fmt::format("does not apply to kind \"{}\": its answer takes the inner provider's time",
                                   to_string(fault.kind)));
    }
    read_retry_after(obj, fault);
    read_status(obj, fault);
    read_phase_keys(obj, fault);
    read_error_words(obj, fault);
  }
  if (const Json* latency = obj.find("latency")) fault.latency = read_latency(*latency, obj.path_of("latency"), diag);
  if (diag.count() != errors_before) return std::nullopt;
  return fault;
}

}  // namespace squall
