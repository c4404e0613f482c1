#include "engine/strategies/cache_key.hpp"

#include <bit>
#include <tuple>

#include "engine/text.hpp"

namespace squall {

void CacheKey::assign(const CacheKeyView& v) {
  query.assign(v.query);
  top_k = v.top_k;
  min_score_bits = v.min_score_bits;
  mode = v.mode;
}

CacheKeyView cache_key_of(const Request& request, std::string& scratch) {
  scratch.clear();
  append_normalized(request.query, scratch);
  // + 0.0 turns -0.0 into 0.0 (IEEE 754 round-to-nearest), which ask the same question.
  return {scratch, request.top_k, std::bit_cast<std::uint64_t>(request.min_score + 0.0), request.mode};
}

bool CacheKeyLess::operator()(const CacheKeyView& a, const CacheKeyView& b) const {
  return std::tie(a.query, a.top_k, a.min_score_bits, a.mode) < std::tie(b.query, b.top_k, b.min_score_bits, b.mode);
}

}  // namespace squall
