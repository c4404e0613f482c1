// Closed vocabularies (outcome kinds, task statuses, fault kinds, breaker states, ...) are
// each declared once, as an X-macro table in their own header: one row per value with its
// scenario-file name and what it means (after FoundationDB's error table).
// These helpers generate the rest from a table, so that nothing is kept by hand in
// parallel: the enumerators, the count and the names.
//
//   #define SQUALL_BREAKER_STATES(X) X(closed, "...") X(open, "...") X(half_open, "...")
//   enum class BreakerState : std::uint8_t { SQUALL_BREAKER_STATES(SQUALL_ENUMERATOR) };
//   inline constexpr auto kBreakerStateNames = std::array{SQUALL_BREAKER_STATES(SQUALL_NAME)};
//
// A row's first field is the enumerator; the rest (documentation, attributes) is free.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

#define SQUALL_ENUMERATOR(name, ...) name,
#define SQUALL_NAME(name, ...) std::string_view(#name),
#define SQUALL_COUNT(name, ...) +1

namespace squall {

// The value whose name is `name`, or nullopt: the inverse of indexing `names`.
template <class E, std::size_t N>
constexpr std::optional<E> parse_name(const std::array<std::string_view, N>& names, std::string_view name) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == name) return static_cast<E>(i);
  }
  return std::nullopt;
}

// Every value of an enum whose values are 0..N-1, in order.
template <class E, std::size_t N>
constexpr std::array<E, N> all_values() {
  std::array<E, N> all{};
  for (std::size_t i = 0; i < N; ++i) all[i] = static_cast<E>(i);
  return all;
}

}  // namespace squall
