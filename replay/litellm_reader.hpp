// Reads a LiteLLM gateway log: JSONL, one StandardLoggingPayload a line (LiteLLM's
// `standard_logging_object`, docs "StandardLoggingPayload Specification"), one record per
// attempt, into attempt records (replay/attempt_record.hpp). Fields read:
//   trace_id (required)      the task;         id               the record (duplicates skipped)
//   status (required)        "success" | "failure"
//   startTime, endTime       Unix seconds, fractional (required); completionStartTime
//   call_type                completion/acompletion -> chat, embedding -> embeddings,
//                            text_completion -> text_completion, others kept as they are
//   custom_llm_provider      the provider (else error_information.llm_provider)
//   model, model_group       the request model and the alias the caller asked for
//   api_base                 the server address (its host)
//   prompt_tokens, completion_tokens, response_cost
//   error_information        error_code (the HTTP status, "429" or 429), error_class
//                            ("RateLimitError"): the outcome, by replay/outcome_mapping.hpp
// Other fields of the specification are not read; fields it does not define are counted
// as unknown. LiteLLM records no resend count: retries are grouped by timing.
//
// Errors (TraceInputError): "gw.jsonl:3:5: not JSON: ...", "gw.jsonl:3: expected an object,
// got [1]", "gw.jsonl:4: startTime: expected Unix seconds (a number), got \"noon\"".
#pragma once

#include <string>
#include <string_view>

#include "replay/attempt_record.hpp"

namespace squall::replay {

void read_litellm_text(std::string_view text, const std::string& file, TraceData& out);

}  // namespace squall::replay
