// The capacity layer as an M/M/c queue: Poisson arrivals, exponential service, c slots, a
// queue large enough never to fill, no timeouts, no retries. Its mean wait in queue and its
// utilisation must match Erlang C's (Kleinrock, Queueing Systems vol. 1, 1975, section
// 3.5; also Gross & Harris, Fundamentals of Queueing Theory, section 2.3):
//   a = lambda / mu, rho = a / c,
//   C(c, a) = [a^c / c! / (1 - rho)] / [sum_{k<c} a^k / k! + a^c / c! / (1 - rho)],
//   Wq = C(c, a) / (c mu - lambda),   utilisation = rho.
// Standard errors come from batch means (Law & Kelton, Simulation Modeling and Analysis,
// section 9.5.3): the run after a warm-up is cut into consecutive batches, whose means are
// close to independent when batches are much longer than the queue's relaxation time.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "engine/runtime/rng.hpp"
#include "mocks/capacity/capacity_provider.hpp"
#include "sim/event_loop.hpp"

namespace squall {
namespace {

// Serves each request in an exponential time of mean `mean_s` and records when service
// started, by the request's id (carried in prompt_tokens).
class ExponentialServer final : public Provider {
 public:
  ExponentialServer(Clock& clock, Scheduler& scheduler, double mean_s, std::vector<TimePoint>& started)
      : clock_(clock), scheduler_(scheduler), rng_(77), mean_s_(mean_s), started_(started) {}
  std::string_view name() const override { return "mmc"; }
  Task<Response> call(Request request, CallOptions) override {
    started_[static_cast<std::size_t>(request.prompt_tokens)] = clock_.now();
    const auto service = static_cast<Nanos>(std::llround(rng_.exponential(mean_s_) * 1e9));
    co_await resume_after(clock_, scheduler_, service);
    co_return Response{};
  }

 private:
  Clock& clock_;
  Scheduler& scheduler_;
  Xoshiro256 rng_;
  double mean_s_;
  std::vector<TimePoint>& started_;
};

double erlang_c(int c, double a) {
  double term = 1;  // a^k / k!
  double sum = 0;
  for (int k = 0; k < c; ++k) {
    sum += term;
    term *= a / (k + 1);
  }
  const double rho = a / c;
  const double last = term / (1 - rho);
  return last / (sum + last);
}

struct BatchMeans {
  double mean = 0;
  double se = 0;
};

BatchMeans batch_means(const std::vector<double>& batches) {
  BatchMeans b;
  const auto n = static_cast<double>(batches.size());
  for (const double x : batches) b.mean += x / n;
  double ss = 0;
  for (const double x : batches) ss += (x - b.mean) * (x - b.mean);
  b.se = std::sqrt(ss / (n - 1) / n);
  return b;
}

Task<void> one_call(Provider& p, std::int64_t id) {
  Request request;
  request.prompt_tokens = id;
  co_await p.call(request, CallOptions{});
}

Task<void> poisson_arrivals(EventLoop& loop, Provider& p, double rate, std::int64_t n, std::vector<TimePoint>& arrived,
                            std::exception_ptr& error) {
  Xoshiro256 rng(2025);
  TimePoint t = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    t += static_cast<Nanos>(std::llround(rng.exponential(1 / rate) * 1e9));
    co_await sleep_until(loop, t);
    arrived[static_cast<std::size_t>(i)] = t;
    spawn(one_call(p, i), &error);
  }
}

TEST(CapacityErlangCTest, MMcMeanWaitAndUtilisationMatchErlangC) {
  constexpr int c = 4;
  constexpr double lambda = 3.2;  // per second
  constexpr double mu = 1.0;      // per second: mean service 1 s
  constexpr std::int64_t n = 200'000;
  constexpr std::int64_t warm_up = 10'000;
  constexpr int batches = 20;
  const double a = lambda / mu;
  const double wq = erlang_c(c, a) / (c * mu - lambda);
  const double rho = a / c;

  EventLoop loop;
  std::vector<TimePoint> arrived(n), started(n, -1);
  CapacityConfig config;
  config.limits.max_concurrency = c;
  config.queue_size = kMaxQueueSize;
  config.queue_timeout = kNever;
  const Nanos window = 1000 * kSecond;
  CapacityProvider server(std::make_unique<ExponentialServer>(loop, loop, 1 / mu, started), config,
                          Body::search_results, loop, loop, CapacitySeriesOptions{window, 100'000});
  std::exception_ptr error;
  spawn(poisson_arrivals(loop, server, lambda, n, arrived, error), &error);
  loop.run();
  ASSERT_FALSE(error);
  server.finish(loop.now());

  // Mean wait in queue, by batches of arrivals after the warm-up.
  std::vector<double> waits;
  const std::int64_t per_batch = (n - warm_up) / batches;
  for (int b = 0; b < batches; ++b) {
    double sum = 0;
    for (std::int64_t i = warm_up + b * per_batch; i < warm_up + (b + 1) * per_batch; ++i) {
      ASSERT_GE(started[i], arrived[i]);
      sum += static_cast<double>(started[i] - arrived[i]) / 1e9;
    }
    waits.push_back(sum / static_cast<double>(per_batch));
  }
  const BatchMeans w = batch_means(waits);
  EXPECT_NEAR(w.mean, wq, 4 * w.se) << "Erlang C Wq = " << wq << " s, se " << w.se;

  // Utilisation: busy slot-time over c x time, by batches of whole windows after the
  // warm-up window, up to the last arrival.
  const auto& windows = server.stats().windows();
  const std::size_t first = 1;
  const std::size_t last = static_cast<std::size_t>(arrived.back() / window);  // exclusive
  const std::size_t per = (last - first) / batches;
  ASSERT_GE(per, 1U);
  std::vector<double> utils;
  for (int b = 0; b < batches; ++b) {
    double busy = 0;
    for (std::size_t i = first + b * per; i < first + (b + 1) * per; ++i)
      busy += static_cast<double>(windows[i].in_flight_ns);
    utils.push_back(busy / (c * static_cast<double>(per * window)));
  }
  const BatchMeans u = batch_means(utils);
  EXPECT_NEAR(u.mean, rho, 4 * u.se) << "utilisation " << u.mean << ", se " << u.se;
  // The figures, for the record of the run.
  std::printf("M/M/%d rho=%.2f: Wq %.4f s (Erlang C %.4f, se %.4f); utilisation %.4f (se %.4f)\n", c, rho, w.mean, wq,
              w.se, u.mean, u.se);
}

}  // namespace
}  // namespace squall
