// squall_live_load: the HTTP load generator of the live-mode benchmark (bench/live_load.sh,
// bench/README.md "Live mode"). It POSTs one fixed request over keep-alive connections to a
// server on this machine and prints one line of figures.
//
//   squall_live_load --port P [--host 127.0.0.1] [--path /v1/chat/completions]
//                    [--body JSON] [--connections N] [--warmup S] [--duration S] [--rate R]
//
// Closed loop (no --rate): N connections each send the next request as soon as the answer
// to the last one is read, for the highest throughput the server gives.
//
// Open loop (--rate R): request i is due at start + i / R, whatever the server does; it
// goes out on a free connection of the pool of N (or waits for one), and its latency is
// counted from when it was due, not from when it went out, so a server that stalls is
// charged for every request that waited behind the stall (coordinated omission, Gil Tene:
// "How NOT to Measure Latency"; wrk2 measures the same way).
//
// Requests answered during --warmup are not counted. The output line:
//   mode=closed requests=N answered=A errors=E seconds=S rps=X p50_us=.. p90_us=.. p99_us=.. p999_us=.. max_us=..
// where N is the requests of the measured window, A every 200 including the warm-up's
// (for the server's CPU time per request, bench/live_load.sh).
// A request that got another status than 200, or whose connection broke, is an error.
// Every run stops by itself: it sends for at most warmup + duration (each at most 600 s)
// and gives the last answers 10 s.
//
// The real clock (steady_clock) is read here and only here in bench/: a load generator
// measures real time (tests/source/ban_list_test.cpp lists this file).
#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/steady_timer.hpp>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/live/load_connection.hpp"

namespace {

namespace net = boost::asio;
using squall::bench::live::LoadConnection;
using squall::bench::live::Outcome;
using Clock = std::chrono::steady_clock;

constexpr double kMaxSeconds = 600;
constexpr std::chrono::seconds kDrainTime{10};
constexpr int kMaxConnections = 1000;

struct Options {
  std::string host = "127.0.0.1";
  unsigned short port = 0;
  std::string path = "/v1/chat/completions";
  std::string body = R"({"model":"gpt-4o-mini","messages":[{"role":"user","content":"Say hello to the benchmark."}]})";
  int connections = 64;
  double warmup_s = 2;
  double duration_s = 10;
  double rate = 0;  // requests per second; 0: closed loop
};

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

std::optional<double> number(const std::string& text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

// A numeric option: where it goes and the values it takes.
struct NumberOption {
  const char* name;
  double low, high;
  double* value;
};

// Parses `--name value` pairs; on a bad one prints why and returns nothing.
std::optional<Options> parse(int argc, char** argv) {
  Options o;
  double port = 0;
  double connections = o.connections;
  const NumberOption numbers[] = {{"--port", 1, 65535, &port},
                                  {"--connections", 1, kMaxConnections, &connections},
                                  {"--warmup", 0, kMaxSeconds, &o.warmup_s},
                                  {"--duration", 0.001, kMaxSeconds, &o.duration_s},
                                  {"--rate", 0, 1e7, &o.rate}};
  for (int i = 1; i < argc; i += 2) {
    const std::string name = argv[i];
    const std::string value = i + 1 < argc ? argv[i + 1] : "";
    if (name == "--host" || name == "--path" || name == "--body") {
      (name == "--host" ? o.host : name == "--path" ? o.path : o.body) = value;
      continue;
    }
    const auto* option =
        std::find_if(std::begin(numbers), std::end(numbers), [&](const NumberOption& n) { return name == n.name; });
    const std::optional<double> n = number(value);
    if (option == std::end(numbers) || !n || *n < option->low || *n > option->high) {
      fmt::print(stderr, "squall_live_load: unknown option, or a value not a number in range: {} \"{}\"\n", name,
                 value);
      return std::nullopt;
    }
    *option->value = *n;
  }
  if (port == 0) {
    fmt::print(stderr, "squall_live_load: --port is required\n");
    return std::nullopt;
  }
  o.port = static_cast<unsigned short>(port);
  o.connections = static_cast<int>(connections);
  return o;
}

std::string request_bytes(const Options& o) {
  // What an SDK sends, less its x-stainless-* headers.
  return fmt::format(
      "POST {} HTTP/1.1\r\nHost: {}:{}\r\nUser-Agent: squall_live_load\r\nAccept: application/json\r\n"
      "Authorization: Bearer sk-squall\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{}",
      o.path, o.host, o.port, o.body.size(), o.body);
}

// The answers counted (those that ended inside the measured window) and their latencies.
struct Tally {
  std::int64_t measured_from = 0;  // ns: the end of the warmup
  std::int64_t measured_to = 0;    // ns: the end of the sending
  std::int64_t ok = 0;
  std::int64_t answered = 0;  // 200s, the warm-up's included
  std::int64_t errors = 0;
  std::vector<std::int64_t> latencies_ns;
};

std::int64_t percentile_us(const std::vector<std::int64_t>& sorted, double p) {
  if (sorted.empty()) return 0;
  // Nearest rank: the smallest sample with at least p% of the samples at or below it.
  const auto rank = static_cast<std::size_t>(std::ceil(p / 100 * static_cast<double>(sorted.size())));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1] / 1000;
}

void print(const char* mode, Tally& t) {
  std::sort(t.latencies_ns.begin(), t.latencies_ns.end());
  const double seconds = static_cast<double>(t.measured_to - t.measured_from) / 1e9;
  fmt::print(
      "mode={} requests={} answered={} errors={} seconds={:.3f} rps={:.0f} p50_us={} p90_us={} p99_us={} p999_us={} "
      "max_us={}\n",
      mode, t.ok, t.answered, t.errors, seconds, static_cast<double>(t.ok) / seconds, percentile_us(t.latencies_ns, 50),
      percentile_us(t.latencies_ns, 90), percentile_us(t.latencies_ns, 99), percentile_us(t.latencies_ns, 99.9),
      t.latencies_ns.empty() ? 0 : t.latencies_ns.back() / 1000);
}

// The shared skeleton of both loops: the connections, the tally, the hard stop.
class Load {
 public:
  Load(const Options& options, net::io_context& io)
      : options_(options), io_(io), request_(request_bytes(options)), deadline_(io) {}
  virtual ~Load() = default;

  // Connects every connection, then starts the loop; returns when it is over.
  bool run(const net::ip::tcp::endpoint& endpoint) {
    for (int i = 0; i < options_.connections; ++i) {
      connections_.push_back(std::make_unique<LoadConnection>(
          io_, request_, [this](LoadConnection& c, std::int64_t tag, Outcome outcome) { answered(c, tag, outcome); }));
    }
    int pending = options_.connections;
    bool all = true;
    for (auto& c : connections_) {
      c->connect(endpoint, [&](bool ok) {
        all = all && ok;
        if (--pending == 0) io_.stop();
      });
    }
    io_.run();
    io_.restart();
    if (!all) {
      fmt::print(stderr, "squall_live_load: cannot connect to {}:{}\n", options_.host, options_.port);
      return false;
    }
    const std::int64_t start = now_ns();
    tally_.measured_from = start + static_cast<std::int64_t>(options_.warmup_s * 1e9);
    tally_.measured_to = tally_.measured_from + static_cast<std::int64_t>(options_.duration_s * 1e9);
    deadline_.expires_at(Clock::time_point(std::chrono::nanoseconds(tally_.measured_to)) + kDrainTime);
    deadline_.async_wait([this](const boost::system::error_code& error) {
      if (error) return;
      fmt::print(stderr, "squall_live_load: answers still missing {} s after the end; stopping\n", kDrainTime.count());
      io_.stop();
    });
    begin(start);
    io_.run();
    return true;
  }
  Tally& tally() { return tally_; }

 protected:
  virtual void begin(std::int64_t start) = 0;
  virtual void answered(LoadConnection& c, std::int64_t tag, Outcome outcome) = 0;
  void count(std::int64_t now, std::int64_t since, Outcome outcome) {
    if (outcome != Outcome::ok) {
      ++tally_.errors;  // counted whenever they happen: a benchmark with errors is void
      return;
    }
    ++tally_.answered;
    if (since < tally_.measured_from || since >= tally_.measured_to) return;
    ++tally_.ok;
    tally_.latencies_ns.push_back(now - since);
  }
  void done_if_idle(std::size_t busy) {
    if (busy == 0) {
      deadline_.cancel();
      io_.stop();
    }
  }

  const Options& options_;
  net::io_context& io_;
  const std::string request_;
  std::vector<std::unique_ptr<LoadConnection>> connections_;
  Tally tally_;
  net::steady_timer deadline_;
};

// Each connection sends again as soon as it is answered, until the window ends. An answer
// counts when its request went out inside the window; its latency is from send to answer.
class ClosedLoop final : public Load {
 public:
  using Load::Load;

 private:
  void begin(std::int64_t start) override {
    for (auto& c : connections_) c->send(start);
    busy_ = connections_.size();
  }
  void answered(LoadConnection& c, std::int64_t sent, Outcome outcome) override {
    const std::int64_t now = now_ns();
    count(now, sent, outcome);
    if (c.open() && now < tally_.measured_to) {
      c.send(now);
    } else {
      --busy_;
      done_if_idle(busy_);
    }
  }
  std::size_t busy_ = 0;
};

// Request i is due at start + i / rate; it waits for a free connection if none is, and
// its latency counts from when it was due.
class OpenLoop final : public Load {
 public:
  OpenLoop(const Options& options, net::io_context& io) : Load(options, io), timer_(io) {}

 private:
  void begin(std::int64_t start) override {
    start_ = start;
    total_ = static_cast<std::int64_t>((options_.warmup_s + options_.duration_s) * options_.rate);
    for (auto& c : connections_) idle_.push_back(c.get());
    tick();
  }
  std::int64_t due(std::int64_t i) const {
    return start_ + static_cast<std::int64_t>(std::llround(static_cast<double>(i) * 1e9 / options_.rate));
  }
  void tick() {
    const std::int64_t now = now_ns();
    while (next_ < total_ && due(next_) <= now) waiting_.push_back(due(next_++));
    dispatch();
    if (next_ >= total_) {
      done_if_idle(in_flight_ + waiting_.size());
      return;
    }
    timer_.expires_at(Clock::time_point(std::chrono::nanoseconds(due(next_))));
    timer_.async_wait([this](const boost::system::error_code& error) {
      if (!error) tick();
    });
  }
  void dispatch() {
    while (!waiting_.empty() && !idle_.empty()) {
      LoadConnection* c = idle_.back();  // the most recently used, as a client's pool does
      idle_.pop_back();
      ++in_flight_;
      c->send(waiting_.front());
      waiting_.pop_front();
    }
  }
  void answered(LoadConnection& c, std::int64_t due_at, Outcome outcome) override {
    count(now_ns(), due_at, outcome);
    --in_flight_;
    if (c.open()) idle_.push_back(&c);
    if (idle_.empty() && in_flight_ == 0) {  // every connection broke
      tally_.errors += static_cast<std::int64_t>(waiting_.size()) + (total_ - next_);
      timer_.cancel();
      done_if_idle(0);
      return;
    }
    dispatch();
    if (next_ >= total_) done_if_idle(in_flight_ + waiting_.size());
  }

  net::steady_timer timer_;
  std::int64_t start_ = 0;
  std::int64_t total_ = 0;
  std::int64_t next_ = 0;
  std::deque<std::int64_t> waiting_;  // due times of requests no connection has taken yet
  std::vector<LoadConnection*> idle_;
  std::size_t in_flight_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  const std::optional<Options> options = parse(argc, argv);
  if (!options) return 2;
  boost::system::error_code error;
  const net::ip::address address = net::ip::make_address(options->host, error);
  if (error) {
    fmt::print(stderr, "squall_live_load: --host: expected a numeric IP address, got \"{}\"\n", options->host);
    return 2;
  }
  net::io_context io(1);
  std::unique_ptr<Load> load;
  if (options->rate > 0) {
    load = std::make_unique<OpenLoop>(*options, io);
  } else {
    load = std::make_unique<ClosedLoop>(*options, io);
  }
  if (!load->run(net::ip::tcp::endpoint(address, options->port))) return 1;
  print(options->rate > 0 ? "open" : "closed", load->tally());
  return load->tally().errors == 0 ? 0 : 1;
}
