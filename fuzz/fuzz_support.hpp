// What every harness of fuzz/ shares: the input as text, and the contract it checks.
//
// A harness feeds libFuzzer's bytes to one parser through the entry point squall itself
// uses, as a whole file or value. The parser may refuse the input (its documented error
// result or exception, caught by the harness); anything else fails the run: a crash, a
// sanitizer report, an uncaught exception of another type (which squall would turn into
// exit 70), or a broken property the harness states (a value that does not read back).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace squall::fuzz {

// libFuzzer's input as the text a parser reads.
inline std::string_view text_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Stops the run with `what` when a stated property does not hold.
inline void require(bool holds, const char* what) {
  if (holds) return;
  std::fprintf(stderr, "fuzz: property broken: %s\n", what);
  std::abort();
}

}  // namespace squall::fuzz
