// parse_duration (engine/runtime/duration.hpp), the grammar of every duration in a
// scenario and a threshold. Property: a parsed duration formats (format_duration) to a
// text that parses back to the same nanoseconds.
#include <variant>

#include "engine/runtime/duration.hpp"
#include "fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto parsed = squall::parse_duration(squall::fuzz::text_of(data, size));
  if (const auto* nanos = std::get_if<squall::Nanos>(&parsed)) {
    const auto again = squall::parse_duration(squall::format_duration(*nanos));
    const auto* back = std::get_if<squall::Nanos>(&again);
    squall::fuzz::require(back != nullptr && *back == *nanos, "format_duration reads back");
  } else {
    // Every error has a sentence for the messages that quote it.
    squall::fuzz::require(!squall::duration_expectation(std::get<squall::DurationError>(parsed)).empty(),
                          "duration_expectation names the error");
  }
  return 0;
}
