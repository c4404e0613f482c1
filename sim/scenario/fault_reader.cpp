#include "sim/scenario/fault_reader.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "engine/runtime/duration.hpp"
#include "sim/scenario/latency_reader.hpp"
#include "sim/scenario/time_window.hpp"

namespace squall {
namespace {

constexpr std::array<FaultKind, kFaultKindCount> kKinds{
    FaultKind::timeout, FaultKind::rate_limited, FaultKind::overloaded, FaultKind::server_error, FaultKind::empty};

// Records an error for `key` when present on a fault whose kind is not one of `kinds`.
void only_for(const ObjectReader& obj, std::string_view key, FaultKind kind, std::initializer_list<FaultKind> kinds) {
  if (obj.find(key) == nullptr || std::find(kinds.begin(), kinds.end(), kind) != kinds.end()) return;
  std::string allowed;
  for (const FaultKind k : kinds) allowed += fmt::format("{}\"{}\"", allowed.empty() ? "" : " and ", to_string(k));
  obj.diag().error(obj.path_of(key), fmt::format("applies only to kind {}, not \"{}\"", allowed, to_string(kind)));
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
  }
}

void read_retry_after(const ObjectReader& obj, FaultConfig& fault) {
  if (fault.kind != FaultKind::rate_limited) return;
  Nanos delay = 0;
  if (obj.get_duration("retry_after", delay, DurationMin::zero)) fault.retry_after = format_delta_seconds(delay);
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
    obj.diag().error(obj.path_of("last_call"), fmt::format("expected an integer >= first_call ({}), got {}", first,
                                                           describe(*obj.find("last_call"))));
    return;
  }
  fault.last_call = static_cast<std::uint64_t>(last);
}

}  // namespace

std::optional<FaultConfig> read_fault(const Json& value, const std::string& path, std::optional<Nanos> run_end,
                                      Diagnostics& diag) {
  const ObjectReader obj(value, path, diag,
                         {"kind", "probability", "from", "to", "first_call", "last_call", "retry_after",
                          "retry_after_header", "status", "latency"});
  if (!obj.valid()) return std::nullopt;
  const std::size_t errors_before = diag.count();

  FaultConfig fault;
  static const auto names = names_of(kKinds);
  const bool kind_ok = obj.require("kind") != nullptr && obj.get_choice<FaultKind>("kind", fault.kind, names, kKinds);
  obj.get_number_required("probability", fault.probability, kProbability);
  read_window(obj, /*required=*/false, run_end, fault.from, fault.to);
  read_calls(obj, fault);
  if (kind_ok) {
    only_for(obj, "retry_after", fault.kind, {FaultKind::rate_limited});
    only_for(obj, "retry_after_header", fault.kind, {FaultKind::rate_limited});
    only_for(obj, "status", fault.kind, {FaultKind::overloaded, FaultKind::server_error});
    read_retry_after(obj, fault);
    read_status(obj, fault);
  }
  if (const Json* latency = obj.find("latency")) fault.latency = read_latency(*latency, obj.path_of("latency"), diag);
  if (diag.count() != errors_before) return std::nullopt;
  return fault;
}

}  // namespace squall
