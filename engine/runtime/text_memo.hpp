// TextMemo: the values of a pure function of a text, kept per distinct text, with a cap on
// the number kept.
//
// For work a run repeats on the same few texts: a search mock matching the queries of a
// few task templates again and again, a query ladder simplifying the same queries. The
// function must depend on nothing but the text (and what the owner holds fixed for the
// run), so a kept value is the value it would compute again: a memo changes no result,
// only its cost, and cannot affect determinism.
//
// The first `max_entries` distinct texts are kept (each text and value once, in a
// std::unordered_map: references to kept values stay valid for the memo's life); the
// value of any later new text is computed on every call into one spill slot, which the
// next such call overwrites. Memory is therefore bounded by `max_entries` texts and
// values. Lookups by std::string_view build no string.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace squall {

template <class Value>
class TextMemo {
 public:
  // 4,096 by default: far more distinct texts than a run's task templates and ladders
  // produce, and a few hundred KiB at most for query-sized texts and values.
  static constexpr std::size_t kDefaultMaxEntries = 4096;
  explicit TextMemo(std::size_t max_entries = kDefaultMaxEntries) : max_entries_(max_entries) {}

  // The value of `text`: the kept one, or compute(text), kept when there is room. The
  // reference is valid until the next get() for a text that was not kept.
  template <class Compute>
  const Value& get(std::string_view text, Compute&& compute) {
    if (const auto it = kept_.find(text); it != kept_.end()) return it->second;
    if (kept_.size() < max_entries_) return kept_.emplace(std::string(text), compute(text)).first->second;
    spill_ = compute(text);
    return spill_;
  }

  // Whether `value`, a reference get() returned, is a kept value (valid for the memo's
  // life) rather than the spill slot (valid until the next get() of a text not kept).
  bool kept(const Value& value) const { return &value != &spill_; }

  std::size_t size() const { return kept_.size(); }
  void clear() { kept_.clear(); }

 private:
  // Transparent hashing, so that find() takes a std::string_view.
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
  };

  std::size_t max_entries_;
  std::unordered_map<std::string, Value, Hash, std::equal_to<>> kept_;
  Value spill_{};
};

}  // namespace squall
