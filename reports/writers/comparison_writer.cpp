#include "reports/writers/comparison_writer.hpp"

#include <cmath>
#include <cstdint>

#include <fmt/format.h>

#include "reports/writers/markdown_text.hpp"

namespace squall {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// Counts read back as doubles are written as integers again (2800, not 2800.0), as the
// reports have them; other numbers as fmt's shortest form does.
ordered_json optional_number(const std::optional<double>& v) {
  if (!v) return ordered_json();
  constexpr double kTwoTo53 = 9007199254740992.0;
  if (std::trunc(*v) == *v && std::fabs(*v) < kTwoTo53) return ordered_json(static_cast<std::int64_t>(*v));
  return ordered_json(*v);
}

std::string text_at(const json& r, const char* key) { return r.at(key).get<std::string>(); }

ordered_json identity(const ComparedRun& run) {
  const json& r = *run.report;
  const json produced_by = r.value("produced_by", json::object());
  const auto file = [&](const char* key) {
    return produced_by.contains(key) && produced_by[key].is_string() ? ordered_json(produced_by[key].get<std::string>())
                                                                     : ordered_json();
  };
  ordered_json o = ordered_json::object();
  o["label"] = run.label;
  o["scenario"] = text_at(r, "scenario");
  o["seed"] = r.at("seed").get<std::uint64_t>();
  o["scenario_file"] = file("scenario_file");
  o["policy_file"] = file("policy_file");
  // How the policy file merged into the scenario's (a report written before the notes
  // existed has none: []).
  ordered_json notes = ordered_json::array();
  if (produced_by.contains("policy_notes") && produced_by["policy_notes"].is_array()) {
    for (const json& note : produced_by["policy_notes"]) {
      if (note.is_string()) notes.push_back(note.get<std::string>());
    }
  }
  o["policy_notes"] = std::move(notes);
  return o;
}

}  // namespace

std::string comparison_json(const ComparedRun& a, const ComparedRun& b, const std::vector<MetricComparison>& rows,
                            const std::vector<std::string>& warnings) {
  ordered_json j = ordered_json::object();
  j["squall_comparison_version"] = kComparisonVersion;
  j["a"] = identity(a);
  j["b"] = identity(b);
  j["warnings"] = warnings;
  ordered_json metrics = ordered_json::array();
  for (const MetricComparison& row : rows) {
    ordered_json m = ordered_json::object();
    m["metric"] = row.metric;
    m["a"] = optional_number(row.a);
    m["b"] = optional_number(row.b);
    m["difference"] = optional_number(difference(row));
    m["relative_difference"] = optional_number(relative_difference(row));
    metrics.push_back(std::move(m));
  }
  j["metrics"] = std::move(metrics);
  return j.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

std::string comparison_markdown(const ComparedRun& a, const ComparedRun& b, const std::vector<MetricComparison>& rows,
                                const std::vector<std::string>& warnings) {
  const auto run_name = [](const ComparedRun& run) {
    return fmt::format("{}, seed {}", markdown_text(text_at(*run.report, "scenario")), run.report->at("seed").dump());
  };
  std::string title = run_name(a);
  if (run_name(b) != title) title += " vs " + run_name(b);
  std::string out = fmt::format("### squall compare: {}\n\n", title);
  out += fmt::format("A: {} · B: {}\n\n", markdown_code(a.label), markdown_code(b.label));
  for (const std::string& w : warnings) out += fmt::format("> ⚠ {}\n\n", markdown_text(w));
  out += "| metric | A | B | B − A | (B − A) / A |\n|:--|--:|--:|--:|--:|\n";
  for (const MetricComparison& row : rows) {
    out += fmt::format("| {} | {} | {} | {} | {} |\n", markdown_code(row.metric), value_text(row.a), value_text(row.b),
                       difference_text(row), relative_difference_text(row));
  }
  return out;
}

}  // namespace squall
