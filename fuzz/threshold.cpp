// parse_threshold (reports/threshold.hpp): k6's grammar with squall's metric catalogue.
// The input is "METRIC\nEXPRESSION" (the first line the metric with its tag selectors,
// the rest the expression), the pair a scenario's `thresholds` block holds. Property: an
// error is a non-empty sentence.
#include <string>
#include <variant>

#include "fuzz/fuzz_support.hpp"
#include "reports/threshold.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = squall::fuzz::text_of(data, size);
  const std::size_t cut = text.find('\n');
  const std::string_view metric = cut == std::string_view::npos ? text : text.substr(0, cut);
  const std::string_view expression = cut == std::string_view::npos ? std::string_view{} : text.substr(cut + 1);
  const auto parsed = squall::parse_threshold(metric, expression);
  if (const auto* error = std::get_if<std::string>(&parsed)) {
    squall::fuzz::require(!error->empty(), "a threshold error says something");
  }
  return 0;
}
