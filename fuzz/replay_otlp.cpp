// OTLP/JSON traces (replay/otlp_reader.hpp read_otlp_text): one document or the
// Collector file exporter's lines, then grouped (fuzz/trace_reader_run.hpp).
#include "fuzz/trace_reader_run.hpp"
#include "replay/otlp_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  squall::fuzz::read_and_group(squall::replay::read_otlp_text, squall::fuzz::text_of(data, size), "trace.json");
  return 0;
}
