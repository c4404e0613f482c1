// Whether a request may be sent again after an outcome: the rule every strategy that
// re-sends (retry, fallback, reflect) obeys for non-idempotent providers.
//
// A non-idempotent operation (a payment, an e-mail, a CRM write) must not run twice. After
// an outcome that proves the request was not processed, re-sending is safe: the server
// refused it before doing anything (429, 529/503 overload, 401/403, 400, context length,
// content filter) or the engine never sent it (circuit_open, budget_exhausted). After one
// that may have reached it (a timeout, a 5xx, a response that failed validation), it is
// not: the operation may have happened. This is the rule of Stripe's idempotency guidance
// and of gRPC's transparent retry, which re-sends only RPCs that never left the client or
// were refused unprocessed; AWS SDKs likewise retry only idempotent operations on timeouts.
#pragma once

#include "engine/outcome.hpp"
#include "engine/provider_descriptor.hpp"

namespace squall {

// True when the outcome shows the provider did not process the request.
constexpr bool proves_unprocessed(OutcomeKind kind) {
  switch (kind) {
    case OutcomeKind::timeout:
    case OutcomeKind::server_error:
    case OutcomeKind::invalid_output:
    case OutcomeKind::truncated:
    case OutcomeKind::success:
    case OutcomeKind::empty:
    case OutcomeKind::cancelled: return false;
    default: return true;
  }
}

// True when a request whose last outcome was `kind` may be sent again to `provider`.
constexpr bool may_resend(const ProviderDescriptor& provider, OutcomeKind kind) {
  return provider.idempotent || proves_unprocessed(kind);
}

}  // namespace squall
