#include "cli/seed_list.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>

#include "cli/commands.hpp"

namespace squall::cli {
namespace {

std::string too_many(std::string_view text, std::string_view count) {
  return fmt::format("--seeds {}: at most {} seeds, got {}", text, kMaxSeeds, count);
}
std::string too_many(std::string_view text, std::uint64_t count) { return too_many(text, std::to_string(count)); }

std::variant<SeedList, std::string> count_from(std::string_view text, std::uint64_t count, std::uint64_t first) {
  if (count == 0) return fmt::format("--seeds {}: expected at least one seed", text);
  if (count > kMaxSeeds) return too_many(text, count);
  if (first > UINT64_MAX - (count - 1)) {
    return fmt::format("--seeds {}: seeds from {} run past the largest seed, {}", text, first, UINT64_MAX);
  }
  SeedList list{{}, true};
  for (std::uint64_t i = 0; i < count; ++i) list.seeds.push_back(first + i);
  return list;
}

std::variant<SeedList, std::string> range(std::string_view text, std::uint64_t from, std::uint64_t to) {
  if (to < from) return fmt::format("--seeds {}: the range's end is below its start", text);
  // 0..18446744073709551615 holds 2^64 seeds, one more than a uint64 counts.
  if (to - from == UINT64_MAX) return too_many(text, "18446744073709551616");
  if (to - from >= kMaxSeeds) return too_many(text, to - from + 1);
  SeedList list;
  for (std::uint64_t s = from;; ++s) {
    list.seeds.push_back(s);
    if (s == to) break;
  }
  return list;
}

std::variant<SeedList, std::string> listed(std::string_view text, std::string_view malformed) {
  SeedList list;
  std::set<std::uint64_t> seen;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::optional<std::uint64_t> seed = parse_seed(text.substr(start, comma - start));
    if (!seed) return std::string(malformed);
    if (!seen.insert(*seed).second) return fmt::format("--seeds {}: seed {} is listed twice", text, *seed);
    // Checked per element so that a list of a million commas stops at the cap.
    if (list.seeds.size() == kMaxSeeds)
      return too_many(text, static_cast<std::uint64_t>(std::count(text.begin(), text.end(), ',')) + 1);
    list.seeds.push_back(*seed);
    if (comma == std::string_view::npos) return list;
    start = comma + 1;
  }
}

}  // namespace

std::variant<SeedList, std::string> parse_seed_list(std::string_view text, std::uint64_t first) {
  const std::string malformed =
      fmt::format("--seeds expects a count (8), a list (1,5,9) or a range (100..107), got \"{}\"", text);
  if (const std::size_t dots = text.find(".."); dots != std::string_view::npos) {
    const auto from = parse_seed(text.substr(0, dots));
    const auto to = parse_seed(text.substr(dots + 2));
    if (!from || !to) return malformed;
    return range(text, *from, *to);
  }
  if (text.find(',') != std::string_view::npos) return listed(text, malformed);
  const auto count = parse_seed(text);
  if (!count) return malformed;
  return count_from(text, *count, first);
}

std::string describe_seeds(const std::vector<std::uint64_t>& seeds) {
  bool consecutive = seeds.size() > 1;
  for (std::size_t i = 1; i < seeds.size() && consecutive; ++i) consecutive = seeds[i] == seeds[i - 1] + 1;
  if (consecutive) return fmt::format("{}..{}", seeds.front(), seeds.back());
  constexpr std::size_t kShown = 8;
  std::string text;
  for (std::size_t i = 0; i < seeds.size() && i < kShown; ++i) text += fmt::format("{}{}", i == 0 ? "" : ",", seeds[i]);
  if (seeds.size() > kShown) text += ",...";
  return text;
}

}  // namespace squall::cli
