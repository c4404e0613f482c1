// JUnit XML for a CI's test view (GitLab's unit test reports, Jenkins' JUnit plugin,
// GitHub actions that publish test results): the run is a test suite and each threshold
// a test case, so a broken threshold shows as a failed test with its observed value.
//
// Shape (docs/ci.md has it field by field):
//   <testsuites name="squall" tests= failures= errors= skipped=>
//     <testsuite name=SCENARIO tests= failures= errors="0" skipped=>   skipped: thresholds
//                   not evaluated (a client_* metric outside squall serve), each test case
//                   with <skipped message="not measured (squall serve only)"/>
//       <properties>  seed, fingerprint, squall_version, scenario_file, policy_file
//                     (only with --policy), repro
//       <testcase classname=SCENARIO name="METRIC: EXPRESSION">       one per threshold,
//         <properties>  observed, margin (how far inside the bound; negative when it
//                       fails), unit (time metrics: the bound's unit); absent without samples
//         <failure type="threshold" message="observed V; expected EXPRESSION">  in order
//           METRIC: EXPRESSION (observed V)\nrepro: COMMAND
//       <system-out>  the terminal summary (no colour), then "repro: COMMAND"
// V is the observed value as the terminal summary prints it ("43.950243 s" for a bound in
// seconds, "no samples"). No element carries a time: wall time would make the file differ between
// runs, and virtual time is not what a test view's durations mean.
//
// Written with Boost.PropertyTree's XML writer, which escapes markup characters; text
// first goes through xml_text() (reports/writers/xml_text.hpp) so that control characters
// and broken UTF-8 from scenario names or paths cannot make the file unreadable.
#pragma once

#include <span>
#include <string>

#include "reports/report.hpp"
#include "reports/writers/suite_outcome.hpp"

namespace squall {

// The document, UTF-8, with an XML declaration, two-space indentation and a final newline.
std::string junit_xml(const Report& report);

// One document for many scenarios (`squall ci`): a <testsuite> per outcome, in the order
// given, each as above; <testsuites> sums their counts. A scenario that did not run is a
// suite named after its file with errors="1" and one test case, "scenario", holding
//   <error type="invalid_scenario" message="FIRST LINE OF THE ERROR">ALL OF IT</error>
// so a CI's test view shows it as broken rather than as passing with no tests.
// A scenario run on many seeds (`ci --seeds`, SuiteOutcome::seeds) is a suite with the
// properties seeds ("11..18"), seeds_passed ("6/8", every threshold held), pass_k ("k=1
// 0.75  k=2 0.535714 ..."), squall_version, scenario_file, policy_file (with --policy) and
// repro (SeedSummary::repro_seed); a test case per threshold with
// the properties pass_rate, seeds_passed, pass_rate_required (">=0.9" or "every seed") and
// failed_seeds (when any), failing when the requirement is not met:
//   <failure type="pass_rate" message="held on 6/8 seeds (required on every seed); failed on seeds 2, 8">
//     METRIC: EXPRESSION held on ...; failed on seeds 2, 8\nrepro: COMMAND --seed 2
// and the seeds' terminal summary (reports/seed_summary_text.hpp) as its system-out.
// Suite names are unique, since CI test views merge or drop suites of one name (and their
// test cases' classname is the suite's name): a scenario name that two outcomes share
// (two files of one scenario, such as a JSON file and its YAML twin) is followed by the
// file, "search-429s (scenarios/examples/search-429s.yaml)"; a file given twice (`squall
// ci x.json x.json`) has " #2" (" #3", ...) after its later suites' names. Deterministic:
// it depends only on the outcomes' order.
std::string junit_xml(std::span<const SuiteOutcome> outcomes);

}  // namespace squall
