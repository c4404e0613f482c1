#include "reports/threshold.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "engine/runtime/duration.hpp"

namespace squall {
namespace {

constexpr std::string_view kExpressionShape = R"msg("<aggregation> <op> <value>" such as "p(99)<20s")msg";
constexpr std::string_view kMetricShape =
    R"("<metric>" or "<metric>{<tag>:<value>,...}" such as "provider_calls{provider:web_search}")";

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_name_char(char c) { return is_lower(c) || (c >= '0' && c <= '9') || c == '_'; }
bool is_tag_value_char(char c) { return c != ',' && c != '{' && c != '}' && c != ':'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// A read position in the text being parsed; every token may be preceded by whitespace.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}

  void skip_space() {
    while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
  }
  bool at_end() const { return pos_ == text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  std::size_t pos() const { return pos_; }
  bool eat(std::string_view token) {
    if (!text_.substr(pos_).starts_with(token)) return false;
    pos_ += token.size();
    return true;
  }
  template <class Pred>
  std::string_view take_while(Pred pred) {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && pred(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }
  // A finite decimal number (std::from_chars: locale-independent, exact round trip).
  std::optional<double> number() {
    const char* first = text_.data() + pos_;
    double value = 0;
    const auto [end, ec] = std::from_chars(first, text_.data() + text_.size(), value);
    if (ec != std::errc{} || !std::isfinite(value)) return std::nullopt;
    pos_ += static_cast<std::size_t>(end - first);
    return value;
  }
  std::string_view consumed() const { return trim(text_.substr(0, pos_)); }
  std::string_view rest() const { return trim(text_.substr(pos_)); }
  std::string_view slice(std::size_t from) const { return text_.substr(from, pos_ - from); }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

constexpr std::array<std::pair<std::string_view, Aggregation>, 7> kNamedAggregations{{
    {"rate", Aggregation::rate},
    {"avg", Aggregation::avg},
    {"min", Aggregation::min},
    {"max", Aggregation::max},
    {"med", Aggregation::med},
    {"count", Aggregation::count},
    {"sum", Aggregation::sum},
}};

// Longer operators first so that "<=" is not read as "<".
constexpr std::array<std::pair<std::string_view, Comparison>, 5> kOperators{{
    {"<=", Comparison::le},
    {">=", Comparison::ge},
    {"==", Comparison::eq},
    {"<", Comparison::lt},
    {">", Comparison::gt},
}};

// Characters of a duration after its number's first digits: "1m30.5s" continues with
// "m30.5s". What they spell is judged by parse_duration().
bool is_duration_char(char c) { return is_lower(c) || (c >= '0' && c <= '9') || c == '.'; }

struct ParsedExpression {
  ThresholdExpression expression;
  std::string_view duration;  // the value as written when it carried a unit, else empty
  std::string_view number;    // the value's number as written
};

// The aggregation at the start of an expression: "p(N)" or a named one.
std::optional<std::string> read_aggregation(Cursor& c, std::string_view written, ThresholdExpression& e) {
  c.skip_space();
  const std::string_view word = c.take_while(is_lower);
  if (word.empty()) return fmt::format("expected {}, got \"{}\"", kExpressionShape, written);
  if (word == "p") {
    const auto percentile_error = [&] {
      return fmt::format(R"msg(expected a percentile such as "p(99)" or "p(99.9)", got "{}")msg", written);
    };
    c.skip_space();
    if (!c.eat("(")) return percentile_error();
    c.skip_space();
    const std::optional<double> p = c.number();
    c.skip_space();
    if (!p || !c.eat(")")) return percentile_error();
    if (!(*p > 0 && *p <= 100)) return fmt::format("percentile must be in (0, 100], got {}", *p);
    e.aggregation = Aggregation::percentile;
    e.percentile = *p;
  } else {
    bool known = false;
    for (const auto& [name, aggregation] : kNamedAggregations) {
      if (name == word) {
        e.aggregation = aggregation;
        known = true;
      }
    }
    if (!known) {
      c.skip_space();
      // A word followed by an operator was meant as an aggregation; anything else does
      // not have the shape of a threshold at all.
      const char next = c.peek();
      if (next == '<' || next == '>' || next == '=') {
        return fmt::format("unknown aggregation \"{}\"; expected rate, p(N), avg, min, max, med, count or sum", word);
      }
      return fmt::format("expected {}, got \"{}\"", kExpressionShape, written);
    }
  }
  return std::nullopt;
}

// A unit after the value's number: the value is then a duration, read exactly as scenario
// durations are, so a space between the number and its unit ("20 s") is refused as it is
// in every other duration of the format. `value_start` is where the number begins.
std::optional<std::string> read_duration_value(Cursor& c, std::string_view text, std::size_t value_start,
                                               bool time_metric, ParsedExpression& out) {
  const std::string_view number = out.number;
  const std::size_t number_end = value_start + number.size();
  const std::string_view before_value = trim(text.substr(0, value_start));
  c.skip_space();
  if (is_lower(c.peek())) {
    // Any further parts of a compound ("1m30s") are read too.
    const std::string_view units = c.take_while(is_duration_char);
    const std::string_view with_unit = c.slice(value_start);
    // Each run of letters must be a unit; `units` starts with one, and every pass of the
    // loop consumes a run of letters and the digits after it.
    Cursor words(units);
    while (!words.at_end()) {
      const std::string_view unit = words.take_while(is_lower);
      if (!is_duration_unit(unit)) {
        if (!time_metric)
          return fmt::format("expected a number after \"{}\", got \"{}\"", before_value,
                             trim(text.substr(value_start)));
        return fmt::format("unknown unit \"{}\" in \"{}\"; expected ns, us, ms, s, m or h", unit, with_unit);
      }
      words.take_while([](char ch) { return !is_lower(ch); });
    }
    if (time_metric && c.slice(number_end).size() > units.size()) {
      return fmt::format("expected a duration without a space before its unit, such as \"{}{}\", got \"{}\"", number,
                         units, with_unit);
    }
    const auto nanos = parse_duration(fmt::format("{}{}", number, units));
    // Bounded as the scenario's own durations are (a longer one could never be met or
    // missed by a latency the simulator gives).
    const auto* error = std::get_if<DurationError>(&nanos);
    if (error != nullptr && *error != DurationError::too_large) {
      return fmt::format("expected {}, got \"{}\"", duration_expectation(*error), with_unit);
    }
    if (error != nullptr || std::get<Nanos>(nanos) > kLongestScenarioDuration) {
      return fmt::format("expected {}, got \"{}\"", longest_duration_expectation(), with_unit);
    }
    out.expression.value = to_millis(std::get<Nanos>(nanos));
    out.duration = with_unit;
  }
  return std::nullopt;
}

// `time_metric`: whether the metric's values are durations, so that letters after the
// number are read as a unit; after a number of another metric they are only a malformed
// number ("rate>=0x1"), unless they form a valid duration, which parse_threshold names.
std::variant<ParsedExpression, std::string> parse_expression(std::string_view text, bool time_metric) {
  const std::string_view written = trim(text);
  ParsedExpression out;
  ThresholdExpression& e = out.expression;
  Cursor c(text);

  if (auto error = read_aggregation(c, written, e)) return *std::move(error);
  c.skip_space();
  bool have_op = false;
  for (const auto& [token, op] : kOperators) {
    if (!have_op && c.eat(token)) {
      e.op = op;
      have_op = true;
    }
  }
  if (!have_op) {
    return fmt::format("expected an operator (<, <=, >, >=, ==) after \"{}\", got \"{}\"", c.consumed(), c.rest());
  }

  c.skip_space();
  const std::size_t value_start = c.pos();
  const std::optional<double> value = c.number();
  if (!value) return fmt::format("expected a number after \"{}\", got \"{}\"", c.consumed(), c.rest());
  e.value = *value;
  out.number = c.slice(value_start);

  if (auto error = read_duration_value(c, text, value_start, time_metric, out)) return *std::move(error);

  c.skip_space();
  if (!c.at_end()) return fmt::format("unexpected \"{}\" after \"{}\"", c.rest(), c.consumed());
  return out;
}

bool applies(MetricType type, Aggregation aggregation) {
  switch (type) {
    case MetricType::rate: return aggregation == Aggregation::rate;
    case MetricType::trend:
      return aggregation == Aggregation::percentile || aggregation == Aggregation::avg ||
             aggregation == Aggregation::min || aggregation == Aggregation::max || aggregation == Aggregation::med;
    case MetricType::counter:
      return aggregation == Aggregation::count || aggregation == Aggregation::sum || aggregation == Aggregation::rate ||
             aggregation == Aggregation::avg;
  }
  return false;
}

std::string_view applicable_list(MetricType type) {
  switch (type) {
    case MetricType::rate: return "rate";
    case MetricType::trend: return "p(N), avg, min, max or med";
    case MetricType::counter: return "count, sum, rate or avg";
  }
  return "";
}

std::string time_metric_list() {
  std::string list;
  for (const MetricInfo& m : metric_catalogue()) {
    if (!m.is_time()) continue;
    if (!list.empty()) list += ", ";
    list += m.name;
  }
  return list;
}

std::string metric_name_list() {
  std::string list;
  for (const MetricInfo& m : metric_catalogue()) {
    if (!list.empty()) list += ", ";
    list += m.name;
  }
  return list;
}

std::string tag_name_list(const MetricInfo& metric) {
  std::string list;
  for (const TagInfo& t : metric.tags) {
    if (!list.empty()) list += ", ";
    list += t.name;
  }
  return list;
}

}  // namespace

std::variant<MetricSelector, std::string> parse_metric(std::string_view metric) {
  const std::string_view written = trim(metric);
  const auto shape_error = [&] { return fmt::format("expected {}, got \"{}\"", kMetricShape, written); };
  Cursor c(metric);
  c.skip_space();
  const std::string_view name = c.take_while(is_name_char);
  if (name.empty()) return shape_error();

  // Syntax first, so that a malformed key is reported as such before its parts are judged.
  std::vector<std::pair<std::string_view, std::string_view>> tags;
  c.skip_space();
  if (c.eat("{")) {
    while (true) {
      c.skip_space();
      const std::string_view key = c.take_while(is_name_char);
      c.skip_space();
      if (key.empty() || !c.eat(":")) return shape_error();
      const std::string_view value = trim(c.take_while(is_tag_value_char));
      if (value.empty()) return shape_error();
      tags.emplace_back(key, value);
      if (c.eat(",")) continue;
      if (c.eat("}")) break;
      return shape_error();
    }
    c.skip_space();
  }
  if (!c.at_end()) return shape_error();

  const MetricInfo* info = find_metric(name);
  if (info == nullptr) return fmt::format("unknown metric \"{}\"; known: {}", name, metric_name_list());
  MetricSelector out;
  out.metric_name = std::string(name);
  for (const auto& [key, value] : tags) {
    const TagInfo* tag = find_tag(*info, key);
    if (tag == nullptr) {
      return fmt::format("unknown tag \"{}\" for metric \"{}\"; known: {}", key, name, tag_name_list(*info));
    }
    if (!out.tags.emplace(std::string(key), std::string(value)).second) {
      return fmt::format("tag \"{}\" is given twice in \"{}\"", key, written);
    }
    if (!tag_value_known(tag->values, value)) {
      return fmt::format("unknown value \"{}\" for tag \"{}\" of metric \"{}\"; known: {}", value, key, name,
                         tag_value_list(tag->values));
    }
  }
  return out;
}

std::variant<Threshold, std::string> parse_threshold(std::string_view metric, std::string_view expression) {
  auto selector = parse_metric(metric);
  if (auto* error = std::get_if<std::string>(&selector)) return std::move(*error);
  auto& sel = std::get<MetricSelector>(selector);
  const MetricInfo& info = *find_metric(sel.metric_name);
  auto parsed = parse_expression(expression, info.is_time());
  if (auto* error = std::get_if<std::string>(&parsed)) return std::move(*error);
  const ParsedExpression& p = std::get<ParsedExpression>(parsed);
  if (!applies(info.type, p.expression.aggregation)) {
    return fmt::format("aggregation \"{}\" does not apply to {} metric \"{}\"; use {}", aggregation_name(p.expression),
                       to_string(info.type), info.name, applicable_list(info.type));
  }
  if (!p.duration.empty() && !info.is_time()) {
    return fmt::format("a duration (\"{}\") applies only to time metrics ({}); \"{}\" is not one", p.duration,
                       time_metric_list(), info.name);
  }
  if (p.duration.empty() && info.is_time()) {
    // Durations carry their unit everywhere in a scenario; a bare number read as
    // milliseconds (k6's reading) would let "p(99)<25" mean 25 ms to one reader and 25 s
    // to another.
    return fmt::format("expected a duration with a unit for time metric \"{}\", such as \"{}{}{}ms\", got \"{}\"",
                       info.name, aggregation_name(p.expression), to_string(p.expression.op), p.number,
                       trim(expression));
  }
  if (info.type == MetricType::rate && !(p.expression.value >= 0 && p.expression.value <= 1)) {
    return fmt::format("rate is a fraction in [0, 1], got {}", p.expression.value);
  }

  Threshold t;
  t.metric = std::string(trim(metric));
  t.metric_name = std::move(sel.metric_name);
  t.tags = std::move(sel.tags);
  t.expression = std::string(trim(expression));
  t.parsed = p.expression;
  return t;
}

std::string aggregation_name(const ThresholdExpression& expression) {
  if (expression.aggregation == Aggregation::percentile) return fmt::format("p({})", expression.percentile);
  for (const auto& [name, aggregation] : kNamedAggregations) {
    if (aggregation == expression.aggregation) return std::string(name);
  }
  return "rate";
}

std::string_view to_string(Comparison op) {
  for (const auto& [token, o] : kOperators) {
    if (o == op) return token;
  }
  return "==";
}

bool holds(const ThresholdExpression& expression, double observed) {
  const double bound = expression.value;
  switch (expression.op) {
    case Comparison::lt: return observed < bound;
    case Comparison::le: return observed <= bound;
    case Comparison::gt: return observed > bound;
    case Comparison::ge: return observed >= bound;
    case Comparison::eq: return observed == bound;
  }
  return false;
}

}  // namespace squall
