// `squall serve --report otlp=PATH`: a live run exported with the GenAI attributes `run`
// writes, read back by replay's own OTLP reader and grouping (what `squall replay` does
// with it): one root span per request, each its own trace, the provider and model named,
// the statuses of a fault window, and times at the server's wall-clock start.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "replay/grouping.hpp"
#include "replay/otlp_reader.hpp"
#include "serve_process.hpp"

namespace squall::live::testing {
namespace {

const std::string kChat = R"({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Hello there"}]})";

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(OtlpServeTest, ALiveRunExportsSpansThatReplayReads) {
  const std::string path = temp_path("live_export.otlp.json");
  const long long before_ns = unix_now_ns();
  // retrieval.json's web provider fails its calls 2 and 3 (500); its llm has no faults.
  ServeProcess server(
      {std::string(SQUALL_SOURCE_DIR) + "/tests/live/scenarios/retrieval.json", "--report", "otlp=" + path});
  ASSERT_TRUE(server.started());
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(send(server.port(), http::verb::post, "/p/web/search", R"({"query": "password"})").result_int(),
              i == 1 || i == 2 ? 500 : 200);
  }
  EXPECT_EQ(stop(server), 0);

  replay::TraceData data;
  replay::read_otlp_text(read_file(path), path, data);
  ASSERT_EQ(data.attempts.size(), 4u);
  EXPECT_TRUE(data.agents.empty());  // the server sees requests, not an agent's tasks
  std::set<std::string> traces;
  for (std::size_t i = 0; i < data.attempts.size(); ++i) {
    const replay::AttemptRecord& a = data.attempts[i];
    traces.insert(a.trace_id);
    EXPECT_TRUE(a.parent_id.empty());
    EXPECT_EQ(a.provider, "web");
    EXPECT_EQ(a.operation, "retrieval");
    EXPECT_EQ(a.status_code, i == 1 || i == 2 ? 500 : 200);
    EXPECT_EQ(a.outcome, i == 1 || i == 2 ? OutcomeKind::server_error : OutcomeKind::success);
    EXPECT_GE(a.start_ns, before_ns - 1'000'000'000);  // the server's start, whole seconds
    EXPECT_GE(a.end_ns, a.start_ns);
  }
  EXPECT_EQ(traces.size(), 4u);
  const replay::Grouping grouping = replay::group_attempts(data);
  EXPECT_EQ(grouping.counts.tasks, 4u);
  EXPECT_EQ(grouping.counts.calls, 4u);
}

}  // namespace
}  // namespace squall::live::testing
