#include "mocks/make_provider.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "sim/event_loop.hpp"
#include "tests/mocks/support.hpp"

namespace squall {
namespace {

// Records the streams asked for, and seeds each from its name as the simulator does.
struct RecordingFactory {
  std::vector<std::string> names;
  RngFactory factory() {
    return [this](std::string_view component) {
      names.emplace_back(component);
      return std::make_unique<Xoshiro256>(stream_seed(1, component));
    };
  }
};

std::shared_ptr<const Corpus> corpus() {
  return std::make_shared<const Corpus>(std::vector<Document>{{"Acme", "https://acme.example", "Acme Corp", 0, ""}});
}

ProviderConfig web(std::vector<FaultConfig> faults = {}) {
  WebSearchConfig spec;
  spec.latency = {LatencyShape::constant, 80 * kMillisecond, 0, 0, 0};
  ProviderConfig config;
  config.name = "web_search";
  config.spec = spec;
  config.faults = std::move(faults);
  return config;
}

TEST(MakeProviderTest, WebSearchWithoutFaultsIsTheBareMock) {
  EventLoop loop;
  RecordingFactory rngs;
  BuiltProvider built = make_provider(web(), corpus(), loop, loop, rngs.factory());
  EXPECT_EQ(rngs.names, std::vector<std::string>{"provider/web_search"});
  EXPECT_EQ(built.chaos, nullptr);
  EXPECT_EQ(built.chaos_rng, nullptr);
  EXPECT_NE(dynamic_cast<WebSearchMock*>(built.provider.get()), nullptr);
  EXPECT_EQ(built.injected_faults(), FaultCounts{});
  Request request;
  request.query = "acme";
  const auto done = testing::run_call(loop, *built.provider, request);
  EXPECT_EQ(done.at, 80 * kMillisecond);
  EXPECT_EQ(done.response.results().size(), 1U);
}

TEST(MakeProviderTest, FaultsAddTheChaosDecoratorWithItsOwnStream) {
  EventLoop loop;
  RecordingFactory rngs;
  BuiltProvider built = make_provider(web({[] {
                                        FaultConfig f;
                                        f.kind = FaultKind::empty;
                                        f.probability = 1.0;
                                        return f;
                                      }()}),
                                      corpus(), loop, loop, rngs.factory());
  EXPECT_EQ(rngs.names,
            (std::vector<std::string>{"provider/web_search", "chaos/web_search", "chaos/web_search/decisions"}));
  ASSERT_NE(built.chaos, nullptr);
  EXPECT_EQ(built.provider.get(), built.chaos);
  EXPECT_EQ(built.provider->name(), "web_search");
  BuiltProvider moved = std::move(built);  // as World stores it in a map
  const auto done = testing::run_call(loop, *moved.provider);
  // The faulty answer borrows the web search's 80 ms latency and its body kind.
  EXPECT_EQ(done.at, 80 * kMillisecond);
  EXPECT_EQ(done.response.body, Body::search_results);
  EXPECT_EQ(moved.injected_faults()[index_of(FaultKind::empty)], 1U);
}

TEST(MakeProviderTest, LlmFaultsAnswerWithCompletionsAfterTheErrorLatencyNotTheTtft) {
  EventLoop loop;
  RecordingFactory rngs;
  LlmConfig spec;
  spec.time_to_first_token = {LatencyShape::constant, 2 * kSecond, 0, 0, 0};
  spec.error_latency = {LatencyShape::constant, 400 * kMillisecond, 0, 0, 0};
  FaultConfig f;
  f.kind = FaultKind::server_error;
  f.probability = 1.0;
  ProviderConfig config;
  config.name = "gpt-4.1";
  config.spec = spec;
  config.faults = {f};
  BuiltProvider built = make_provider(config, nullptr, loop, loop, rngs.factory());
  // An LLM keys its query rewrites by a stream of their own, apart from its draws.
  EXPECT_EQ(rngs.names, (std::vector<std::string>{"provider/gpt-4.1", "provider/gpt-4.1/decisions", "chaos/gpt-4.1",
                                                  "chaos/gpt-4.1/decisions"}));
  EXPECT_NE(dynamic_cast<LlmMock*>(&built.chaos->inner()), nullptr);
  const auto done = testing::run_call(loop, *built.provider);
  EXPECT_EQ(done.at, 400 * kMillisecond);
  EXPECT_EQ(done.response.status, 500);
  EXPECT_EQ(done.response.body, Body::completion);
}

TEST(MakeProviderTest, WebSearchWithoutCorpusIsRejected) {
  EventLoop loop;
  RecordingFactory rngs;
  try {
    make_provider(web(), nullptr, loop, loop, rngs.factory());
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "provider \"web_search\": a web_search provider needs a loaded corpus");
  }
}

}  // namespace
}  // namespace squall
