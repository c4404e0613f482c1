// The loader on whole documents: files, syntax, unknown and duplicate keys, error format.
#include <sys/stat.h>

#include <filesystem>
#include <variant>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "mocks/input_file.hpp"
#include "sim/scenario/json_document.hpp"
#include "tests/sim/scenario_test_support.hpp"

namespace squall {
namespace {

using test::base_scenario;
using test::errors_of;
using test::kBaseFile;
using test::only;
using test::with;
using test::without;

TEST(ScenarioDocumentTest, BaseScenarioIsValid) {
  const LoadResult result = load_scenario_text(base_scenario().dump(), kBaseFile);
  EXPECT_EQ(result.errors, std::vector<ValidationError>{});
  EXPECT_TRUE(result.scenario.has_value());
}

TEST(ScenarioDocumentTest, ErrorsPrintAsFilePathAndMessage) {
  // The DESIGN's example, on the base scenario's only fault.
  const auto errors = errors_of(with(base_scenario(), "/providers/search/faults/0/probability", "high"));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(to_string(errors[0]), kBaseFile +
                                      ": /providers/search/faults/0/probability: expected a number in [0, 1], "
                                      "got \"high\"");
  EXPECT_EQ(to_string(ValidationError{"x.json", "", "file not found"}), "x.json: file not found");
  EXPECT_EQ(to_string(ValidationError{"x.json", "", "syntax error", 3, 7}), "x.json:3:7: syntax error");
}

TEST(ScenarioDocumentTest, MissingFileIsReported) {
  const std::string file = test::data_path("no-such-scenario.json");
  const LoadResult result = load_scenario(file);
  EXPECT_FALSE(result.scenario.has_value());
  EXPECT_EQ(result.errors, (std::vector{ValidationError{file, "", "file not found"}}));
}

TEST(ScenarioDocumentTest, DirectoryIsReported) {
  const std::string dir = test::data_path("");
  EXPECT_EQ(load_scenario(dir).errors, (std::vector{ValidationError{dir, "", "not a regular file"}}));
}

TEST(ScenarioDocumentTest, FifoIsRejectedWithoutBeingOpened) {
  // Opening a FIFO for reading blocks until a writer comes: the loader must not try.
  const test::TempFile placeholder(".fifo", "");
  std::filesystem::remove(placeholder.path());
  ASSERT_EQ(mkfifo(placeholder.string().c_str(), 0600), 0);
  EXPECT_EQ(load_scenario(placeholder.path()).errors,
            (std::vector{ValidationError{placeholder.string(), "", "not a regular file"}}));
}

TEST(ScenarioDocumentTest, DevicesAreRejected) {
  // /dev/zero would be read forever.
  EXPECT_EQ(load_scenario("/dev/zero").errors, (std::vector{ValidationError{"/dev/zero", "", "not a regular file"}}));
  EXPECT_EQ(load_policy_file("/dev/null").errors,
            (std::vector{ValidationError{"/dev/null", "", "not a regular file"}}));
}

TEST(ScenarioDocumentTest, FilesLargerThan64MiBAreRejected) {
  // A sparse file: its size is set without writing it. At exactly 64 MiB it is read (and
  // its NUL bytes are a syntax error); one byte more and it is refused unread.
  const test::TempFile file(".json", "");
  std::filesystem::resize_file(file.path(), kMaxInputFileBytes);
  const auto at_limit = load_scenario(file.path()).errors;
  ASSERT_EQ(at_limit.size(), 1u);
  EXPECT_EQ(at_limit[0].line, 1u);
  std::filesystem::resize_file(file.path(), kMaxInputFileBytes + 1);
  EXPECT_EQ(load_scenario(file.path()).errors, (std::vector{ValidationError{file.string(), "", "larger than 64 MiB"}}));
}

TEST(ScenarioDocumentTest, SyntaxErrorHasLineColumnAndNlohmannsMessage) {
  // Line 3 is `  "seed" 1`: the parser stops at the '1' in column 10.
  const auto errors = load_scenario_text("{\n  \"name\": \"x\",\n  \"seed\" 1\n}", "x.json").errors;
  EXPECT_EQ(errors,
            (std::vector{ValidationError{
                "x.json", "", "syntax error while parsing object separator - unexpected number literal; expected ':'",
                3, 10}}));
}

TEST(ScenarioDocumentTest, LongTokensInSyntaxErrorsAreCutShort) {
  // nlohmann quotes the whole token read: here a string of 100000 bytes whose end (a raw
  // tab) is invalid. 57 bytes of it are kept: the quote and 56 'a's.
  const std::string text = "{\"name\": \"" + std::string(100'000, 'a') + "\t\"}";
  EXPECT_EQ(load_scenario_text(text, "x.json").errors,
            (std::vector{ValidationError{"x.json", "",
                                         "syntax error while parsing value - invalid string: control character "
                                         "U+0009 (HT) must be escaped to \\u0009 or \\t; last read: '\"" +
                                             std::string(56, 'a') + "...'",
                                         1, 100'011}}));
}

TEST(ScenarioDocumentTest, ANulByteIsASyntaxErrorWhereverItIs) {
  // nlohmann reads a NUL as the end of its input: a whole document followed by a NUL and
  // a second "seed" parsed, the rest unread. The NUL is reported where it is, after the
  // document or inside it; a syntax error before it comes first.
  using namespace std::string_literals;
  const std::string nul_message =
      "expected JSON text, got the control character U+0000 (NUL), which JSON does not allow outside strings and "
      "escapes inside them (RFC 8259): is this a binary file?";
  EXPECT_EQ(load_scenario_text("{\"seed\": 1}\n\0{\"seed\": \"bad\"}"s, "x.json").errors,
            (std::vector{ValidationError{"x.json", "", nul_message, 2, 1}}));
  EXPECT_EQ(load_scenario_text("{\"seed\"\0: 42}"s, "x.json").errors,
            (std::vector{ValidationError{"x.json", "", nul_message, 1, 8}}));
  EXPECT_EQ(load_scenario_text("{\"seed\" 1 \0"s, "x.json").errors,
            (std::vector{ValidationError{
                "x.json", "", "syntax error while parsing object separator - unexpected number literal; expected ':'",
                1, 9}}));
  const auto parsed = parse_strict_json("[1]\0"s, JsonComments::rejected, {});
  ASSERT_TRUE(std::holds_alternative<JsonSyntaxError>(parsed));
  EXPECT_EQ(std::get<JsonSyntaxError>(parsed), (JsonSyntaxError{1, 4, nul_message}));
}

TEST(ScenarioDocumentTest, EmptyFileHoldsNoJsonValue) {
  // The parser's "unexpected end of input" would suggest a file cut short.
  EXPECT_EQ(load_scenario_text("", "x.json").errors,
            (std::vector{ValidationError{"x.json", "", "the file is empty: it holds no JSON value"}}));
  EXPECT_EQ(load_scenario_text(" \n\t\r\n", "x.json").errors,
            (std::vector{ValidationError{"x.json", "", "the file is empty: it holds no JSON value"}}));
  // A byte-order mark alone is no value either (the YAML reader already said so).
  EXPECT_EQ(load_scenario_text("\xEF\xBB\xBF\n", "x.json").errors,
            (std::vector{ValidationError{"x.json", "", "the file is empty: it holds no JSON value"}}));
}

TEST(ScenarioDocumentTest, CommentOnlyFileHoldsNoJsonValue) {
  EXPECT_EQ(load_scenario_text("// nothing but a comment\n/* and\n another */\n", "x.json").errors,
            (std::vector{ValidationError{"x.json", "", "the file is empty: it holds no JSON value, only comments"}}));
  // An unterminated block comment is a syntax error, reported by the parser.
  const auto unterminated = load_scenario_text("/* never closed", "x.json").errors;
  ASSERT_EQ(unterminated.size(), 1u);
  EXPECT_EQ(unterminated[0].line, 1u);
}

TEST(ScenarioDocumentTest, EmptyPolicyFileHoldsNoJsonValue) {
  EXPECT_EQ(load_policy_text("", "p.json").errors,
            (std::vector{ValidationError{"p.json", "", "the file is empty: it holds no JSON value"}}));
  EXPECT_EQ(load_policy_text("// a comment\n", "p.json").errors,
            (std::vector{ValidationError{"p.json", "", "the file is empty: it holds no JSON value, only comments"}}));
}

TEST(ScenarioDocumentTest, NumberBeyondADoubleIsASyntaxErrorAtTheNumber) {
  // nlohmann throws out_of_range.406 without a position for these; the loader reports
  // the number's first character. `  "seed": ` is 10 bytes, so 1e999 starts in column 11.
  EXPECT_EQ(
      load_scenario_text("{\n  \"seed\": 1e999,\n  \"name\": \"x\"\n}", "x.json").errors,
      (std::vector{ValidationError{"x.json", "", "expected a number of magnitude at most 1.8e308, got 1e999", 2, 11}}));
  EXPECT_EQ(load_scenario_text("[1, -1E+400]", "x.json").errors,
            (std::vector{
                ValidationError{"x.json", "", "expected a number of magnitude at most 1.8e308, got -1E+400", 1, 5}}));
}

TEST(ScenarioDocumentTest, NonZeroNumberTooSmallForADoubleIsASyntaxErrorAtTheNumber) {
  // nlohmann reads 1e-400 silently as 0: a seed 1e-400 was seed 0. 0e-400 and 0.0 are 0.
  EXPECT_EQ(load_scenario_text("{\n  \"seed\": 1e-400,\n  \"name\": \"x\"\n}", "x.json").errors,
            (std::vector{ValidationError{"x.json", "",
                                         "expected 0 or a number of magnitude at least 4.9e-324, got 1e-400", 2, 11}}));
  EXPECT_EQ(load_scenario_text("[1, -0.5E-400]", "x.json").errors,
            (std::vector{ValidationError{
                "x.json", "", "expected 0 or a number of magnitude at least 4.9e-324, got -0.5E-400", 1, 5}}));
  const auto zeros = parse_strict_json("[0e-400, 0.0, -0.000e-9999, 1e-320]", JsonComments::rejected, {});
  ASSERT_TRUE(std::holds_alternative<Json>(zeros));
  EXPECT_EQ(std::get<Json>(zeros).size(), 4U);
}

TEST(ScenarioDocumentTest, NumberBeyondADoubleAsTheWholeDocument) {
  EXPECT_EQ(
      load_scenario_text("1e999", "x.json").errors,
      (std::vector{ValidationError{"x.json", "", "expected a number of magnitude at most 1.8e308, got 1e999", 1, 1}}));
}

TEST(ScenarioDocumentTest, PolicyFilesReportNumbersBeyondADoubleToo) {
  EXPECT_EQ(
      load_policy_text(R"({"llm": [{"retry": {"multiplier": 2e308}}]})", "p.json").errors,
      (std::vector{ValidationError{"p.json", "", "expected a number of magnitude at most 1.8e308, got 2e308", 1, 35}}));
}

// `{"name": ` followed by `levels` nested arrays: the object is level 1.
std::string nested_name(std::size_t levels) {
  return "{\"name\": " + std::string(levels, '[') + std::string(levels, ']') + "}";
}

TEST(ScenarioDocumentTest, NestingDeeperThan256LevelsIsASyntaxError) {
  // The 256th '[' opens level 257; `{"name": ` is 9 bytes, so it is in column 9 + 256.
  const auto errors = load_scenario_text(nested_name(100'000), "x.json").errors;
  EXPECT_EQ(errors, (std::vector{ValidationError{
                        "x.json", "", "expected at most 256 levels of nested arrays and objects, got more", 1, 265}}));
  EXPECT_EQ(load_scenario_text(nested_name(256), "x.json").errors, errors);
}

TEST(ScenarioDocumentTest, DeeplyNestedValueOfTheWrongTypeIsDescribedShortly) {
  // 255 arrays in the object: 256 levels, accepted by the parser; the message shows 57
  // bytes of the value, which dumping it whole would have taken 255 levels of recursion.
  Json doc = base_scenario();
  std::string text = doc.dump();
  const std::string name = R"("name":"base")";
  text.replace(text.find(name), name.size(), "\"name\":" + std::string(255, '[') + std::string(255, ']'));
  EXPECT_EQ(load_scenario_text(text, kBaseFile).errors,
            only("/name", "expected a non-empty string, got " + std::string(57, '[') + "..."));
}

TEST(ScenarioDocumentTest, CommentsAreAllowed) {
  const std::string text = "// line comment\n/* block\ncomment */" + base_scenario().dump() + "// trailing";
  EXPECT_EQ(load_scenario_text(text, kBaseFile).errors, std::vector<ValidationError>{});
}

TEST(ScenarioDocumentTest, TopLevelMustBeAnObject) {
  EXPECT_EQ(errors_of(Json::array()), only("", "expected an object, got []"));
}

TEST(ScenarioDocumentTest, UnknownTopLevelKeyListsTheKnownOnes) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/retries", 3)),
            only("/retries",
                 "unknown key \"retries\"; expected one of: $schema, name, description, seed, duration, "
                 "workload, providers, tools, policy, thresholds, start_time, outages, quota_groups"));
}

TEST(ScenarioDocumentTest, UnknownNestedKeyIsReportedAtItsPath) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/policy/search/0/retry/retries", 3)),
            only("/policy/search/0/retry/retries",
                 "unknown key \"retries\"; expected one of: max_attempts, retry_on, backoff, base_delay, multiplier, "
                 "max_delay, jitter, jitter_range, honour_retry_after, max_retry_after, over_max_retry_after, "
                 "zero_retry_after, honour_should_retry, max_retries_by_kind"));
}

TEST(ScenarioDocumentTest, DuplicateKeysAreErrors) {
  std::string text = base_scenario().dump();
  text.insert(1, "\"seed\": 1, \"seed\": 2, ");
  EXPECT_EQ(load_scenario_text(text, kBaseFile).errors, only("/seed", "duplicate key \"seed\""));
}

TEST(ScenarioDocumentTest, DuplicateKeysInsideArraysHaveTheirFullPath) {
  std::string text = base_scenario().dump();
  const std::string step = R"({"tool":"gpt",)";
  text.replace(text.find(step), step.size(), R"({"tool":"gpt","tool":"gpt",)");
  EXPECT_EQ(load_scenario_text(text, kBaseFile).errors,
            only("/workload/tasks/0/steps/1/tool", "duplicate key \"tool\""));
}

TEST(ScenarioDocumentTest, DuplicateKeysWithEscapedCharactersUseJsonPointerEscapes) {
  const auto errors = load_scenario_text(R"({"a/b~c": 1, "a/b~c": 2})", "x.json").errors;
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors[0], (ValidationError{"x.json", "/a~1b~0c", "duplicate key \"a/b~c\""}));
}

TEST(ScenarioDocumentTest, DuplicateKeysDeepInsideHaveTheirFullPath) {
  // 200 nested objects {"k": ...} around {"a": 1, "a": 2}: the pointer is built once, for
  // the duplicate, not once per key.
  std::string text = R"({"a": 1, "a": 2})";
  std::string pointer = "/a";
  for (int i = 0; i < 200; ++i) {
    text = R"({"k": )" + text + "}";
    pointer = "/k" + pointer;
  }
  const auto errors = load_scenario_text(text, "x.json").errors;
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors[0], (ValidationError{"x.json", pointer, "duplicate key \"a\""}));
}

TEST(ScenarioDocumentTest, DuplicateKeyInAWideObjectIsFound) {
  // 100000 distinct keys, then the first again. ordered_json's own insertion searched every
  // key linearly (quadratic: tens of seconds); the parser indexes them.
  std::string text = "{";
  for (int i = 0; i < 100'000; ++i) text += fmt::format("\"k{}\": 0, ", i);
  text += "\"k0\": 1}";
  Diagnostics diag("x.json");
  const auto doc = parse_json_document(text, diag);
  ASSERT_TRUE(doc.has_value());
  EXPECT_EQ(doc->size(), 100'000u);
  EXPECT_EQ(doc->at("k0"), 1);  // the last value wins, as in nlohmann's parser
  EXPECT_EQ(diag.take(), (std::vector{ValidationError{"x.json", "/k0", "duplicate key \"k0\""}}));
}

TEST(ScenarioDocumentTest, ErrorsBeyondAThousandAreCounted) {
  // 1500 unknown keys and the 4 required keys missing: 1504 errors, of which 1000 are kept.
  Json doc = Json::object();
  for (int i = 0; i < 1500; ++i) doc[fmt::format("x{}", i)] = 0;
  const auto errors = errors_of(doc);
  ASSERT_EQ(errors.size(), 1001u);
  EXPECT_EQ(errors[0].path, "/x0");
  EXPECT_EQ(errors[1000], (ValidationError{kBaseFile, "", "504 more errors not shown"}));
}

TEST(ScenarioDocumentTest, ControlCharactersArePrintedEscaped) {
  // Keys appear raw in paths and messages; printed raw, ESC or the one-character CSI
  // U+009B would start an ANSI escape sequence. The key is "a", ESC, "[2J", "é" (not a
  // control character) and U+009B.
  const auto errors = load_scenario_text("{\"a\\u001b[2J\u00e9\u009b\": 1}", "x.json").errors;
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors[0].path, "/a\x1b[2J\u00e9\u009b");
  const std::string key = "a\\u001b[2J\u00e9\\u009b";
  EXPECT_EQ(to_string(errors[0]), "x.json: /" + key + ": unknown key \"" + key +
                                      "\"; expected one of: $schema, name, description, seed, duration, workload, "
                                      "providers, tools, policy, thresholds, start_time, outages, quota_groups");
}

TEST(ScenarioDocumentTest, BidirectionalControlsArePrintedEscaped) {
  // U+202E (right-to-left override) would display the rest of the line reversed, and
  // U+2066 (left-to-right isolate) reorders it: printed raw, a key could read as another
  // (CVE-2021-42574). Other non-ASCII text, here U+202F (narrow no-break space) and U+2070
  // just past the two ranges, is printed as it is.
  const auto errors = load_scenario_text("{\"b\u202e\u202f\u2066\u2070\": 1}", "x.json").errors;
  ASSERT_FALSE(errors.empty());
  const std::string key = "b\\u202e\u202f\\u2066\u2070";
  EXPECT_EQ(to_string(errors[0]).substr(0, 9 + key.size()), "x.json: /" + key);
}

TEST(ScenarioDocumentTest, EveryErrorIsReportedInReadingOrder) {
  Json doc = base_scenario();
  doc = with(doc, "/seed", -1);
  doc = with(doc, "/duration", 600);
  doc = with(doc, "/workload/tasks/0/weight", 0);
  doc = with(doc, "/providers/search/faults/0/probability", 2);
  doc = with(doc, "/policy/search/0/retry/max_attempts", 0);
  doc = without(doc, "/name");
  EXPECT_EQ(errors_of(doc),
            (std::vector<ValidationError>{
                {kBaseFile, "", "missing required key \"name\""},
                {kBaseFile, "/seed", "expected an integer in [0, 18446744073709551615], got -1"},
                {kBaseFile, "/duration", "expected a duration string such as \"250ms\", got 600"},
                {kBaseFile, "/workload/tasks/0/weight", "expected a number in (0, 1000000], got 0"},
                {kBaseFile, "/providers/search/faults/0/probability", "expected a number in [0, 1], got 2"},
                {kBaseFile, "/policy/search/0/retry/max_attempts", "expected an integer in [1, 1000], got 0"},
            }));
}

TEST(ScenarioDocumentTest, LongValuesAreShortenedInMessages) {
  const auto errors = errors_of(with(base_scenario(), "/description", Json::array({std::string(100, 'x')})));
  EXPECT_EQ(errors, only("/description", "expected a string, got [\"" + std::string(55, 'x') + "..."));
}

TEST(ScenarioDocumentTest, ShortenedValuesStayValidUtf8) {
  // "é" is 2 bytes: `["` and 27 of them make 56 bytes; the 28th would straddle the 57-byte cut.
  std::string many;
  for (int i = 0; i < 50; ++i) many += "\u00e9";
  std::string expected = "expected a string, got [\"";
  for (int i = 0; i < 27; ++i) expected += "\u00e9";
  EXPECT_EQ(errors_of(with(base_scenario(), "/description", Json::array({many}))),
            only("/description", expected + "..."));
}

}  // namespace
}  // namespace squall
