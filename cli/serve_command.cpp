#include "cli/serve_command.hpp"

#include <fmt/core.h>
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <variant>

#include "cli/commands.hpp"
#include "cli/report_requests.hpp"
#include "cli/run_inputs.hpp"
#include "cli/run_outputs.hpp"
#include "cli/terminal.hpp"
#include "engine/runtime/duration.hpp"
#include "engine/text.hpp"
#include "live/http_server.hpp"
#include "live/live_service.hpp"
#include "reports/text_summary.hpp"
#include "sim/run.hpp"
#include "sim/scenario/validation_error.hpp"
#include "sim/scenario_loader.hpp"

namespace squall::cli {
namespace {

namespace net = boost::asio;

// How long a stopping server waits for the answers in flight to be written: a stream
// cancelled by the stop ends at once, so this bounds only a client that does not read.
constexpr std::chrono::seconds kDrainGrace{5};

std::optional<net::ip::tcp::endpoint> parse_listen(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos) return std::nullopt;
  std::string host = text.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  const auto port = parse_seed(text.substr(colon + 1));
  boost::system::error_code error;
  const net::ip::address address = net::ip::make_address(host, error);
  if (error || !port || *port > 65535) return std::nullopt;
  return net::ip::tcp::endpoint(address, static_cast<unsigned short>(*port));
}

std::string base_url(const net::ip::tcp::endpoint& endpoint) {
  const net::ip::address address = endpoint.address();
  return address.is_v6() ? fmt::format("http://[{}]:{}", address.to_string(), endpoint.port())
                         : fmt::format("http://{}:{}", address.to_string(), endpoint.port());
}

// The wall clock's Unix seconds: live mode's answers carry real dates (`created`,
// Retry-After HTTP-dates), and cli/ is where the wall clock may be read.
std::int64_t unix_seconds_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// Everything the server needs, checked before it listens (exit 2 on a refusal).
struct CheckedServe {
  Scenario scenario;
  ReportRequests reports;
  net::ip::tcp::endpoint endpoint;
};

std::optional<CheckedServe> check_serve(const ServeOptions& options) {
  LoadResult loaded = load_scenario(options.scenario);
  if (!loaded.errors.empty()) {
    for (const ValidationError& error : loaded.errors) fmt::print(stderr, "{}\n", to_string(error));
    return std::nullopt;
  }
  const auto endpoint = parse_listen(options.listen);
  if (!endpoint) {
    fmt::print(stderr,
               "squall: --listen: expected HOST:PORT with a numeric IP address and a port in [0, 65535], got \"{}\"\n",
               escape_controls(options.listen));
    return std::nullopt;
  }
  CheckedServe serve{std::move(*loaded.scenario), {}, *endpoint};
  serve.reports = parse_report_requests(options.reports, options.out, run_inputs(options.scenario));
  if (serve.reports.error) {
    fmt::print(stderr, "squall: {}\n", escape_controls(*serve.reports.error));
    return std::nullopt;
  }
  return serve;
}

// The stop, whatever asked for it: no new connections or requests, every call in flight
// ended, then the event loop stops once the answers are written (or after kDrainGrace).
class Stopper {
 public:
  Stopper(net::io_context& io, live::HttpServer& server, live::LiveService& service)
      : io_(io), server_(server), service_(service), poll_(io) {}
  void stop() {
    if (stopping_) return;
    stopping_ = true;
    server_.stop();
    service_.stop();
    deadline_ = std::chrono::steady_clock::now() + kDrainGrace;
    drain();
  }

 private:
  void drain() {
    if ((service_.in_flight() == 0 && server_.open_connections() == 0) ||
        std::chrono::steady_clock::now() >= deadline_) {
      io_.stop();
      return;
    }
    poll_.expires_after(std::chrono::milliseconds(5));
    poll_.async_wait([this](const boost::system::error_code&) { drain(); });
  }

  net::io_context& io_;
  live::HttpServer& server_;
  live::LiveService& service_;
  net::steady_timer poll_;
  bool stopping_ = false;
  std::chrono::steady_clock::time_point deadline_;
};

// Raises the soft limit on open files to the hard one (as Go's runtime does at start):
// Debian's soft limit, 1024, is the default --max-connections, and a server out of file
// descriptors can accept nobody (live/http_server.hpp backs off then).
void raise_open_file_limit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max) return;
  limit.rlim_cur = limit.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &limit);  // best effort: the limit as it was still works
}

// After the summary, the failing thresholds; returns the exit code.
int verdict(const Report& report) {
  for (const ThresholdResult& t : report.thresholds) {
    if (!t.passed) fmt::print("threshold failed: {}: {} (observed {})\n", t.metric, t.expression, format_observed(t));
  }
  return report.all_thresholds_passed() ? kExitOk : kExitThresholdFailed;
}

}  // namespace

namespace {

// Serves until stopped; returns the report of what was served.
Report serve(const ServeOptions& options, const Scenario& scenario, const Corpora& corpora,
             const net::ip::tcp::endpoint& endpoint, std::uint64_t seed, std::int64_t start_unix_seconds,
             EventSink* observer) {
  net::io_context io;
  live::RealTimeLoop loop(io, options.time_scale);
  live::LiveWorld world(scenario, corpora, seed, loop, loop, start_unix_seconds, observer);
  Stopper* stopper = nullptr;
  live::LiveService service(
      world, loop, [&] { stopper->stop(); }, options.loop_resends);
  live::ServerLimits limits;
  limits.request_timeout = std::chrono::milliseconds(options.request_timeout / kMillisecond);
  limits.max_connections = options.max_connections;
  raise_open_file_limit();
  live::HttpServer server(io, endpoint, limits, [&service](const auto& session, live::HttpRequest&& request) {
    service.handle(session, std::move(request));
  });
  Stopper stop(io, server, service);
  stopper = &stop;
  // The base URL first, so that a script can read it and start its client.
  fmt::print("{}\n", base_url(server.local_endpoint()));
  if (!options.quiet) fmt::print("squall serve {}: seed {}\n", scenario.name, seed);
  std::fflush(stdout);
  net::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code& error, int) {
    if (!error) stop.stop();
  });
  net::steady_timer duration_timer(io);
  if (options.duration) {
    duration_timer.expires_after(std::chrono::nanoseconds(loop.real_duration(*options.duration)));
    duration_timer.async_wait([&](const boost::system::error_code& error) {
      if (!error) stop.stop();
    });
  }
  io.run();
  if (service.error()) std::rethrow_exception(service.error());
  Provenance provenance;
  provenance.squall_version = std::string(squall_version());
  provenance.scenario_file = options.scenario.string();
  provenance.repro = fmt::format("{} serve {} --seed {}", options.program, options.scenario.string(), seed);
  const Nanos served = options.duration ? std::max(*options.duration, loop.now()) : loop.now();
  const ClientReport clients = service.client_report();
  Report report = world.report(std::max<Nanos>(served, 1), provenance, &clients);
  if (!options.quiet) {
    fmt::print("fault decisions: {}, fingerprint {}\n", world.decisions(),
               fingerprint_hex(world.decision_fingerprint()));
  }
  return report;
}

}  // namespace

int serve_command(const ServeOptions& options) {
  std::optional<CheckedServe> checked = check_serve(options);
  if (!checked) return kExitBadInput;
  const std::uint64_t seed = options.seed.value_or(checked->scenario.seed);
  Corpora corpora;
  try {
    corpora = load_corpora(checked->scenario);
  } catch (const CorpusError& e) {
    fmt::print(stderr, "{}\n", e.what());
    return kExitBadInput;
  }
  const std::int64_t start_unix_seconds = unix_seconds_now();
  // The OTLP export's spans start at the server's wall-clock start plus scenario time; the
  // server sees requests, not an agent's tasks, so each attempt span is a root span.
  OtlpRunInfo otlp = otlp_run_info(checked->scenario, seed);
  otlp.start_unix_seconds = start_unix_seconds;
  otlp.task_spans = false;
  std::optional<RunOutputs> outputs;
  try {
    outputs.emplace(std::move(checked->reports.requests), std::nullopt,
                    TraceHeader{checked->scenario.name, seed, std::string(squall_version())}, std::move(otlp));
  } catch (const std::runtime_error& e) {
    fmt::print(stderr, "squall: {}\n", e.what());
    return kExitBadInput;
  }
  Report report;
  try {
    report =
        serve(options, checked->scenario, corpora, checked->endpoint, seed, start_unix_seconds, outputs->observer());
  } catch (const boost::system::system_error& e) {
    fmt::print(stderr, "squall: cannot listen on {}: {}\n", options.listen, e.code().message());
    return kExitBadInput;
  }
  if (!options.quiet) fmt::print("{}", text_summary(report, use_color(stdout)));
  try {
    for (const std::string& line : outputs->write(report)) {
      if (!options.quiet) fmt::print("{}\n", line);
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "squall: cannot write report: {}\n", e.what());
    return kExitBadInput;
  }
  return verdict(report);
}

}  // namespace squall::cli
