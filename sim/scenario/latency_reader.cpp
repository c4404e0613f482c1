#include "sim/scenario/latency_reader.hpp"

#include <array>

#include <fmt/format.h>

#include "engine/runtime/duration.hpp"

namespace squall {
namespace {

// The default shape first, as messages list them.
constexpr std::array<LatencyShape, 3> kShapes{LatencyShape::lognormal, LatencyShape::exponential,
                                              LatencyShape::constant};

struct Parameter {
  std::string_view key;
  LatencyShape shape;
};
constexpr std::array<Parameter, 4> kParameters{{
    {"median", LatencyShape::lognormal},
    {"p99", LatencyShape::lognormal},
    {"mean", LatencyShape::exponential},
    {"value", LatencyShape::constant},
}};

std::string_view parameter_list(LatencyShape shape) {
  switch (shape) {
    case LatencyShape::lognormal: return "median and p99";
    case LatencyShape::exponential: return "mean";
    case LatencyShape::constant: return "value";
  }
  return "";
}

}  // namespace

std::optional<LatencyConfig> read_latency(const Json& value, const std::string& path, Diagnostics& diag) {
  const ObjectReader obj(value, path, diag, {"distribution", "median", "p99", "mean", "value"});
  if (!obj.valid()) return std::nullopt;
  const std::size_t errors_before = diag.count();

  LatencyConfig config;
  static const auto names = names_of(kShapes);
  if (obj.find("distribution") != nullptr &&
      !obj.get_choice<LatencyShape>("distribution", config.shape, names, kShapes)) {
    return std::nullopt;  // the parameters cannot be checked against an unknown shape
  }
  for (const Parameter& p : kParameters) {
    if (p.shape != config.shape && obj.find(p.key) != nullptr) {
      diag.error(obj.path_of(p.key),
                 fmt::format("\"{}\" is a parameter of the {} distribution; {} takes {}", p.key, to_string(p.shape),
                             to_string(config.shape), parameter_list(config.shape)));
    }
  }
  switch (config.shape) {
    case LatencyShape::lognormal: {
      const bool median_ok = obj.get_duration_required("median", config.median, DurationMin::positive);
      const bool p99_ok = obj.get_duration_required("p99", config.p99, DurationMin::positive);
      if (median_ok && p99_ok && config.p99 < config.median) {
        diag.error(obj.path_of("p99"), fmt::format("expected a duration >= median ({}), got {}",
                                                   format_duration(config.median), describe(*obj.find("p99"))));
      }
      break;
    }
    case LatencyShape::exponential: obj.get_duration_required("mean", config.mean, DurationMin::positive); break;
    case LatencyShape::constant: obj.get_duration_required("value", config.value, DurationMin::zero); break;
  }
  if (diag.count() != errors_before) return std::nullopt;
  return config;
}

}  // namespace squall
