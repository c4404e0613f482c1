// refused(): the outcome of a call a strategy ends without any exchange with a provider
// (a full bulkhead, a rate limiter without a permit, a hedge never sent): the kind, and
// status 0, since no response exists.
#pragma once

#include "engine/call.hpp"

namespace squall {

inline Outcome refused(OutcomeKind kind) {
  Outcome o;
  o.kind = kind;
  o.response.status = 0;  // no exchange took place
  return o;
}

}  // namespace squall
