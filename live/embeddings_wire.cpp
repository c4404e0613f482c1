#include "live/embeddings_wire.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>

#include <fmt/format.h>

#include "engine/runtime/rng.hpp"
#include "engine/token_estimate.hpp"

namespace squall::live {
namespace {

using Json = nlohmann::ordered_json;

// Components each word adds to, and the amplitude of the dense term (embeddings_wire.hpp).
constexpr int kComponentsPerWord = 16;
constexpr double kDenseAmplitude = 0.05;

WireError invalid(std::string_view message, std::string_view param = "", std::string_view code = "") {
  return WireError{400, error_body(message, "invalid_request_error", param, code)};
}

WireError invalid_input() {
  return invalid(
      "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.");
}

// A token array as words ("#ID #ID ..."), or nullopt when it is not a non-empty array of
// non-negative integers.
std::optional<std::string> token_words(const Json& tokens) {
  if (!tokens.is_array() || tokens.empty()) return std::nullopt;
  std::string words;
  for (const Json& token : tokens) {
    if (!token.is_number_integer() || token.get<std::int64_t>() < 0) return std::nullopt;
    words += fmt::format("{}#{}", words.empty() ? "" : " ", token.get<std::int64_t>());
  }
  return words;
}

// Adds one input (a string or a token array) with its tokens; false when it is neither.
bool add_input(const Json& input, EmbeddingsRequest& request, std::int64_t& longest) {
  std::int64_t tokens = 0;
  if (input.is_string() && !input.get_ref<const std::string&>().empty()) {
    request.inputs.push_back(input.get<std::string>());
    tokens = estimate_tokens(request.inputs.back());
  } else if (auto words = token_words(input)) {
    tokens = static_cast<std::int64_t>(input.size());
    request.inputs.push_back(std::move(*words));
  } else {
    return false;
  }
  request.prompt_tokens += tokens;
  longest = std::max(longest, tokens);
  return true;
}

std::optional<WireError> read_input(const Json& body, EmbeddingsRequest& request) {
  const auto input = body.find("input");
  if (input == body.end() || input->is_null()) {
    return invalid("Missing required parameter: 'input'.", "input", "missing_required_parameter");
  }
  std::int64_t longest = 0;
  // An array of integers is one token array; any other array is a list of inputs.
  const bool one = input->is_string() || token_words(*input).has_value();
  if (one) {
    add_input(*input, request, longest);
  } else if (!input->is_array() || input->empty() || input->size() > kMaxEmbeddingInputs) {
    return invalid_input();
  } else {
    for (const Json& item : *input) {
      if (!add_input(item, request, longest)) return invalid_input();
    }
  }
  if (request.inputs.empty()) return invalid_input();
  if (longest > kMaxEmbeddingInputTokens) {
    return invalid(
        fmt::format("This model's maximum context length is {} tokens, however you requested {} tokens ({} "
                    "in your prompt; 0 for the completion). Please reduce your prompt; or completion length.",
                    kMaxEmbeddingInputTokens, longest, longest));
  }
  if (request.prompt_tokens > kMaxEmbeddingRequestTokens) {
    return invalid(fmt::format("Requested {} tokens, max {} tokens per request", request.prompt_tokens,
                               kMaxEmbeddingRequestTokens),
                   "", "max_tokens_per_request");
  }
  return std::nullopt;
}

std::optional<WireError> read_options(const Json& body, EmbeddingsRequest& request) {
  const auto format = body.find("encoding_format");
  if (format != body.end() && !format->is_null()) {
    if (*format != "float" && *format != "base64") {
      return invalid(
          fmt::format("{} is not one of ['float', 'base64'] - 'encoding_format'",
                      format->is_string() ? fmt::format("'{}'", format->get<std::string>()) : format->dump()));
    }
    request.base64 = *format == "base64";
  }
  const auto dimensions = body.find("dimensions");
  if (dimensions == body.end() || dimensions->is_null()) return std::nullopt;
  if (!dimensions->is_number_integer()) return invalid_type("dimensions", "an integer", *dimensions);
  const std::int64_t n = dimensions->get<std::int64_t>();
  if (n < 1 || n > kEmbeddingDimensions) {
    return invalid(fmt::format("Invalid value for 'dimensions' = {}. Must be between 1 and {}.", dimensions->dump(),
                               kEmbeddingDimensions),
                   "dimensions", "invalid_value");
  }
  request.dimensions = static_cast<std::int32_t>(n);
  return std::nullopt;
}

bool word_byte(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || c == '#';
}

}  // namespace

std::variant<EmbeddingsRequest, WireError> parse_embeddings_request(std::string_view text) {
  Json body;
  if (auto error = read_json_object(text, body)) return std::move(*error);
  EmbeddingsRequest request;
  const auto model = body.find("model");
  if (model == body.end() || model->is_null()) return invalid("you must provide a model parameter");
  if (!model->is_string()) return invalid_type("model", "a string", *model);
  request.model = model->get<std::string>();
  if (auto error = read_input(body, request)) return std::move(*error);
  if (auto error = read_options(body, request)) return std::move(*error);
  return request;
}

std::vector<float> embedding_vector(std::uint64_t key, std::string_view text, std::int32_t dimensions) {
  std::vector<double> full(kEmbeddingDimensions);
  Xoshiro256 dense(stream_seed(key, text));
  for (double& component : full) component = kDenseAmplitude * (2 * dense.uniform01() - 1);
  std::string word;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && word_byte(text[i])) {
      const char c = text[i];
      word += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
      continue;
    }
    if (word.empty()) continue;
    Xoshiro256 spread(stream_seed(key, word));
    for (int k = 0; k < kComponentsPerWord; ++k) {
      const std::uint64_t bits = spread.next_u64();
      full[(bits >> 1) % kEmbeddingDimensions] += (bits & 1) != 0 ? 1.0 : -1.0;
    }
    word.clear();
  }
  double norm = 0;
  for (std::int32_t i = 0; i < dimensions; ++i)
    norm += full[static_cast<std::size_t>(i)] * full[static_cast<std::size_t>(i)];
  norm = std::sqrt(norm);
  std::vector<float> out(static_cast<std::size_t>(dimensions));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<float>(norm > 0 ? full[i] / norm : 0);
  return out;
}

std::string base64_floats(const std::vector<float>& vector) {
  static_assert(std::endian::native == std::endian::little, "base64 embeddings are little-endian float32");
  static constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string bytes(vector.size() * sizeof(float), '\0');
  if (!vector.empty()) std::memcpy(bytes.data(), vector.data(), bytes.size());
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t group = 0;
    for (std::size_t j = 0; j < 3; ++j) {
      group = (group << 8) | (j < n ? static_cast<unsigned char>(bytes[i + j]) : 0U);
    }
    for (std::size_t j = 0; j < 4; ++j) out += j <= n ? kAlphabet[(group >> (18 - 6 * j)) & 63U] : '=';
  }
  return out;
}

std::string embeddings_body(const EmbeddingsRequest& request, std::uint64_t key) {
  std::string body = R"({"object":"list","data":[)";
  for (std::size_t i = 0; i < request.inputs.size(); ++i) {
    const std::vector<float> vector = embedding_vector(key, request.inputs[i], request.dimensions);
    body += fmt::format(R"({}{{"object":"embedding","index":{},"embedding":)", i == 0 ? "" : ",", i);
    if (request.base64) {
      body += fmt::format("\"{}\"}}", base64_floats(vector));
    } else {
      body += fmt::format("[{}]}}", fmt::join(vector, ","));
    }
  }
  body += fmt::format(R"(],"model":{},"usage":{{"prompt_tokens":{},"total_tokens":{}}}}})", Json(request.model).dump(),
                      request.prompt_tokens, request.prompt_tokens);
  return body;
}

std::string EmbeddingsWire::body(const Response& response) const {
  if (!response.details().body_error.empty()) return std::string(response.details().body_error);  // masked error
  return embeddings_body(request_, key_);
}

}  // namespace squall::live
