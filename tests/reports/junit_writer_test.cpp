#include "reports/writers/junit_writer.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>

#include "reports/text_summary.hpp"
#include "writer_support.hpp"

namespace squall {
namespace {

using boost::property_tree::ptree;

ptree parse(const std::string& xml) {
  std::istringstream in(xml);
  ptree tree;
  boost::property_tree::read_xml(in, tree);
  return tree;
}

std::string attribute(const ptree& node, const std::string& name) {
  return node.get<std::string>(ptree::path_type("<xmlattr>/" + name, '/'));
}

// The sample summary holds only '<' and '>' of the characters XML escapes.
std::string escaped(std::string text) {
  for (std::size_t at = 0; (at = text.find_first_of("<>", at)) != std::string::npos;) {
    text.replace(at, 1, text[at] == '<' ? "&lt;" : "&gt;");
  }
  return text;
}

TEST(JunitWriterTest, RendersTheSampleRun) {
  const Report rep = test_support::writer_sample_report();
  const std::string expected =
      "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
      "<testsuites name=\"squall\" tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"0\">\n"
      "  <testsuite name=\"sample\" tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"0\">\n"
      "    <properties>\n"
      "      <property name=\"seed\" value=\"7\"/>\n"
      "      <property name=\"fingerprint\" value=\"0123456789abcdef\"/>\n"
      "      <property name=\"squall_version\" value=\"0.1.0\"/>\n"
      "      <property name=\"scenario_file\" value=\"scenarios/sample.json\"/>\n"
      "      <property name=\"repro\" value=\"squall run scenarios/sample.json --seed 7\"/>\n"
      "    </properties>\n"
      "    <testcase classname=\"sample\" name=\"task_success: rate&gt;=0.5\">\n"
      "      <properties>\n"
      "        <property name=\"observed\" value=\"0.5\"/>\n"
      "        <property name=\"margin\" value=\"0\"/>\n"
      "      </properties>\n"
      "    </testcase>\n"
      "    <testcase classname=\"sample\" name=\"task_latency: p(99)&lt;10s\">\n"
      "      <properties>\n"
      "        <property name=\"observed\" value=\"10.3\"/>\n"
      "        <property name=\"margin\" value=\"-0.3\"/>\n"
      "        <property name=\"unit\" value=\"s\"/>\n"
      "      </properties>\n"
      "      <failure type=\"threshold\" message=\"observed 10.3 s; expected p(99)&lt;10s\">"
      "task_latency: p(99)&lt;10s (observed 10.3 s)\n"
      "repro: squall run scenarios/sample.json --seed 7</failure>\n"
      "    </testcase>\n"
      "    <system-out>" +
      escaped(text_summary(rep, false)) +
      "repro: squall run scenarios/sample.json --seed 7\n"
      "</system-out>\n"
      "  </testsuite>\n"
      "</testsuites>\n";
  EXPECT_EQ(junit_xml(rep), expected);
}

TEST(JunitWriterTest, PolicyFileIsAPropertyOnlyWhenGiven) {
  Report rep = test_support::writer_sample_report();
  EXPECT_EQ(junit_xml(rep).find("policy_file"), std::string::npos);
  rep.produced_by.policy_file = "policies/naive.json";
  EXPECT_NE(junit_xml(rep).find("<property name=\"policy_file\" value=\"policies/naive.json\"/>"), std::string::npos);
}

TEST(JunitWriterTest, HostileNamesRoundTripThroughAnXmlParser) {
  Report rep = test_support::writer_sample_report();
  rep.scenario = "a<b>&\"c\" 'd'";
  rep.thresholds[1].metric = "provider_calls{provider:x&y<z>}";
  rep.produced_by.repro = "squall run 'it'\\''s <&>.json' --seed 7";
  const ptree tree = parse(junit_xml(rep));
  const ptree& suite = tree.get_child("testsuites.testsuite");
  EXPECT_EQ(attribute(suite, "name"), "a<b>&\"c\" 'd'");
  std::vector<std::string> names;
  std::string failure;
  for (const auto& [key, child] : suite) {
    if (key != "testcase") continue;
    names.push_back(attribute(child, "name"));
    if (const auto f = child.get_child_optional("failure")) failure = f->data();
  }
  EXPECT_EQ(names, (std::vector<std::string>{"task_success: rate>=0.5", "provider_calls{provider:x&y<z>}: p(99)<10s"}));
  EXPECT_NE(failure.find("repro: squall run 'it'\\''s <&>.json' --seed 7"), std::string::npos) << failure;
}

TEST(JunitWriterTest, ControlCharactersAndBrokenUtf8CannotBreakTheDocument) {
  Report rep = test_support::writer_sample_report();
  rep.scenario = std::string("esc\x1b[31mred\x01\xFF", 13);
  const std::string xml = junit_xml(rep);
  for (const char c : xml) {
    const auto u = static_cast<unsigned char>(c);
    EXPECT_TRUE(u >= 0x20 || c == '\n' || c == '\t' || c == '\r') << "control byte " << int{u};
  }
  EXPECT_EQ(attribute(parse(xml).get_child("testsuites.testsuite"), "name"), "esc\\x1B[31mred\\x01\xEF\xBF\xBD");
}

TEST(JunitWriterTest, NoThresholdsIsAnEmptySuite) {
  Report rep = test_support::writer_sample_report();
  rep.thresholds.clear();
  const ptree tree = parse(junit_xml(rep));
  EXPECT_EQ(attribute(tree.get_child("testsuites.testsuite"), "tests"), "0");
  EXPECT_EQ(tree.get_child("testsuites.testsuite").count("testcase"), 0U);
}

TEST(JunitWriterTest, SuiteNamesAreUniqueAndDeterministic) {
  // The sample scenario from a.json, given twice, from its twin b.yaml, and a file that did
  // not run, given twice: six suites, six names, each test case's classname its suite's.
  const Report rep = test_support::writer_sample_report();
  const std::vector<SuiteOutcome> outcomes{{"a.json", &rep, {}},         {"a.json", &rep, {}},
                                           {"b.yaml", &rep, {}},         {"bad.json", nullptr, "bad"},
                                           {"bad.json", nullptr, "bad"}, {"other.json", nullptr, "bad"}};
  const ptree tree = parse(junit_xml(outcomes));
  std::vector<std::string> names;
  for (const auto& [key, suite] : tree.get_child("testsuites")) {
    if (key != "testsuite") continue;
    names.push_back(attribute(suite, "name"));
    for (const auto& [child_key, child] : suite) {
      if (child_key == "testcase") {
        EXPECT_EQ(attribute(child, "classname"), names.back());
      }
    }
  }
  EXPECT_EQ(names, (std::vector<std::string>{"sample (a.json)", "sample (a.json) #2", "sample (b.yaml)", "bad.json",
                                             "bad.json #2", "other.json"}));
  // A scenario run once keeps its plain name.
  const SuiteOutcome one{"a.json", &rep, {}};
  EXPECT_EQ(attribute(parse(junit_xml(std::span(&one, 1))).get_child("testsuites.testsuite"), "name"), "sample");
}

}  // namespace
}  // namespace squall
