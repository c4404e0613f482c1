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
//
// Recent texts. A run asks for the same few dozen texts again and again, and hashing one
// for the map costs about five times comparing it with a text already at hand (the
// flagship hour cut to ten minutes: about 220 instructions per search through the map).
// So in front of the map sit kRecentSlots slots, direct-mapped by the text's length and
// first and last eight bytes (text_slot, engine/runtime/same_text.hpp), each pointing at
// the kept entry last found through it; a slot's text is compared byte for byte, so it
// changes no value. Texts shorter than eight bytes, and values not kept, go to the map.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "engine/runtime/same_text.hpp"

namespace squall {

template <class Value>
class TextMemo {
 public:
  // 4,096 by default: far more distinct texts than a run's task templates and ladders
  // produce, and a few hundred KiB at most for query-sized texts and values.
  static constexpr std::size_t kDefaultMaxEntries = 4096;
  explicit TextMemo(std::size_t max_entries = kDefaultMaxEntries) : max_entries_(max_entries) {}
  // A copy keeps no recent slot (they point into the original's map); a move takes them,
  // with the entries they point at, and leaves the source's empty.
  TextMemo(const TextMemo& other) : max_entries_(other.max_entries_), kept_(other.kept_), spill_(other.spill_) {}
  TextMemo(TextMemo&& other) noexcept
      : max_entries_(other.max_entries_),
        kept_(std::move(other.kept_)),
        spill_(std::move(other.spill_)),
        recent_(std::exchange(other.recent_, {})) {}
  TextMemo& operator=(const TextMemo& other) {
    if (this != &other) *this = TextMemo(other);
    return *this;
  }
  TextMemo& operator=(TextMemo&& other) noexcept {
    max_entries_ = other.max_entries_;
    kept_ = std::move(other.kept_);
    spill_ = std::move(other.spill_);
    recent_ = std::exchange(other.recent_, {});
    return *this;
  }
  ~TextMemo() = default;

  // The value of `text`: the kept one, or compute(text), kept when there is room. The
  // reference is valid until the next get() for a text that was not kept.
  template <class Compute>
  const Value& get(std::string_view text, Compute&& compute) {
    const Entry** recent = nullptr;
    if (text.size() >= 8) {
      recent = &recent_[text_slot(text, kRecentSlotBits)];
      if (*recent != nullptr && same_text((*recent)->first, text)) return (*recent)->second;
    }
    auto it = kept_.find(text);
    if (it == kept_.end()) {
      if (kept_.size() == max_entries_) {
        spill_ = compute(text);
        return spill_;
      }
      it = kept_.emplace(std::string(text), compute(text)).first;
    }
    if (recent != nullptr) *recent = &*it;
    return it->second;
  }

  // Whether `value`, a reference get() returned, is a kept value (valid for the memo's
  // life) rather than the spill slot (valid until the next get() of a text not kept).
  bool kept(const Value& value) const { return &value != &spill_; }

  std::size_t size() const { return kept_.size(); }
  void clear() {
    kept_.clear();
    recent_.fill(nullptr);
  }

 private:
  // Transparent hashing, so that find() takes a std::string_view.
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
  };

  using Map = std::unordered_map<std::string, Value, Hash, std::equal_to<>>;
  using Entry = typename Map::value_type;  // never moves while kept
  static constexpr unsigned kRecentSlotBits = 8;
  static constexpr std::size_t kRecentSlots = std::size_t{1} << kRecentSlotBits;  // 2 KiB

  std::size_t max_entries_;
  Map kept_;
  Value spill_{};
  std::array<const Entry*, kRecentSlots> recent_{};  // null: not used yet
};

}  // namespace squall
