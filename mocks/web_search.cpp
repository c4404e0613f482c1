#include "mocks/web_search.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include <algorithm>
#include <cassert>

#include "engine/answer_time.hpp"

namespace squall {

WebSearchMock::WebSearchMock(std::string name, WebSearchConfig config, std::shared_ptr<const Corpus> corpus,
                             Clock& clock, Scheduler& scheduler, Rng& rng)
    : name_(std::move(name)),
      config_(std::move(config)),
      corpus_((assert(corpus != nullptr), std::move(corpus))),
      latency_(config_.latency),
      clock_(clock),
      scheduler_(scheduler),
      rng_(rng),
      matcher_(*corpus_) {}

Task<Response> WebSearchMock::call(Request request, CallOptions options) {
  return call_through_start(*this, scheduler_, request, options);
}

Task<Response> WebSearchMock::start(const Request& request, const CallOptions& options, Response& response,
                                    ScheduledAnswer& answer) {
  response.body = Body::search_results;
  answer.at = clock_.now();
  // A call cancelled before it is sent reaches no service: no draw (the cancelled token
  // makes the caller's wait end at once, cancelled).
  if (options.cancellation.cancelled()) return {};
  answer.at = add_saturating(answer.at, latency_.sample(rng_));
  // Matched before the answer is awaited: the matcher's scratch buffers are shared by all
  // calls of this mock, and no other call can run until this one suspends.
  response.set_results(answer_for(request.query));
  return {};
}

std::span<const SearchResult> WebSearchMock::answer_for(std::string_view query) {
  return answers_.get(query, [this](std::string_view text) {
    hits_.clear();
    matcher_.match(text, static_cast<std::size_t>(std::max(config_.max_results, 0)), hits_);
    return results_.keep(hits_);
  });
}

std::unique_ptr<Provider> make_mock(const WebSearchConfig& config, const MockBuild& build) {
  if (build.corpus == nullptr) {
    throw std::invalid_argument(
        fmt::format("provider \"{}\": a web_search provider needs a loaded corpus", build.name));
  }
  return std::make_unique<WebSearchMock>(std::string(build.name), config, build.corpus, build.clock, build.scheduler,
                                         build.rng);
}

void describe_into(const WebSearchConfig&, ProviderDescriptor&) {}

}  // namespace squall
