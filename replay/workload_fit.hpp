// The agent shape from the grouped trace: tools, the providers behind them, task templates
// (the sequences of tools the tasks called) and the end-to-end deadline.
//
// Rules (docs/replay.md, "What replay writes"):
//   - a call's tool is its first attempt's `tool` (squall.tool, gen_ai.tool.name), else
//     its provider's name (an implicit tool); a tool's primary provider is the one its
//     calls reached first most often;
//   - a task's steps are its calls' tools in order; a task whose last call failed may have
//     stopped early, so its sequence joins the most frequent longer template it is a
//     prefix of (its own otherwise); a template's weight is its tasks;
//   - a step is optional when a task's call at it failed and the task went on;
//   - an LLM step's prompt_tokens is the median input tokens of its calls' first attempts;
//     its max_output_tokens the longest output of its attempts when an attempt of that
//     length was cut (truncated: a finish_reason "length" at the request's cap);
//   - a trace records no deadline, only tasks it ended: when at least two tasks failed
//     within 5% of the longest task's length, the deadline is the longest task (a task is
//     never seen to outlive it); else no task met one, and the deadline is the loader's
//     default (60 s) or the longest task when longer, so a new policy that takes longer
//     than the recorded one is not cut where the recorded world was not. Rounded up to a
//     second.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/provider_descriptor.hpp"
#include "replay/attempt_record.hpp"
#include "replay/grouping.hpp"

namespace squall::replay {

struct FittedStep {
  std::string tool;
  bool optional = false;
  std::int64_t prompt_tokens = 0;  // LLM steps; 0 otherwise
  std::uint64_t calls = 0;         // calls seen at this step
  // LLM steps whose longest output was cut (truncated at it): that length, the cap the
  // request set; 0 otherwise (the model decides).
  std::int64_t max_output_tokens = 0;
};

struct FittedTemplate {
  std::string name;
  std::vector<FittedStep> steps;
  std::uint64_t tasks = 0;  // its weight
};

struct FittedTool {
  std::string name;
  std::string provider;  // primary
  std::uint64_t calls = 0;
};

struct WorkloadFit {
  std::vector<FittedTemplate> templates;  // most tasks first
  std::vector<FittedTool> tools;          // sorted by name
  std::int64_t deadline_ns = 0;
  bool deadline_seen = false;           // tasks failed at the longest length: the trace shows it
  std::uint64_t tasks_at_deadline = 0;  // those tasks
  std::uint64_t tasks = 0;
};

// The provider kind an operation is served by: chat, text_completion, generate_content
// and embeddings are llm; retrieval and execute_tool are tools (a trace carries no corpus,
// so a search is a tool answering with its fitted latency and faults).
ProviderKind kind_of_operation(const std::string& operation);

// A call's tool (the rule above).
const std::string& tool_of(const AttemptRecord& first_attempt);

WorkloadFit fit_workload(const TraceData& data, const Grouping& grouping);

}  // namespace squall::replay
