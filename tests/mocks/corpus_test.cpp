#include "mocks/corpus.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "mocks/input_file.hpp"

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

// The CorpusError message of loading `path`.
std::string error_of(const fs::path& path) {
  try {
    Corpus::load(path);
  } catch (const CorpusError& e) {
    return e.what();
  }
  return "no CorpusError";
}

TEST(CorpusLoadTest, MissingFileNamesTheFile) {
  EXPECT_EQ(error_of("/nonexistent/squall/crm.jsonl"), "/nonexistent/squall/crm.jsonl: file not found");
}

TEST(CorpusLoadTest, DirectoriesAndDevicesAreNotRegularFiles) {
  // Both used to be reported as missing; /dev/zero would be read forever.
  const fs::path dir = fs::temp_directory_path();
  EXPECT_EQ(error_of(dir), dir.string() + ": not a regular file");
  EXPECT_EQ(error_of("/dev/null"), "/dev/null: not a regular file");
  EXPECT_EQ(error_of("/dev/zero"), "/dev/zero: not a regular file");
}

TEST(CorpusLoadTest, FilesLargerThan64MiBAreRejected) {
  // A sparse file: its size is set without writing it, and it is refused unread.
  const fs::path path = write_corpus("");
  fs::resize_file(path, kMaxInputFileBytes + 1);
  EXPECT_EQ(error_of(path), path.string() + ": larger than 64 MiB");
  fs::remove(path);
}

TEST(CorpusLoadTest, AFileWithoutDocumentsIsRefused) {
  // Every search over it would answer empty, for a reason no report names.
  EXPECT_EQ(load_error(""), ": expected at least one document (a JSON object per line), got an empty file");
  EXPECT_EQ(load_error("\n  \r\n\n"),
            ": expected at least one document (a JSON object per line), got blank lines only");
}

TEST(CorpusLoadTest, MalformedJsonNamesLineAndColumn) {
  // Line 2 is blank and still counted; line 3 breaks at byte 11 ({"title": x} counted
  // from 1), the 'x' after the colon and space.
  EXPECT_EQ(load_error(std::string(kGood) + "\n\n{\"title\": x}\n"),
            ":3:11: syntax error while parsing value - invalid literal; last read: '\"title\": x'");
}

TEST(CorpusLoadTest, NumberBeyondADoubleNamesLineAndColumn) {
  // nlohmann threw out_of_range.406 for it, which escaped as an internal error. The
  // number starts in column 24, after `{"title": "A", "link": `.
  EXPECT_EQ(load_error(std::string(kGood) + "\n{\"title\": \"A\", \"link\": 1e999}\n"),
            ":2:24: expected a number of magnitude at most 1.8e308, got 1e999");
}

TEST(CorpusLoadTest, DuplicateKeyIsRejected) {
  // Silently keeping the last value would serve a document other than the one written.
  EXPECT_EQ(load_error(R"({"title": "A", "link": "l", "snippet": "s", "link": "m"})"),
            ":1: /link: duplicate key \"link\"");
}

TEST(CorpusLoadTest, NonObjectLineIsRejected) {
  EXPECT_EQ(load_error("[1, 2]\n"), ":1: expected a JSON object, got [1,2]");
  EXPECT_EQ(load_error("\"just a string\"\n"), ":1: expected a JSON object, got \"just a string\"");
}

TEST(CorpusLoadTest, MissingFieldIsNamed) {
  EXPECT_EQ(load_error(R"({"title": "A", "snippet": "s"})"), ":1: /link: expected a string, got no such field");
}

TEST(CorpusLoadTest, WrongTypeShowsTheValue) {
  EXPECT_EQ(load_error(std::string(kGood) + "\n" + R"({"title": "A", "link": 42, "snippet": "s"})"),
            ":2: /link: expected a string, got 42");
  EXPECT_EQ(load_error(R"({"title": ["A"], "link": "l", "snippet": "s"})"),
            ":1: /title: expected a string, got [\"A\"]");
}

TEST(CorpusLoadTest, UnknownFieldIsRejected) {
  EXPECT_EQ(load_error(R"({"title": "A", "link": "l", "snippet": "s", "url": "u"})"),
            ":1: /url: expected only the fields title, link and snippet, got an unknown field");
}

TEST(CorpusLoadTest, UnknownFieldIsNamedByItsJsonPointer) {
  // The first unknown key in the line's order; "/" in a key is written "~1".
  EXPECT_EQ(load_error(R"({"title": "A", "link": "l", "snippet": "s", "z": 1, "a/b": 2})"),
            ":1: /z: expected only the fields title, link and snippet, got an unknown field");
  EXPECT_EQ(load_error(R"({"a/b": 2, "title": "A", "link": "l", "snippet": "s"})"),
            ":1: /a~1b: expected only the fields title, link and snippet, got an unknown field");
}

TEST(CorpusLoadTest, LongValuesAreCutShort) {
  // The dump is '"' and 70 'a's and '"'; 57 bytes of it are shown, then "...".
  EXPECT_EQ(load_error("\"" + std::string(70, 'a') + "\"\n"),
            ":1: expected a JSON object, got \"" + std::string(56, 'a') + "...");
}

TEST(CorpusLoadTest, DeeplyNestedLineIsASyntaxError) {
  // The 257th '[' exceeds mocks/strict_json.hpp's nesting limit.
  EXPECT_EQ(load_error(std::string(100'000, '[') + "\n"),
            ":1:257: expected at most 256 levels of nested arrays and objects, got more");
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
  const Corpus corpus({{"Acme  CORP\tNews", "l1", "123456789", 0, ""},
                       {"T", "l2", "12345678", 0, ""},
                       {"Only Title", "l3", "", 0, ""}});
  const auto& d = corpus.documents();
  EXPECT_EQ(d[0].snippet_tokens, 3);
  EXPECT_EQ(d[1].snippet_tokens, 2);
  EXPECT_EQ(d[2].snippet_tokens, 0);
  EXPECT_EQ(d[0].searchable, "acme corp news 123456789");
  EXPECT_EQ(d[2].searchable, "only title");
}

TEST(CorpusTest, PostingsListEachDocumentOnceInOrder) {
  const Corpus corpus({{"Series B", "l1", "series b, series-b", 0, ""},
                       {"Other", "l2", "nothing", 0, ""},
                       {"B side", "l3", "b", 0, ""}});
  const auto b = corpus.postings("b");
  EXPECT_EQ(std::vector<std::uint32_t>(b.begin(), b.end()), (std::vector<std::uint32_t>{0, 2}));
  EXPECT_TRUE(corpus.postings("series-b").empty());  // not a word: punctuation splits words
  EXPECT_TRUE(corpus.postings("Series").empty());    // words are indexed lower-cased
  EXPECT_EQ(corpus.postings("series").size(), 1U);
}

}  // namespace
}  // namespace squall
