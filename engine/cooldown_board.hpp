// CooldownBoard: which providers routing skips for now, after LiteLLM's deployment
// cooldowns (litellm/router_utils/cooldown_handlers.py: `allowed_fails`, `cooldown_time`),
// shared by every fallback of a run that sets `cooldown` (engine/strategies/fallback.hpp).
// The registry keeps one (engine/provider_registry.hpp), as LiteLLM's router keeps one
// cooldown list for all its callers.
//
// There is a slot per provider and one per quota group (ProviderDescriptor::quota_group:
// providers behind one RPM/TPM bucket, such as models on one API key). A failure counts in
// the slot it speaks for: a rate_limited or quota_exhausted answer of a grouped provider in
// its group's slot (the bucket is the group's, so the wall is too), any other answer in the
// provider's own. A slot cools when its failures in the current minute exceed
// `allowed_fails` (0: at the first failure); a minute starts at the slot's first failure
// after the previous minute ended (LiteLLM keeps the count in a cache entry that expires
// after 60 s). Cooling sets until = max(until, now + duration): the latest, longest
// cooldown wins, so a shorter Retry-After never cuts a cooldown in force; the count then
// starts again. A provider cools until the later of its own slot's and its group's ends.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/call.hpp"
#include "engine/outcome.hpp"
#include "engine/runtime/time.hpp"

namespace squall {

class CooldownBoard {
 public:
  static constexpr Nanos kFailWindow = 60 * kSecond;

  // Registers the next provider id (ids in order from 0) in quota group `group` ("": none).
  void add(std::string_view group);

  // When provider `id` stops cooling (0 or in the past: it is not cooling).
  TimePoint cooling_until(ProviderId id) const;
  bool cooling(ProviderId id, TimePoint now) const { return cooling_until(id) > now; }
  // The kind of the failure that set the later of `id`'s cooldowns.
  OutcomeKind cooled_by(ProviderId id) const;

  struct Cooled {
    TimePoint until = 0;  // the slot's end after this failure
    bool group = false;   // the group's slot cooled, not only the provider's
  };
  // Records a failure of `kind` from provider `id` at `now`; when it cools a slot for
  // `duration` (> 0), returns the slot's new end.
  std::optional<Cooled> fail(ProviderId id, OutcomeKind kind, TimePoint now, Nanos duration,
                             std::int64_t allowed_fails);

 private:
  struct Slot {
    TimePoint until = 0;
    TimePoint window_end = 0;  // the end of the current minute of counting
    std::int64_t fails = 0;    // failures in that minute
    OutcomeKind kind = OutcomeKind::rate_limited;
  };
  static constexpr std::size_t kNoGroup = SIZE_MAX;
  const Slot* group_slot(ProviderId id) const;

  std::vector<Slot> providers_;           // by provider id
  std::vector<std::size_t> group_of_;     // by provider id: an index into groups_, or kNoGroup
  std::vector<Slot> groups_;              // by group index
  std::vector<std::string> group_names_;  // by group index
};

}  // namespace squall
