// Rounding a non-negative double to a whole number, inline.
//
// std::llround is a libm call; the mocks round every latency draw and every LLM answer's
// length and generation time with it, over a million times in the flagship hour
// (bench/README.md). For the values they round it reduces to a truncation and one
// comparison, which the compiler keeps inline.
#pragma once

#include <cassert>
#include <cstdint>

namespace squall {

// std::llround(x) for 0 <= x < 2^63 (halves away from zero), the same value for every such
// x: the truncation is exact there, and so is x - trunc(x) (the two lie within a factor of
// two of each other, or trunc(x) is 0; from 2^52 on every double is whole and the
// difference is 0), so the comparison with 0.5 decides as llround does.
// tests/engine/rounding_test.cpp compares the two.
inline std::int64_t round_non_negative(double x) {
  assert(x >= 0 && x < 0x1.0p63);
  const auto whole = static_cast<std::int64_t>(x);
  return x - static_cast<double>(whole) >= 0.5 ? whole + 1 : whole;
}

}  // namespace squall
