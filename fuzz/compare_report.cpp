// A report as `squall compare` reads it (cli/compare_command.cpp read_report): the strict
// JSON reader of squall's own files (cli/output_file.hpp), report_problem, then the
// comparison of the report with itself and its table (reports/compare.hpp). Property: a
// report compared with itself differs by nothing.
#include <variant>

#include "cli/output_file.hpp"
#include "fuzz/fuzz_support.hpp"
#include "reports/compare.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using squall::fuzz::require;
  const std::string text(squall::fuzz::text_of(data, size));
  auto parsed = squall::cli::read_output_text(text, "a.json", squall::FileKind::report);
  if (std::holds_alternative<std::string>(parsed)) return 0;
  const nlohmann::json report = std::get<squall::Json>(std::move(parsed));
  if (squall::report_problem(report)) return 0;
  const auto rows = squall::compare_reports(report, report);
  require(squall::comparison_warnings(report, report).empty(), "a report warns nothing against itself");
  for (const auto& row : rows) {
    const auto d = squall::difference(row);
    require(!d || *d == 0, "a report differs from itself by nothing");
  }
  require(!squall::comparison_table("A", "B", rows).empty(), "the table is written");
  return 0;
}
