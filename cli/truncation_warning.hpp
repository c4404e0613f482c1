// The warning `squall validate` prints for an output cap that cuts many answers (issue
// 35: truncation is its own outcome, and a cap that cuts more than 1% of a model's answers
// is usually a mistake).
#pragma once

#include <string>
#include <vector>

#include "sim/scenario.hpp"

namespace squall::cli {

// Above this share of cut answers a cap is reported.
inline constexpr double kTruncationWarningRate = 0.01;

// One "warning: <file>: <pointer>: a cap of C cuts P% of the answers of provider "X"
// (mean_output_tokens M); ..." per LLM step, in file order, whose cap (the step's
// max_output_tokens, else its provider's own) cuts more than kTruncationWarningRate of
// the answers of the step's tool's primary provider (mocks/llm.hpp truncation_rate).
std::vector<std::string> truncation_warnings(const Scenario& scenario);

}  // namespace squall::cli
