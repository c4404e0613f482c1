// A YAML::Emitter (yaml-cpp 0.7) that writes each fitted number with its provenance as a
// comment beside it ("probability: 0.2  # 45/225 attempts in [2m, 6m), SE 0.027; PELT")
// and records the same provenance, with the number's JSON Pointer, for the calibration
// report. Block style throughout, so every comment sits on its number's line.
#pragma once

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/runtime/duration.hpp"
#include "replay/provenance.hpp"

namespace squall::replay {

// Written times and latencies are whole milliseconds (a positive one at least 1 ms): the
// trace's nanoseconds are noise at the fits' precision and unreadable in a scenario.
inline std::int64_t to_ms(std::int64_t ns) {
  constexpr std::int64_t kMs = 1'000'000;
  if (ns <= 0) return 0;
  return std::max(kMs, (ns + kMs / 2) / kMs * kMs);
}
inline std::string ms_text(std::int64_t ns) { return format_duration(to_ms(ns)); }

class FittedEmitter {
 public:
  FittedEmitter(std::string file, FitSources& provenance) : file_(std::move(file)), provenance_(provenance) {
    out_.SetDoublePrecision(6);
  }
  YAML::Emitter& out() { return out_; }

  // `key: text` with the comment "<samples> ...; <method>"; `path` is the value's JSON Pointer.
  // Plain scalars: numbers and durations, which the loader reads as such.
  void fitted(const std::string& path, std::string_view key, const std::string& text, FitSource p) {
    out_ << YAML::Key << std::string(key) << YAML::Value << text << YAML::Comment(comment_of(p));
    p.path = path;
    p.file = file_;
    p.value = text;
    provenance_.push_back(std::move(p));
  }

  // `key: [a, b]` (plain scalars, flow style) with its provenance, as fitted().
  void fitted_list(const std::string& path, std::string_view key, const std::vector<std::string>& items, FitSource p) {
    out_ << YAML::Key << std::string(key) << YAML::Value << YAML::Flow << YAML::BeginSeq;
    std::string text;
    for (const std::string& item : items) {
      out_ << item;
      text += (text.empty() ? "" : ", ") + item;
    }
    out_ << YAML::EndSeq << YAML::Comment(comment_of(p));
    p.path = path;
    p.file = file_;
    p.value = "[" + text + "]";
    provenance_.push_back(std::move(p));
  }

  // `key: "text"`, quoted: names, which must stay strings whatever they look like.
  void name(std::string_view key, const std::string& text) {
    out_ << YAML::Key << std::string(key) << YAML::Value << YAML::DoubleQuoted << text;
  }

  static std::string comment_of(const FitSource& p) {
    std::string text = p.prior ? "PRIOR (not in the trace): " : "";
    text += p.method;
    if (!p.window.empty()) text += "; " + p.window;
    if (p.samples > 0 || !p.prior) text += "; " + std::to_string(p.samples) + " samples";
    return text;
  }

 private:
  std::string file_;
  FitSources& provenance_;
  YAML::Emitter out_;
};

}  // namespace squall::replay
