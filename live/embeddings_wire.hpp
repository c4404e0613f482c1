// The OpenAI embeddings API's wire shapes (platform.openai.com/docs/api-reference/embeddings),
// as the official clients send and parse them, and the vectors squall answers with.
//
// Request: `model` (string), `input` (a string, an array of strings, an array of token ids
// or an array of token-id arrays; at most 2048 inputs, none empty, each at most 8192
// tokens, 300,000 tokens in all), `encoding_format` ("float", the default, or "base64":
// the little-endian float32 bytes, which the Node SDK asks for by default and decodes) and
// `dimensions` (1 to 1536). Other fields (`user`) are accepted and ignored.
//
// Vectors: there are no model weights. A text's vector is a deterministic function of
// (key, text), key = stream_seed(seed, provider name): feature hashing (Weinberger et al.,
// "Feature Hashing for Large Scale Multitask Learning", 2009) of its words (ASCII letters
// and digits, lower-cased; other bytes split words), each word adding +-1 to 16
// components of 1536 chosen by a hash of (key, word), plus a dense term of amplitude 0.05
// per component drawn from a stream seeded by (key, whole text), so that no component is
// zero and texts without words still differ. Texts that share words have a higher cosine
// similarity. The vector is normalised to length 1; `dimensions` keeps its first N
// components and normalises again, as OpenAI documents for its text-embedding-3 models.
// A token id is the word "#ID".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "live/openai_wire.hpp"
#include "live/wire_format.hpp"

namespace squall::live {

// The tool of an embeddings call's chaos decisions (docs/live.md, "Determinism").
inline constexpr std::string_view kEmbeddingsEndpoint = "embeddings";
// The dimension of squall's vectors: text-embedding-3-small's (mocks/vector_search.hpp).
inline constexpr std::int32_t kEmbeddingDimensions = 1536;
// The API's limits: inputs per request, tokens per input (the models' context length),
// tokens per request.
inline constexpr std::size_t kMaxEmbeddingInputs = 2048;
inline constexpr std::int64_t kMaxEmbeddingInputTokens = 8192;
inline constexpr std::int64_t kMaxEmbeddingRequestTokens = 300'000;

struct EmbeddingsRequest {
  std::string model;
  std::vector<std::string> inputs;  // token arrays as "#ID #ID ..."
  bool base64 = false;
  std::int32_t dimensions = kEmbeddingDimensions;
  // ceil(bytes / 4) of each string input (engine/token_estimate.hpp), the length of each
  // token array; summed.
  std::int64_t prompt_tokens = 0;
};

// Parses a POST /v1/embeddings body; errors are 400 invalid_request_error bodies
// (docs/live.md lists each wording).
std::variant<EmbeddingsRequest, WireError> parse_embeddings_request(std::string_view body);

// The unit vector of `text` under `key` (above), `dimensions` long.
std::vector<float> embedding_vector(std::uint64_t key, std::string_view text, std::int32_t dimensions);
// The float32 little-endian bytes of `vector` in base64 (RFC 4648, padded).
std::string base64_floats(const std::vector<float>& vector);
// The answer: {"object": "list", "data": [{"object": "embedding", "index", "embedding"}],
// "model", "usage": {"prompt_tokens", "total_tokens"}}; floats in their shortest form.
std::string embeddings_body(const EmbeddingsRequest& request, std::uint64_t key);

// The embeddings answer as a WireFormat (never streamed): errors and headers as the chat
// completion's (x-request-id, openai-processing-ms, x-ratelimit-*).
class EmbeddingsWire final : public UnstreamedOpenAiWire {
 public:
  EmbeddingsWire(EmbeddingsRequest request, std::uint64_t key, std::string request_id)
      : UnstreamedOpenAiWire(std::move(request_id)), request_(std::move(request)), key_(key) {}
  std::string body(const Response& response) const override;
  WireError error(const Response& response) const override { return provider_error(response, request_.model); }

 private:
  EmbeddingsRequest request_;
  std::uint64_t key_;
};

}  // namespace squall::live
