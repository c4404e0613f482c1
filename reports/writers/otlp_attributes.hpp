// The attribute and span names of the OpenTelemetry GenAI and HTTP semantic conventions
// that squall writes (reports/writers/otlp_writer.hpp) and replay reads (replay/), in one
// place so that the writer and the reader cannot drift apart. Sources: OpenTelemetry
// semantic conventions, registry pages "Gen AI", "HTTP", "Error", "Server"; the GenAI
// span conventions (gen-ai-spans.md, gen-ai-agent-spans.md).
#pragma once

#include <string_view>

namespace squall::otlp {

// GenAI, current names.
inline constexpr std::string_view kOperationName = "gen_ai.operation.name";
inline constexpr std::string_view kProviderName = "gen_ai.provider.name";
inline constexpr std::string_view kRequestModel = "gen_ai.request.model";
inline constexpr std::string_view kResponseModel = "gen_ai.response.model";
inline constexpr std::string_view kInputTokens = "gen_ai.usage.input_tokens";
inline constexpr std::string_view kOutputTokens = "gen_ai.usage.output_tokens";
inline constexpr std::string_view kFinishReasons = "gen_ai.response.finish_reasons";
inline constexpr std::string_view kAgentName = "gen_ai.agent.name";
inline constexpr std::string_view kToolName = "gen_ai.tool.name";
inline constexpr std::string_view kDataSourceId = "gen_ai.data_source.id";
// Cache reads: the registry's spelling, then two older ones instrumentations still write.
inline constexpr std::string_view kCacheReadTokens = "gen_ai.usage.cache_read.input_tokens";
inline constexpr std::string_view kCacheReadTokensUnderscore = "gen_ai.usage.cache_read_input_tokens";
inline constexpr std::string_view kCachedTokens = "gen_ai.usage.cached_tokens";
inline constexpr std::string_view kCacheCreationTokens = "gen_ai.usage.cache_creation.input_tokens";
inline constexpr std::string_view kCacheCreationTokensUnderscore = "gen_ai.usage.cache_creation_input_tokens";

// GenAI, the older era's names (before gen_ai.provider.name replaced gen_ai.system).
inline constexpr std::string_view kSystem = "gen_ai.system";
inline constexpr std::string_view kPromptTokens = "gen_ai.usage.prompt_tokens";
inline constexpr std::string_view kCompletionTokens = "gen_ai.usage.completion_tokens";

// General and HTTP.
inline constexpr std::string_view kServerAddress = "server.address";
inline constexpr std::string_view kErrorType = "error.type";
inline constexpr std::string_view kStatusCode = "http.response.status_code";
inline constexpr std::string_view kOldStatusCode = "http.status_code";
inline constexpr std::string_view kResendCount = "http.request.resend_count";
inline constexpr std::string_view kRetryAfterHeader = "http.response.header.retry-after";
inline constexpr std::string_view kRetryAfterMsHeader = "http.response.header.retry-after-ms";

// squall's own, for what the conventions have no name for.
inline constexpr std::string_view kSquallTool = "squall.tool";
inline constexpr std::string_view kSquallCostUsd = "squall.cost_usd";
inline constexpr std::string_view kSquallTaskId = "squall.task.id";
inline constexpr std::string_view kSquallTaskStatus = "squall.task.status";
inline constexpr std::string_view kSquallTaskReason = "squall.task.reason";

// gen_ai.operation.name values.
inline constexpr std::string_view kChat = "chat";
inline constexpr std::string_view kRetrieval = "retrieval";
inline constexpr std::string_view kExecuteTool = "execute_tool";
inline constexpr std::string_view kInvokeAgent = "invoke_agent";

// Span kinds (opentelemetry-proto trace.proto SpanKind) and status codes (Status.StatusCode).
inline constexpr int kSpanKindInternal = 1;
inline constexpr int kSpanKindClient = 3;
inline constexpr int kStatusError = 2;

}  // namespace squall::otlp
