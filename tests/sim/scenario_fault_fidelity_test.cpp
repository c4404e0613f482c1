// One bad-input test per rule of the fault fidelity keys (fault kinds and phases,
// flapping, Retry-After forms), of `outages` and of `start_time`, each with its exact
// message.
#include <gtest/gtest.h>

#include "tests/sim/scenario_test_support.hpp"

namespace squall {
namespace {

using test::base_scenario;
using test::errors_of;
using test::only;
using test::with;

constexpr const char* kFault = "/providers/search/faults/0";

std::string at(std::string_view rest) { return std::string(kFault) + std::string(rest); }
Json with_fault(const Json& fault) { return with(base_scenario(), kFault, fault); }
Json with_outages(const Json& outages) { return with(base_scenario(), "/outages", outages); }

Json lat(std::string_view value) { return Json{{"distribution", "constant"}, {"value", value}}; }

TEST(ScenarioFaultFidelityTest, EveryNewKindLoads) {
  for (const Json& fault :
       {Json{{"kind", "client_error"}, {"probability", 0.1}, {"status", 401}},
        Json{{"kind", "throttled_empty"}, {"probability", 0.1}},
        Json{{"kind", "latency_spike"}, {"probability", 0.1}, {"latency", lat("2s")}},
        Json{{"kind", "brownout"}, {"probability", 0.1}, {"multiplier", 2.5}},
        Json{{"kind", "masked_error"}, {"probability", 0.1}},
        Json{{"kind", "overloaded"}, {"probability", 0.1}, {"retry_after", "3s"}, {"retry_after_form", "retry_info"}},
        Json{{"kind", "server_error"}, {"probability", 0.1}, {"period", "1m"}, {"duty_cycle", 0.25}}}) {
    EXPECT_EQ(errors_of(with_fault(fault)), std::vector<ValidationError>{}) << fault.dump();
  }
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/gpt/faults",
                           Json::array({Json{{"kind", "stream_cut"}, {"probability", 0.1}, {"after_tokens", 5}}}))),
            std::vector<ValidationError>{});
}

TEST(ScenarioFaultFidelityTest, ClientErrorStatusIsANamedFourHundred) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "client_error"}, {"probability", 0.1}, {"status", 418}})),
            only(at("/status"), "expected 400, 401, 403, 404 or 422, got 418"));
}

TEST(ScenarioFaultFidelityTest, StreamCutStatusIsAFiveHundred) {
  EXPECT_EQ(
      errors_of(with(
          base_scenario(), "/providers/gpt/faults",
          Json::array({Json{{"kind", "stream_cut"}, {"probability", 0.1}, {"after_tokens", 5}, {"status", 200}}}))),
      only("/providers/gpt/faults/0/status", "expected an integer in [500, 599], got 200"));
}

TEST(ScenarioFaultFidelityTest, StreamCutNeedsAfterTokens) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/gpt/faults",
                           Json::array({Json{{"kind", "stream_cut"}, {"probability", 0.1}}}))),
            only("/providers/gpt/faults/0", "missing required key \"after_tokens\""));
}

TEST(ScenarioFaultFidelityTest, AfterTokensIsPositive) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/gpt/faults",
                           Json::array({Json{{"kind", "stream_cut"}, {"probability", 0.1}, {"after_tokens", 0}}}))),
            only("/providers/gpt/faults/0/after_tokens", "expected an integer in [1, 9223372036854775807], got 0"));
}

TEST(ScenarioFaultFidelityTest, AfterTokensAppliesOnlyToStreamCut) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "server_error"}, {"probability", 0.1}, {"after_tokens", 5}})),
            only(at("/after_tokens"), "applies only to kind \"stream_cut\", not \"server_error\""));
}

TEST(ScenarioFaultFidelityTest, StreamCutOnlyOnLlms) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "stream_cut"}, {"probability", 0.1}, {"after_tokens", 5}})),
            only(at("/kind"), "\"stream_cut\" applies only to llm providers; \"search\" is a web_search provider"));
}

TEST(ScenarioFaultFidelityTest, ThrottledEmptyOnlyOnSearches) {
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/gpt/faults",
                           Json::array({Json{{"kind", "throttled_empty"}, {"probability", 0.1}}}))),
            only("/providers/gpt/faults/0/kind",
                 "\"throttled_empty\" applies only to web_search and vector_search providers; \"gpt\" is an llm "
                 "provider"));
}

TEST(ScenarioFaultFidelityTest, LatencySpikeNeedsALatency) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "latency_spike"}, {"probability", 0.1}})),
            only(kFault, "missing required key \"latency\""));
}

TEST(ScenarioFaultFidelityTest, BrownoutNeedsAMultiplier) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "brownout"}, {"probability", 0.1}})),
            only(kFault, "missing required key \"multiplier\""));
}

TEST(ScenarioFaultFidelityTest, MultiplierIsAboveOne) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "brownout"}, {"probability", 0.1}, {"multiplier", 1}})),
            only(at("/multiplier"), "expected a number in (1, 1000], got 1"));
}

TEST(ScenarioFaultFidelityTest, MultiplierAppliesOnlyToBrownout) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "server_error"}, {"probability", 0.1}, {"multiplier", 2}})),
            only(at("/multiplier"), "applies only to kind \"brownout\", not \"server_error\""));
}

TEST(ScenarioFaultFidelityTest, LatencyDoesNotApplyToTransformsNorBrownout) {
  EXPECT_EQ(
      errors_of(with_fault({{"kind", "masked_error"}, {"probability", 0.1}, {"latency", lat("1s")}})),
      only(at("/latency"), "does not apply to kind \"masked_error\": its answer takes the inner provider's time"));
}

TEST(ScenarioFaultFidelityTest, ErrorAnswersCarryShouldRetryAndACodeAndMessage) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "rate_limited"},
                                  {"probability", 0.1},
                                  {"should_retry", false},
                                  {"error_code", "insufficient_quota"},
                                  {"error_message", "You exceeded your current quota."}})),
            std::vector<ValidationError>{});
  for (const char* kind : {"overloaded", "server_error", "client_error"}) {
    EXPECT_EQ(errors_of(with_fault({{"kind", kind}, {"probability", 0.1}, {"should_retry", true}})),
              std::vector<ValidationError>{})
        << kind;
  }
}

TEST(ScenarioFaultFidelityTest, ShouldRetryAndErrorWordsApplyOnlyToErrorAnswers) {
  for (const char* key : {"should_retry", "error_code", "error_message"}) {
    const Json value = std::string_view(key) == "should_retry" ? Json(true) : Json("x");
    EXPECT_EQ(errors_of(with_fault({{"kind", "empty"}, {"probability", 0.1}, {key, value}})),
              only(at("/") + key,
                   "applies only to kind \"rate_limited\", \"overloaded\", \"server_error\", \"client_error\" and "
                   "\"index_not_ready\", not \"empty\""));
  }
}

TEST(ScenarioFaultFidelityTest, ShouldRetryIsABooleanAndTheWordsAreBoundedText) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "server_error"}, {"probability", 0.1}, {"should_retry", "false"}})),
            only(at("/should_retry"), "expected true or false, got \"false\""));
  EXPECT_EQ(errors_of(with_fault({{"kind", "server_error"}, {"probability", 0.1}, {"error_code", "no quota"}})),
            only(at("/error_code"), "expected a code of ASCII letters, digits, '.', '_' and '-', got \"no quota\""));
  EXPECT_EQ(
      errors_of(with_fault({{"kind", "server_error"}, {"probability", 0.1}, {"error_code", std::string(101, 'a')}})),
      only(at("/error_code"), "expected at most 100 bytes, got 101"));
  EXPECT_EQ(errors_of(with_fault(
                {{"kind", "server_error"}, {"probability", 0.1}, {"error_message", std::string(1001, 'a')}})),
            only(at("/error_message"), "expected at most 1000 bytes, got 1001"));
  EXPECT_EQ(errors_of(with_fault({{"kind", "server_error"}, {"probability", 0.1}, {"error_message", "bad\x1b[0m"}})),
            only(at("/error_message"), "expected text without control characters, got U+001B at byte 4"));
  EXPECT_EQ(errors_of(with_fault({{"kind", "server_error"}, {"probability", 0.1}, {"error_message", ""}})).size(), 1U);
}

TEST(ScenarioFaultFidelityTest, PeriodAndDutyCycleGoTogether) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "server_error"}, {"probability", 0.1}, {"period", "1m"}})),
            only(at("/period"), "period and duty_cycle go together"));
  EXPECT_EQ(errors_of(with_fault({{"kind", "server_error"}, {"probability", 0.1}, {"duty_cycle", 0.5}})),
            only(at("/duty_cycle"), "period and duty_cycle go together"));
}

TEST(ScenarioFaultFidelityTest, DutyCycleIsAFractionAboveZero) {
  EXPECT_EQ(
      errors_of(with_fault({{"kind", "server_error"}, {"probability", 0.1}, {"period", "1m"}, {"duty_cycle", 0}})),
      only(at("/duty_cycle"), "expected a number in (0, 1], got 0"));
}

TEST(ScenarioFaultFidelityTest, PeriodIsPositive) {
  EXPECT_EQ(
      errors_of(with_fault({{"kind", "server_error"}, {"probability", 0.1}, {"period", "0s"}, {"duty_cycle", 0.5}})),
      only(at("/period"), "expected a duration > 0, got \"0s\""));
}

TEST(ScenarioFaultFidelityTest, RetryAfterFormNeedsRetryAfter) {
  EXPECT_EQ(errors_of(with_fault({{"kind", "rate_limited"}, {"probability", 0.1}, {"retry_after_form", "http_date"}})),
            only(at("/retry_after_form"), "applies only with retry_after"));
}

TEST(ScenarioFaultFidelityTest, RetryAfterFormIsKnown) {
  EXPECT_EQ(
      errors_of(with_fault(
          {{"kind", "rate_limited"}, {"probability", 0.1}, {"retry_after", "1s"}, {"retry_after_form", "rfc850"}})),
      only(at("/retry_after_form"),
           "expected one of \"delay_seconds\", \"http_date\", \"milliseconds\", \"retry_info\", got \"rfc850\""));
}

TEST(ScenarioFaultFidelityTest, DelayRulesSumApartFromTheOthers) {
  // A spike and a 500 each at 0.6 are two decisions: valid. Two spikes at 0.6 are not.
  const Json spike{{"kind", "latency_spike"}, {"probability", 0.6}, {"latency", lat("1s")}};
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/search/faults",
                           Json::array({spike, Json{{"kind", "server_error"}, {"probability", 0.6}}}))),
            std::vector<ValidationError>{});
  EXPECT_EQ(errors_of(with(base_scenario(), "/providers/search/faults", Json::array({spike, spike}))),
            only("/providers/search/faults",
                 "expected the probabilities of faults active at the same time to sum to at most 1, got 1.2: "
                 "/providers/search/faults/0 (0.6) and /providers/search/faults/1 (0.6) overlap from 0s to the end of "
                 "the run"));
}

Json outage(Json providers) {
  return Json{{"name", "us-east-1"}, {"providers", std::move(providers)}, {"kind", "overloaded"}, {"probability", 1}};
}

TEST(ScenarioOutagesTest, AnOutageJoinsTheFaultsOfItsProviders) {
  EXPECT_EQ(errors_of(with_outages(Json::array({outage({"search", "gpt"})}))), std::vector<ValidationError>{});
}

TEST(ScenarioOutagesTest, NameIsRequired) {
  Json o = outage({"search"});
  o.erase("name");
  EXPECT_EQ(errors_of(with_outages(Json::array({o}))), only("/outages/0", "missing required key \"name\""));
}

TEST(ScenarioOutagesTest, ProvidersAreRequired) {
  Json o = outage({"search"});
  o.erase("providers");
  EXPECT_EQ(errors_of(with_outages(Json::array({o}))), only("/outages/0", "missing required key \"providers\""));
}

TEST(ScenarioOutagesTest, ProvidersAreNotEmpty) {
  EXPECT_EQ(errors_of(with_outages(Json::array({outage(Json::array())}))),
            only("/outages/0/providers", "expected a non-empty array, got []"));
}

TEST(ScenarioOutagesTest, ProvidersMustExist) {
  EXPECT_EQ(errors_of(with_outages(Json::array({outage({"search", "claude"})}))),
            only("/outages/0/providers/1", "no provider named \"claude\"; providers are: gpt, search"));
}

TEST(ScenarioOutagesTest, AProviderWhoseEntryIsInvalidIsNotReportedASecondTime) {
  // gpt is declared but null: its own error is the one line; the outage naming it adds
  // none (and no false "no provider named").
  EXPECT_EQ(errors_of(with(with_outages(Json::array({outage({"search", "gpt"})})), "/providers/gpt", nullptr)),
            only("/providers/gpt", "expected an object, got null"));
}

TEST(ScenarioOutagesTest, ProvidersAreDistinct) {
  EXPECT_EQ(errors_of(with_outages(Json::array({outage({"search", "search"})}))),
            only("/outages/0/providers/1", "duplicate \"search\""));
}

TEST(ScenarioOutagesTest, KindMustApplyToEveryProvider) {
  Json o = outage({"search", "gpt"});
  o["kind"] = "throttled_empty";
  EXPECT_EQ(errors_of(with_outages(Json::array({o}))),
            only("/outages/0/providers/1",
                 "\"throttled_empty\" applies only to web_search and vector_search providers; \"gpt\" is an llm "
                 "provider"));
}

TEST(ScenarioOutagesTest, NamesAreDistinct) {
  EXPECT_EQ(errors_of(with_outages(Json::array({outage({"search"}), outage({"gpt"})}))),
            only("/outages/1/name", "duplicate outage name \"us-east-1\""));
}

TEST(ScenarioOutagesTest, RuleKeysAreCheckedAsAFaults) {
  Json o = outage({"search"});
  o["probability"] = 2;
  EXPECT_EQ(errors_of(with_outages(Json::array({o}))),
            only("/outages/0/probability", "expected a number in [0, 1], got 2"));
}

TEST(ScenarioOutagesTest, UnknownKeyListsTheOutagesKeys) {
  Json o = outage({"search"});
  o["region"] = "us";
  EXPECT_EQ(errors_of(with_outages(Json::array({o}))),
            only("/outages/0/region",
                 "unknown key \"region\"; expected one of: name, providers, kind, probability, from, to, first_call, "
                 "last_call, period, duty_cycle, retry_after, retry_after_form, retry_after_header, status, latency, "
                 "multiplier, after_tokens, should_retry, error_code, error_message"));
}

TEST(ScenarioStartTimeTest, IsAnRfc3339UtcTime) {
  for (const char* bad : {"2021-12-07 15:30:00Z", "2021-12-07T15:30:00+01:00", "2021-02-30T00:00:00Z",
                          "1969-12-31T23:59:59Z", "2021-12-07T15:30:00.5Z"}) {
    EXPECT_EQ(errors_of(with(base_scenario(), "/start_time", bad)),
              only("/start_time",
                   std::string("expected an RFC 3339 UTC time such as \"2021-12-07T15:30:00Z\", got \"") + bad + "\""))
        << bad;
  }
  EXPECT_EQ(errors_of(with(base_scenario(), "/start_time", "2021-12-07T15:30:00Z")), std::vector<ValidationError>{});
}

TEST(ScenarioStartTimeTest, IsNoLaterThanInt64NanosecondsSince1970) {
  // Start plus the run's virtual time must stay writable as an HTTP-date (four-digit
  // year) and readable as int64 nanoseconds: 9999-12-31 once exited 70 on a Retry-After.
  EXPECT_EQ(errors_of(with(base_scenario(), "/start_time", "2262-04-11T23:47:17Z")),
            only("/start_time",
                 "expected a time no later than \"2262-04-11T23:47:16Z\" (the wall clock is kept in "
                 "int64 nanoseconds since 1970), got \"2262-04-11T23:47:17Z\""));
  EXPECT_EQ(errors_of(with(base_scenario(), "/start_time", "9999-12-31T23:59:59Z")).size(), 1U);
  EXPECT_EQ(errors_of(with(base_scenario(), "/start_time", "2262-04-11T23:47:16Z")), std::vector<ValidationError>{});
}

}  // namespace
}  // namespace squall
