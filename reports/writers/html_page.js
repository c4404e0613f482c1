// The squall HTML report's charts (reports/writers/html_writer.hpp has the page's shape
// and the data's). Embedded in every page at build time (cmake/html_assets.cmake); uses
// only uPlot (the global `uPlot`, inline above) and the DOM, and fetches nothing.
//
// On <html> it sets data-charts-expected (how many charts it will draw), then
// data-charts-drawn (how many uPlot has drawn so far) and, on an uncaught error,
// data-errors: tests/cli/html_browser_test.py reads them from the page's DOM.
(function () {
  "use strict";
  var root = document.documentElement;
  var errors = 0;
  window.addEventListener("error", function () {
    errors += 1;
    root.setAttribute("data-errors", String(errors));
  });

  // Colours that stay apart for the usual colour-vision deficiencies (Okabe and Ito,
  // "Color Universal Design", 2008), then greys.
  var palette = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9",
                 "#F0E442", "#000000", "#666666", "#999999", "#333333", "#BBBBBB",
                 "#444444", "#777777"];
  // The task statuses and outcome kinds read most easily in fixed colours.
  var fixed = {
    succeeded: "#009E73", success: "#009E73", degraded: "#56B4E9", safe_failed: "#E69F00",
    failed: "#D55E00", wrong_answer: "#CC79A7", empty: "#999999", timeout: "#000000",
    rate_limited: "#E69F00", overloaded: "#CC79A7", server_error: "#D55E00",
    circuit_open: "#0072B2"
  };
  var breakerStates = ["closed", "half_open", "open"];

  function colour(name, i) { return fixed[name] || palette[i % palette.length]; }

  function width(el) { return Math.max(320, Math.min(1100, el.clientWidth || 900)); }

  // One chart spec: a title, a y-axis label, x values, named series and options.
  function lineSpec(title, yLabel, x, named) {
    return { title: title, yLabel: yLabel, x: x, named: named, stepped: false };
  }

  function drawAll(data) {
    var specs = [];
    var statuses = Object.keys(data.tasks);
    specs.push(lineSpec("Tasks finished per window, by status", "tasks", data.t,
      statuses.map(function (s) { return [s, data.tasks[s]]; })));
    var latency = data.task_latency_ms;
    specs.push(lineSpec("Task latency of the tasks finished per window", "ms", data.t,
      [["p50", latency.p50], ["p99", latency.p99], ["max", latency.max]]));
    if (data.providers.length > 0) {
      specs.push(lineSpec("Attempts per window, by provider (retries included)", "attempts", data.t,
        data.providers.map(function (p) { return [p.name, p.attempts]; })));
    }
    data.providers.forEach(function (p) {
      var kinds = Object.keys(p.outcomes);
      specs.push(lineSpec("Provider " + p.name + ": attempts per window, by outcome", "attempts", data.t,
        kinds.map(function (k) { return [k, p.outcomes[k]]; })));
    });
    if (data.providers.length > 0) {
      specs.push(lineSpec("Tokens billed per window, by provider (failed attempts included)", "tokens", data.t,
        data.providers.map(function (p) { return [p.name, p.tokens]; })));
      specs.push(lineSpec("Cost per window, by provider (failed attempts included)", "USD", data.t,
        data.providers.map(function (p) { return [p.name, p.cost_usd]; })));
    }
    if (data.injected_faults.length > 0) {
      specs.push(lineSpec("Injected faults per window, by provider and kind (as the chaos layer decided them)",
        "faults", data.t,
        data.injected_faults.map(function (f) { return [f.provider + " " + f.kind, f.counts]; })));
    }
    if (data.breakers.series.length > 0) {
      var title = "Circuit breaker state (tool -> provider)";
      if (data.breaker_transitions_shown < data.breaker_transitions_total) {
        title += ": the first " + data.breaker_transitions_shown + " of " +
                 data.breaker_transitions_total + " transitions";
      }
      var spec = lineSpec(title, "state", data.breakers.t,
        data.breakers.series.map(function (b) { return [b.label, b.state]; }));
      spec.stepped = true;
      specs.push(spec);
    }

    root.setAttribute("data-charts-expected", String(specs.length));
    root.setAttribute("data-charts-drawn", "0");
    var drawn = 0;
    var list = document.getElementById("chart-list");
    specs.forEach(function (spec, n) {
      var figure = document.createElement("figure");
      figure.className = "chart";
      figure.setAttribute("data-chart", String(n));
      list.appendChild(figure);
      var counted = false;
      var series = [{ label: "virtual time (s)" }];
      spec.named.forEach(function (pair, i) {
        var s = { label: pair[0], stroke: colour(pair[0], i), width: 1.5, points: { show: false } };
        if (spec.stepped) s.paths = uPlot.paths.stepped({ align: 1 });
        series.push(s);
      });
      var yAxis = { label: spec.yLabel, size: 70 };  // room for "100,000" beside the label
      // From 0, so that a quiet window reads as low, not as the bottom of the chart.
      var yScale = { auto: true, range: function (u, min, max) { return [0, max > 0 ? max * 1.05 : 1]; } };
      if (spec.stepped) {
        yAxis.splits = function () { return [0, 1, 2]; };
        yAxis.values = function (u, splits) { return splits.map(function (v) { return breakerStates[v] || ""; }); };
        yAxis.size = 80;
        yScale = { auto: false, range: [-0.1, 2.1] };
      }
      var opts = {
        title: spec.title,
        width: width(list),
        height: 260,
        scales: { x: { time: false }, y: yScale },
        axes: [{ label: "virtual time (s)" }, yAxis],
        series: series,
        hooks: {
          draw: [function () {
            if (counted) return;
            counted = true;
            drawn += 1;
            root.setAttribute("data-charts-drawn", String(drawn));
          }]
        }
      };
      var columns = [spec.x].concat(spec.named.map(function (pair) { return pair[1]; }));
      new uPlot(opts, columns, figure);
    });
  }

  drawAll(JSON.parse(document.getElementById("squall-data").textContent));
})();
