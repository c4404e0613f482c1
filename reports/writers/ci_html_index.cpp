#include "reports/writers/ci_html_index.hpp"

#include <fmt/format.h>

#include "reports/writers/html_assets.hpp"
#include "reports/writers/html_text.hpp"

namespace squall {
namespace {

std::string plural(std::size_t n, std::string_view noun) { return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s"); }

// A file name as one path segment of a relative URL: every byte but the unreserved ones
// (RFC 3986 section 2.3) percent-encoded.
std::string href(std::string_view name) {
  std::string out;
  for (const char c : name) {
    const auto b = static_cast<unsigned char>(c);
    const bool unreserved = (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9') || b == '-' ||
                            b == '.' || b == '_' || b == '~';
    out += unreserved ? std::string(1, c) : fmt::format("%{:02X}", b);
  }
  return out;
}

std::size_t failed_thresholds(const Report& r) {
  std::size_t failed = 0;
  for (const ThresholdResult& t : r.thresholds) failed += t.passed ? 0 : 1;
  return failed;
}

bool passed(const SuiteOutcome& o) {
  return o.seeds.summary != nullptr ? o.seeds.summary->passed : failed_thresholds(*o.report) == 0;
}

std::string verdict(const SuiteOutcome& o) {
  if (o.seeds.summary != nullptr) {
    const SeedSummary& s = *o.seeds.summary;
    std::size_t missed = 0;
    for (const ThresholdPassRate& t : s.thresholds) missed += t.met ? 0 : 1;
    const std::string seeds = fmt::format("(seeds {}; this page: seed {})", o.seeds.described, o.report->seed);
    if (missed == 0) return fmt::format("passed on {} of {} seeds {}", s.seeds_passed, s.seeds.size(), seeds);
    return fmt::format("{} of {} thresholds below their pass rate {}", missed, s.thresholds.size(), seeds);
  }
  const std::size_t n = o.report->thresholds.size();
  const std::size_t f = failed_thresholds(*o.report);
  return f == 0 ? fmt::format("{} passed", plural(n, "threshold")) : fmt::format("{} of {} thresholds failed", f, n);
}

std::string row(const SuiteOutcome& o, const std::string& page) {
  if (o.report == nullptr) {
    return fmt::format(
        "<tr class=\"not-run\" data-scenario=\"{0}\"><td>✗</td><td></td><td><code>{0}</code></td>"
        "<td>not run: {1}</td></tr>\n",
        html_text(o.scenario_file), html_text(o.error));
  }
  const bool ok = passed(o);
  return fmt::format(
      "<tr class=\"{}\" data-scenario=\"{}\"><td>{}</td><td><a href=\"{}\">{}</a></td><td><code>{}</code></td>"
      "<td>{}</td></tr>\n",
      ok ? "pass" : "fail", html_text(o.scenario_file), ok ? "✓" : "✗", html_text(href(page)),
      html_text(o.report->scenario), html_text(o.scenario_file), html_text(verdict(o)));
}

}  // namespace

std::string ci_html_index(std::span<const SuiteOutcome> outcomes, std::span<const std::string> pages) {
  std::size_t ok = 0;
  std::size_t not_run = 0;
  for (const SuiteOutcome& o : outcomes) {
    if (o.report == nullptr) {
      ++not_run;
    } else if (passed(o)) {
      ++ok;
    }
  }
  const std::size_t failed = outcomes.size() - ok - not_run;
  const bool all = failed == 0 && not_run == 0;
  const std::string line = fmt::format("squall ci: {}, {} passed, {} failed, {} not run",
                                       plural(outcomes.size(), "scenario"), ok, failed, not_run);
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\" data-squall-index=\"1\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += fmt::format("<title>{} {}</title>\n<style>\n{}</style>\n</head>\n<body>\n", line, all ? "✓" : "✗",
                     html_page_css());
  out += fmt::format("<header>\n<h1 class=\"{}\">{} {}</h1>\n</header>\n<main>\n", all ? "pass" : "fail",
                     all ? "✓" : "✗", line);
  out +=
      "<section id=\"scenarios\">\n<table>\n<thead><tr><th></th><th>scenario</th><th>file</th><th>verdict</th></tr>"
      "</thead>\n<tbody>\n";
  for (std::size_t i = 0; i < outcomes.size(); ++i) out += row(outcomes[i], i < pages.size() ? pages[i] : "");
  out += "</tbody>\n</table>\n</section>\n</main>\n</body>\n</html>\n";
  return out;
}

}  // namespace squall
