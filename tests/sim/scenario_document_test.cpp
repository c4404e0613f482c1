// The loader on whole documents: files, syntax, unknown and duplicate keys, error format.
#include <gtest/gtest.h>

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
  EXPECT_EQ(load_scenario(dir).errors, (std::vector{ValidationError{dir, "", "is a directory, not a file"}}));
}

TEST(ScenarioDocumentTest, SyntaxErrorHasLineColumnAndNlohmannsMessage) {
  // Line 3 is `  "seed" 1`: the parser stops at the '1' in column 10.
  const auto errors = load_scenario_text("{\n  \"name\": \"x\",\n  \"seed\" 1\n}", "x.json").errors;
  EXPECT_EQ(errors,
            (std::vector{ValidationError{
                "x.json", "", "syntax error while parsing object separator - unexpected number literal; expected ':'",
                3, 10}}));
}

TEST(ScenarioDocumentTest, EmptyFileIsASyntaxError) {
  const auto errors = load_scenario_text("", "x.json").errors;
  EXPECT_EQ(errors,
            (std::vector{ValidationError{
                "x.json", "",
                "syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal", 1, 1}}));
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
                 "workload, providers, policy, thresholds"));
}

TEST(ScenarioDocumentTest, UnknownNestedKeyIsReportedAtItsPath) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/policy/search/0/retry/retries", 3)),
            only("/policy/search/0/retry/retries",
                 "unknown key \"retries\"; expected one of: max_attempts, retry_on, backoff, base_delay, multiplier, "
                 "max_delay, jitter, honour_retry_after, max_retry_after"));
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
                {kBaseFile, "/workload/tasks/0/weight", "expected a number > 0, got 0"},
                {kBaseFile, "/providers/search/faults/0/probability", "expected a number in [0, 1], got 2"},
                {kBaseFile, "/policy/search/0/retry/max_attempts", "expected an integer in [1, 2147483647], got 0"},
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
