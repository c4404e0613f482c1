// LiteLLM gateway logs (replay/litellm_reader.hpp read_litellm_text): JSONL of
// StandardLoggingPayload records, then grouped (fuzz/trace_reader_run.hpp).
#include "fuzz/trace_reader_run.hpp"
#include "replay/litellm_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  squall::fuzz::read_and_group(squall::replay::read_litellm_text, squall::fuzz::text_of(data, size), "trace.jsonl");
  return 0;
}
