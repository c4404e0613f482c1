#include "cli/huge_pages.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/sanitizers.hpp"

namespace squall::cli {
namespace {

// The VmFlags of the mapping of /proc/self/smaps that contains `address`, or "" if none.
std::string vm_flags_of(const void* address) {
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t lo = 0;
    std::uintptr_t hi = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> lo >> dash >> hi && dash == '-') {
      inside = lo <= at && at < hi;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

bool transparent_huge_pages_available() {
  std::ifstream enabled("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string setting;
  return std::getline(enabled, setting) && setting.find("[never]") == std::string::npos;
}

TEST(HugePagesTest, SampleSizedBlocksComeFromAHeapMarkedForHugePages) {
#if SQUALL_UNDER_ADDRESS_SANITIZER || !defined(__linux__) || !defined(__GLIBC__)
  GTEST_SKIP() << "glibc's heap only";
#endif
  if (!transparent_huge_pages_available()) GTEST_SKIP() << "transparent huge pages are off";
  back_heap_with_huge_pages();
  // Blocks as large as a sample log's (64 KiB, reports/sample_log.hpp), written once.
  std::vector<void*> blocks;
  for (int i = 0; i < 64; ++i) {
    blocks.push_back(std::malloc(64 << 10));
    ASSERT_NE(blocks.back(), nullptr);
    std::memset(blocks.back(), i, 64 << 10);
  }
  // A block two megabytes into the reserve lies in the advised (hg) range.
  const std::string flags = vm_flags_of(blocks.back());
  EXPECT_NE(flags.find(" hg"), std::string::npos) << flags;
  for (void* b : blocks) std::free(b);
}

}  // namespace
}  // namespace squall::cli
