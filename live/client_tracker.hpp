// ClientTracker: who sends each request to `squall serve`, and which retry layer sent it
// (docs/live.md, "Client conformance"). Pure bookkeeping: times are passed in (real
// nanoseconds since the server started), nothing is read from a clock or a socket.
//
// The client of a request is its `x-squall-client` header when present, else the peer's
// IP address. Its layer, in this order:
//   gateway      x-envoy-attempt-count >= 2 (Envoy, and gateways built on it)
//   sdk          x-stainless-retry-count >= 1 (the official OpenAI and Anthropic SDKs)
//   application  no such header, and the client sent the same endpoint and body before and
//                the latest answer to it was an error (status >= 400, a stream that ended
//                in an error event, or a connection closed without an answer)
// else the request is a logical request (a first attempt). A retry is matched to the
// client's latest earlier request with the same endpoint and body: the Retry-After that
// answer gave makes the retry early when it comes sooner (kEarlySlack), and an answer that
// said not to retry (AdviceReason) makes it a retry against advice. A retry marked by a
// header with no such earlier request (the body changed, or it was forgotten) is counted
// as a retry of a first attempt squall did not see (a logical request of its own).
//
// Bounds, so that no client grows the server's memory without limit: kMaxClients clients
// (later ones share the row "(other clients)") and kMaxPayloads remembered bodies per
// client (the oldest forgotten first); a logical request costs 12 bytes for the run.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/runtime/time.hpp"
#include "reports/client_report.hpp"

namespace squall::live {

// A retry sent up to this long before its Retry-After elapsed is not early: clocks and
// timers are that coarse (a client's setTimeout, the server's read of the request).
inline constexpr Nanos kEarlySlack = 20 * kMillisecond;
inline constexpr std::size_t kMaxClients = 1024;
inline constexpr std::size_t kMaxPayloads = 4096;

struct ClientRequest {
  std::string_view client;    // x-squall-client, else the peer's address
  std::string_view endpoint;  // the request's path
  std::string_view body;
  std::string_view envoy_attempt_count;    // the header's value, "" when absent
  std::string_view stainless_retry_count;  // likewise
  Nanos at = 0;
};

// What an answer said, as the client read it.
struct ClientAnswer {
  int status = 200;
  std::optional<Nanos> retry_after;  // retry-after-ms, else retry-after in seconds
  bool should_retry_false = false;   // x-should-retry: false
  bool should_retry_true = false;    // x-should-retry: true: a retry is asked for, whatever the status
  std::string error_code;            // the OpenAI error body's error.code
  Nanos at = 0;
};

// Reads an answer's headers and body (an error body's code is read only for status >= 400).
ClientAnswer read_answer(int status, std::string_view retry_after, std::string_view retry_after_ms,
                         std::string_view should_retry, std::string_view body, Nanos at);

class ClientTracker {
 public:
  // `loop_resends`: a payload sent again this many times is a loop (--loop-resends).
  explicit ClientTracker(std::uint32_t loop_resends = 5) : loop_resends_(loop_resends) {}

  // A request arrived: classified now. Returns its id for the calls below.
  std::uint64_t arrive(const ClientRequest& request);
  // The input tokens of the request (counted as re-sent when it is a retry).
  void input_tokens(std::uint64_t id, std::int64_t tokens);
  // Its answer's head was sent.
  void answered(std::uint64_t id, const ClientAnswer& answer);
  // A 200 stream ended in an error event.
  void stream_failed(std::uint64_t id);
  // The exchange ended: answered whole, or the connection closed (no answer: an error).
  void ended(std::uint64_t id);

  // The layer of a request in flight, none when it is a first attempt (for tests).
  std::optional<RetryLayer> layer(std::uint64_t id) const;
  ClientReport report() const;

 private:
  struct Payload {
    std::uint64_t sends = 0;
    std::size_t logical = 0;  // index into Client::logical
    bool errored = false;     // the latest answer was an error
    std::optional<AdviceReason> advice;
    std::optional<Nanos> retry_at;  // the latest answer's Retry-After, as a time
  };
  struct Client {
    ClientRow row;
    std::uint64_t in_flight = 0;
    std::unordered_map<std::uint64_t, Payload> payloads;  // by digest of endpoint and body
    std::deque<std::uint64_t> order;                      // digests, oldest first
    std::vector<ByLayer<std::uint32_t>> logical;          // retries per logical request
  };
  struct InFlight {
    Client* client = nullptr;
    std::uint64_t digest = 0;
    std::optional<RetryLayer> layer;
    bool answered = false;
  };

  Client& client(std::string_view name);
  Payload& payload(Client& client, std::uint64_t digest);
  void count_retry(Client& client, Payload* earlier, RetryLayer layer, Nanos at);
  void settle(const InFlight& request, bool error, std::optional<AdviceReason> advice, std::optional<Nanos> retry_at);

  std::uint32_t loop_resends_;
  std::map<std::string, Client, std::less<>> clients_;
  std::unordered_map<std::uint64_t, InFlight> in_flight_;
  std::uint64_t next_id_ = 1;
};

}  // namespace squall::live
