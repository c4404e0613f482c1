// The squall HTML report's charts (reports/writers/html_writer.hpp has the page's shape,
// reports/writers/html_page_data.cpp the data's). Embedded in every page at build time
// (cmake/html_assets.cmake); uses only uPlot (the global `uPlot`, inline above) and the
// DOM, and fetches nothing.
//
// On <html> it sets data-charts-expected (how many charts it will draw), then
// data-charts-drawn (how many uPlot has drawn so far) and, on an uncaught error,
// data-errors. On each chart's <figure> it sets data-layout after every draw
// (chart_page.js, inline before this script). tests/cli/html_browser_test.py reads them
// from the page's DOM.
(function () {
  "use strict";
  var root = document.documentElement;

  var data = squallChartPage.start();

  // Colours, defined once: every name of a kind (task status, outcome kind, provider, ...)
  // keeps its colour on every chart. Some names read best in a colour of their own; the
  // others take the shared palette's colours (chart_page.js) in the order the data lists
  // them, skipping those already taken.
  var palette = squallChartPage.palette;
  var preferred = {
    status: { succeeded: "#009E73", degraded: "#56B4E9", safe_failed: "#E69F00", failed: "#D55E00",
              wrong_answer: "#CC79A7" },
    outcome: { success: "#009E73", timeout: "#000000", rate_limited: "#E69F00", overloaded: "#CC79A7",
               server_error: "#D55E00", empty: "#999999", circuit_open: "#0072B2" },
    latency: { p50: "#0072B2", p99: "#E69F00", max: "#D55E00" }
  };

  function colourTable(kind, names) {
    var own = preferred[kind] || {};
    var taken = {};
    names.forEach(function (n) { if (own[n]) taken[own[n]] = true; });
    var free = palette.filter(function (c) { return !taken[c]; });
    var table = {};
    var next = 0;
    names.forEach(function (n) {
      if (table[n]) return;
      table[n] = own[n] || free[next++ % free.length];
    });
    return table;
  }

  function unique(names) {
    return names.filter(function (n, i) { return names.indexOf(n) === i; });
  }

  var colours = {
    status: colourTable("status", Object.keys(data.tasks)),
    outcome: colourTable("outcome", data.outcome_kinds),
    provider: colourTable("provider", data.providers.map(function (p) { return p.name; })),
    fault: colourTable("fault", data.injected_faults.map(function (f) { return f.provider + " " + f.kind; })),
    breaker: colourTable("breaker", data.breakers.series.map(function (b) { return b.label; })),
    limiter: colourTable("limiter", unique(data.limiters.map(function (l) { return l.name; }))),
    latency: colourTable("latency", ["p50", "p99", "max"]),
    total: { total: "#000000" }
  };
  var breakerStates = ["closed", "half_open", "open"];

  // Translucent fills for the shaded windows: a fault window in its provider's colour,
  // the more opaque the likelier the fault (a 2% background barely tints, a certain outage
  // stands out), a burst in grey.
  function translucent(hex, alpha) {
    var n = parseInt(hex.slice(1), 16);
    return "rgba(" + (n >> 16) + "," + ((n >> 8) & 255) + "," + (n & 255) + "," + alpha + ")";
  }

  var bands = data.schedule.faults.map(function (f) {
    return { from: f.from, to: f.to, fill: translucent(colours.provider[f.provider] || "#D55E00", 0.04 + 0.2 * f.probability),
             swatch: colours.provider[f.provider] || "#D55E00",
             text: "fault " + f.provider + " " + f.kind + (f.outage ? " (outage " + f.outage + ")" : "") +
                   " p=" + f.probability + (f.flapping ? ", flapping" : "") + ", " + f.from + "-" + f.to + " s" };
  }).concat(data.schedule.bursts.map(function (b) {
    return { from: b.from, to: b.to, fill: "rgba(120,120,120,0.16)", swatch: "#787878",
             text: "burst " + b.rate_per_s + "/s, " + b.from + "-" + b.to + " s" };
  }));

  function thresholdsOf(chart) {
    return data.thresholds.filter(function (t) { return t.chart === chart; });
  }

  // One chart spec: a title, a y-axis label, x values, [name, values, colour] series.
  function spec(title, yLabel, x, named, more) {
    var s = { title: title, yLabel: yLabel, x: x, named: named, time: true, stepped: false, bars: false,
              thresholds: [], vertical: [], yRange: null, xLabel: "virtual time (s)" };
    Object.keys(more || {}).forEach(function (k) { s[k] = more[k]; });
    return s;
  }

  function byProvider(field) {
    return data.providers.map(function (p) { return [p.name, p[field], colours.provider[p.name]]; });
  }

  function cumulative(values) {
    var sum = 0;
    return values.map(function (v) { sum += v; return Math.round(sum * 1e6) / 1e6; });
  }

  function taskSpecs(specs) {
    specs.push(spec("Tasks finished per window, by status", "tasks", data.t,
      Object.keys(data.tasks).map(function (s) { return [s, data.tasks[s], colours.status[s]]; })));
    specs.push(spec("Task success rate per window (succeeded or degraded, of the tasks finished in it)", "rate",
      data.t, [["task_success", data.task_success, colours.status.succeeded]],
      { thresholds: thresholdsOf("task_success"), yRange: [0, 1.05] }));
    specs.push(spec("Tasks in flight at each window's end", "tasks", data.t,
      [["in flight", data.tasks_in_flight, colours.total.total]]));
    var latency = data.task_latency_ms;
    specs.push(spec("Task latency of the tasks finished per window", "ms", data.t,
      ["p50", "p99", "max"].map(function (k) { return [k, latency[k], colours.latency[k]]; }),
      { thresholds: thresholdsOf("task_latency") }));
    var h = data.latency_histogram;
    if (h.counts.length > 0) {
      var edges = h.counts.map(function (c, i) { return Math.round(i * h.bucket_ms * 1000) / 1000; });
      edges.push(Math.round(h.counts.length * h.bucket_ms * 1000) / 1000);
      specs.push(spec("Task end-to-end latency, every task (buckets of " + h.bucket_ms + " ms)", "tasks", edges,
        [["tasks", h.counts.concat([h.counts[h.counts.length - 1]]), colours.total.total]],
        { time: false, stepped: true, xLabel: "latency (ms)", vertical: thresholdsOf("task_latency") }));
    }
  }

  function providerSpecs(specs) {
    if (data.providers.length === 0) return;
    specs.push(spec("Attempts per window, by provider (retries included)", "attempts", data.t, byProvider("attempts")));
    data.providers.forEach(function (p) {
      specs.push(spec("Provider " + p.name + ": attempts per window, by outcome", "attempts", data.t,
        Object.keys(p.outcomes).map(function (k) { return [k, p.outcomes[k], colours.outcome[k]]; })));
    });
    specs.push(spec("Tokens billed per window, by provider (failed attempts included)", "tokens", data.t,
      byProvider("tokens")));
    specs.push(spec("Cost per window, by provider (failed attempts included)", "USD", data.t, byProvider("cost_usd")));
    var total = data.t.map(function (t, w) {
      return data.providers.reduce(function (sum, p) { return sum + p.cost_usd[w]; }, 0);
    });
    specs.push(spec("Cumulative cost, in total and by provider", "USD", data.t,
      [["total", cumulative(total), colours.total.total]].concat(data.providers.map(function (p) {
        return [p.name, cumulative(p.cost_usd), colours.provider[p.name]];
      })), { thresholds: thresholdsOf("cost_usd") }));
  }

  function faultAndBreakerSpecs(specs) {
    if (data.injected_faults.length > 0) {
      specs.push(spec("Injected faults per window, by provider and kind (as the chaos layer decided them)",
        "faults", data.t, data.injected_faults.map(function (f) {
          var name = f.provider + " " + f.kind;
          return [name, f.counts, colours.fault[name]];
        })));
    }
    if (data.breakers.series.length > 0) {
      var title = "Circuit breaker state (tool -> provider)";
      if (data.breaker_transitions_shown < data.breaker_transitions_total) {
        title += ": the first " + data.breaker_transitions_shown + " of " +
                 data.breaker_transitions_total + " transitions";
      }
      specs.push(spec(title, "state", data.breakers.t, data.breakers.series.map(function (b) {
        return [b.label, b.state, colours.breaker[b.label]];
      }), { stepped: true, yRange: [-0.1, 2.1] }));
    }
  }

  // Each adaptive_concurrency limiter's lowest and highest limit per window: a dip shorter
  // than a window still shows in the lowest line.
  function limiterSpecs(specs) {
    if (data.limiters.length === 0) return;
    specs.push(spec("Adaptive concurrency limit per window, lowest and highest (tool or provider holding it)",
      "limit (calls)", data.t, [].concat.apply([], data.limiters.map(function (l) {
        var colour = colours.limiter[l.name];
        return [[l.name + " lowest", l.lowest, colour], [l.name + " highest", l.highest, translucent(colour, 0.5)]];
      }))));
  }

  // ---- Drawing on the canvas, beneath and above the series -------------------------

  function shade(u) {
    var ctx = u.ctx;
    var left = u.bbox.left, right = u.bbox.left + u.bbox.width;
    bands.forEach(function (b) {
      var x0 = Math.max(left, u.valToPos(b.from, "x", true));
      var x1 = Math.min(right, u.valToPos(b.to, "x", true));
      if (x1 <= x0) return;
      ctx.fillStyle = b.fill;
      ctx.fillRect(x0, u.bbox.top, x1 - x0, u.bbox.height);
    });
  }

  function thresholdText(t) { return t.label + (t.passed ? " \u2713" : " \u2717"); }

  function drawThreshold(u, t, vertical) {
    var ctx = u.ctx;
    var px = window.devicePixelRatio || 1;
    var b = u.bbox;
    var colour = t.passed ? "#00704f" : "#b23b00";
    var at = u.valToPos(t.value, vertical ? "x" : "y", true);
    ctx.save();
    ctx.strokeStyle = colour;
    ctx.fillStyle = colour;
    ctx.lineWidth = 1.5 * px;
    ctx.setLineDash([6 * px, 4 * px]);
    ctx.beginPath();
    if (vertical) { ctx.moveTo(at, b.top); ctx.lineTo(at, b.top + b.height); }
    else { ctx.moveTo(b.left, at); ctx.lineTo(b.left + b.width, at); }
    ctx.stroke();
    ctx.font = (12 * px) + "px system-ui, sans-serif";
    ctx.textAlign = "right";
    ctx.textBaseline = "bottom";
    // Inside the plot: above the line, or below it when the line is near the top.
    var text = thresholdText(t);
    if (vertical) {
      ctx.fillText(text, Math.max(at - 4 * px, b.left + ctx.measureText(text).width + 4 * px), b.top + 16 * px);
    } else {
      ctx.fillText(text, b.left + b.width - 4 * px, at - 3 * px < b.top + 14 * px ? at + 16 * px : at - 3 * px);
    }
    ctx.restore();
  }

  // ---- Charts --------------------------------------------------------------------

  function yScaleOf(s) {
    if (s.yRange) return { auto: false, range: s.yRange };
    var bound = s.thresholds.reduce(function (m, t) { return Math.max(m, t.value); }, 0);
    // From 0, so that a quiet window reads as low, not as the bottom of the chart; up to
    // the highest threshold drawn, so that its line shows.
    return { auto: true, range: function (u, min, max) {
      var top = Math.max(max, bound);
      return [0, top > 0 ? top * 1.08 : 1];
    } };
  }

  function xScaleOf(s) {
    if (s.vertical.length === 0) return { time: false };
    var bound = s.vertical.reduce(function (m, t) { return Math.max(m, t.value); }, 0);
    return { time: false, range: function (u, min, max) { return [0, Math.max(max, bound * 1.05)]; } };
  }

  function yAxisOf(s) {
    var axis = { label: s.yLabel, size: squallChartPage.yAxisSize };
    if (s.stepped && s.time) {  // breaker states
      axis.splits = function () { return [0, 1, 2]; };
      axis.values = function (u, splits) { return splits.map(function (v) { return breakerStates[v] || ""; }); };
    }
    return axis;
  }

  function seriesOf(s) {
    var series = [{ label: s.xLabel }];
    s.named.forEach(function (triple) {
      var one = { label: triple[0], stroke: triple[2], width: 1.5, points: { show: false } };
      if (s.stepped) one.paths = uPlot.paths.stepped({ align: 1 });
      if (!s.time) one.fill = translucent(triple[2], 0.2);
      series.push(one);
    });
    return series;
  }

  function caption(figure, s) {
    if (!s.time || bands.length === 0) return;
    var text = document.createElement("figcaption");
    text.appendChild(document.createTextNode("Shaded: "));
    bands.forEach(function (b, i) {
      var swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.background = b.swatch;
      text.appendChild(swatch);
      text.appendChild(document.createTextNode(b.text + (i + 1 < bands.length ? "; " : "")));
    });
    figure.appendChild(text);
  }

  function draw(s, n, list, counter) {
    var figure = document.createElement("figure");
    figure.className = "chart";
    figure.setAttribute("data-chart", String(n));
    list.appendChild(figure);
    var counted = false;
    var opts = {
      title: s.title,
      width: Math.max(320, Math.min(1100, list.clientWidth || 900)),
      height: 260,
      scales: { x: xScaleOf(s), y: yScaleOf(s) },
      axes: [{ label: s.xLabel }, yAxisOf(s)],
      series: seriesOf(s),
      hooks: {
        init: [squallChartPage.recordTexts],
        drawClear: [function (u) { u.squallTexts = []; if (s.time) shade(u); }],
        draw: [function (u) {
          s.thresholds.forEach(function (t) { drawThreshold(u, t, false); });
          s.vertical.forEach(function (t) { drawThreshold(u, t, true); });
          squallChartPage.record(u, figure, list);
          if (counted) return;
          counted = true;
          counter();
        }]
      }
    };
    var columns = [s.x].concat(s.named.map(function (triple) { return triple[1]; }));
    new uPlot(opts, columns, figure);
    caption(figure, s);
  }

  function drawAll() {
    var specs = [];
    taskSpecs(specs);
    providerSpecs(specs);
    faultAndBreakerSpecs(specs);
    limiterSpecs(specs);
    root.setAttribute("data-charts-expected", String(specs.length));
    root.setAttribute("data-charts-drawn", "0");
    var drawn = 0;
    var list = document.getElementById("chart-list");
    specs.forEach(function (s, n) {
      draw(s, n, list, function () {
        drawn += 1;
        root.setAttribute("data-charts-drawn", String(drawn));
      });
    });
  }

  drawAll();
})();
