// The sweep page's charts (reports/writers/sweep_html.hpp has the page's shape and data).
// Embedded at build time (cmake/html_assets.cmake) after uPlot and chart_page.js; uses
// only them and the DOM, and fetches nothing.
//
// The Pareto chart: each variant's means of the first two objectives with their 95%
// intervals as whiskers in both directions, the third objective (when there is one) as the
// point's area, the front filled blue, dominated variants grey, infeasible ones (failing a
// threshold on too many seeds) as rings; only the variants compared with the baseline (on
// its scenario settings). Every point is labelled with its name where the label fits inside
// the plot without touching another label or point, the recommended variant's first; the
// names that do not fit are listed under the chart instead, so no label is clipped or
// piled on another.
// Tick values carry as many decimals as their step needs. Then, for a sweep with scenario
// axes, one robustness chart per metric.
//
// On <html>: data-charts-expected, data-charts-drawn and, on an uncaught error,
// data-errors; on each chart's <figure>, data-layout (chart_page.js).
(function () {
  "use strict";
  var root = document.documentElement;
  var data = squallChartPage.start();
  var px = window.devicePixelRatio || 1;
  var drawn = {};
  function markDrawn(id) {
    drawn[id] = true;
    root.setAttribute("data-charts-drawn", String(Object.keys(drawn).length));
  }

  // Decimals that tell apart ticks `step` apart: those of the step itself.
  function decimalsOf(step) {
    var s = Math.abs(step).toFixed(12).replace(/0+$/, "");
    var dot = s.indexOf(".");
    return dot < 0 ? 0 : Math.min(12, s.length - dot - 1);
  }

  function tickValues(u, splits, axisIdx, space, step) {
    var d = decimalsOf(step);
    return splits.map(function (v) { return v == null ? "" : (v + 0).toFixed(d); });
  }

  function yAxis(label) {
    return { label: label, values: tickValues, size: squallChartPage.yAxisSize };
  }

  // [min, max] of the values given (nulls skipped), widened by `pad` of the span each side,
  // never below 0 when no value is (a cost or a latency has no negative ticks).
  function paddedRange(values, pad) {
    var v = values.filter(function (x) { return x != null && isFinite(x); });
    var lo = Math.min.apply(null, v), hi = Math.max.apply(null, v);
    var span = hi - lo || Math.abs(hi) * 0.1 || 1;
    return [lo >= 0 ? Math.max(0, lo - span * pad) : lo - span * pad, hi + span * pad];
  }

  function figureIn(container, id) {
    var figure = document.createElement("figure");
    figure.className = "chart";
    figure.setAttribute("data-chart", id);
    container.appendChild(figure);
    return figure;
  }

  // ---- The Pareto chart ------------------------------------------------------------

  var FRONT = "#0072B2", DOMINATED = "#999999";
  var points = data.points;
  var z = data.z;
  var zs = points.map(function (p) { return p.z; }).filter(function (v) { return v != null; });
  var zMin = zs.length ? Math.min.apply(null, zs) : 0, zMax = zs.length ? Math.max.apply(null, zs) : 0;

  // Radius in CSS pixels: the area grows linearly with the third objective, 5 to 12 px.
  function radius(p) {
    if (!z || p.z == null || zMax <= zMin) return 7;
    var t = (p.z - zMin) / (zMax - zMin);
    return Math.sqrt(25 + t * (144 - 25));
  }

  function whisker(ctx, x0, y0, x1, y1, cap, horizontal) {
    ctx.moveTo(x0, y0); ctx.lineTo(x1, y1);
    if (horizontal) {
      ctx.moveTo(x0, y0 - cap); ctx.lineTo(x0, y0 + cap);
      ctx.moveTo(x1, y1 - cap); ctx.lineTo(x1, y1 + cap);
    } else {
      ctx.moveTo(x0 - cap, y0); ctx.lineTo(x0 + cap, y0);
      ctx.moveTo(x1 - cap, y1); ctx.lineTo(x1 + cap, y1);
    }
  }

  function drawPoint(u, p) {
    var ctx = u.ctx, colour = p.front ? FRONT : DOMINATED;
    var cx = u.valToPos(p.x, "x", true), cy = u.valToPos(p.y, "y", true), r = radius(p) * px;
    ctx.save();
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1.25 * px;
    ctx.beginPath();
    if (p.x_low != null) whisker(ctx, u.valToPos(p.x_low, "x", true), cy, u.valToPos(p.x_high, "x", true), cy, 4 * px, true);
    if (p.y_low != null) whisker(ctx, cx, u.valToPos(p.y_low, "y", true), cx, u.valToPos(p.y_high, "y", true), 4 * px, false);
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(cx, cy, r, 0, 2 * Math.PI);
    ctx.fillStyle = p.feasible ? colour : "#ffffff";
    ctx.fill();
    ctx.lineWidth = 2 * px;
    ctx.stroke();
    ctx.restore();
    return [cx - r, cy - r, cx + r, cy + r];
  }

  function overlaps(a, b) { return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]; }

  // Label boxes around a marker, nearest first: beside, above and below, farther and
  // farther out; `gap` is the distance from the marker's edge, in CSS pixels.
  // Above and below, a label slides sideways to stay inside the plot (`b`).
  function candidates(m, w, h, b) {
    var cx = (m[0] + m[2]) / 2, cy = (m[1] + m[3]) / 2, r0 = (m[2] - m[0]) / 2;
    var centred = Math.max(b.left, Math.min(cx - w / 2, b.left + b.width - w));
    var out = [];
    [4, 14, 28, 46].forEach(function (gap) {
      var r = r0 + gap * px;
      [[cx + r, cy - r0 - h], [cx + r, cy + r0], [cx - r - w, cy - r0 - h], [cx - r - w, cy + r0],
       [cx + r, cy - h / 2], [cx - r - w, cy - h / 2], [centred, cy - r - h], [centred, cy + r]]
        .forEach(function (at) { out.push({ gap: gap, box: [at[0], at[1], at[0] + w, at[1] + h] }); });
    });
    return out;
  }

  // A thin line from the marker's edge to its label, when the label is more than 8 px away.
  function leader(ctx, m, box) {
    var cx = (m[0] + m[2]) / 2, cy = (m[1] + m[3]) / 2, r = (m[2] - m[0]) / 2;
    var tx = Math.max(box[0], Math.min(cx, box[2])), ty = Math.max(box[1], Math.min(cy, box[3]));
    var d = Math.hypot(tx - cx, ty - cy) || 1;
    if (d - r <= 8 * px) return;
    ctx.beginPath();
    ctx.moveTo(cx + (tx - cx) * r / d, cy + (ty - cy) * r / d);
    ctx.lineTo(tx, ty);
    ctx.stroke();
  }

  // Names placed where they fit, the recommended variant's first, then the baseline's,
  // the front's and the rest; returns the points whose name did not fit.
  function labelPoints(u, markers) {
    var ctx = u.ctx, b = u.bbox, taken = markers.slice(), left = [];
    ctx.save();
    ctx.font = Math.round(12 * px) + "px system-ui, sans-serif";
    ctx.fillStyle = "#333333";
    ctx.strokeStyle = "#888888";
    ctx.lineWidth = px;
    ctx.textBaseline = "alphabetic";
    var rank = function (p) { return p.recommended ? 0 : p.baseline ? 1 : p.front ? 2 : 3; };
    var order = points.map(function (p, i) { return i; });
    order.sort(function (i, j) { return (rank(points[i]) - rank(points[j])) || (i - j); });
    order.forEach(function (i) {
      var m = ctx.measureText(points[i].name);
      var ascent = m.actualBoundingBoxAscent, w = m.actualBoundingBoxLeft + m.actualBoundingBoxRight;
      var h = ascent + m.actualBoundingBoxDescent, margin = 2 * px;
      var spot = candidates(markers[i], w + margin * 2, h + margin * 2, b).filter(function (c) {
        var box = c.box;
        return box[0] >= b.left && box[1] >= b.top && box[2] <= b.left + b.width && box[3] <= b.top + b.height &&
               !taken.some(function (t) { return overlaps(box, t); });
      })[0];
      if (!spot) { left.push(points[i]); return; }
      taken.push(spot.box);
      leader(ctx, markers[i], spot.box);
      ctx.fillText(points[i].name, spot.box[0] + margin + m.actualBoundingBoxLeft, spot.box[1] + margin + ascent);
    });
    ctx.restore();
    return left;
  }

  function number(v) { return v == null ? "-" : String(+v.toPrecision(6)); }

  function caption(figure, unlabelled) {
    var parts = ["Points are means over the seeds; whiskers their 95% confidence intervals."];
    if (z) {
      parts.push("Point area: " + z.metric + " (" + z.goal + "), from " + number(zMin) + " (smallest) to " +
                 number(zMax) + " (largest).");
    }
    parts.push("Filled: feasible; ring: fails a threshold on too many seeds.");
    if (data.scope) parts.push(data.scope.charAt(0).toUpperCase() + data.scope.slice(1) + ".");
    if (unlabelled.length > 0) {
      parts.push("Not labelled for lack of room: " + unlabelled.map(function (p) {
        return p.name + " (" + number(p.x) + ", " + number(p.y) + ")";
      }).join("; ") + ".");
    }
    var text = figure.querySelector("figcaption") || figure.appendChild(document.createElement("figcaption"));
    text.textContent = parts.join(" ");
  }

  // The second objective's axis; with one objective, the variants side by side in the
  // sweep's order (their names are on the points), one tick each.
  function xAxisOfPareto() {
    if (data.x.goal !== "none") return { label: data.x.metric, values: tickValues };
    return { label: "variants, in the sweep's order", splits: function () { return points.map(function (p) { return p.x; }); },
             values: function (u, splits) { return splits.map(function (v) { return "#" + (v + 1); }); } };
  }

  function drawPareto() {
    var container = document.getElementById("pareto");
    var figure = figureIn(container, "pareto");
    var none = function () { return null; };
    var xs = points.map(function (p) { return p.x; });
    var byIndex = data.x.goal === "none";
    var xRange = byIndex ? [Math.min.apply(null, xs) - 0.5, Math.max.apply(null, xs) + 0.5]
                         : paddedRange(xs.concat(points.map(function (p) { return p.x_low; }),
                                                 points.map(function (p) { return p.x_high; })), 0.12);
    var yRange = paddedRange(points.map(function (p) { return p.y; }).concat(
      points.map(function (p) { return p.y_low; }), points.map(function (p) { return p.y_high; })), 0.12);
    var hidden = { show: false };
    var opts = {
      title: "Variants' means: " + data.y.metric + " (" + data.y.goal + ")" +
        (byIndex ? "" : " against " + data.x.metric + " (" + data.x.goal + ")"),
      width: Math.max(320, Math.min(1100, container.clientWidth || 900)),
      height: 420,
      legend: { live: false },
      scales: { x: { time: false, range: function () { return xRange; } },
                y: { range: function () { return yRange; } } },
      axes: [xAxisOfPareto(), yAxis(data.y.metric)],
      series: [
        { label: data.x.metric },
        { label: "Pareto front", stroke: FRONT, fill: FRONT, paths: none, points: hidden },
        { label: "dominated", stroke: DOMINATED, fill: DOMINATED, paths: none, points: hidden }
      ],
      hooks: {
        init: [squallChartPage.recordTexts],
        drawClear: [function (u) { u.squallTexts = []; }],
        draw: [function (u) {
          var markers = points.map(function (p) { return drawPoint(u, p); });
          caption(figure, labelPoints(u, markers));
          squallChartPage.record(u, figure, container);
          markDrawn("pareto");
        }]
      }
    };
    var columns = [xs, points.map(function (p) { return p.front ? p.y : null; }),
                   points.map(function (p) { return p.front ? null : p.y; })];
    new uPlot(opts, columns, figure);
  }

  // ---- The robustness charts -------------------------------------------------------

  var LINES = squallChartPage.palette;

  function drawRobustness(rob) {
    var container = document.getElementById("robustness");
    rob.charts.forEach(function (chart, c) {
      var figure = figureIn(container, "robustness-" + c);
      var series = [{ label: rob.x_label }];
      var columns = [rob.x];
      var values = [];
      chart.series.forEach(function (s, i) {
        var colour = LINES[i % LINES.length];
        series.push({ label: s.name, stroke: colour, width: 2, points: { show: true, size: 7, fill: colour } });
        columns.push(s.mean);
        values = values.concat(s.low, s.mean, s.high);
      });
      var yRange = paddedRange(values, 0.08);
      var xAxis = { label: rob.x_label, values: tickValues };
      var xScale = { time: false };
      if (rob.labels) {  // categories: one tick each, half a step of room either side for its label
        xAxis.splits = function () { return rob.x; };
        xAxis.values = function (u, splits) {
          return splits.map(function (v) { return Number.isInteger(v) && rob.labels[v] !== undefined ? rob.labels[v] : ""; });
        };
        xScale.range = function () { return [-0.5, rob.x.length - 0.5]; };
      }
      var opts = {
        title: chart.metric + " over " + rob.x_label + " (means with 95% CI whiskers)",
        width: Math.max(320, Math.min(1100, container.clientWidth || 900)),
        height: 360,
        legend: { live: false },
        scales: { x: xScale, y: { range: function () { return yRange; } } },
        axes: [xAxis, yAxis(chart.metric)],
        series: series,
        hooks: {
          init: [squallChartPage.recordTexts],
          drawClear: [function (u) { u.squallTexts = []; }],
          draw: [function (u) {
            var ctx = u.ctx;
            ctx.save();
            ctx.lineWidth = 1.5 * px;
            chart.series.forEach(function (s, i) {
              ctx.strokeStyle = LINES[i % LINES.length];
              ctx.beginPath();
              rob.x.forEach(function (x, k) {
                if (s.low[k] === null || s.high[k] === null) return;
                var at = u.valToPos(x, "x", true);
                whisker(ctx, at, u.valToPos(s.low[k], "y", true), at, u.valToPos(s.high[k], "y", true), 4 * px, false);
              });
              ctx.stroke();
            });
            ctx.restore();
            squallChartPage.record(u, figure, container);
            markDrawn("robustness-" + c);
          }]
        }
      };
      new uPlot(opts, columns, figure);
    });
  }

  root.setAttribute("data-charts-expected",
                    String((points.length > 0 ? 1 : 0) + (data.robustness ? data.robustness.charts.length : 0)));
  if (points.length > 0) {
    drawPareto();
  } else {
    var none = document.createElement("p");
    none.className = "warning";
    none.textContent = "No chart: no variant compared with the baseline has a value of each objective.";
    document.getElementById("pareto").appendChild(none);
  }
  if (data.robustness) drawRobustness(data.robustness);
})();
