// QuotaGroup: several providers behind one rate limit, as the models or deployments on one
// API key or organisation share its requests- and tokens-per-minute limits (OpenAI's limits
// are per organisation and model family; LiteLLM's `rpm`/`tpm` per deployment group). A
// scenario's `quota_groups` entry (sim/scenario/quota_group_reader.hpp). Each member's
// capacity layer (capacity_provider.hpp) takes from the group's buckets as well as its own,
// so a burst on one member spends what the others have: a 429 there is a wall for all of
// them. The group's limits are fixed for the run (a member's own `drops` change only its
// own limits).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mocks/capacity/minute_bucket.hpp"

namespace squall {

struct QuotaGroupConfig {
  std::string name;
  std::vector<std::string> providers;  // at least one, each in at most one group
  // At least one of the two is set; the bounds are capacity_config.hpp's.
  std::optional<std::int64_t> requests_per_minute;
  std::optional<std::int64_t> tokens_per_minute;  // counts LLM members' requests only
  // Whether a member's rate-limited request (by the group's limit or its own) still takes
  // its request from the group's bucket
  // (MinuteBucket::charge): OpenAI's "unsuccessful requests contribute to your per-minute
  // limit, so continuously resending a request won't work" (platform.openai.com/docs/
  // guides/rate-limits). Default false: a rejection costs nothing, as before.
  bool rejected_requests_count = false;
};

// The group's buckets, shared by its members' capacity layers for the run.
struct QuotaBuckets {
  explicit QuotaBuckets(const QuotaGroupConfig& config)
      : requests(config.requests_per_minute),
        tokens(config.tokens_per_minute),
        rejected_requests_count(config.rejected_requests_count) {}
  MinuteBucket requests;
  MinuteBucket tokens;
  bool rejected_requests_count;
};

// A run's quota groups' buckets by group name, built from the scenario's groups, and the
// buckets of `group` in it (null for "" or a name not in it).
class QuotaBucketMap {
 public:
  explicit QuotaBucketMap(const std::vector<QuotaGroupConfig>& groups) {
    for (const QuotaGroupConfig& group : groups) buckets_.try_emplace(group.name, group);
  }
  QuotaBuckets* find(std::string_view group) {
    const auto it = buckets_.find(group);
    return it != buckets_.end() ? &it->second : nullptr;
  }

 private:
  std::map<std::string, QuotaBuckets, std::less<>> buckets_;  // nodes never move
};

}  // namespace squall
