// The fields of each event's record in the JSONL trace (reports/writers/trace_writer.hpp),
// one overload per event type of SQUALL_EVENTS (engine/events.hpp). docs/ci.md lists every
// field; keep the two in step.
//
// Every overload sets "at_ns", the virtual time the event happened (for an attempt or a
// reflection, when it ended; "started_ns" says when it began), then the event's own fields.
// Times are integer nanoseconds since the start of the run, exact as the simulator keeps
// them; tokens are counts and money USD.
#pragma once

#include <nlohmann/json.hpp>

#include "engine/events.hpp"

namespace squall {

using TraceRecord = nlohmann::ordered_json;

#define SQUALL_TRACE_FIELDS(handler, Event, trace_name) void trace_fields(TraceRecord& record, const Event& e);
SQUALL_EVENTS(SQUALL_TRACE_FIELDS)
#undef SQUALL_TRACE_FIELDS

}  // namespace squall
