#include "reports/writers/junit_writer.hpp"

#include <map>
#include <sstream>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>

#include "reports/fingerprint.hpp"
#include "reports/pass_rate.hpp"
#include "reports/rounding.hpp"
#include "reports/seed_summary_text.hpp"
#include "reports/text_summary.hpp"
#include "reports/writers/xml_text.hpp"

namespace squall {
namespace {

using boost::property_tree::ptree;

void attribute(ptree& node, const char* name, std::string_view value) {
  node.put(ptree::path_type(std::string("<xmlattr>/") + name, '/'), xml_attribute_text(value));
}

void counts(ptree& node, std::size_t tests, std::size_t failures, std::size_t skipped = 0) {
  attribute(node, "tests", std::to_string(tests));
  attribute(node, "failures", std::to_string(failures));
  attribute(node, "errors", "0");
  attribute(node, "skipped", std::to_string(skipped));
}

// Thresholds not evaluated (a client_* metric outside squall serve): JUnit's skipped.
std::size_t skipped_thresholds(const Report& r) {
  std::size_t n = 0;
  for (const ThresholdResult& t : r.thresholds) n += t.not_evaluated.empty() ? 0 : 1;
  return n;
}

void property(ptree& properties, const char* name, std::string_view value) {
  ptree& p = properties.add_child("property", ptree());
  attribute(p, "name", name);
  attribute(p, "value", value);
}

// A suite's name and counts; returns its <properties>, for the caller to fill.
ptree& suite_head(ptree& suite, const std::string& name, std::size_t tests, std::size_t failures,
                  std::size_t skipped = 0) {
  attribute(suite, "name", name);
  counts(suite, tests, failures, skipped);
  return suite.add_child("properties", ptree());
}

// What produced the run: version, files and the repro command.
void provenance(ptree& properties, const Provenance& by, const std::string& repro) {
  property(properties, "squall_version", by.squall_version);
  property(properties, "scenario_file", by.scenario_file);
  if (by.policy_file) property(properties, "policy_file", *by.policy_file);
  for (const std::string& note : by.policy_notes) property(properties, "policy_note", note);
  property(properties, "repro", repro);
}

ptree test_case(const Report& r, const std::string& suite_name, const ThresholdResult& t) {
  ptree tc;
  attribute(tc, "classname", suite_name);
  attribute(tc, "name", fmt::format("{}: {}", t.metric, t.expression));
  if (t.observed && t.margin) {
    // Passing or not, the observed value and its margin, so a test view can chart them.
    ptree& properties = tc.add_child("properties", ptree());
    const ThresholdQuantity observed = in_threshold_unit(t, *t.observed);
    property(properties, "observed", fmt::format("{}", observed.value));
    property(properties, "margin", fmt::format("{}", in_threshold_unit(t, *t.margin).value));
    if (!observed.unit.empty()) property(properties, "unit", observed.unit);
  }
  if (!t.not_evaluated.empty()) {
    ptree skipped;
    attribute(skipped, "message", t.not_evaluated);
    tc.add_child("skipped", skipped);
  }
  if (!t.passed) {
    const std::string observed = format_observed(t);
    ptree failure(xml_text(
        fmt::format("{}: {} (observed {})\nrepro: {}", t.metric, t.expression, observed, r.produced_by.repro)));
    attribute(failure, "type", "threshold");
    attribute(failure, "message", fmt::format("observed {}; expected {}", observed, t.expression));
    tc.add_child("failure", failure);
  }
  return tc;
}

ptree report_suite(const Report& r, const std::string& name) {
  std::size_t failures = 0;
  for (const ThresholdResult& t : r.thresholds) failures += t.passed ? 0 : 1;

  ptree suite;
  ptree& properties = suite_head(suite, name, r.thresholds.size(), failures, skipped_thresholds(r));
  property(properties, "seed", std::to_string(r.seed));
  property(properties, "fingerprint", fingerprint_hex(r.fingerprint));
  provenance(properties, r.produced_by, r.produced_by.repro);
  for (const ThresholdResult& t : r.thresholds) suite.add_child("testcase", test_case(r, name, t));
  suite.add_child("system-out", ptree(xml_text(text_summary(r, false) + "repro: " + r.produced_by.repro + "\n")));
  return suite;
}

// "seed 2" or "seeds 2, 8".
std::string seeds_named(const std::vector<std::uint64_t>& seeds) {
  return fmt::format("seed{} {}", seeds.size() == 1 ? "" : "s", fmt::join(seeds, ", "));
}

// A threshold over the seeds of `ci --seeds`: it fails when its pass-rate requirement is
// not met; its properties carry the pass rate whatever the verdict.
ptree seeds_test_case(const SeedsOutcome& seeds, const std::string& suite_name, std::size_t index) {
  const SeedSummary& s = *seeds.summary;
  const ThresholdPassRate& t = s.thresholds[index];
  const std::vector<std::uint64_t> failed = s.failed_seeds(index);
  ptree tc;
  attribute(tc, "classname", suite_name);
  attribute(tc, "name", fmt::format("{}: {}", t.metric, t.expression));
  ptree& properties = tc.add_child("properties", ptree());
  const double rate = static_cast<double>(t.passed) / static_cast<double>(s.seeds.size());
  property(properties, "pass_rate", fmt::format("{}", round_ratio(rate)));
  property(properties, "seeds_passed", fmt::format("{}/{}", t.passed, s.seeds.size()));
  property(properties, "pass_rate_required", t.required ? to_string(*t.required) : "every seed");
  if (!failed.empty()) property(properties, "failed_seeds", fmt::format("{}", fmt::join(failed, ",")));
  if (!t.met) {
    const std::string message = fmt::format("held on {}; failed on {}", pass_rate_line(s, index), seeds_named(failed));
    ptree failure(
        xml_text(fmt::format("{}: {} {}\nrepro: {}", t.metric, t.expression, message, seeds.repro(failed.front()))));
    attribute(failure, "type", "pass_rate");
    attribute(failure, "message", message);
    tc.add_child("failure", failure);
  }
  return tc;
}

// A scenario run on many seeds (docs/ci.md): the suite's properties say which seeds and
// how many passed; a test case per threshold.
ptree seeds_suite(const SuiteOutcome& o, const std::string& name) {
  const SeedSummary& s = *o.seeds.summary;
  const Report& first = *o.report;
  std::size_t failures = 0;
  for (const ThresholdPassRate& t : s.thresholds) failures += t.met ? 0 : 1;
  ptree suite;
  ptree& properties = suite_head(suite, name, s.thresholds.size(), failures);
  property(properties, "seeds", o.seeds.described);
  property(properties, "seeds_passed", fmt::format("{}/{}", s.seeds_passed, s.seeds.size()));
  property(properties, "pass_k", pass_k_line(s));
  const std::string repro = o.seeds.repro(s.repro_seed());
  provenance(properties, first.produced_by, repro);
  for (std::size_t i = 0; i < s.thresholds.size(); ++i) suite.add_child("testcase", seeds_test_case(o.seeds, name, i));
  suite.add_child("system-out",
                  ptree(xml_text(seed_summary_text(s, o.seeds.described, false) + "repro: " + repro + "\n")));
  return suite;
}

// A scenario that did not run: one test case in error (docs/ci.md).
ptree error_suite(const SuiteOutcome& o, const std::string& name) {
  ptree suite;
  attribute(suite, "name", name);
  attribute(suite, "tests", "1");
  attribute(suite, "failures", "0");
  attribute(suite, "errors", "1");
  attribute(suite, "skipped", "0");
  ptree tc;
  attribute(tc, "classname", name);
  attribute(tc, "name", "scenario");
  ptree error(xml_text(o.error));
  attribute(error, "type", "invalid_scenario");
  attribute(error, "message", o.error.substr(0, o.error.find('\n')));
  tc.add_child("error", error);
  suite.add_child("testcase", tc);
  return suite;
}

// Each outcome's suite name, unique in the document (see junit_writer.hpp): its scenario's
// name (its file's when it did not run); a name two outcomes share gets the file in
// parentheses; a file given twice gets " #2", " #3"... on its later suites, in order.
std::vector<std::string> suite_names(std::span<const SuiteOutcome> outcomes) {
  const auto base = [](const SuiteOutcome& o) { return o.report != nullptr ? o.report->scenario : o.scenario_file; };
  std::map<std::string, std::size_t> bases;
  for (const SuiteOutcome& o : outcomes) ++bases[base(o)];
  std::vector<std::string> names;
  std::map<std::string, std::size_t> seen;
  for (const SuiteOutcome& o : outcomes) {
    std::string name = base(o);
    if (bases[name] > 1 && name != o.scenario_file) name += fmt::format(" ({})", o.scenario_file);
    if (const std::size_t n = ++seen[name]; n > 1) name += fmt::format(" #{}", n);
    names.push_back(std::move(name));
  }
  return names;
}

std::string document(const ptree& suites) {
  ptree root;
  root.add_child("testsuites", suites);
  std::ostringstream out;
  boost::property_tree::write_xml(out, root, boost::property_tree::xml_writer_make_settings<std::string>(' ', 2));
  std::string text = out.str();
  if (text.empty() || text.back() != '\n') text += '\n';
  return text;
}

}  // namespace

std::string junit_xml(const Report& r) {
  const SuiteOutcome one{r.produced_by.scenario_file, &r, {}};
  return junit_xml(std::span<const SuiteOutcome>(&one, 1));
}

std::string junit_xml(std::span<const SuiteOutcome> outcomes) {
  ptree suites;
  attribute(suites, "name", "squall");
  std::size_t tests = 0;
  std::size_t failures = 0;
  std::size_t errors = 0;
  std::size_t skipped = 0;
  std::vector<ptree> children;
  const std::vector<std::string> names = suite_names(outcomes);
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const SuiteOutcome& o = outcomes[i];
    if (o.report == nullptr) {
      children.push_back(error_suite(o, names[i]));
      tests += 1;
      errors += 1;
      continue;
    }
    if (o.seeds.summary != nullptr) {
      children.push_back(seeds_suite(o, names[i]));
      tests += o.seeds.summary->thresholds.size();
      for (const ThresholdPassRate& t : o.seeds.summary->thresholds) failures += t.met ? 0 : 1;
      continue;
    }
    children.push_back(report_suite(*o.report, names[i]));
    tests += o.report->thresholds.size();
    skipped += skipped_thresholds(*o.report);
    for (const ThresholdResult& t : o.report->thresholds) failures += t.passed ? 0 : 1;
  }
  attribute(suites, "tests", std::to_string(tests));
  attribute(suites, "failures", std::to_string(failures));
  attribute(suites, "errors", std::to_string(errors));
  attribute(suites, "skipped", std::to_string(skipped));
  for (ptree& suite : children) suites.add_child("testsuite", suite);
  return document(suites);
}

}  // namespace squall
