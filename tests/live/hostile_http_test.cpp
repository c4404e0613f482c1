// Broken and hostile HTTP against `squall serve` (tests/live/scenarios/hostile.json), sent
// as raw bytes: oversized bodies and headers, malformed request lines, wrong and
// conflicting Content-Length, truncated and malformed chunked bodies, HTTP versions other
// than 1.x, then HTTP/1.0 and keep-alive pipelining done right. After each, the server
// still answers a normal request and stops cleanly with its report (docs/live.md, "Limits").
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "serve_process.hpp"

namespace squall::live::testing {
namespace {

using nlohmann::json;

std::string scenario() { return std::string(SQUALL_SOURCE_DIR) + "/tests/live/scenarios/hostile.json"; }

const std::string kChat =
    R"({"model": "gpt-4o-mini", "max_tokens": 2, "messages": [{"role": "user", "content": "hi"}]})";

std::string post(const std::string& target, const std::string& body, const std::string& extra = "") {
  return "POST " + target +
         " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\n" + extra + "\r\n" + body;
}

// The status line's code of the first answer in `raw`, and its JSON error message.
std::string status_of(const std::string& raw) { return raw.substr(0, 12); }
std::string message_of(const std::string& raw) {
  const std::size_t body = raw.find("\r\n\r\n");
  const std::size_t length = raw.find("Content-Length: ");
  if (body == std::string::npos || length == std::string::npos || length > body) return "(no body: " + raw + ")";
  const std::size_t size = std::stoul(raw.substr(length + 16, body - length - 16));
  const json parsed = json::parse(raw.substr(body + 4, size), nullptr, /*allow_exceptions=*/false);
  return parsed.is_object() ? parsed["error"].value("message", "") : "(not JSON: " + raw + ")";
}

// A normal request is still answered, then the server stops with exit 0 and its report,
// which counts `llm_calls` calls of the llm provider.
void expect_still_serving_then_stop(ServeProcess& server, const std::string& report, int llm_calls) {
  EXPECT_EQ(send(server.port(), http::verb::post, "/v1/chat/completions", kChat).result_int(), 200);
  EXPECT_EQ(stop(server), 0) << server.output();
  std::ifstream in(report);
  ASSERT_TRUE(in.good()) << report;
  EXPECT_EQ(json::parse(in)["providers"]["llm"]["calls"], llm_calls);
}

TEST(HostileHttpTest, OversizedBodiesAndHeadersAreRefusedNamingTheLimit) {
  const std::string report = temp_path("hostile_sizes.json");
  ServeProcess server({scenario(), "--out", report});
  ASSERT_TRUE(server.started());
  // A Content-Length over the limit is refused before the body is read.
  const std::string declared = send_raw(
      server.port(), "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000\r\n\r\n{\"model\"");
  EXPECT_EQ(status_of(declared), "HTTP/1.1 413");
  EXPECT_EQ(message_of(declared), "The request body is larger than the server's limit of 4194304 bytes.");
  EXPECT_NE(declared.find("Connection: close"), std::string::npos);
  // So is a chunked body that grows past it.
  std::string chunked = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
  const std::string chunk(1024 * 1024, ' ');
  for (int i = 0; i < 5; ++i) chunked += "100000\r\n" + chunk + "\r\n";
  const std::string grown = send_raw(server.port(), chunked + "0\r\n\r\n");
  EXPECT_EQ(status_of(grown), "HTTP/1.1 413");
  EXPECT_EQ(message_of(grown), "The request body is larger than the server's limit of 4194304 bytes.");
  const std::string big_header =
      send_raw(server.port(), "GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(20'000, 'a') + "\r\n\r\n");
  EXPECT_EQ(status_of(big_header), "HTTP/1.1 431");
  EXPECT_EQ(message_of(big_header), "The request's headers are larger than the server's limit of 16384 bytes.");
  const std::string long_line =
      send_raw(server.port(), "GET /v1/" + std::string(20'000, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(status_of(long_line), "HTTP/1.1 431");
  expect_still_serving_then_stop(server, report, 1);
}

TEST(HostileHttpTest, MalformedRequestLinesAre400sAndOtherVersions505s) {
  const std::string report = temp_path("hostile_lines.json");
  ServeProcess server({scenario(), "--out", report});
  ASSERT_TRUE(server.started());
  for (const std::string& line : {std::string("GET\r\n\r\n"), std::string("GET / HTTP/1.1 extra\r\n\r\n"),
                                  std::string("get / http/1.1\r\n\r\n"), std::string("GET /\x01 HTTP/1.1\r\n\r\n"),
                                  std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 11),  // TLS hello
                                  std::string("GET / HTTP/1.1\r\nNo colon here\r\n\r\n")}) {
    const std::string answer = send_raw(server.port(), line);
    EXPECT_EQ(status_of(answer), "HTTP/1.1 400") << line;
    EXPECT_EQ(message_of(answer).rfind("The request is not valid HTTP/1.1: ", 0), 0u) << answer;
  }
  const std::string h2 = send_raw(server.port(), "GET /v1/models HTTP/2.0\r\nHost: x\r\n\r\n");
  EXPECT_EQ(status_of(h2), "HTTP/1.1 505");
  EXPECT_EQ(message_of(h2), "The server speaks HTTP/1.0 and HTTP/1.1; the request is HTTP/2.0.");
  // An HTTP/2 client with prior knowledge sends this preface first.
  EXPECT_EQ(status_of(send_raw(server.port(), "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")), "HTTP/1.1 505");
  expect_still_serving_then_stop(server, report, 1);
}

TEST(HostileHttpTest, WrongContentLengthsAndTruncatedBodiesAre400s) {
  const std::string report = temp_path("hostile_lengths.json");
  ServeProcess server({scenario(), "--out", report});
  ASSERT_TRUE(server.started());
  const std::string head = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n";
  for (const std::string& headers : {std::string("Content-Length: abc\r\n"), std::string("Content-Length: -1\r\n"),
                                     std::string("Content-Length: 2\r\nContent-Length: 3\r\n"),
                                     std::string("Content-Length: 99999999999999999999999\r\n")}) {
    const std::string answer = send_raw(server.port(), head + headers + "\r\n{}");
    EXPECT_EQ(status_of(answer), "HTTP/1.1 400") << headers;
    EXPECT_EQ(message_of(answer), "The request is not valid HTTP/1.1: bad Content-Length.") << headers;
  }
  // Both framings at once (a request smuggling attempt) is refused, not guessed at.
  const std::string both = send_raw(server.port(), head + "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}");
  EXPECT_EQ(status_of(both), "HTTP/1.1 400");
  EXPECT_EQ(message_of(both), "The request is not valid HTTP/1.1: bad Transfer-Encoding.");
  // A bad chunk size, and a body shorter than its Content-Length whose client then ends
  // its side (a half-close): 400, the answer still readable.
  const std::string bad_chunk =
      send_raw(server.port(), head + "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n");
  EXPECT_EQ(status_of(bad_chunk), "HTTP/1.1 400");
  RawConnection truncated(server.port());
  ASSERT_TRUE(truncated.write(head + "Content-Length: 100\r\n\r\n{\"model\": "));
  truncated.finish_sending();
  const std::string cut = truncated.read_to_close();
  EXPECT_EQ(status_of(cut), "HTTP/1.1 400");
  EXPECT_EQ(message_of(cut), "The request is not valid HTTP/1.1: partial message.");
  // A Content-Length shorter than the body: the body is cut there (not JSON: the API's
  // 400), and the rest is read as the next request, which is no HTTP (400, closed).
  const std::string shorter = send_raw(server.port(), head + "Content-Length: 5\r\n\r\n" + kChat);
  EXPECT_EQ(status_of(shorter), "HTTP/1.1 400");
  EXPECT_EQ(message_of(shorter).rfind("We could not parse the JSON body of your request.", 0), 0u) << shorter;
  const std::size_t second = shorter.find("HTTP/1.1 400", 12);
  ASSERT_NE(second, std::string::npos) << shorter;
  EXPECT_EQ(message_of(shorter.substr(second)).rfind("The request is not valid HTTP/1.1: ", 0), 0u);
  expect_still_serving_then_stop(server, report, 1);
}

TEST(HostileHttpTest, Http10GetsHttp10AnswersAndUnchunkedStreams) {
  const std::string report = temp_path("hostile_http10.json");
  ServeProcess server({scenario(), "--out", report});
  ASSERT_TRUE(server.started());
  // No keep-alive unless asked for: the answer, then the close.
  const std::string once = send_raw(server.port(), "GET /v1/models HTTP/1.0\r\n\r\n");
  EXPECT_EQ(status_of(once), "HTTP/1.0 200");
  EXPECT_EQ(once.find("Connection: keep-alive"), std::string::npos);
  // Keep-alive when asked: two answers on one connection, each saying so.
  RawConnection kept(server.port());
  ASSERT_TRUE(kept.write("GET /v1/models HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
  EXPECT_NE(kept.read_until("\"owned_by\":\"squall\"}]}").find("Connection: keep-alive"), std::string::npos);
  ASSERT_TRUE(kept.write("GET /v1/nothing HTTP/1.0\r\n\r\n"));
  const std::string both = kept.read_to_close();
  EXPECT_TRUE(kept.closed());
  EXPECT_NE(both.find("HTTP/1.0 404"), std::string::npos) << both;
  // A stream without chunked coding: the events as they are, ended by the close.
  const std::string streamed = kChat.substr(0, kChat.size() - 1) + R"(, "stream": true})";
  const std::string stream = send_raw(
      server.port(), "POST /v1/chat/completions HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: " +
                         std::to_string(streamed.size()) + "\r\n\r\n" + streamed);
  EXPECT_EQ(status_of(stream), "HTTP/1.0 200") << stream;
  EXPECT_EQ(stream.find("Transfer-Encoding"), std::string::npos);
  const std::size_t body = stream.find("\r\n\r\n") + 4;
  EXPECT_EQ(stream.substr(body, 6), "data: ");
  EXPECT_EQ(stream.substr(stream.size() - 14), "data: [DONE]\n\n");
  expect_still_serving_then_stop(server, report, 2);
}

TEST(HostileHttpTest, PipelinedRequestsAreAnsweredInOrder) {
  const std::string report = temp_path("hostile_pipeline.json");
  ServeProcess server({scenario(), "--out", report});
  ASSERT_TRUE(server.started());
  const std::string stream = kChat.substr(0, kChat.size() - 1) + R"(, "stream": true})";
  // Four requests in one write: a whole answer, a stream, a 404 and the last asking to
  // close; the answers come back in that order on the one connection.
  const std::string answers =
      send_raw(server.port(), post("/v1/chat/completions", kChat) + post("/v1/chat/completions", stream) +
                                  "GET /v1/nothing HTTP/1.1\r\nHost: x\r\n\r\n" +
                                  "GET /v1/models HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  const std::size_t first = answers.find("HTTP/1.1 200");
  const std::size_t chunked = answers.find("Transfer-Encoding: chunked");
  const std::size_t done = answers.find("data: [DONE]");
  const std::size_t missing = answers.find("HTTP/1.1 404");
  const std::size_t models = answers.find("\"object\":\"list\"");
  EXPECT_EQ(first, 0u) << answers;
  EXPECT_NE(answers.find("\"object\":\"chat.completion\""), std::string::npos);
  EXPECT_LT(first, chunked);
  EXPECT_LT(chunked, done);
  EXPECT_LT(done, missing);
  EXPECT_LT(missing, models);
  EXPECT_NE(models, std::string::npos) << answers;
  expect_still_serving_then_stop(server, report, 3);
}

TEST(HostileHttpTest, HelpDocumentsTheLimitsAndBadValuesAreUsageErrors) {
  ServeProcess help({"--help"});
  EXPECT_FALSE(help.started());
  EXPECT_EQ(help.wait(), 0);
  EXPECT_NE(help.output().find("--request-timeout"), std::string::npos) << help.output();
  EXPECT_NE(help.output().find("(default 30s)"), std::string::npos) << help.output();
  EXPECT_NE(help.output().find("--max-connections"), std::string::npos);
  EXPECT_NE(help.output().find("=1024"), std::string::npos) << help.output();
  for (const std::vector<std::string>& args : {std::vector<std::string>{scenario(), "--request-timeout", "0s"},
                                               std::vector<std::string>{scenario(), "--request-timeout", "30"},
                                               std::vector<std::string>{scenario(), "--max-connections", "0"}}) {
    ServeProcess refused(args);
    EXPECT_FALSE(refused.started());
    EXPECT_EQ(refused.wait(), 2) << args[1] << " " << args[2];
  }
}

}  // namespace
}  // namespace squall::live::testing
