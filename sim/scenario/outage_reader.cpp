#include "sim/scenario/outage_reader.hpp"

#include <algorithm>
#include <array>
#include <set>

#include <fmt/format.h>
#include <boost/date_time/gregorian/gregorian_types.hpp>

#include "sim/scenario/fault_reader.hpp"
#include "sim/scenario/provider_reader.hpp"

namespace squall {
namespace {

// The number in text[at, at + n), all digits, or -1.
int digits_at(std::string_view text, std::size_t at, std::size_t n) {
  int value = 0;
  for (std::size_t i = at; i < at + n; ++i) {
    if (i >= text.size() || text[i] < '0' || text[i] > '9') return -1;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

std::optional<std::int64_t> parse_utc(std::string_view t) {
  if (t.size() != 20 || t[4] != '-' || t[7] != '-' || t[10] != 'T' || t[13] != ':' || t[16] != ':' || t[19] != 'Z') {
    return std::nullopt;
  }
  const int year = digits_at(t, 0, 4);
  const int month = digits_at(t, 5, 2);
  const int day = digits_at(t, 8, 2);
  const int hour = digits_at(t, 11, 2);
  const int minute = digits_at(t, 14, 2);
  const int second = digits_at(t, 17, 2);
  if (year < 1970 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 ||
      second < 0 || second > 59) {
    return std::nullopt;
  }
  const auto y = static_cast<unsigned short>(year);
  const auto m = static_cast<unsigned short>(month);
  if (day > boost::gregorian::gregorian_calendar::end_of_month_day(y, m)) return std::nullopt;
  const boost::gregorian::date date(y, m, static_cast<unsigned short>(day));
  const std::int64_t days = (date - boost::gregorian::date(1970, 1, 1)).days();
  return days * 86'400 + hour * 3'600 + minute * 60 + second;
}

// Reads one outage; returns its name and providers when valid, its rule in `fault`.
struct Outage {
  std::string name;
  std::vector<std::string> providers;
  FaultConfig fault;
};

std::optional<Outage> read_outage(const Json& value, const std::string& path, std::optional<Nanos> run_end,
                                  const ProviderTypes& types, Diagnostics& diag) {
  if (!value.is_object()) {
    diag.error(path, fmt::format("expected an object, got {}", describe(value)));
    return std::nullopt;
  }
  const std::size_t errors_before = diag.count();
  Outage outage;
  static constexpr std::array<std::string_view, 2> kOwnKeys{"name", "providers"};
  const auto fault = read_fault(value, path, run_end, diag, kOwnKeys);
  const std::string name_path = pointer_append(path, "name");
  if (!value.contains("name")) {
    diag.error(path, "missing required key \"name\"");
  } else if (const auto name = read_nonempty_string(value.at("name"), name_path, diag)) {
    if (check_name(*name, "outage name", name_path, diag)) outage.name = *name;
  }
  const std::string list_path = pointer_append(path, "providers");
  if (!value.contains("providers")) {
    diag.error(path, "missing required key \"providers\"");
  } else {
    const auto elements = read_array(value.at("providers"), list_path, diag, /*nonempty=*/true);
    for (std::size_t i = 0; i < elements.size(); ++i) {
      const std::string at = pointer_append(list_path, i);
      const auto provider = read_nonempty_string(elements[i], at, diag);
      if (!provider) continue;
      const auto type = types.find(*provider);
      if (type == types.end()) {
        diag.error(at, no_such_provider(*provider, types));
      } else if (std::find(outage.providers.begin(), outage.providers.end(), *provider) != outage.providers.end()) {
        diag.error(at, fmt::format("duplicate \"{}\"", *provider));
      } else if (fault && type->second && !fault_applies(fault->kind, *type->second)) {
        diag.error(at, fmt::format("\"{}\" applies only to {} providers; {}", to_string(fault->kind),
                                   fault_providers(fault->kind), provider_is(*provider, *type->second)));
      } else {
        outage.providers.push_back(*provider);
      }
    }
  }
  if (!fault || diag.count() != errors_before) return std::nullopt;
  outage.fault = *fault;
  outage.fault.outage = outage.name;
  return outage;
}

}  // namespace

void read_outages(const Json& value, const std::string& path, std::optional<Nanos> run_end,
                  std::vector<ProviderConfig>& providers, const ProviderTypes* declared, Diagnostics& diag) {
  const ProviderTypes types = declared != nullptr ? *declared : provider_types(providers);
  std::set<std::string, std::less<>> names;
  const auto elements = read_array(value, path, diag, /*nonempty=*/false);
  for (std::size_t i = 0; i < elements.size(); ++i) {
    const std::string at = pointer_append(path, i);
    auto outage = read_outage(elements[i], at, run_end, types, diag);
    if (!outage) continue;
    if (!names.insert(outage->name).second) {
      diag.error(pointer_append(at, "name"), fmt::format("duplicate outage name \"{}\"", outage->name));
      continue;
    }
    for (ProviderConfig& provider : providers) {
      if (std::find(outage->providers.begin(), outage->providers.end(), provider.name) != outage->providers.end()) {
        provider.faults.push_back(outage->fault);
      }
    }
  }
}

std::optional<std::int64_t> read_start_time(const Json& value, const std::string& path, Diagnostics& diag) {
  const auto parsed = value.is_string() ? parse_utc(value.get_ref<const std::string&>()) : std::nullopt;
  if (!parsed) {
    diag.error(path,
               fmt::format("expected an RFC 3339 UTC time such as \"2021-12-07T15:30:00Z\", got {}", describe(value)));
  } else if (*parsed > kLastStartTime) {
    diag.error(path, fmt::format("expected a time no later than \"2262-04-11T23:47:16Z\" (the wall clock is kept in "
                                 "int64 nanoseconds since 1970), got {}",
                                 describe(value)));
    return std::nullopt;
  }
  return parsed;
}

}  // namespace squall
