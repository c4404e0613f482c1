#include "engine/cooldown_board.hpp"

#include <algorithm>
#include <cassert>

namespace squall {

void CooldownBoard::add(std::string_view group) {
  providers_.emplace_back();
  if (group.empty()) {
    group_of_.push_back(kNoGroup);
    return;
  }
  const auto it = std::find(group_names_.begin(), group_names_.end(), group);
  group_of_.push_back(static_cast<std::size_t>(it - group_names_.begin()));
  if (it == group_names_.end()) {
    group_names_.emplace_back(group);
    groups_.emplace_back();
  }
}

const CooldownBoard::Slot* CooldownBoard::group_slot(ProviderId id) const {
  return group_of_[id] == kNoGroup ? nullptr : &groups_[group_of_[id]];
}

TimePoint CooldownBoard::cooling_until(ProviderId id) const {
  assert(id < providers_.size());
  const Slot* group = group_slot(id);
  return std::max(providers_[id].until, group != nullptr ? group->until : 0);
}

OutcomeKind CooldownBoard::cooled_by(ProviderId id) const {
  const Slot* group = group_slot(id);
  return group != nullptr && group->until > providers_[id].until ? group->kind : providers_[id].kind;
}

std::optional<CooldownBoard::Cooled> CooldownBoard::fail(ProviderId id, OutcomeKind kind, TimePoint now, Nanos duration,
                                                         std::int64_t allowed_fails) {
  assert(id < providers_.size() && duration > 0);
  const bool quota = kind == OutcomeKind::rate_limited || kind == OutcomeKind::quota_exhausted;
  const bool grouped = quota && group_of_[id] != kNoGroup;
  Slot& slot = grouped ? groups_[group_of_[id]] : providers_[id];
  if (now >= slot.window_end) {
    slot.window_end = add_saturating(now, kFailWindow);
    slot.fails = 0;
  }
  if (++slot.fails <= allowed_fails) return std::nullopt;
  const TimePoint end = add_saturating(now, duration);
  if (end > slot.until) {
    slot.until = end;
    slot.kind = kind;
  }
  slot.fails = 0;
  return Cooled{slot.until, grouped};
}

}  // namespace squall
