#include "mocks/vector_search.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <stdexcept>

#include "engine/answer_time.hpp"

namespace squall {
namespace {

constexpr int kTooManyRequests = 429;

std::int64_t query_cost_mru(const ReadUnitConfig& config, const Corpus& corpus) {
  return config.per_query_mru ? *config.per_query_mru : default_query_cost_mru(corpus);
}

// Read units for messages: the shortest decimal that reads back as the same double ("0.4").
std::string format_mru(std::int64_t mru) { return fmt::format("{}", static_cast<double>(mru) / 1000); }

}  // namespace

std::int64_t default_query_cost_mru(const Corpus& corpus) {
  std::uint64_t metadata_bytes = 0;
  for (const Document& d : corpus.documents()) metadata_bytes += d.title.size() + d.link.size() + d.snippet.size();
  return read_unit_cost_mru(corpus.documents().size(), kEmbeddingDimension, metadata_bytes);
}

VectorSearchMock::VectorSearchMock(std::string name, VectorSearchConfig config,
                                   std::shared_ptr<const VectorIndex> index, Clock& clock, Scheduler& scheduler,
                                   Rng& rng)
    : name_(std::move(name)),
      config_(std::move(config)),
      index_((assert(index != nullptr), std::move(index))),
      latency_(config_.latency),
      clock_(clock),
      scheduler_(scheduler),
      rng_(rng) {
  if (config_.read_units) {
    bucket_.emplace(*config_.read_units, query_cost_mru(*config_.read_units, index_->corpus()));
    limit_message_ = fmt::format(
        "read units exhausted for index \"{}\": {} RU available, refilling at {} RU/s; a "
        "query costs {} RU",
        name_, format_mru(config_.read_units->capacity_mru), format_mru(config_.read_units->refill_mru_per_s),
        format_mru(bucket_->per_query_mru()));
  }
}

Task<Response> VectorSearchMock::call(Request request, CallOptions options) {
  return call_through_start(*this, scheduler_, request, options);
}

Task<Response> VectorSearchMock::start(const Request& request, const CallOptions& options, Response& response,
                                       ScheduledAnswer& answer) {
  response.body = Body::search_results;
  const TimePoint now = clock_.now();
  answer.at = now;
  // A call cancelled before it is sent reaches no index: no draw, no read units (the
  // cancelled token makes the caller's wait end at once, cancelled).
  if (options.cancellation.cancelled()) return {};
  answer.at = add_saturating(now, latency_.sample(rng_));
  if (const auto wait = bucket_ ? bucket_->take(now) : std::nullopt) {
    ++rate_limited_;
    response.status = kTooManyRequests;
    response.error_details = details_.keep({.error_code = "rate_limit_exceeded",
                                            .error_message = limit_message_,
                                            .retry_after = retry_after_.for_wait(*wait)});
  } else {
    // Searched before the answer is awaited: the scratch buffers are shared by all calls
    // of this mock, and no other call can run until this one suspends.
    const std::int32_t top_k = request.top_k > 0 ? request.top_k : config_.top_k;
    hits_.clear();
    index_->search(request.query, request.mode, static_cast<std::size_t>(top_k), request.min_score, scratch_, hits_);
    response.set_results(results_.keep(hits_));
  }
  return {};
}

std::unique_ptr<Provider> make_mock(const VectorSearchConfig& config, const MockBuild& build) {
  if (build.vector_index == nullptr) {
    throw std::invalid_argument(
        fmt::format("provider \"{}\": a vector_search provider needs the index of its corpus", build.name));
  }
  return std::make_unique<VectorSearchMock>(std::string(build.name), config, build.vector_index, build.clock,
                                            build.scheduler, build.rng);
}

void describe_into(const VectorSearchConfig&, ProviderDescriptor&) {}

}  // namespace squall
