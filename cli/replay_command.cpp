#include "cli/replay_command.hpp"

#include <fmt/core.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <sstream>
#include <string_view>

#include "cli/commands.hpp"
#include "cli/replay_fit_print.hpp"
#include "cli/replay_out_dir.hpp"
#include "replay/grouping.hpp"
#include "replay/litellm_reader.hpp"
#include "replay/otlp_reader.hpp"
#include "replay/provider_names.hpp"
#include "reports/file_kind.hpp"

namespace squall::cli {
namespace {

using replay::TraceData;

constexpr std::size_t kSniffBytes = 4096;

std::string format_of(const std::string& text, const std::string& asked) {
  if (asked != "auto") return asked;
  return std::string_view(text).substr(0, kSniffBytes).find("\"resourceSpans\"") != std::string_view::npos ? "otlp"
                                                                                                           : "litellm";
}

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw replay::TraceInputError(fmt::format("{}: cannot open the trace file", file.string()));
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

// A whole-file JSON document that is not an OTLP trace (no resourceSpans, which the sniff
// looks for in the first 4 KiB only) is no trace either: a LiteLLM log is one record a
// line. Says what it is when it is one of squall's own files (a report given for its OTLP
// export is a likely mistake).
void refuse_document(const std::string& text, const std::filesystem::path& file) {
  const std::size_t newline = text.find('\n');
  if (newline == std::string::npos || text.find_first_not_of(" \t\r\n", newline) == std::string::npos)
    return;  // one line: a one-record log
  const auto doc = nlohmann::ordered_json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return;  // JSONL, or not JSON: the LiteLLM reader says which
  if (doc.contains("resourceSpans")) return;
  const FileKind kind = file_kind_of(doc);
  const std::string what = kind == FileKind::report
                               ? "a squall run report (squall run --report otlp=PATH exports a trace)"
                           : kind == FileKind::unknown ? "a JSON document"
                                                       : "one of squall's own files, not a trace";
  throw replay::TraceInputError(
      fmt::format("{}: {} with no resourceSpans: an OTLP trace has them, and a LiteLLM log is one JSON record a line",
                  file.string(), what));
}

// Every file, each in its format; the OTLP ones read as one trace (spans of one trace may
// be in several files, and one span in two).
void read_traces(const std::vector<std::filesystem::path>& files, const std::string& asked, TraceData& data) {
  std::vector<replay::TraceText> otlp;
  for (const std::filesystem::path& file : files) {
    if (std::filesystem::is_directory(file))
      throw replay::TraceInputError(fmt::format("{}: a directory, not a trace file", file.string()));
    std::string text = read_text(file);
    if (asked == "auto" && format_of(text, asked) != "otlp") refuse_document(text, file);
    if (format_of(text, asked) == "otlp") {
      otlp.push_back({file.string(), std::move(text)});
      continue;
    }
    const std::uint64_t before = data.counts.records;
    replay::read_litellm_text(text, file.string(), data);
    fmt::print("{} (litellm): {} records\n", file.string(), data.counts.records - before);
  }
  if (otlp.empty()) return;
  const std::uint64_t before = data.counts.records;
  replay::read_otlp_texts(otlp, data);
  std::string names;
  for (const replay::TraceText& f : otlp) names += (names.empty() ? "" : ", ") + f.file;
  fmt::print("{} (otlp): {} records\n", names, data.counts.records - before);
}

void print_naming(const replay::ProviderNaming& n) {
  if (n.split > 0) {
    fmt::print("providers: {} name{} serving several models split into one provider per model (NAME.MODEL)\n", n.split,
               n.split == 1 ? "" : "s");
  }
  if (n.renamed > 0) {
    fmt::print("providers: {} name{} written with '-' for the bytes a scenario's names cannot hold\n", n.renamed,
               n.renamed == 1 ? "" : "s");
  }
}

void print_counts(const replay::ReadCounts& c) {
  fmt::print(
      "read: {} attempts, {} agent spans, {} HTTP requests under them, {} HTTP requests to a GenAI endpoint "
      "alone, {} other spans kept out\n",
      c.attempts, c.agent_spans, c.http_children, c.endpoint_requests, c.other_spans);
  fmt::print(
      "irregular: {} duplicates skipped, {} orphans put under their trace, {} ends before start, {} failures "
      "without tokens, {} unclassified errors, {} requests without a response (read as timeouts), {} unknown "
      "attributes\n",
      c.duplicates, c.orphans, c.end_before_start, c.failures_without_tokens, c.unclassified_errors,
      c.requests_without_response, c.unknown_attributes);
  if (!c.unknown_names.empty()) {
    std::string names;
    for (const std::string& n : c.unknown_names) names += (names.empty() ? "" : ", ") + n;
    fmt::print("unknown attributes seen: {}\n", names);
  }
}

void print_grouping(const TraceData& data, const replay::Grouping& g) {
  const replay::GroupingCounts& c = g.counts;
  fmt::print(
      "grouped: {} tasks ({} without attempts), {} logical calls ({} with a fallback, {} hedged), {} attempts "
      "({} in a span with others, {} joined by timing, {} resends without a first attempt)\n",
      c.tasks, c.tasks_without_attempts, c.calls, c.fallback_calls, c.hedged_calls, c.attempts, c.joined_in_span,
      c.joined_by_timing, c.resends_without_first);
  std::map<std::string, std::map<std::string_view, std::uint64_t>> by_provider;
  for (const replay::AttemptRecord& a : data.attempts) ++by_provider[a.provider][to_string(a.outcome)];
  fmt::print("attempts by provider and outcome:\n");
  for (const auto& [provider, outcomes] : by_provider) {
    std::string line;
    for (const auto& [kind, n] : outcomes) line += fmt::format("{}{} {}", line.empty() ? "" : ", ", kind, n);
    fmt::print("  {}: {}\n", provider.empty() ? "(no provider)" : provider, line);
  }
}

}  // namespace

int replay_command(const ReplayOptions& options) {
  if (options.format != "auto" && options.format != "otlp" && options.format != "litellm") {
    fmt::print(stderr, "squall replay: --format expects otlp, litellm or auto, got \"{}\"\n", options.format);
    return kExitBadInput;
  }
  if (options.policy && !options.out_dir) {
    fmt::print(stderr, "squall replay: --policy needs --out-dir (the fitted world it runs on)\n");
    return kExitBadInput;
  }
  if (outputs_refused(options)) return kExitBadInput;
  TraceData data;
  try {
    read_traces(options.traces, options.format, data);
    print_naming(replay::name_providers(data));
  } catch (const replay::TraceInputError& e) {
    fmt::print(stderr, "squall replay: {}\n", e.what());
    return kExitBadInput;
  }
  print_counts(data.counts);
  const replay::Grouping grouping = replay::group_attempts(data);
  print_grouping(data, grouping);
  print_fits(data, grouping);
  if (options.out_dir) return replay_out_dir(options, data, grouping);
  return kExitOk;
}

}  // namespace squall::cli
