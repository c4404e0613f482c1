#include "replay/bayesian_blocks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace squall::replay {
namespace {

__extension__ using i128 = __int128;  // bin edges: span * b fits no int64

// Cells of the program: counts and edges (edges.size() == counts.size() + 1), in ns.
struct Cells {
  std::vector<double> counts;
  std::vector<std::int64_t> edges;
};

Cells event_cells(std::span<const std::int64_t> times) {
  Cells cells;
  std::vector<std::int64_t> distinct;
  for (std::int64_t t : times) {
    if (distinct.empty() || distinct.back() != t) {
      distinct.push_back(t);
      cells.counts.push_back(0);
    }
    cells.counts.back() += 1;
  }
  cells.edges.push_back(distinct.front());
  for (std::size_t i = 1; i < distinct.size(); ++i) {
    // The midpoint without overflow: both are ordered, so the difference fits.
    cells.edges.push_back(distinct[i - 1] + (distinct[i] - distinct[i - 1]) / 2);
  }
  cells.edges.push_back(distinct.back());
  return cells;
}

Cells binned_cells(std::span<const std::int64_t> times, std::size_t bins) {
  Cells cells;
  const std::int64_t first = times.front();
  const std::int64_t last = times.back();
  const auto span = static_cast<i128>(last - first);
  for (std::size_t b = 0; b <= bins; ++b) {
    cells.edges.push_back(first + static_cast<std::int64_t>(span * static_cast<i128>(b) / bins));
  }
  cells.counts.assign(bins, 0);
  std::size_t bin = 0;
  for (std::int64_t t : times) {
    while (bin + 1 < bins && t >= cells.edges[bin + 1]) ++bin;
    cells.counts[bin] += 1;
  }
  return cells;
}

double block_fitness(double count, double width_s) {
  if (count <= 0 || width_s <= 0) return 0;
  return count * (std::log(count) - std::log(width_s));
}

// The dynamic program of section 3: best[r] is the best total fitness of cells 0..r, and
// last[r] the first cell of its final block. Returns the first cell of every block.
std::vector<std::size_t> optimal_starts(const Cells& cells, double ncp_prior) {
  const std::size_t n = cells.counts.size();
  std::vector<double> best(n, 0);
  std::vector<std::size_t> last(n, 0);
  const std::int64_t origin = cells.edges.front();
  auto seconds = [&](std::size_t e) { return static_cast<double>(cells.edges[e] - origin) / 1e9; };
  for (std::size_t r = 0; r < n; ++r) {
    double count = 0;  // events in cells k..r, accumulated as k falls
    double top = -std::numeric_limits<double>::infinity();
    std::size_t arg = 0;
    const double end = seconds(r + 1);
    for (std::size_t k = r + 1; k-- > 0;) {
      count += cells.counts[k];
      const double value = block_fitness(count, end - seconds(k)) - ncp_prior + (k > 0 ? best[k - 1] : 0.0);
      if (value > top) {  // strict: a tie keeps the later start, deterministically
        top = value;
        arg = k;
      }
    }
    best[r] = top;
    last[r] = arg;
  }
  std::vector<std::size_t> starts;
  for (std::size_t r = n; r > 0;) {
    starts.push_back(last[r - 1]);
    r = last[r - 1];
  }
  std::reverse(starts.begin(), starts.end());
  return starts;
}

}  // namespace

double ncp_prior_events(std::size_t cells, double p0) {
  return 4.0 - std::log(73.53 * p0 * std::pow(static_cast<double>(cells), -0.478));
}

BayesianBlocks bayesian_blocks(std::span<const std::int64_t> times_ns, const BayesianBlocksOptions& options) {
  if (!std::is_sorted(times_ns.begin(), times_ns.end())) {
    throw std::invalid_argument("bayesian_blocks: event times must be sorted ascending");
  }
  if (options.max_cells < 2 || !(options.p0 > 0 && options.p0 < 1)) {
    throw std::invalid_argument("bayesian_blocks: max_cells must be >= 2 and p0 in (0, 1)");
  }
  BayesianBlocks out;
  if (times_ns.empty()) return out;
  if (times_ns.front() == times_ns.back()) {
    out.blocks.push_back({times_ns.front(), times_ns.back(), times_ns.size(), 0.0});
    out.cells = 1;
    return out;
  }
  std::size_t distinct = 1;
  for (std::size_t i = 1; i < times_ns.size(); ++i) distinct += times_ns[i] != times_ns[i - 1] ? 1 : 0;
  out.binned = distinct > options.max_cells;
  const Cells cells = out.binned ? binned_cells(times_ns, options.max_cells) : event_cells(times_ns);
  out.cells = cells.counts.size();
  out.ncp_prior = ncp_prior_events(out.cells, options.p0);
  const std::vector<std::size_t> starts = optimal_starts(cells, out.ncp_prior);
  for (std::size_t b = 0; b < starts.size(); ++b) {
    const std::size_t end = b + 1 < starts.size() ? starts[b + 1] : cells.counts.size();
    RateBlock block{cells.edges[starts[b]], cells.edges[end], 0, 0};
    for (std::size_t c = starts[b]; c < end; ++c) block.events += static_cast<std::uint64_t>(cells.counts[c]);
    const double width_s = static_cast<double>(block.to_ns - block.from_ns) / 1e9;
    block.rate_per_s = width_s > 0 ? static_cast<double>(block.events) / width_s : 0.0;
    out.blocks.push_back(block);
  }
  return out;
}

}  // namespace squall::replay
