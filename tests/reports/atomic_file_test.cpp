#include "reports/atomic_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace squall {
namespace {

namespace fs = std::filesystem;

class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("squall_atomic_file_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
  static std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  fs::path dir_;
};

TEST_F(AtomicFileTest, WritesTheContentAndLeavesNoTemporaryFile) {
  write_file_atomic(dir_ / "out.json", "{\"a\": 1}\n");
  EXPECT_EQ(read(dir_ / "out.json"), "{\"a\": 1}\n");
  EXPECT_EQ(entries(), std::vector<std::string>{"out.json"});
  struct stat st {};
  ASSERT_EQ(::stat((dir_ / "out.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644U);
}

TEST_F(AtomicFileTest, ReplacesAnExistingFile) {
  write_file_atomic(dir_ / "out.json", "a much longer first version\n");
  write_file_atomic(dir_ / "out.json", "v2\n");
  EXPECT_EQ(read(dir_ / "out.json"), "v2\n");
  EXPECT_EQ(entries(), std::vector<std::string>{"out.json"});
}

TEST_F(AtomicFileTest, MissingDirectoryIsAClearError) {
  const fs::path target = dir_ / "missing" / "out.json";
  try {
    write_file_atomic(target, "x");
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write \"" + target.string() + "\": cannot create a temporary file in \"" +
                                         (dir_ / "missing").string() + "\": No such file or directory");
  }
  EXPECT_TRUE(entries().empty());
}

TEST_F(AtomicFileTest, FailedRenameRemovesTheTemporaryFile) {
  // The target is a non-empty directory: the temporary file is written, the rename fails.
  fs::create_directories(dir_ / "out.json" / "keep");
  EXPECT_THROW(write_file_atomic(dir_ / "out.json", "x"), std::runtime_error);
  EXPECT_EQ(entries(), std::vector<std::string>{"out.json"});
  EXPECT_TRUE(fs::is_directory(dir_ / "out.json"));
}

TEST_F(AtomicFileTest, StreamedPiecesAppearOnlyAtCommit) {
  write_file_atomic(dir_ / "trace.jsonl", "old\n");
  {
    AtomicFile file(dir_ / "trace.jsonl");
    file.write("a\n");
    file.write("b\n");
    EXPECT_EQ(read(dir_ / "trace.jsonl"), "old\n");  // readers still see the old file
    EXPECT_EQ(entries().size(), 2U);                 // and the temporary one beside it
    file.commit();
  }
  EXPECT_EQ(read(dir_ / "trace.jsonl"), "a\nb\n");
  EXPECT_EQ(entries(), std::vector<std::string>{"trace.jsonl"});
}

TEST_F(AtomicFileTest, AFileDroppedBeforeCommitLeavesNothing) {
  {
    AtomicFile file(dir_ / "trace.jsonl");
    file.write("partial");
  }
  EXPECT_TRUE(entries().empty());
}

TEST_F(AtomicFileTest, WriteAfterCommitIsAProgrammingError) {
  AtomicFile file(dir_ / "x");
  file.commit();
  EXPECT_THROW(file.write("late"), std::logic_error);
  EXPECT_THROW(file.commit(), std::logic_error);
}

TEST_F(AtomicFileTest, ABatchThatFailsPublishesNone) {
  // The second name fits NAME_MAX (255 bytes) but its temporary file's does not.
  AtomicFileBatch ok;
  ok.add(dir_ / "a.json", "a\n");
  ok.add(dir_ / "b.csv", "b\n");
  ok.commit();
  EXPECT_EQ(entries(), (std::vector<std::string>{"a.json", "b.csv"}));
  {
    AtomicFileBatch batch;
    batch.add(dir_ / "a.json", "new a\n");
    EXPECT_THROW(batch.add(dir_ / (std::string(250, 'r') + ".csv"), "c\n"), std::runtime_error);
  }
  EXPECT_EQ(read(dir_ / "a.json"), "a\n");  // the first file of the failed batch was not published
  EXPECT_EQ(entries(), (std::vector<std::string>{"a.json", "b.csv"}));
}

}  // namespace
}  // namespace squall

namespace squall {
namespace {

class TemporaryFileRemovalTest : public AtomicFileTest {};

// What a signal handler calls (cli/interrupt.hpp): every temporary file not yet published
// goes, published files and files discarded earlier are not touched.
TEST_F(TemporaryFileRemovalTest, RemovesOnlyUnpublishedTemporaryFiles) {
  write_file_atomic(dir_ / "done.json", "{}");
  AtomicFile streamed(dir_ / "trace.jsonl");
  streamed.write("{\"a\":1}\n");
  AtomicFile other(dir_ / "report.json");
  ASSERT_EQ(entries().size(), 3u);
  remove_temporary_files_now();
  EXPECT_EQ(entries(), std::vector<std::string>{"done.json"});
  EXPECT_EQ(read(dir_ / "done.json"), "{}");
}

// The table holds kMaxTrackedTemporaryFiles names: slots are given back on commit and on
// discard, so files written one after another never run out of them.
TEST_F(TemporaryFileRemovalTest, SlotsAreGivenBackSoLaterFilesAreStillRemoved) {
  for (std::size_t i = 0; i < 2 * kMaxTrackedTemporaryFiles; ++i) {
    write_file_atomic(dir_ / "r.json", std::to_string(i));
    const AtomicFile discarded(dir_ / "d.json");
  }
  const AtomicFile last(dir_ / "last.json");
  remove_temporary_files_now();
  EXPECT_EQ(entries(), std::vector<std::string>{"r.json"});
}

}  // namespace
}  // namespace squall
