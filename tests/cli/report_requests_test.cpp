#include "cli/report_requests.hpp"

#include <gtest/gtest.h>

#include "cli_support.hpp"

namespace {

using namespace squall::test_support;
// A declaration here, so that `squall(...)` means the helper, not the namespace.
using squall::cli::parse_report_requests;
using squall::test_support::squall;

TEST(ReportRequestsTest, OutComesFirstAsJsonThenTheRequestsInOrder) {
  const fs::path dir = temp_path("requests");
  fs::create_directories(dir);
  const auto r = parse_report_requests({"junit=" + (dir / "a.xml").string(), "jsonl=" + (dir / "t=1.jsonl").string()},
                                       dir / "out.json", {});
  ASSERT_FALSE(r.error) << *r.error;
  ASSERT_EQ(r.requests.size(), 3U);
  EXPECT_EQ(r.requests[0].format->name, "json");
  EXPECT_EQ(r.requests[0].path, dir / "out.json");
  EXPECT_EQ(r.requests[1].format->name, "junit");
  EXPECT_EQ(r.requests[2].format->name, "jsonl");
  EXPECT_EQ(r.requests[2].path, dir / "t=1.jsonl");  // the path is everything after the first '='
}

TEST(ReportRequestsTest, OneFormatMayGoToSeveralFiles) {
  const fs::path dir = temp_path("requests-twice");
  fs::create_directories(dir);
  const auto r = parse_report_requests({"junit=" + (dir / "a.xml").string(), "junit=" + (dir / "b.xml").string()},
                                       std::nullopt, {});
  EXPECT_FALSE(r.error);
  EXPECT_EQ(r.requests.size(), 2U);
}

TEST(ReportRequestsTest, ASymbolicLinkToAnotherRequestIsTheSameFile) {
  const fs::path dir = temp_path("requests-link");
  fs::create_directories(dir);
  fs::create_symlink("a.xml", dir / "link.xml");
  const auto r = parse_report_requests({"junit=" + (dir / "a.xml").string(), "markdown=" + (dir / "link.xml").string()},
                                       std::nullopt, {});
  ASSERT_TRUE(r.error);
  EXPECT_NE(r.error->find("write the same file"), std::string::npos) << *r.error;
  EXPECT_TRUE(r.requests.empty());
}

TEST(ReportRequestsTest, FormatNamesAreExact) {
  const auto r = parse_report_requests({"JUnit=a.xml"}, std::nullopt, {});
  ASSERT_TRUE(r.error);
  EXPECT_EQ(*r.error,
            "unknown report format \"JUnit\" in --report JUnit=a.xml; formats: json, junit, markdown, csv, jsonl, "
            "html, otlp");
}

TEST(ReportRequestsTest, APathUnderARegularFileSaysThatFileIsNotADirectory) {
  const fs::path dir = temp_path("requests-under-file");
  fs::create_directories(dir);
  std::ofstream(dir / "f") << "";
  const auto r = parse_report_requests({}, dir / "f" / "sub" / "x.json", {});
  ASSERT_TRUE(r.error);
  EXPECT_EQ(*r.error, "cannot write the json report (--out " + (dir / "f" / "sub" / "x.json").string() + "): \"" +
                          (dir / "f").string() + "\" is not a directory");
  const auto missing = parse_report_requests({}, dir / "none" / "x.json", {});
  ASSERT_TRUE(missing.error);
  EXPECT_EQ(*missing.error, "cannot write the json report (--out " + (dir / "none" / "x.json").string() +
                                "): directory \"" + (dir / "none").string() + "\" does not exist");
}

}  // namespace
