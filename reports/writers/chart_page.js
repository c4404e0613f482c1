// What the run page (html_page.js) and the sweep page (sweep_page.js) share; inline before
// either script (cmake/html_assets.cmake). Defines the global `squallChartPage`:
//   start()                    counts uncaught errors on <html> (data-errors) and returns
//                              the page's data (the JSON element "squall-data"), parsed;
//   palette                    the charts' colours, in the order names take them: Okabe and
//                              Ito's ("Color Universal Design", 2008), which stays apart for
//                              the usual colour-vision deficiencies, then darker and lighter
//                              tones;
//   yAxisSize                  a y axis's `size`: as wide as its widest tick value beside
//                              its label;
//   recordTexts(u)             uPlot `init` hook: from then on every text drawn on the
//                              chart's canvas is recorded with its box;
//   record(u, figure, within)  after a draw: sets the <figure>'s data-layout to the data
//                              points inside the chart's scales and the box of every text
//                              on the chart (uPlot's title and legend in the DOM, the axis
//                              labels, tick values and the page's own canvas labels) beside
//                              the box it must stay within (the canvas, the chart, and for
//                              the whole chart the element `within`).
// tests/cli/html_browser_test.py refuses a chart with no point, a text outside its box and
// two canvas texts that overlap.
var squallChartPage = (function () {
  "use strict";

  var palette = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442",
                 "#000000", "#666666", "#8C564B", "#17BECF", "#7F7F00", "#999999", "#3F007D"];

  function start() {
    var root = document.documentElement;
    var errors = 0;
    window.addEventListener("error", function () {
      errors += 1;
      root.setAttribute("data-errors", String(errors));
    });
    return JSON.parse(document.getElementById("squall-data").textContent);
  }

  // uPlot draws the values right-aligned 15 px (tick and gap) from the plot and the label
  // in the outer 30 px.
  function yAxisSize(u, values, i) {
    var widest = 0;
    u.ctx.save();
    u.ctx.font = u.axes[i].font[0];
    (values || []).forEach(function (v) { widest = Math.max(widest, u.ctx.measureText(String(v)).width); });
    u.ctx.restore();
    return Math.ceil(widest / uPlot.pxRatio) + 50;
  }

  // Every text drawn on a chart's canvas, as a box in CSS pixels relative to the canvas.
  function recordTexts(u) {
    var ctx = u.ctx;
    var fillText = ctx.fillText;
    u.squallTexts = [];
    ctx.fillText = function (text, x, y) {
      var m = ctx.measureText(text);
      var tr = ctx.getTransform();
      var px = u.ctx.canvas.width / Math.max(1, u.ctx.canvas.clientWidth);
      var corners = [[x - m.actualBoundingBoxLeft, y - m.actualBoundingBoxAscent],
                     [x + m.actualBoundingBoxRight, y + m.actualBoundingBoxDescent]];
      var xs = [], ys = [];
      [[corners[0][0], corners[0][1]], [corners[1][0], corners[0][1]],
       [corners[0][0], corners[1][1]], [corners[1][0], corners[1][1]]].forEach(function (c) {
        xs.push((tr.a * c[0] + tr.c * c[1] + tr.e) / px);
        ys.push((tr.b * c[0] + tr.d * c[1] + tr.f) / px);
      });
      u.squallTexts.push({ text: String(text), box: [Math.min.apply(null, xs), Math.min.apply(null, ys),
                                                      Math.max.apply(null, xs), Math.max.apply(null, ys)] });
      return fillText.apply(ctx, arguments);
    };
  }

  function inScale(v, scale) { return v != null && isFinite(v) && v >= scale.min && v <= scale.max; }

  function pointsDrawn(u) {
    var n = 0;
    for (var i = 1; i < u.series.length; i++) {
      if (!u.series[i].show) continue;
      for (var j = 0; j < u.data[0].length; j++) {
        if (inScale(u.data[0][j], u.scales.x) && inScale(u.data[i][j], u.scales.y)) n += 1;
      }
    }
    return n;
  }

  function rect(el, origin) {
    var r = el.getBoundingClientRect();
    return [r.left - origin.left, r.top - origin.top, r.right - origin.left, r.bottom - origin.top];
  }

  function record(u, figure, within) {
    var origin = u.root.getBoundingClientRect();
    var canvas = rect(u.ctx.canvas, origin);
    var whole = [0, 0, origin.width, origin.height];
    var labels = (u.squallTexts || []).map(function (t) {
      return { kind: "canvas", text: t.text, within: canvas,
               box: [t.box[0] + canvas[0], t.box[1] + canvas[1], t.box[2] + canvas[0], t.box[3] + canvas[1]] };
    });
    // A DOM label's text, not its element: a title longer than the chart wraps or spills
    // out of its box.
    Array.prototype.forEach.call(u.root.querySelectorAll(".u-title, .u-legend .u-label"), function (el) {
      var text = document.createRange();
      text.selectNodeContents(el);
      labels.push({ kind: el.className, text: el.textContent, box: rect(text, origin), within: whole });
    });
    labels.push({ kind: "chart", text: "the whole chart", box: whole, within: rect(within, origin) });
    figure.setAttribute("data-layout", JSON.stringify({ points: pointsDrawn(u), labels: labels }));
  }

  return { palette: palette, start: start, yAxisSize: yAxisSize, recordTexts: recordTexts, record: record };
})();
