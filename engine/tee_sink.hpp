// TeeSink: hands every event to two sinks, first then second, in the order the engine
// emits them. The simulator puts one in front of the recorder only when something else
// (the JSONL trace) asked to see the events, so a run without a trace pays nothing for it.
// Its handlers are generated from SQUALL_EVENTS (engine/events.hpp), so a new event is
// forwarded without touching this file.
#pragma once

#include "engine/events.hpp"

namespace squall {

class TeeSink final : public EventSink {
 public:
  // Both sinks must outlive the tee.
  TeeSink(EventSink& first, EventSink& second) : first_(first), second_(second) {}

#define SQUALL_TEE_HANDLER(handler, Event, trace_name) \
  void handler(const Event& e) override {              \
    first_.handler(e);                                 \
    second_.handler(e);                                \
  }
  SQUALL_EVENTS(SQUALL_TEE_HANDLER)
#undef SQUALL_TEE_HANDLER

 private:
  EventSink& first_;
  EventSink& second_;
};

}  // namespace squall
