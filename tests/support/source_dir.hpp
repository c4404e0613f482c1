// SQUALL_SOURCE_DIR: the checkout's root, where tests find scenarios, schemas and docs.
// Every test program includes this header (tests/CMakeLists.txt, -include). The path is
// compiled into one small file, tests/support/source_dir.cpp, so that the other test files
// compile to the same bytes in any checkout and ccache shares them between worktrees.
#pragma once

const char* squall_test_source_dir();

#define SQUALL_SOURCE_DIR squall_test_source_dir()
