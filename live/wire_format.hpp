// WireFormat: what one API (OpenAI's chat completions, Anthropic's messages) makes of a
// provider's answer, so that LiveService's exchange (provider lookup, identity, the call,
// the pacing of a stream, Retry-After scaling) is written once and each API file is only
// its wire shapes. One WireFormat per exchange: it holds the request's ids and fields.
#pragma once

#include <boost/beast/http.hpp>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/call.hpp"

namespace squall::live {

// An answer the server gives without asking a provider, or an error a provider's
// response becomes: a status and a JSON body.
struct WireError {
  int status = 400;
  std::string body;
};

// When the headers of an answer are written: the real time spent on the exchange, the
// wall-clock instant now (Unix milliseconds) and the --time-scale, to turn a capacity
// model's resets (virtual time) into real instants.
struct HeaderTimes {
  Nanos processing_real = 0;
  std::int64_t now_unix_ms = 0;
  double time_scale = 1;
};

class WireFormat {
 public:
  virtual ~WireFormat() = default;
  // The body of a 2xx whole answer (a masked error's body as the scenario gave it).
  virtual std::string body(const Response& response) const = 0;
  // What a non-2xx answer becomes: status and error body.
  virtual WireError error(const Response& response) const = 0;
  // The SSE events of a stream: its opening (before the first token), the token of
  // index i (token_text(i)), its close after a 2xx, and the error event of a cut stream.
  virtual std::string stream_start() const = 0;
  virtual std::string stream_token(std::int64_t index) const = 0;
  virtual std::string stream_end(const Response& response) const = 0;
  virtual std::string stream_error(const Response& response) const = 0;
  // The API's own headers: request id and rate-limit headers (Retry-After is shared).
  virtual void add_headers(boost::beast::http::response_header<>& head, const Response& response,
                           const HeaderTimes& times) const = 0;
};

// The text of a completion: words cycled from a fixed list, each of which estimate_tokens
// counts as one token. token_text(i) is the i-th piece of it.
std::string_view token_text(std::int64_t index);

}  // namespace squall::live
