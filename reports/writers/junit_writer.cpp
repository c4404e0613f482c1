#include "reports/writers/junit_writer.hpp"

#include <sstream>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <fmt/format.h>

#include "reports/fingerprint.hpp"
#include "reports/text_summary.hpp"
#include "reports/writers/xml_text.hpp"

namespace squall {
namespace {

using boost::property_tree::ptree;

void attribute(ptree& node, const char* name, std::string_view value) {
  node.put(ptree::path_type(std::string("<xmlattr>/") + name, '/'), xml_text(value));
}

void counts(ptree& node, std::size_t tests, std::size_t failures) {
  attribute(node, "tests", std::to_string(tests));
  attribute(node, "failures", std::to_string(failures));
  attribute(node, "errors", "0");
  attribute(node, "skipped", "0");
}

void property(ptree& properties, const char* name, std::string_view value) {
  ptree& p = properties.add_child("property", ptree());
  attribute(p, "name", name);
  attribute(p, "value", value);
}

ptree test_case(const Report& r, const ThresholdResult& t) {
  ptree tc;
  attribute(tc, "classname", r.scenario);
  attribute(tc, "name", fmt::format("{}: {}", t.metric, t.expression));
  if (!t.passed) {
    const std::string observed = format_observed(t);
    ptree failure(xml_text(fmt::format("{}: {} (observed {})\nrepro: {}", t.metric, t.expression, observed,
                                       r.produced_by.repro)));
    attribute(failure, "type", "threshold");
    attribute(failure, "message", fmt::format("observed {}; expected {}", observed, t.expression));
    tc.add_child("failure", failure);
  }
  return tc;
}

}  // namespace

std::string junit_xml(const Report& r) {
  std::size_t failures = 0;
  for (const ThresholdResult& t : r.thresholds) failures += t.passed ? 0 : 1;

  ptree suite;
  attribute(suite, "name", r.scenario);
  counts(suite, r.thresholds.size(), failures);
  ptree& properties = suite.add_child("properties", ptree());
  property(properties, "seed", std::to_string(r.seed));
  property(properties, "fingerprint", fingerprint_hex(r.fingerprint));
  property(properties, "squall_version", r.produced_by.squall_version);
  property(properties, "scenario_file", r.produced_by.scenario_file);
  if (r.produced_by.policy_file) property(properties, "policy_file", *r.produced_by.policy_file);
  property(properties, "repro", r.produced_by.repro);
  for (const ThresholdResult& t : r.thresholds) suite.add_child("testcase", test_case(r, t));
  suite.add_child("system-out", ptree(xml_text(text_summary(r, false) + "repro: " + r.produced_by.repro + "\n")));

  ptree suites;
  attribute(suites, "name", "squall");
  counts(suites, r.thresholds.size(), failures);
  suites.add_child("testsuite", suite);
  ptree root;
  root.add_child("testsuites", suites);

  std::ostringstream out;
  boost::property_tree::write_xml(out, root, boost::property_tree::xml_writer_make_settings<std::string>(' ', 2));
  std::string text = out.str();
  if (text.empty() || text.back() != '\n') text += '\n';
  return text;
}

}  // namespace squall
