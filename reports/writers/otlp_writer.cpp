#include "reports/writers/otlp_writer.hpp"

#include <fmt/core.h>

#include <utility>

#include "engine/runtime/rng.hpp"
#include "reports/writers/otlp_attributes.hpp"

namespace squall {
namespace {

using Json = nlohmann::ordered_json;
namespace a = otlp;

constexpr std::int64_t kNanosPerSecond = 1'000'000'000;
constexpr std::int64_t kNanosPerMilli = 1'000'000;

// The salts that keep the id families apart (trace id halves, task spans, attempt spans).
enum class IdFamily : std::uint64_t { trace_high = 1, trace_low = 2, task_span = 3, attempt_span = 4 };

// A non-zero 64-bit id from (seed, family, index): all-zero ids are invalid in OTLP.
std::uint64_t id_of(std::uint64_t seed, IdFamily family, std::uint64_t index) {
  std::uint64_t state = seed;
  std::uint64_t h = splitmix64(state);
  state = h ^ static_cast<std::uint64_t>(family);
  h = splitmix64(state);
  state = h ^ index;
  h = splitmix64(state);
  return h == 0 ? 1 : h;
}

std::string hex(std::uint64_t v) { return fmt::format("{:016x}", v); }

Json attribute(std::string_view key, Json value) {
  Json kv = Json::object();
  kv["key"] = std::string(key);
  kv["value"] = std::move(value);
  return kv;
}
Json text(std::string_view v) { return Json{{"stringValue", std::string(v)}}; }
// OTLP/JSON writes int64 as a decimal string (proto3 JSON mapping).
Json integer(std::int64_t v) { return Json{{"intValue", std::to_string(v)}}; }
Json real(double v) { return Json{{"doubleValue", v}}; }
Json texts(std::string_view v) { return Json{{"arrayValue", Json{{"values", Json::array({text(v)})}}}}; }

std::string unix_nanos(std::int64_t start_unix_seconds, TimePoint t) {
  return std::to_string(start_unix_seconds * kNanosPerSecond + t);
}

std::string_view operation_of(ProviderKind kind) {
  switch (kind) {
    case ProviderKind::llm: return a::kChat;
    case ProviderKind::web_search:
    case ProviderKind::vector_search: return a::kRetrieval;
    case ProviderKind::tool: return a::kExecuteTool;
  }
  return a::kExecuteTool;
}

// The span's name by the GenAI conventions: "{operation} {model | data source | tool}".
std::string span_name(std::string_view operation, const OtlpProvider& p, std::string_view tool) {
  if (operation == a::kChat) return fmt::format("{} {}", operation, p.model);
  if (operation == a::kRetrieval) return fmt::format("{} {}", operation, p.name);
  return fmt::format("{} {}", operation, tool);
}

// The server's delay as the header that says it: whole seconds as Retry-After, anything
// finer as retry-after-ms (OpenAI's and Azure's header for sub-second delays).
Json retry_after_attribute(Nanos delay) {
  if (delay % kNanosPerSecond == 0)
    return attribute(a::kRetryAfterHeader, texts(std::to_string(delay / kNanosPerSecond)));
  if (delay % kNanosPerMilli == 0)
    return attribute(a::kRetryAfterMsHeader, texts(std::to_string(delay / kNanosPerMilli)));
  return attribute(a::kRetryAfterMsHeader, texts(fmt::format("{}", static_cast<double>(delay) / kNanosPerMilli)));
}

Json resource_attributes(const OtlpRunInfo& run) {
  Json attrs = Json::array();
  attrs.push_back(attribute("service.name", text("squall")));
  attrs.push_back(attribute("service.version", text(run.squall_version)));
  attrs.push_back(attribute("squall.scenario", text(run.scenario)));
  attrs.push_back(attribute("squall.seed", Json{{"intValue", std::to_string(run.seed)}}));
  return attrs;
}

}  // namespace

OtlpWriter::OtlpWriter(Output output, OtlpRunInfo run) : output_(std::move(output)), run_(std::move(run)) {
  buffer_.reserve(kBufferBytes + 4096);
  const Json resource{{"attributes", resource_attributes(run_)}};
  const Json scope{{"name", "squall"}, {"version", run_.squall_version}};
  // The document's opening up to the spans array; finish() closes it.
  buffer_ += R"({"resourceSpans":[{"resource":)";
  buffer_ += resource.dump(-1, ' ', false, Json::error_handler_t::replace);
  buffer_ += R"(,"scopeSpans":[{"scope":)";
  buffer_ += scope.dump(-1, ' ', false, Json::error_handler_t::replace);
  buffer_ += R"(,"spans":[)";
}

const OtlpProvider* OtlpWriter::provider(std::string_view name) const {
  for (const OtlpProvider& p : run_.providers) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

OtlpWriter::Span OtlpWriter::attempt_span(const AttemptEvent& e) {
  const OtlpProvider* known = provider(e.provider);
  const OtlpProvider p = known != nullptr ? *known : OtlpProvider{std::string(e.provider), ProviderKind::tool, {}};
  const std::string_view operation = operation_of(p.kind);
  Json attrs = Json::array();
  attrs.push_back(attribute(a::kOperationName, text(operation)));
  attrs.push_back(attribute(a::kProviderName, text(p.name)));
  if (operation == a::kChat) attrs.push_back(attribute(a::kRequestModel, text(p.model)));
  if (operation == a::kChat && e.kind == OutcomeKind::success)
    attrs.push_back(attribute(a::kResponseModel, text(p.model)));
  if (operation == a::kRetrieval) attrs.push_back(attribute(a::kDataSourceId, text(p.name)));
  if (operation == a::kExecuteTool) attrs.push_back(attribute(a::kToolName, text(e.tool)));
  attrs.push_back(attribute(a::kServerAddress, text(p.name)));
  if (e.status != 0) attrs.push_back(attribute(a::kStatusCode, integer(e.status)));
  // The conventions set the resend count on the second and later sends only.
  if (e.attempt > 1) attrs.push_back(attribute(a::kResendCount, integer(e.attempt - 1)));
  if (e.kind != OutcomeKind::success) attrs.push_back(attribute(a::kErrorType, text(to_string(e.kind))));
  if (operation == a::kChat) {
    attrs.push_back(attribute(a::kInputTokens, integer(e.input_tokens)));
    attrs.push_back(attribute(a::kOutputTokens, integer(e.output_tokens)));
    if (e.kind == OutcomeKind::success) {
      attrs.push_back(attribute(a::kFinishReasons, texts(e.truncated ? "length" : "stop")));
    }
  }
  attrs.push_back(attribute(a::kSquallTool, text(e.tool)));
  attrs.push_back(attribute(a::kSquallCostUsd, real(e.cost_usd)));

  Span span = Span::object();
  span["traceId"] =
      hex(id_of(run_.seed, IdFamily::trace_high, e.task_id)) + hex(id_of(run_.seed, IdFamily::trace_low, e.task_id));
  span["spanId"] = hex(id_of(run_.seed, IdFamily::attempt_span, attempts_++));
  if (run_.task_spans) span["parentSpanId"] = hex(id_of(run_.seed, IdFamily::task_span, e.task_id));
  span["name"] = span_name(operation, p, e.tool);
  span["kind"] = a::kSpanKindClient;
  span["startTimeUnixNano"] = unix_nanos(run_.start_unix_seconds, e.started);
  span["endTimeUnixNano"] = unix_nanos(run_.start_unix_seconds, e.finished);
  span["attributes"] = std::move(attrs);
  if (e.kind != OutcomeKind::success) span["status"] = Json{{"code", a::kStatusError}};
  return span;
}

void OtlpWriter::on_attempt(const AttemptEvent& e) {
  write_held(e.task_id);
  held_[e.task_id] = Held{e.attempt, attempt_span(e)};
}

void OtlpWriter::on_backoff(const BackoffEvent& e) {
  if (!e.from_retry_after) return;
  const auto it = held_.find(e.task_id);
  if (it == held_.end() || it->second.attempt != e.after_attempt) return;
  it->second.span["attributes"].push_back(retry_after_attribute(e.delay));
}

void OtlpWriter::on_task_finished(const TaskResult& e) {
  write_held(e.id);
  Json attrs = Json::array();
  attrs.push_back(attribute(a::kOperationName, text(a::kInvokeAgent)));
  attrs.push_back(attribute(a::kAgentName, text(e.template_name)));
  attrs.push_back(attribute(a::kSquallTaskId, integer(static_cast<std::int64_t>(e.id))));
  attrs.push_back(attribute(a::kSquallTaskStatus, text(to_string(e.status))));
  if (!e.reason.empty()) attrs.push_back(attribute(a::kSquallTaskReason, text(e.reason)));
  attrs.push_back(attribute(a::kSquallCostUsd, real(e.cost_usd)));
  Span span = Span::object();
  span["traceId"] =
      hex(id_of(run_.seed, IdFamily::trace_high, e.id)) + hex(id_of(run_.seed, IdFamily::trace_low, e.id));
  span["spanId"] = hex(id_of(run_.seed, IdFamily::task_span, e.id));
  span["name"] = fmt::format("{} {}", a::kInvokeAgent, e.template_name);
  span["kind"] = a::kSpanKindInternal;
  span["startTimeUnixNano"] = unix_nanos(run_.start_unix_seconds, e.started);
  span["endTimeUnixNano"] = unix_nanos(run_.start_unix_seconds, e.finished);
  span["attributes"] = std::move(attrs);
  if (e.status == TaskStatus::failed) span["status"] = Json{{"code", a::kStatusError}};
  append(span);
}

void OtlpWriter::write_held(std::uint64_t task_id) {
  const auto it = held_.find(task_id);
  if (it == held_.end()) return;
  append(it->second.span);
  held_.erase(it);
}

void OtlpWriter::append(const Span& span) {
  if (spans_++ > 0) buffer_ += ',';
  buffer_ += '\n';
  // Names come from scenario files; bytes that are not UTF-8 are replaced, as in the JSON report.
  buffer_ += span.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (buffer_.size() >= kBufferBytes) flush();
}

void OtlpWriter::flush() {
  if (!error_ && !buffer_.empty()) {
    try {
      output_(buffer_);
    } catch (...) {
      error_ = std::current_exception();
    }
  }
  buffer_.clear();
}

void OtlpWriter::finish() {
  // Spans of tasks still running when the run ended, in task order.
  for (auto& [task, held] : held_) append(held.span);
  held_.clear();
  buffer_ += "\n]}]}]}\n";
  flush();
  if (error_) std::rethrow_exception(error_);
}

}  // namespace squall
