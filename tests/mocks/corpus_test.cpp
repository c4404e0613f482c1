#include "mocks/corpus.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace squall {
namespace {

namespace fs = std::filesystem;

// Writes `content` to a file named after the running test, so parallel tests never share one.
fs::path write_corpus(const std::string& content) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const fs::path path = fs::temp_directory_path() / (std::string("squall_corpus_") + info->name() + ".jsonl");
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

std::string load_error(const std::string& content) {
  const fs::path path = write_corpus(content);
  std::string message;
  try {
    Corpus::load(path);
    ADD_FAILURE() << "no CorpusError";
  } catch (const CorpusError& e) {
    message = e.what();
  }
  fs::remove(path);
  // The temporary directory differs between machines; the rest is compared exactly.
  const std::string prefix = path.string();
  EXPECT_EQ(message.rfind(prefix, 0), 0U) << message;
  return message.size() >= prefix.size() ? message.substr(prefix.size()) : message;
}

constexpr const char* kGood = R"({"title": "A", "link": "https://a.example", "snippet": "alpha"})";

TEST(CorpusLoadTest, MissingFileNamesTheFile) {
  try {
    Corpus::load("/nonexistent/squall/crm.jsonl");
    FAIL() << "no CorpusError";
  } catch (const CorpusError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/squall/crm.jsonl: cannot open the corpus file (missing or unreadable)");
  }
}

TEST(CorpusLoadTest, MalformedJsonNamesLineAndByte) {
  // Line 2 is blank and still counted; line 3 breaks at byte 11 ({"title": x} counted
  // from 1), the 'x' after the colon and space.
  EXPECT_EQ(load_error(std::string(kGood) + "\n\n{\"title\": x}\n"),
            ":3: expected a JSON object, got malformed JSON at byte 11");
}

TEST(CorpusLoadTest, NonObjectLineIsRejected) {
  EXPECT_EQ(load_error("[1, 2]\n"), ":1: expected a JSON object, got an array");
  EXPECT_EQ(load_error("\"just a string\"\n"), ":1: expected a JSON object, got \"just a string\"");
}

TEST(CorpusLoadTest, MissingFieldIsNamed) {
  EXPECT_EQ(load_error(R"({"title": "A", "snippet": "s"})"), ":1: /link: expected a string, got no such field");
}

TEST(CorpusLoadTest, WrongTypeShowsTheValue) {
  EXPECT_EQ(load_error(std::string(kGood) + "\n" + R"({"title": "A", "link": 42, "snippet": "s"})"),
            ":2: /link: expected a string, got 42");
  EXPECT_EQ(load_error(R"({"title": ["A"], "link": "l", "snippet": "s"})"),
            ":1: /title: expected a string, got an array");
}

TEST(CorpusLoadTest, UnknownFieldIsRejected) {
  EXPECT_EQ(load_error(R"({"title": "A", "link": "l", "snippet": "s", "url": "u"})"),
            ":1: /url: expected only the fields title, link and snippet, got an unknown field");
}

TEST(CorpusLoadTest, LongValuesAreCutShort) {
  // The dump is '"' and 60 'a's and '"'; its first 40 characters are shown.
  EXPECT_EQ(load_error("\"" + std::string(60, 'a') + "\"\n"),
            ":1: expected a JSON object, got \"" + std::string(39, 'a') + "...");
}

TEST(CorpusLoadTest, BlankLinesAndCrlfAreAccepted) {
  const fs::path path = write_corpus(std::string(kGood) + "\r\n   \r\n\n" + kGood + "\r\n");
  const Corpus corpus = Corpus::load(path);
  fs::remove(path);
  ASSERT_EQ(corpus.documents().size(), 2U);
  EXPECT_EQ(corpus.documents()[1].snippet, "alpha");
}

TEST(CorpusTest, DerivedFieldsAreComputed) {
  // 9 bytes -> ceil(9 / 4) = 3 tokens; 8 -> 2; 0 -> 0.
  const Corpus corpus({{"Acme  CORP\tNews", "l1", "123456789", 0, ""}, {"T", "l2", "12345678", 0, ""},
                       {"Only Title", "l3", "", 0, ""}});
  const auto& d = corpus.documents();
  EXPECT_EQ(d[0].snippet_tokens, 3);
  EXPECT_EQ(d[1].snippet_tokens, 2);
  EXPECT_EQ(d[2].snippet_tokens, 0);
  EXPECT_EQ(d[0].searchable, "acme corp news 123456789");
  EXPECT_EQ(d[2].searchable, "only title");
}

TEST(CorpusTest, PostingsListEachDocumentOnceInOrder) {
  const Corpus corpus({{"Series B", "l1", "series b, series-b", 0, ""}, {"Other", "l2", "nothing", 0, ""},
                       {"B side", "l3", "b", 0, ""}});
  const auto b = corpus.postings("b");
  EXPECT_EQ(std::vector<std::uint32_t>(b.begin(), b.end()), (std::vector<std::uint32_t>{0, 2}));
  EXPECT_TRUE(corpus.postings("series-b").empty());  // not a word: punctuation splits words
  EXPECT_TRUE(corpus.postings("Series").empty());    // words are indexed lower-cased
  EXPECT_EQ(corpus.postings("series").size(), 1U);
}

}  // namespace
}  // namespace squall
