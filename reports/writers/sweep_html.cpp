#include "reports/writers/sweep_html.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "reports/rounding.hpp"
#include "reports/sweep_decision.hpp"
#include "reports/sweep_robustness.hpp"
#include "reports/writers/html_assets.hpp"
#include "reports/writers/html_text.hpp"
#include "reports/writers/sweep_robustness_text.hpp"
#include "reports/writers/sweep_tables.hpp"

namespace squall {
namespace {

using Json = nlohmann::ordered_json;

// The Pareto chart's data (sweep_page.js): the first objective on y, the second on x (the
// variant's position without one), the third as the point's area; per variant compared
// with the baseline the means, their 95% intervals (null without one), whether it is on the
// front, feasible, the baseline, recommended; `scope` says which were left out (or "").
Json points_json(const SweepResult& r, const SweepAnalysis& a) {
  const auto column = [&](const std::string& metric) {
    return static_cast<std::size_t>(std::find(r.metrics.begin(), r.metrics.end(), metric) - r.metrics.begin());
  };
  const auto objective = [&](std::size_t k) {
    return k < r.objectives.size() ? Json{{"metric", r.objectives[k].metric}, {"goal", to_string(r.objectives[k].goal)}}
                                   : Json(nullptr);
  };
  const auto bound = [](const Interval* i, bool high) {
    return i != nullptr && i->half_width ? Json(round_to(high ? i->high() : i->low(), 1e6)) : Json(nullptr);
  };
  const bool two = r.objectives.size() >= 2;
  const std::size_t ym = column(r.objectives.front().metric);
  const std::size_t xm = two ? column(r.objectives[1].metric) : 0;
  const std::size_t zm = r.objectives.size() >= 3 ? column(r.objectives[2].metric) : r.metrics.size();
  std::vector<std::pair<double, Json>> points;
  for (std::size_t v = 0; v < r.variants.size(); ++v) {
    const Interval& y = a.variants[v][ym].value;
    const Interval* x = two ? &a.variants[v][xm].value : nullptr;
    const Interval* z = zm < r.metrics.size() ? &a.variants[v][zm].value : nullptr;
    if (!a.comparable[v] || y.n == 0 || (x != nullptr && x->n == 0)) continue;
    const double at = x != nullptr ? round_to(x->mean, 1e6) : static_cast<double>(v);
    points.emplace_back(at, Json{{"name", r.variants[v].name},
                                 {"x", at},
                                 {"x_low", bound(x, false)},
                                 {"x_high", bound(x, true)},
                                 {"y", round_to(y.mean, 1e6)},
                                 {"y_low", bound(&y, false)},
                                 {"y_high", bound(&y, true)},
                                 {"z", z != nullptr && z->n > 0 ? Json(round_to(z->mean, 1e6)) : Json(nullptr)},
                                 {"front", static_cast<bool>(a.pareto[v])},
                                 {"feasible", a.feasibility[v].feasible},
                                 {"baseline", v == r.baseline},
                                 {"recommended", a.recommended == v}});
  }
  // uPlot wants its x values in order; ties by name, so the page's bytes never depend on
  // the variants' order.
  std::stable_sort(points.begin(), points.end(), [](const auto& p, const auto& q) {
    return p.first != q.first ? p.first < q.first : p.second["name"] < q.second["name"];
  });
  Json out = Json::object();
  out["x"] = two ? objective(1) : Json{{"metric", "variant"}, {"goal", "none"}};
  out["y"] = objective(0);
  out["z"] = objective(2);
  Json list = Json::array();
  for (auto& p : points) list.push_back(std::move(p.second));
  out["points"] = list;
  out["scope"] = comparison_scope_line(r, a);
  return out;
}

std::string num(double x) { return fmt::format("{:.6g}", x + 0.0); }

// The robustness charts' data: null without scenario axes; else the x values (the
// scenario value when it is one number per column, sorted; else the columns' positions,
// with `labels`), and per metric one series per policy: mean, low and high per column.
Json robustness_chart_json(const SweepResult& r, const SweepAnalysis& a) {
  const auto g = robustness_grid(r);
  if (!g) return nullptr;
  const bool numeric = std::all_of(g->x.begin(), g->x.end(), [](const auto& x) { return x.has_value(); });
  std::vector<std::size_t> order(g->columns.size());
  for (std::size_t c = 0; c < order.size(); ++c) order[c] = c;
  if (numeric) std::stable_sort(order.begin(), order.end(), [&](auto p, auto q) { return *g->x[p] < *g->x[q]; });
  Json out = Json::object();
  Json xs = Json::array();
  Json labels = Json::array();
  for (std::size_t k = 0; k < order.size(); ++k) {
    xs.push_back(numeric ? *g->x[order[k]] : static_cast<double>(k));
    labels.push_back(g->columns[order[k]]);
  }
  out["x_label"] = numeric ? g->columns.front().substr(0, g->columns.front().find('=')) : "scenario setting";
  out["x"] = xs;
  out["labels"] = numeric ? Json(nullptr) : labels;
  Json charts = Json::array();
  for (std::size_t m = 0; m < r.metrics.size(); ++m) {
    Json series = Json::array();
    for (std::size_t p = 0; p < g->rows.size(); ++p) {
      Json mean = Json::array(), low = Json::array(), high = Json::array();
      for (const std::size_t c : order) {
        const auto& v = g->variant[p][c];
        const Interval* i = v ? &a.variants[*v][m].value : nullptr;
        const bool has = i != nullptr && i->n > 0;
        const bool ci = has && i->half_width.has_value();
        mean.push_back(has ? Json(round_to(i->mean, 1e6)) : Json(nullptr));
        low.push_back(ci ? Json(round_to(i->low(), 1e6)) : Json(nullptr));
        high.push_back(ci ? Json(round_to(i->high(), 1e6)) : Json(nullptr));
      }
      series.push_back(Json{{"name", g->rows[p]}, {"mean", mean}, {"low", low}, {"high", high}});
    }
    charts.push_back(Json{{"metric", r.metrics[m]}, {"series", series}});
  }
  out["charts"] = charts;
  return out;
}

std::string tables(const SweepResult& r, const SweepAnalysis& a) {
  std::string out;
  for (std::size_t m = 0; m < r.metrics.size(); ++m) {
    out += fmt::format(
        "<h3>{}</h3>\n<table>\n<tr><th>variant</th><th>n</th><th>mean</th><th>95% CI</th>"
        "<th>vs baseline (paired)</th><th>95% CI</th><th>verdict</th></tr>\n",
        html_text(r.metrics[m]));
    for (std::size_t v = 0; v < r.variants.size(); ++v) {
      const MetricSummary& s = a.variants[v][m];
      const auto ci = [](const Interval& i) {
        return i.half_width ? fmt::format("[{}, {}]", num(i.low()), num(i.high())) : std::string("-");
      };
      std::string diff = a.comparable[v] ? "baseline" : "other scenario";
      std::string diff_ci;
      std::string verdict;
      if (s.difference) {
        diff = s.difference->n > 0 ? fmt::format("{:+.6g}", s.difference->mean + 0.0) : "-";
        diff_ci = ci(*s.difference);
        verdict = std::string(to_string(s.verdict));
      }
      out += fmt::format(
          "<tr class=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
          "<td>{}</td></tr>\n",
          verdict == "-" ? "" : verdict, html_text(r.variants[v].name), s.value.n,
          s.value.n > 0 ? num(s.value.mean) : "-", ci(s.value), diff, diff_ci, verdict);
    }
    out += "</table>\n";
  }
  return out;
}

// The robustness tables (a sweep with scenario axes): the text report's, one per metric.
std::string robustness_tables(const SweepResult& r, const SweepAnalysis& a) {
  const auto grid = robustness_grid(r);
  if (!grid) return "";
  std::string out = fmt::format("<h3>{}</h3>\n", html_text(robustness_title()));
  for (std::size_t m = 0; m < r.metrics.size(); ++m) {
    out += fmt::format("<h4>{}</h4>\n<table>\n", html_text(robustness_heading(r.metrics[m])));
    const auto rows = robustness_cells(*grid, a, m);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const char* cell = i == 0 ? "th" : "td";
      out += "<tr>";
      for (const std::string& text : rows[i]) out += fmt::format("<{0}>{1}</{0}>", cell, html_text(text));
      out += "</tr>\n";
    }
    out += "</table>\n";
  }
  return out;
}

// The recommendation, the thresholds' pass rates per variant and the warnings.
std::string decision_section(const SweepResult& r, const SweepAnalysis& a) {
  std::string out = fmt::format("<section id=\"decision\">\n<h2>Decision</h2>\n<p class=\"recommendation\">{}</p>\n",
                                html_text(recommendation_line(r, a)));
  const auto rows = feasibility_rows(r, a);
  if (!rows.empty()) {
    out += fmt::format("<h3>{}</h3>\n<table>\n", html_text(feasibility_title(r)));
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const char* cell = i == 0 ? "th" : "td";
      out += i == 0 ? "<tr>" : rows[i].back() == "no" ? "<tr class=\"fail\">" : "<tr class=\"pass\">";
      for (const std::string& text : rows[i]) out += fmt::format("<{0}>{1}</{0}>", cell, html_text(text));
      out += "</tr>\n";
    }
    out += "</table>\n";
  }
  for (const std::string& w : sweep_warnings(r))
    out += fmt::format("<p class=\"warning\">warning: {}</p>\n", html_text(w));
  return out + "</section>\n";
}

}  // namespace

std::string sweep_html_page(const SweepResult& r, const SweepAnalysis& a) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\" data-squall-sweep=\"1\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += fmt::format("<meta name=\"generator\" content=\"squall {} with uPlot {}\">\n", html_text(r.squall_version),
                     uplot_version());
  out += fmt::format("<title>squall sweep: {}</title>\n", html_text(r.name));
  out += fmt::format("<style>\n{}\n</style>\n<style>\n{}</style>\n", uplot_css(), html_page_css());
  out += fmt::format("<script>\n{}\n</script>\n</head>\n<body>\n", uplot_js());
  out += fmt::format("<header>\n<h1>squall sweep: {}</h1>\n<p>{}</p>\n<dl class=\"identity\">\n", html_text(r.name),
                     html_text(r.description));
  out += fmt::format("<dt>scenario</dt><dd>{} (<code>{}</code>)</dd>\n", html_text(r.scenario_name),
                     html_text(r.scenario_file));
  out += fmt::format("<dt>seeds</dt><dd>{}</dd>\n",
                     r.seeds.empty() ? std::string("none")
                                     : fmt::format("{} ({}..{})", r.seeds.size(), r.seeds.front(), r.seeds.back()));
  out += fmt::format("<dt>baseline</dt><dd>{}</dd>\n", html_text(r.variants[r.baseline].name));
  out += fmt::format("<dt>squall</dt><dd>{}</dd>\n</dl>\n</header>\n", html_text(r.squall_version));
  out += decision_section(r, a);
  out += "<section id=\"charts\">\n<h2>Pareto front</h2>\n<div id=\"pareto\"></div>\n</section>\n";
  Json data = points_json(r, a);
  data["robustness"] = robustness_chart_json(r, a);
  if (!data["robustness"].is_null()) {
    out +=
        "<section id=\"robustness-charts\">\n<h2>Robustness: each policy over the scenario settings</h2>\n"
        "<div id=\"robustness\"></div>\n";
    out += robustness_tables(r, a) + "</section>\n";
  }
  out += "<section id=\"statistics\">\n<h2>Means and paired differences (95% confidence intervals, Student's t)</h2>\n";
  out += tables(r, a) + "</section>\n";
  out += fmt::format("<script type=\"application/json\" id=\"squall-data\">{}</script>\n",
                     script_json(data.dump(-1, ' ', false, Json::error_handler_t::replace)));
  out += fmt::format("<script>\n{}{}</script>\n</body>\n</html>\n", chart_page_js(), sweep_page_js());
  return out;
}

}  // namespace squall
