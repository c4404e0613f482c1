// ErrorDetails: the parts of a provider's answer that only some errors carry (an error
// code and message, the server's retry-delay hints, an error object in a 2xx body), held
// by a Response through a pointer (engine/call.hpp), and ErrorDetailsStore, where a
// provider keeps the ones it sends.
//
// Every call in flight holds a Response, and most answers carry none of these: as six
// views in the Response they were 96 of its 216 bytes in every task's frame, written on
// a few percent of answers (bench/README.md, "Error details out of line"). Out of line
// they cost one pointer, and copying a Response copies the pointer.
#pragma once

#include <cstddef>
#include <string_view>
#include <unordered_set>

namespace squall {

// Every view points into storage that lives for the whole run (a literal, the fault
// rule's configured value, a text the provider keeps), as a Response's views do. All
// empty: none (the default). (Every member has an initializer, so that designated
// initializers may name only the ones they set.)
struct ErrorDetails {
  // The body's error code, e.g. "context_length_exceeded"; empty when absent.
  std::string_view error_code{};
  // The error's human-readable message from the body (a tool's "invalid arguments: ..."),
  // which a reflection quotes to the model; empty when absent.
  std::string_view error_message{};
  // The raw Retry-After header value (RFC 9110, section 10.2.3: delay-seconds or an
  // HTTP-date); empty when absent.
  std::string_view retry_after{};
  // The other ways a server states the delay it asks for (engine/retry_after.hpp): the
  // `retry-after-ms` header (OpenAI, Azure OpenAI; milliseconds, it wins over
  // Retry-After), and google.rpc.RetryInfo's retry_delay in the error body (Google's APIs;
  // a protobuf Duration in its JSON form, "2.5s"). Empty when absent.
  std::string_view retry_after_ms{};
  std::string_view retry_delay{};
  // An error object carried by a 2xx body ({"error": {...}} beside or instead of the
  // content): what a masked error looks like. classify() does not read it, as a client
  // that trusts the status does not; the validate strategy's "no_error" check does.
  // Empty when absent.
  std::string_view body_error{};
  // The `x-should-retry` header ("true" or "false"), with which OpenAI's and Anthropic's
  // servers tell their SDKs whether to retry, overriding the status (the Stainless SDKs'
  // shouldRetry); a retry with honour_should_retry reads it. Empty when absent.
  std::string_view should_retry{};

  bool operator==(const ErrorDetails&) const = default;
};

// The details a Response without any points to (Response::details()).
inline constexpr ErrorDetails kNoErrorDetails{};

// Keeps each distinct ErrorDetails a provider sends, so that a Response can point to it
// for the run. Equal details are kept once: a provider that sends the same error on
// every rate-limited call keeps one copy, and one per distinct Retry-After value. The
// views' own storage must outlive the store (see ErrorDetails).
class ErrorDetailsStore {
 public:
  // The kept copy of `details`, which stays where it is for the store's lifetime; null
  // for details that are all empty (a Response without details).
  const ErrorDetails* keep(const ErrorDetails& details);
  std::size_t size() const { return kept_.size(); }

 private:
  struct Hash {
    std::size_t operator()(const ErrorDetails& d) const;
  };
  // Elements of an unordered_set never move (rehashing relinks nodes).
  std::unordered_set<ErrorDetails, Hash> kept_;
};

}  // namespace squall
