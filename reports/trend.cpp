#include "reports/trend.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>

namespace squall {
namespace {

// A sum of up to 2^64 int64 samples fits in 128 bits, so the mean's sum is exact;
// __extension__ keeps -Wpedantic quiet about the GCC/Clang built-in type.
__extension__ using i128 = __int128;

using Samples = std::span<const std::int64_t>;

// Bits of the value range resolved per pass: 2048 counters of 8 bytes stay in L1.
constexpr int kDigitBits = 11;
// At most this many samples are searched by selection on a copy (std::nth_element)
// instead of by a counting pass: the copy is at most 16 KiB, and a counting pass would
// clear and walk 2048 counters per digit, several digits deep, for a few hundred samples
// (a time-series window's, or the samples of the bucket a rank fell in after the first
// pass over a million). The answer is the k-th smallest sample either way.
constexpr std::size_t kSelectOnCopyMax = std::size_t{1} << kDigitBits;

// A rank (0-based) among the samples being searched, and where its sample goes.
struct Query {
  std::uint64_t rank;
  std::int64_t* answer;
};

// Distances from the low end of the range are unsigned, so that negative samples and a
// range wider than INT64_MAX need no special case.
std::uint64_t offset(std::int64_t x, std::int64_t lo) {
  return static_cast<std::uint64_t>(x) - static_cast<std::uint64_t>(lo);
}

// At most this many samples are searched by std::nth_element alone; more (up to
// kSelectOnCopyMax) by one counting pass first (select_by_counting).
constexpr std::size_t kNthElementMax = 64;

// Answers `queries`, sorted by rank, among `samples` by std::nth_element, reordering them.
void select_by_comparison(std::span<std::int64_t> samples, std::span<const Query> queries) {
  // Ranks ascending: each selection leaves only larger samples after its rank, so the
  // next one searches the rest.
  auto from = samples.begin();
  for (const Query& q : queries) {
    const auto at = samples.begin() + static_cast<std::ptrdiff_t>(q.rank);
    std::nth_element(from, at, samples.end());
    *q.answer = *at;
    from = at;
  }
}

// Answers `queries`, sorted by rank, among kNthElementMax < n <= kSelectOnCopyMax samples:
// counts them per bucket of their range (about one bucket per sample, at most 2^kDigitBits),
// then selects by comparison among the samples of each bucket a rank falls in only: what
// select() below does for a million samples, on the stack and one level deep.
// std::nth_element on the whole set mispredicts about every other comparison; these passes
// have no data-dependent branch, and a time series' windows of a few hundred tasks each
// took a twentieth of retry-breaker-1m's run by comparison alone (bench/README.md). The
// answers are the same: the k-th smallest sample either way.
void select_by_counting(std::span<std::int64_t> samples, std::span<const Query> queries) {
  std::int64_t lo = samples.front();
  std::int64_t hi = samples.front();
  for (const std::int64_t x : samples) {
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  const std::uint64_t width = offset(hi, lo);
  const int bits = std::min(kDigitBits, static_cast<int>(std::bit_width(samples.size())));
  const int shift = std::max(0, static_cast<int>(std::bit_width(width)) - bits);
  const std::size_t buckets = static_cast<std::size_t>(width >> shift) + 1;  // at most 2^bits
  std::array<std::uint32_t, kSelectOnCopyMax> counts;
  std::fill_n(counts.begin(), buckets, 0);
  for (const std::int64_t x : samples) ++counts[offset(x, lo) >> shift];

  std::array<std::int64_t, kSelectOnCopyMax> gathered;
  std::size_t bucket = 0;
  std::uint64_t before = 0;  // samples in the buckets before `bucket`
  std::size_t query = 0;
  while (query < queries.size()) {
    while (before + counts[bucket] <= queries[query].rank) before += counts[bucket++];
    // The queries whose rank falls in this bucket, with ranks within it; eight at a time
    // (a report asks three), the next eight gather the bucket again.
    std::array<Query, 8> in_bucket;
    std::size_t k = 0;
    for (; query < queries.size() && queries[query].rank < before + counts[bucket] && k < in_bucket.size(); ++query) {
      in_bucket[k++] = Query{queries[query].rank - before, queries[query].answer};
    }
    if (shift == 0) {  // a bucket holds a single value
      for (std::size_t i = 0; i < k; ++i)
        *in_bucket[i].answer = static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + bucket);
      continue;
    }
    std::size_t n = 0;  // written unconditionally, kept when in the bucket: no branch
    for (const std::int64_t x : samples) {
      gathered[n] = x;
      n += (offset(x, lo) >> shift) == bucket ? 1 : 0;
    }
    select_by_comparison(std::span(gathered.data(), n), std::span(in_bucket.data(), k));
  }
}

// Answers `queries`, sorted by rank, among `samples` by selection, reordering them.
void select_in_place(std::span<std::int64_t> samples, std::span<const Query> queries) {
  if (samples.size() <= kNthElementMax || samples.size() > kSelectOnCopyMax) {
    select_by_comparison(samples, queries);
  } else {
    select_by_counting(samples, queries);
  }
}

// The queries of `ps` among n > 0 samples, sorted by rank, answering into `answers`.
std::vector<Query> queries_for(std::span<const double> ps, std::size_t n, std::vector<std::int64_t>& answers) {
  std::vector<Query> queries;
  for (std::size_t i = 0; i < ps.size(); ++i) queries.push_back({nearest_rank(ps[i], n) - 1, &answers[i]});
  std::sort(queries.begin(), queries.end(), [](const Query& a, const Query& b) { return a.rank < b.rank; });
  return queries;
}

// Answers `queries`, sorted by rank, among the samples of `parts`, which all lie in
// [lo, lo + width]: counts the samples per bucket of the range's top kDigitBits bits,
// finds the bucket of each rank, and searches again among that bucket's samples only.
void select(std::span<const Samples> parts, std::int64_t lo, std::uint64_t width, std::span<const Query> queries) {
  if (width == 0) {  // one value left: it is every rank's answer
    for (const Query& q : queries) *q.answer = lo;
    return;
  }
  std::size_t n = 0;
  for (const Samples part : parts) n += part.size();
  if (n <= kSelectOnCopyMax) {
    std::vector<std::int64_t> copy;
    copy.reserve(n);
    for (const Samples part : parts) copy.insert(copy.end(), part.begin(), part.end());
    select_in_place(copy, queries);
    return;
  }
  const int shift = std::max(0, static_cast<int>(std::bit_width(width)) - kDigitBits);
  std::vector<std::uint64_t> counts((width >> shift) + 1, 0);
  for (const Samples part : parts) {
    for (const std::int64_t x : part) ++counts[offset(x, lo) >> shift];
  }

  // Walk the buckets once, assigning each query its bucket and its rank within it.
  struct Group {
    std::uint64_t bucket;
    std::vector<Query> queries;  // ranks within the bucket
    std::vector<std::int64_t> samples;
  };
  std::vector<Group> groups;
  std::uint64_t bucket = 0;
  std::uint64_t before = 0;  // samples in the buckets before `bucket`
  for (const Query& q : queries) {
    while (before + counts[bucket] <= q.rank) before += counts[bucket++];
    if (groups.empty() || groups.back().bucket != bucket) groups.push_back({bucket, {}, {}});
    groups.back().queries.push_back({q.rank - before, q.answer});
  }
  if (shift == 0) {  // a bucket holds a single value
    for (const Group& g : groups) {
      for (const Query& q : g.queries) *q.answer = static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + g.bucket);
    }
    return;
  }
  // One pass gathers the samples of every bucket that a rank falls in.
  std::vector<std::int32_t> group_of(counts.size(), -1);
  for (std::size_t i = 0; i < groups.size(); ++i) {
    group_of[groups[i].bucket] = static_cast<std::int32_t>(i);
    groups[i].samples.reserve(counts[groups[i].bucket]);
  }
  for (const Samples part : parts) {
    for (const std::int64_t x : part) {
      const std::int32_t g = group_of[offset(x, lo) >> shift];
      if (g >= 0) groups[static_cast<std::size_t>(g)].samples.push_back(x);
    }
  }
  for (const Group& g : groups) {
    const std::uint64_t start = g.bucket << shift;
    const auto bucket_lo = static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + start);
    const std::uint64_t bucket_width = std::min(width - start, (std::uint64_t{1} << shift) - 1);
    const Samples samples(g.samples);
    select(std::span(&samples, 1), bucket_lo, bucket_width, g.queries);
  }
}

}  // namespace

std::size_t nearest_rank(double p, std::size_t n) {
  // As HdrHistogram: nudge p down by one ulp so that p * n / 100 landing one ulp above an
  // integer (e.g. through 99.9's binary representation) does not round up to the next rank.
  const double nudged = std::nextafter(p, -std::numeric_limits<double>::infinity());
  const double rank = std::ceil(nudged * static_cast<double>(n) / 100.0);
  if (!(rank >= 1)) return 1;
  if (rank >= static_cast<double>(n)) return n;
  return static_cast<std::size_t>(rank);
}

Trend::Trend(std::vector<Part> parts) {
  i128 sum = 0;
  min_ = std::numeric_limits<std::int64_t>::max();
  max_ = std::numeric_limits<std::int64_t>::min();
  for (const Part& part : parts) {
    if (part.histogram != nullptr) {
      const LogHistogram& h = *part.histogram;
      if (h.count() == 0) continue;
      histograms_.push_back(&h);
      size_ += h.count();
      sum += h.sum();
      min_ = std::min(min_, h.min());
      max_ = std::max(max_, h.max());
      continue;
    }
    samples_.push_back(part.samples);
    size_ += part.samples.size();
    for (const std::int64_t x : part.samples) {
      sum += x;
      min_ = std::min(min_, x);
      max_ = std::max(max_, x);
    }
  }
  if (size_ == 0) {
    min_ = max_ = 0;
    return;
  }
  mean_ = static_cast<double>(sum) / static_cast<double>(size_);
}

std::vector<std::int64_t> percentiles_in_place(std::span<std::int64_t> samples, std::span<const double> ps) {
  std::vector<std::int64_t> answers(ps.size(), 0);
  if (samples.empty()) return answers;
  select_in_place(samples, queries_for(ps, samples.size(), answers));
  return answers;
}

std::vector<std::int64_t> Trend::percentiles(std::span<const double> ps) const {
  std::vector<std::int64_t> answers(ps.size(), 0);
  if (size_ == 0) return answers;
  const std::vector<Query> queries = queries_for(ps, size_, answers);
  if (exact()) {
    select(samples_, min_, offset(max_, min_), queries);
    return answers;
  }
  // Some samples are only counted: count every part's samples in one histogram and ask it.
  LogHistogram all;
  for (const LogHistogram* h : histograms_) all.merge(*h);
  for (const Samples part : samples_) {
    for (const std::int64_t x : part) all.record(x);
  }
  std::vector<std::uint64_t> ranks;
  for (const Query& q : queries) ranks.push_back(q.rank);
  std::vector<std::int64_t> values(ranks.size());
  all.values_at_ranks(ranks, values);
  for (std::size_t i = 0; i < queries.size(); ++i) *queries[i].answer = values[i];
  return answers;
}

std::int64_t Trend::percentile(double p) const { return percentiles(std::span(&p, 1)).front(); }

}  // namespace squall
