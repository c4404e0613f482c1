// Independent runs in parallel (DESIGN section 3: one simulation runs on one thread;
// parallelism is across independent runs). `squall ci` runs many scenarios with it; sweeps
// (many policies and seeds of one PreparedScenario, sim/run.hpp) are meant to as well.
//
// The runs go to a boost::asio::thread_pool of `jobs` threads. Each run must share nothing
// mutable with the others (a PreparedScenario is read-only once built, and every
// PreparedScenario::run builds a fresh World), so its result does not depend on which
// thread ran it, on what ran before it, or on `jobs`: the results come back in index
// order, identical for any number of jobs.
//
// Results are also handed out in index order while the pool works: `on_ready(i, result)`
// is called, from one thread at a time, for result i as soon as results 0..i are all
// finished, so a caller that prints a line per run prints the same lines in the same
// order for any `jobs` (the order `parallel --keep-order` and `xargs -P` users expect from
// a log), without waiting for the slowest run to print the first line.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>

namespace squall {

// The default number of jobs: the processors online (at least 1).
std::size_t default_jobs();

// Runs `run(i)` for every i in [0, count) on `jobs` threads (at least 1) and returns the
// results in index order. `on_ready` (optional) sees each result in index order as soon as
// it and every result before it are finished. `run` must not throw: a run's errors belong
// in its Result (an exception escaping it calls std::terminate, as a thread's would).
template <typename Result>
std::vector<Result> run_parallel(std::size_t count, std::size_t jobs, const std::function<Result(std::size_t)>& run,
                                 const std::function<void(std::size_t, const Result&)>& on_ready = {}) {
  std::vector<std::optional<Result>> slots(count);
  std::mutex mutex;
  std::size_t next_ready = 0;  // the first index not yet handed to on_ready
  {
    boost::asio::thread_pool pool(jobs == 0 ? 1 : jobs);
    for (std::size_t i = 0; i < count; ++i) {
      boost::asio::post(pool, [&, i]() noexcept {
        Result result = run(i);
        const std::lock_guard<std::mutex> lock(mutex);
        slots[i].emplace(std::move(result));
        // Hand out every result whose predecessors are all finished, in order.
        while (next_ready < count && slots[next_ready]) {
          if (on_ready) on_ready(next_ready, *slots[next_ready]);
          ++next_ready;
        }
      });
    }
    pool.join();
  }
  std::vector<Result> results;
  results.reserve(count);
  for (std::optional<Result>& slot : slots) results.push_back(std::move(*slot));
  return results;
}

}  // namespace squall
