#include "tests/support/source_dir.hpp"

const char* squall_test_source_dir() { return SQUALL_CHECKOUT_DIR; }
