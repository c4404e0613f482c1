// `squall serve` with a provider behind a capacity layer (tests/live/scenarios/capacity.json):
// a stream is paced token by token through the layer, its 200 carries the layer's
// x-ratelimit-* headers, a second request queues behind the one slot, and the report has
// the capacity section `run` writes (docs/live.md).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "serve_process.hpp"

namespace squall::live::testing {
namespace {

using nlohmann::json;

std::string scenario() { return std::string(SQUALL_SOURCE_DIR) + "/tests/live/scenarios/capacity.json"; }

const std::string kStream = R"({"model": "gpt-4o-mini", "stream": true, "max_tokens": 20,
                                "messages": [{"role": "user", "content": "Hello there"}]})";

// The chunks of an SSE body that carry text (not the role chunk, the end or the usage).
int content_chunks(const std::string& body) {
  int chunks = 0;
  for (std::size_t at = body.find("data: {"); at != std::string::npos; at = body.find("data: {", at + 1)) {
    const std::size_t end = body.find("\n\n", at);
    const json chunk = json::parse(body.substr(at + 6, end - at - 6));
    if (!chunk["choices"].empty() && !chunk["choices"][0]["delta"].value("content", "").empty()) ++chunks;
  }
  return chunks;
}

TEST(CapacityServeTest, StreamsArePacedThroughTheLayerAndQueueBehindItsSlot) {
  const std::string report = temp_path("capacity_report.json");
  ServeProcess server({scenario(), "--out", report});
  ASSERT_TRUE(server.started());
  // The second request arrives half a second after the first, which holds the one slot:
  // it waits its turn.
  const std::vector<TimedResponse> both = send_timed(server.port(), "/v1/chat/completions", kStream, 2, 500);
  const TimedResponse& first = both[0];
  const TimedResponse& second = both[1];
  for (const TimedResponse& r : both) {
    ASSERT_EQ(r.response.result_int(), 200);
    EXPECT_EQ(r.response["x-ratelimit-limit-requests"], "600");
    EXPECT_EQ(content_chunks(r.response.body()), 20);
    // 20 tokens at 10 a second: the head is sent at the first token, two seconds before
    // the end (it used to wait for the whole answer behind a capacity layer).
    EXPECT_GT(r.end_s - r.head_s, 1.0) << r.head_s << " " << r.end_s;
  }
  // 600 a minute refills 10 a second: half a second later the bucket is full again.
  EXPECT_EQ(first.response["x-ratelimit-remaining-requests"], "599");
  EXPECT_EQ(second.response["x-ratelimit-remaining-requests"], "599");
  EXPECT_EQ(stop(server), 0);
  std::ifstream in(report);
  const json capacity = json::parse(in)["capacity"];
  ASSERT_EQ(capacity.size(), 1u);
  EXPECT_EQ(capacity[0]["provider"], "llm");
  EXPECT_EQ(capacity[0]["arrivals"], 2);
  EXPECT_EQ(capacity[0]["served"], 2);
  EXPECT_EQ(capacity[0]["goodput"], 2);
  EXPECT_EQ(capacity[0]["queued"], 1);
  EXPECT_EQ(capacity[0]["max_in_flight"], 1);
}

}  // namespace
}  // namespace squall::live::testing
