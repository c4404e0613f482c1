// YAML scenario and policy files (sim/scenario/yaml_document.hpp): the same document and
// the same errors as JSON, located by line and column as well as JSON Pointer.
#include <gtest/gtest.h>

#include <algorithm>

#include <fmt/format.h>

#include "reports/json_writer.hpp"
#include "sim/run.hpp"
#include "sim/scenario/yaml_document.hpp"
#include "sim/scenario_loader.hpp"
#include "tests/sim/scenario_test_support.hpp"
#include "tests/sim/world_test_support.hpp"

namespace squall {
namespace {

Json parsed(std::string_view text) {
  Diagnostics diag("x.yaml");
  auto document = parse_yaml_document(text, diag);
  EXPECT_EQ(diag.take(), std::vector<ValidationError>{});
  return document ? std::move(document->root) : Json();
}

std::vector<ValidationError> parse_errors(std::string_view text) {
  Diagnostics diag("x.yaml");
  parse_yaml_document(text, diag);
  return diag.take();
}

TEST(YamlDocumentTest, YamlAndYmlAreYaml) {
  EXPECT_TRUE(is_yaml_file("a/b.yaml"));
  EXPECT_TRUE(is_yaml_file("b.yml"));
  EXPECT_FALSE(is_yaml_file("b.json"));
  // Any case, as file systems that fold case name them.
  EXPECT_TRUE(is_yaml_file("b.YAML"));
  EXPECT_TRUE(is_yaml_file("b.Yml"));
  EXPECT_TRUE(is_yaml_file("C:/b.yAmL"));
  EXPECT_FALSE(is_yaml_file("b.yaml.json"));
  EXPECT_FALSE(is_yaml_file("yaml"));
}

TEST(YamlDocumentTest, UpperCaseExtensionsAreReadAsYaml) {
  // A YAML document the JSON reader would refuse at its first letter.
  const auto errors = load_scenario_text("name: x\nseed: 1\n", "X.YAML").errors;
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(to_string(errors[0]), "X.YAML: missing required key \"duration\"");
}

TEST(YamlDocumentTest, ManyKeysAreReadInLinearTime) {
  // 200 000 keys in one mapping: ordered_json's operator[] searches every member, so a
  // reader using it would make about 2e10 key comparisons (24 s for 100 000 keys), past
  // this test's 120 s timeout on any machine; a hash of the keys makes it well under a
  // second. The keys keep file order, and a duplicate of the first is still found.
  constexpr int kKeys = 200'000;
  std::string text = "m:\n";
  for (int i = 0; i < kKeys; ++i) text += fmt::format("  k{}: {}\n", i, i);
  text += "  k0: last\n";
  Diagnostics diag("x.yaml");
  const auto document = parse_yaml_document(text, diag);
  ASSERT_TRUE(document.has_value());
  const Json& m = document->root.at("m");
  ASSERT_EQ(m.size(), static_cast<std::size_t>(kKeys));
  EXPECT_EQ(m.begin().key(), "k0");
  EXPECT_EQ(m.begin().value(), "last");  // the last value kept, at the first one's place
  EXPECT_EQ((--m.end()).key(), fmt::format("k{}", kKeys - 1));
  EXPECT_EQ(diag.take(), (std::vector{ValidationError{"x.yaml", "/m/k0", "duplicate key \"k0\" (also line 2)",
                                                      static_cast<std::size_t>(kKeys) + 2, 3}}));
}

TEST(YamlDocumentTest, AValueOfTheWrongYamlTypeIsOneError) {
  // The parser's error about the value is its only one: not also the loader's
  // `expected an integer in [0, 18446744073709551615], got "yes"`.
  const std::string rest = "duration: 5m\nworkload: {}\nproviders: {}\n";
  const auto yes = load_scenario_text("name: x\nseed: yes\n" + rest, "x.yaml").errors;
  ASSERT_FALSE(yes.empty());
  EXPECT_EQ(to_string(yes[0]),
            "x.yaml:2:7: /seed: expected true, false or a quoted string, got the YAML 1.1 boolean \"yes\"");
  for (const ValidationError& e : yes) EXPECT_TRUE(e.path != "/seed" || &e == &yes[0]) << to_string(e);
  const auto tagged = load_scenario_text("name: x\nseed: !!int 3\n" + rest, "x.yaml").errors;
  ASSERT_FALSE(tagged.empty());
  EXPECT_EQ(to_string(tagged[0]),
            "x.yaml:2:7: /seed: explicit tag \"tag:yaml.org,2002:int\" is not supported: only !!str");
  for (const ValidationError& e : tagged) EXPECT_TRUE(e.path != "/seed" || &e == &tagged[0]) << to_string(e);
  // Other values' errors are still all reported.
  const auto both =
      load_scenario_text("name: x\nseed: yes\nduration: forever\nworkload: {}\nproviders: {}\n", "x.yaml").errors;
  EXPECT_TRUE(std::any_of(both.begin(), both.end(), [](const ValidationError& e) { return e.path == "/duration"; }));
}

TEST(YamlDocumentTest, ControlCharactersAreOneErrorAtTheirPlace) {
  // A NUL in a value: yaml-cpp would say "unknown escape character" two columns on.
  EXPECT_EQ(parse_errors(std::string_view("name: x\0y\n", 10)),
            (std::vector{ValidationError{"x.yaml", "",
                                         "expected printable text, got the control character U+0000 (NUL), which YAML "
                                         "does not allow (YAML 1.2 section 5.1): is this a binary file?",
                                         1, 8}}));
  // Columns count characters, not bytes: "é" is two bytes, one column.
  const auto escape = parse_errors("a: 1\nb: \xc3\xa9\x1b\n");
  ASSERT_EQ(escape.size(), 1u);
  EXPECT_EQ(escape[0].line, 2u);
  EXPECT_EQ(escape[0].column, 5u);
  EXPECT_NE(escape[0].message.find("U+001B (ESC)"), std::string::npos) << escape[0].message;
  // The start of an ELF binary: one error, at its first byte that is not text (DEL).
  const auto binary =
      parse_errors(std::string_view("\x7f"
                                    "ELF\x02\x01\x01\0\0",
                                    9));
  ASSERT_EQ(binary.size(), 1u);
  EXPECT_EQ(to_string(binary[0]),
            "x.yaml:1:1: expected printable text, got the control character U+007F (DEL), which YAML does not allow "
            "(YAML 1.2 section 5.1): is this a binary file?");
  // Tabs and CRLF line ends are text.
  EXPECT_EQ(parse_errors("a: 1\r\nb: 'x\ty'\r\n"), std::vector<ValidationError>{});
}

TEST(YamlDocumentTest, IllFormedUtf8IsOneErrorAtItsPlace) {
  // A Latin-1 "é" (0xE9) in a value, after a well-formed "é" that counts one column.
  EXPECT_EQ(parse_errors("a: 1\nname: \xc3\xa9x\xe9y\n"),
            (std::vector{ValidationError{"x.yaml", "",
                                         "expected UTF-8 text, got the ill-formed UTF-8 byte 0xE9 (YAML 1.2 section "
                                         "5.2): is the file in another encoding?",
                                         2, 9}}));
  // In a key, a lone continuation byte, an overlong "/" and a UTF-16 surrogate: each refused.
  for (const std::string bad : {"\xff: 1\n", "a: \x80\n", "a: \xc0\xaf\n", "a: \xed\xa0\x80\n", "a: \xe2\x82\n"}) {
    const auto errors = parse_errors(bad);
    ASSERT_EQ(errors.size(), 1u) << bad;
    EXPECT_NE(errors[0].message.find("ill-formed UTF-8 byte"), std::string::npos) << errors[0].message;
  }
  // Four-byte characters and a byte order mark are text.
  EXPECT_EQ(parse_errors("\xef\xbb\xbf"
                         "a: '\xf0\x9f\x8c\x80'\n"),
            std::vector<ValidationError>{});
}

TEST(YamlDocumentTest, ScalarsFollowJsonTypes) {
  EXPECT_EQ(parsed("a: 3\nb: -0.25\nc: 1e3\nd: true\ne: false\nf: ~\ng: null\nh:\ni: 30s\nj: 0x10\nk: .inf\n"
                   "l: '3'\nm: \"true\"\nn: !!str 3\no: 1_000\n"),
            Json::parse(R"({"a": 3, "b": -0.25, "c": 1e3, "d": true, "e": false, "f": null, "g": null, "h": null,
                            "i": "30s", "j": "0x10", "k": ".inf", "l": "3", "m": "true", "n": "3", "o": "1_000"})"));
  EXPECT_TRUE(parsed("a: 3\n")["a"].is_number_integer());
  EXPECT_TRUE(parsed("a: 3.0\n")["a"].is_number_float());
}

TEST(YamlDocumentTest, NumberBeyondADoubleIsASyntaxErrorAtTheNumber) {
  EXPECT_EQ(
      parse_errors("seed: 1\nrate: 1e999\n"),
      (std::vector{ValidationError{"x.yaml", "", "expected a number of magnitude at most 1.8e308, got 1e999", 2, 7}}));
  EXPECT_EQ(parsed("a: '1e999'\n"), Json::parse(R"({"a": "1e999"})"));
}

TEST(YamlDocumentTest, NonZeroNumberTooSmallForADoubleIsASyntaxErrorAtTheNumber) {
  EXPECT_EQ(parse_errors("seed: 1\nrate: 1e-400\n"),
            (std::vector{ValidationError{"x.yaml", "",
                                         "expected 0 or a number of magnitude at least 4.9e-324, got 1e-400", 2, 7}}));
  EXPECT_EQ(parsed("a: 0e-400\n"), Json::parse(R"({"a": 0.0})"));
}

TEST(YamlDocumentTest, NestingDeeperThan256LevelsIsASyntaxError) {
  // The root mapping is level 1; the bracket that opens level 257 is at column 4 + 255.
  const std::string deep = "a: " + std::string(300, '[') + std::string(300, ']') + "\n";
  EXPECT_EQ(parse_errors(deep),
            (std::vector{ValidationError{
                "x.yaml", "", "expected at most 256 levels of nested arrays and objects, got more", 1, 259}}));
  const std::string fine = "a: " + std::string(255, '[') + std::string(255, ']') + "\n";
  EXPECT_EQ(parse_errors(fine), std::vector<ValidationError>{});
}

// "Billion laughs": each level is ten aliases of the one before, so level k expands to
// (10^(k+2) - 1) / 9 values. Levels a0-a4 come to 123,457 with the root; a5's aliases add
// 111,111 each, and its eighth (line 6, column 9 + 7 * 4 + 1) crosses kMaxYamlNodes.
std::string nested_aliases(int levels) {
  std::string text = "a0: &a0 [x,x,x,x,x,x,x,x,x,x]\n";
  for (int k = 1; k < levels; ++k) {
    text += fmt::format("a{0}: &a{0} [", k);
    for (int i = 0; i < 10; ++i) text += fmt::format("{}*a{}", i == 0 ? "" : ",", k - 1);
    text += "]\n";
  }
  return text;
}

TEST(YamlDocumentTest, AliasesThatExpandPastAMillionValuesAreRefused) {
  EXPECT_EQ(parse_errors(nested_aliases(12)),
            (std::vector{ValidationError{
                "x.yaml", "", "expected at most 1000000 values once aliases are expanded, got more", 6, 38}}));
  EXPECT_EQ(parse_errors(nested_aliases(5)), std::vector<ValidationError>{});
}

// One string of 64 KiB aliased: with the anchor's own copy and the keys "s" and "l"
// (2 bytes), the 1,023rd alias (line 2 + 1,023, its '*' at column 3) makes 1,024 copies
// and 2 bytes, past 64 MiB.
TEST(YamlDocumentTest, AliasesThatExpandPast64MiBOfStringsAreRefused) {
  std::string text = "s: &s " + std::string(64 * 1024, 'x') + "\nl:\n";
  for (int i = 0; i < 1100; ++i) text += "- *s\n";
  EXPECT_EQ(parse_errors(text),
            (std::vector{ValidationError{"x.yaml", "",
                                         "expected at most 67108864 bytes of keys and strings once aliases are "
                                         "expanded (64 MiB), got more",
                                         1025, 3}}));
  std::string fine = "s: &s " + std::string(64 * 1024, 'x') + "\nl:\n";
  for (int i = 0; i < 1000; ++i) fine += "- *s\n";
  EXPECT_EQ(parse_errors(fine), std::vector<ValidationError>{});
}

// The same bound counts the strings inside an aliased sequence: two of 32 KiB (yaml-cpp
// takes no implicit key longer than 1024 characters, so keys are counted by the test
// above's "s" and "l").
TEST(YamlDocumentTest, AliasedContainersCountTheirKeysAndStrings) {
  const std::string half(32 * 1024, 'k');
  std::string text = "m: &m [" + half + ", " + half + "]\nl:\n";
  for (int i = 0; i < 1100; ++i) text += "- *m\n";
  const auto errors = parse_errors(text);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message,
            "expected at most 67108864 bytes of keys and strings once aliases are expanded (64 MiB), got more");
  EXPECT_EQ(errors[0].line, 1025u);
}

TEST(YamlDocumentTest, KeysKeepFileOrder) {
  EXPECT_EQ(parsed("z: 1\na: [1, {y: 2, b: 3}]\n").dump(), R"({"z":1,"a":[1,{"y":2,"b":3}]})");
}

TEST(YamlDocumentTest, AliasesAreResolved) {
  EXPECT_EQ(parsed("a: &r {max_attempts: 3}\nb: *r\n"),
            Json::parse(R"({"a": {"max_attempts": 3}, "b": {"max_attempts": 3}})"));
  EXPECT_EQ(parse_errors("a: &x [*x]\n"),
            (std::vector{ValidationError{
                "x.yaml", "", "alias to a node that is not complete here (an alias inside its own anchor)", 1, 8}}));
}

TEST(YamlDocumentTest, Yaml11BooleansAreErrors) {
  EXPECT_EQ(parse_errors("a: yes\nb: [off]\n"),
            (std::vector{
                ValidationError{"x.yaml", "/a",
                                "expected true, false or a quoted string, got the YAML 1.1 boolean \"yes\"", 1, 4},
                ValidationError{"x.yaml", "/b/0",
                                "expected true, false or a quoted string, got the YAML 1.1 boolean \"off\"", 2, 5}}));
  EXPECT_EQ(parsed("a: 'yes'\n"), Json::parse(R"({"a": "yes"})"));
}

TEST(YamlDocumentTest, ExplicitTagsOtherThanStrAreErrors) {
  EXPECT_EQ(parse_errors("a: !!int 3\n"),
            (std::vector{ValidationError{
                "x.yaml", "/a", "explicit tag \"tag:yaml.org,2002:int\" is not supported: only !!str", 1, 4}}));
  EXPECT_EQ(parse_errors("a: !custom {}\n").size(), 1u);
}

TEST(YamlDocumentTest, DuplicateKeysNameBothLines) {
  // yaml-cpp itself keeps both; the reader reports the second, as JSON's reader does.
  EXPECT_EQ(parse_errors("seed: 1\nx:\n  a: 1\n  a: 2\nseed: 2\n"),
            (std::vector{ValidationError{"x.yaml", "/x/a", "duplicate key \"a\" (also line 3)", 4, 3},
                         ValidationError{"x.yaml", "/seed", "duplicate key \"seed\" (also line 1)", 5, 1}}));
}

TEST(YamlDocumentTest, MultiDocumentStreamsAreErrors) {
  EXPECT_EQ(parse_errors("a: 1\n---\nb: 2\n"),
            (std::vector{ValidationError{"x.yaml", "", "expected one YAML document, found a second one here", 2, 1}}));
}

TEST(YamlDocumentTest, NonScalarKeysAreErrors) {
  EXPECT_EQ(parse_errors("? [a]\n: 1\n").size(), 1u);
  EXPECT_EQ(parse_errors("~: 1\n"),
            (std::vector{ValidationError{"x.yaml", "", "expected a string key, got null", 1, 1}}));
}

TEST(YamlDocumentTest, SyntaxErrorsHaveLineAndColumn) {
  EXPECT_EQ(parse_errors("name: [a\n"),
            (std::vector{ValidationError{"x.yaml", "", "end of sequence flow not found", 2, 1}}));
}

TEST(YamlDocumentTest, EmptyFileHoldsNoYamlValue) {
  EXPECT_EQ(load_scenario_text("", "x.yaml").errors,
            (std::vector{ValidationError{"x.yaml", "", "the file is empty: it holds no YAML value"}}));
  EXPECT_EQ(load_scenario_text("# only\n\n# comments\n", "x.yml").errors,
            (std::vector{ValidationError{"x.yml", "", "the file is empty: it holds no YAML value, only comments"}}));
  EXPECT_EQ(load_policy_text("\n", "p.yaml").errors,
            (std::vector{ValidationError{"p.yaml", "", "the file is empty: it holds no YAML value"}}));
}

TEST(YamlDocumentTest, LoaderErrorsAreLocatedByLineColumnAndPointer) {
  const std::string text =
      "name: x\n"
      "duration: 5m\n"
      "workload:\n"
      "  arrivals:\n"
      "    process: poisson\n"
      "    rate_per_s: fast\n";
  const auto errors = load_scenario_text(text, "x.yaml").errors;
  ASSERT_GE(errors.size(), 2u);
  EXPECT_EQ(to_string(errors[0]),
            "x.yaml:6:5: /workload/arrivals/rate_per_s: expected a number in [1e-06, 1000000], "
            "got \"fast\"");
  // A missing key is located at its object; one at the root has no line.
  EXPECT_EQ(to_string(errors[1]), "x.yaml:3:1: /workload: missing required key \"tasks\"");
  EXPECT_EQ(to_string(errors.back()), "x.yaml: missing required key \"providers\"");
}

TEST(YamlDocumentTest, PolicyFileErrorsAreLocated) {
  const auto errors = load_policy_text("search:\n  - retry: {max_attempts: 0}\n", "p.yaml").errors;
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].path, "/search/0/retry/max_attempts");
  EXPECT_EQ(errors[0].line, 2u);
  EXPECT_EQ(errors[0].column, 13u);  // the key max_attempts, inside the flow mapping
}

TEST(YamlDocumentTest, JsonErrorsStayUnlocated) {
  const auto errors = load_scenario_text(R"({"name": "x", "seed": "a"})", "x.json").errors;
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors[0].line, 0u);
}

TEST(YamlDocumentTest, ShippedYamlExampleIsItsJsonTwin) {
  // Same document, so same report and fingerprint at the same seed.
  const auto yaml = scenario_as_plain_json(std::string(SQUALL_SOURCE_DIR) + "/scenarios/examples/search-429s.yaml");
  const auto json = scenario_as_plain_json(std::string(SQUALL_SOURCE_DIR) + "/scenarios/examples/search-429s.json");
  ASSERT_TRUE(yaml.json.has_value());
  EXPECT_EQ(yaml.json, json.json);
  const Scenario from_yaml = test::file_scenario("scenarios/examples/search-429s.yaml");
  const Scenario from_json = test::file_scenario("scenarios/examples/search-429s.json");
  const Report a = test::run_world(from_yaml, from_yaml.seed);
  const Report b = test::run_world(from_json, from_json.seed);
  EXPECT_NE(a.fingerprint, 0u);
  EXPECT_EQ(a.fingerprint, b.fingerprint);
  EXPECT_EQ(to_json_text(a), to_json_text(b));
}

}  // namespace
}  // namespace squall
