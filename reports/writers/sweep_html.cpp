#include "reports/writers/sweep_html.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "reports/rounding.hpp"
#include "reports/sweep_decision.hpp"
#include "reports/sweep_robustness.hpp"
#include "reports/writers/html_assets.hpp"
#include "reports/writers/html_text.hpp"
#include "reports/writers/sweep_tables.hpp"

namespace squall {
namespace {

using Json = nlohmann::ordered_json;

// The robustness charts (a sweep with scenario axes): per metric, one line per policy over
// the scenario setting, each mean with its 95% interval as a whisker.
constexpr std::string_view kRobustnessScript = R"JS(function drawRobustness(data, markDrawn) {
  "use strict";
  var colours = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"];
  var container = document.getElementById("robustness");
  data.charts.forEach(function (chart, c) {
    var el = document.createElement("div");
    el.className = "robustness-chart";
    container.appendChild(el);
    var series = [{ label: data.x_label }];
    var columns = [data.x];
    var lows = [], highs = [];
    chart.series.forEach(function (s, i) {
      var colour = colours[i % colours.length];
      series.push({ label: s.name, stroke: colour, width: 2, points: { show: true, size: 7, fill: colour } });
      columns.push(s.mean);
      s.low.concat(s.mean).forEach(function (v) { if (v !== null) lows.push(v); });
      s.high.concat(s.mean).forEach(function (v) { if (v !== null) highs.push(v); });
    });
    var lo = Math.min.apply(null, lows), hi = Math.max.apply(null, highs);
    var pad = (hi - lo) * 0.08 || Math.abs(hi) * 0.05 || 1;
    var xAxis = { label: data.x_label };
    if (data.labels) {
      xAxis.values = function (u, splits) {
        return splits.map(function (v) { return Number.isInteger(v) && data.labels[v] !== undefined ? data.labels[v] : ""; });
      };
    }
    var opts = {
      title: chart.metric + " over " + data.x_label + " (means with 95% CI whiskers)",
      width: Math.max(320, Math.min(1100, container.clientWidth || 900)),
      height: 360,
      scales: { x: { time: false }, y: { range: function () { return [lo - pad, hi + pad]; } } },
      axes: [xAxis, { label: chart.metric, size: 70 }],
      series: series,
      hooks: {
        draw: [function (u) {
          var ctx = u.ctx, cap = 4 * devicePixelRatio;
          ctx.save();
          ctx.lineWidth = 1.5 * devicePixelRatio;
          chart.series.forEach(function (s, i) {
            ctx.strokeStyle = colours[i % colours.length];
            data.x.forEach(function (x, k) {
              if (s.low[k] === null || s.high[k] === null) return;
              var px = u.valToPos(x, "x", true), y0 = u.valToPos(s.low[k], "y", true), y1 = u.valToPos(s.high[k], "y", true);
              ctx.beginPath();
              ctx.moveTo(px, y0); ctx.lineTo(px, y1);
              ctx.moveTo(px - cap, y0); ctx.lineTo(px + cap, y0);
              ctx.moveTo(px - cap, y1); ctx.lineTo(px + cap, y1);
              ctx.stroke();
            });
          });
          ctx.restore();
          markDrawn("robustness-" + c);
        }]
      }
    };
    new uPlot(opts, columns, el);
  });
}
)JS";

// The page's script: the Pareto scatter chart, the robustness charts, and the counters the
// browser test reads.
constexpr std::string_view kScript = R"JS((function () {
  "use strict";
  var root = document.documentElement;
  var errors = 0;
  window.addEventListener("error", function () {
    errors += 1;
    root.setAttribute("data-errors", String(errors));
  });
  var data = JSON.parse(document.getElementById("squall-data").textContent);
  var drawn = {};
  var markDrawn = function (id) {
    drawn[id] = true;
    root.setAttribute("data-charts-drawn", String(Object.keys(drawn).length));
  };
  var robust = data.robustness ? data.robustness.charts.length : 0;
  root.setAttribute("data-charts-expected", String(1 + robust));
  var xs = data.points.map(function (p) { return p.x; });
  var front = data.points.map(function (p) { return p.front ? p.y : null; });
  var rest = data.points.map(function (p) { return p.front ? null : p.y; });
  var none = function () { return null; };
  var el = document.getElementById("pareto");
  var opts = {
    title: "Variants' means: " + data.y.metric + " (" + data.y.goal + ") against " + data.x.metric +
      " (" + data.x.goal + ")",
    width: Math.max(320, Math.min(1100, el.clientWidth || 900)),
    height: 420,
    scales: { x: { time: false } },
    axes: [{ label: data.x.metric }, { label: data.y.metric }],
    series: [
      { label: data.x.metric },
      { label: "Pareto front", stroke: "#0072B2", fill: "#0072B2", paths: none, points: { show: true, size: 12 } },
      { label: "dominated", stroke: "#999999", fill: "#999999", paths: none, points: { show: true, size: 9 } }
    ],
    hooks: {
      draw: [function (u) {
        var ctx = u.ctx;
        ctx.save();
        ctx.fillStyle = "#333333";
        ctx.font = String(Math.round(12 * devicePixelRatio)) + "px sans-serif";
        data.points.forEach(function (p) {
          ctx.fillText(p.name, u.valToPos(p.x, "x", true) + 8 * devicePixelRatio, u.valToPos(p.y, "y", true) - 6 * devicePixelRatio);
        });
        ctx.restore();
        markDrawn("pareto");
      }]
    }
  };
  new uPlot(opts, [xs, front, rest], el);
  if (robust > 0) drawRobustness(data.robustness, markDrawn);
})();
)JS";

Json points_json(const SweepResult& r, const SweepAnalysis& a) {
  const auto column = [&](const std::string& metric) {
    return static_cast<std::size_t>(std::find(r.metrics.begin(), r.metrics.end(), metric) - r.metrics.begin());
  };
  const bool two = r.objectives.size() >= 2;
  const std::size_t ym = column(r.objectives.front().metric);
  const std::size_t xm = two ? column(r.objectives[1].metric) : 0;
  struct Point {
    std::string name;
    double x, y;
    bool front;
  };
  std::vector<Point> points;
  for (std::size_t v = 0; v < r.variants.size(); ++v) {
    const Interval& y = a.variants[v][ym].value;
    const Interval* x = two ? &a.variants[v][xm].value : nullptr;
    if (y.n == 0 || (x != nullptr && x->n == 0)) continue;
    points.push_back({r.variants[v].name, x != nullptr ? round_to(x->mean, 1e6) : static_cast<double>(v),
                      round_to(y.mean, 1e6), static_cast<bool>(a.pareto[v])});
  }
  std::stable_sort(points.begin(), points.end(),
                   [](const Point& p, const Point& q) { return p.x != q.x ? p.x < q.x : p.name < q.name; });
  Json out = Json::object();
  out["x"] = two ? Json{{"metric", r.objectives[1].metric}, {"goal", to_string(r.objectives[1].goal)}}
                 : Json{{"metric", "variant"}, {"goal", "none"}};
  out["y"] = Json{{"metric", r.objectives[0].metric}, {"goal", to_string(r.objectives[0].goal)}};
  Json list = Json::array();
  for (const Point& p : points) list.push_back(Json{{"name", p.name}, {"x", p.x}, {"y", p.y}, {"front", p.front}});
  out["points"] = list;
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
        "<div id=\"robustness\"></div>\n</section>\n";
  }
  out += "<section id=\"statistics\">\n<h2>Means and paired differences (95% confidence intervals, Student's t)</h2>\n";
  out += tables(r, a) + "</section>\n";
  out += fmt::format("<script type=\"application/json\" id=\"squall-data\">{}</script>\n",
                     script_json(data.dump(-1, ' ', false, Json::error_handler_t::replace)));
  out += fmt::format("<script>\n{}{}</script>\n</body>\n</html>\n", kRobustnessScript, kScript);
  return out;
}

}  // namespace squall
