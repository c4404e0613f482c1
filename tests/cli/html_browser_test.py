#!/usr/bin/env python3
"""The HTML report as a person opens it: squall writes pages for two shipped incidents, and
headless Chromium (Debian's chromium-headless-shell, installed by `scripts/setup.sh
--with-browser`, which scripts/test.sh and so CI use) loads each from a file, offline,
runs its script and dumps the resulting DOM.

Checks, per page: the page's script set data-charts-expected on <html> to the number of
charts its data calls for (tasks by status, task success rate, tasks in flight, task
latency, the latency histogram when a task finished; attempts, tokens, cost and cumulative
cost by provider when there are providers; one per provider; injected faults when any was
injected; breaker state when a breaker moved; the limit when a run had an adaptive
concurrency limiter), data-charts-drawn to the same number (uPlot's
draw hook counts), and no data-errors (uncaught errors); uPlot built that many charts in the
DOM; and the browser logged nothing from the page's console (the page never logs, so any
console line, an uncaught error included, is a failure).

The layout, as the page's script recorded it on each chart's <figure data-layout> after
drawing (html_page.js): every chart has data points inside its scales (a chart with none is
empty), every text on it (uPlot's title and legend labels in the DOM; the axis labels, tick
values and threshold labels it drew on its canvas, boxed through the canvas transform) lies
within its chart (a label reaching outside is clipped), no two canvas texts overlap, and no
chart is wider than the chart list. The scenario's fault windows and bursts are listed
under every chart over time, each threshold on task_latency, task_success and cost_usd is
drawn (its label among the canvas texts of the charts it bounds), and every legend name has
one colour on every chart. The checks can fail: two pages broken on purpose (one chart's
series made empty, one legend label made wider than its chart) must each be refused for
that reason.

The sweep page (`squall sweep --report html=PATH`, docs/sweeps.md) of the shipped sweep:
one Pareto chart expected and drawn, one uPlot chart in the DOM titled with the first two
objectives, every variant a point of its data, the front's points those the JSON report
marks `pareto`, the same layout checks as a run page's, every point named on the chart or
listed under it, every whisker holding its mean, the point area's legend, verdicts as row
classes, no uncaught errors and no console output; the same page with every point moved to
one spot and one name longer than the chart must list what it cannot place instead of
piling or clipping it; a sweep with one objective shows its variants side by side, each
named. The shipped robustness sweep's page: the Pareto chart (only the
variants on the baseline's scenario settings) and one robustness chart per metric drawn,
their lines, x values and means the JSON report's `robustness` section, every whisker
holding its mean, one robustness table per metric.

Registered in ctest only when CMake finds a headless Chromium at configure time
(tests/CMakeLists.txt says which it found or that it found none).

Usage: html_browser_test.py SQUALL_BINARY BROWSER   (run from the source directory; ctest does)
Exits non-zero with a message on the first check that fails.
"""
import html
import html.parser
import json
import os
import re
import subprocess
import sys
import tempfile

if len(sys.argv) != 3:
    sys.exit(__doc__)
SQUALL, BROWSER = sys.argv[1], sys.argv[2]

# (scenario, policy or None, expected exit code): a failing run (thresholds in red), a
# run with three providers, a fallback and breaker transitions, and a run with an
# adaptive concurrency limiter whose limit collapses.
RUNS = [
    ("scenarios/incidents/launch-surge-429-storm.json", "scenarios/policies/naive-retry.json", 1),
    ("scenarios/incidents/openai-outage-model-fallback.json", None, 0),
    ("scenarios/incidents/adaptive-limit-collapse.json", "scenarios/policies/limit-per-error-decrease.json", 1),
]


def check(condition, message):
    if not condition:
        sys.exit(f"html_browser_test: {message}")


class Page(html.parser.HTMLParser):
    """The <html> element's attributes, the data script's text and the uPlot charts."""

    def __init__(self):
        super().__init__()
        self.root = {}
        self.data = None
        self.charts = 0
        self.titles = []  # each chart's title, as uPlot drew it
        self.layouts = []  # each chart's data-layout, parsed
        self.captions = []  # each chart's figcaption text ("" without one)
        self.legend = []  # (label, marker style) of each legend entry
        self._in_data = False
        self._in_title = False
        self._in_caption = False
        self._in_label = False
        self._marker = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.root = attrs
        elif tag == "script" and attrs.get("id") == "squall-data":
            self._in_data = True
            self.data = ""
        elif tag == "div" and "uplot" in (attrs.get("class") or "").split():
            self.charts += 1
        elif tag == "div" and "u-title" in (attrs.get("class") or "").split():
            self._in_title = True
            self.titles.append("")
        elif tag == "figure" and "data-chart" in attrs:
            self.layouts.append(json.loads(attrs.get("data-layout") or "null"))
            self.captions.append("")
        elif tag == "figcaption":
            self._in_caption = True
        elif tag == "div" and "u-marker" in (attrs.get("class") or "").split():
            self._marker = attrs.get("style") or ""
        elif tag == "div" and "u-label" in (attrs.get("class") or "").split() and self._marker is not None:
            self._in_label = True
            self.legend.append(["", self._marker])
            self._marker = None

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_data = False
        elif tag == "div":
            self._in_title = False
            self._in_label = False
        elif tag == "figcaption":
            self._in_caption = False

    def handle_data(self, data):
        if self._in_data:
            self.data += data
        elif self._in_title:
            self.titles[-1] += data
        elif self._in_caption:
            self.captions[-1] += data
        elif self._in_label:
            self.legend[-1][0] += data


def expected_charts(data):
    breakers = 1 if data["breakers"]["series"] else 0
    by_provider = 4 if data["providers"] else 0  # attempts, tokens, cost, cumulative cost
    faults = 1 if data["injected_faults"] else 0
    histogram = 1 if data["latency_histogram"]["counts"] else 0
    limiters = 1 if data["limiters"] else 0
    # tasks by status, task success, tasks in flight, task latency
    return 4 + histogram + by_provider + len(data["providers"]) + faults + breakers + limiters


TOLERANCE_PX = 1.0  # sub-pixel rounding of text metrics


def inside(box, within):
    return (box[0] >= within[0] - TOLERANCE_PX and box[1] >= within[1] - TOLERANCE_PX and
            box[2] <= within[2] + TOLERANCE_PX and box[3] <= within[3] + TOLERANCE_PX)


def overlap(a, b):
    return (min(a[2], b[2]) - max(a[0], b[0]) > TOLERANCE_PX and
            min(a[3], b[3]) - max(a[1], b[1]) > TOLERANCE_PX)


def layout_problems(parsed):
    """What is wrong with the drawn charts, as the page recorded them: empty charts,
    clipped labels, overlapping canvas texts. One line per problem."""
    problems = []
    for n, layout in enumerate(parsed.layouts):
        title = parsed.titles[n] if n < len(parsed.titles) else f"chart {n}"
        if layout is None:
            problems.append(f"chart {n} ({title!r}) recorded no layout")
            continue
        if layout["points"] == 0:
            problems.append(f"chart {n} ({title!r}) is empty: no data point inside its scales")
        for label in layout["labels"]:
            if not inside(label["box"], label["within"]):
                problems.append(f"chart {n} ({title!r}): {label['kind']} {label['text']!r} is clipped: "
                                f"box {label['box']} outside {label['within']}")
        texts = [label for label in layout["labels"] if label["kind"] == "canvas"]
        for i, a in enumerate(texts):
            for b in texts[i + 1:]:
                if overlap(a["box"], b["box"]):
                    problems.append(f"chart {n} ({title!r}): {a['text']!r} and {b['text']!r} overlap")
    return problems


def open_in_browser(page, profile):
    command = [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
               f"--user-data-dir={profile}",
               # Nothing may be fetched: every host name fails to resolve.
               "--host-resolver-rules=MAP * ~NOTFOUND",
               # Lets the page's script and uPlot's queued draws run before the dump.
               "--virtual-time-budget=10000",
               "--enable-logging=stderr", "--v=0", "--window-size=1280,1024",
               "--dump-dom", "file://" + os.path.abspath(page)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=90)
    check(result.returncode == 0, f"{BROWSER} exited {result.returncode}\n{result.stderr}")
    return result.stdout, result.stderr


def check_page(scenario, policy, code, tmp):
    name = os.path.splitext(os.path.basename(scenario))[0]
    page = os.path.join(tmp, name + ".html")
    args = [SQUALL, "run", scenario, "--quiet", "--report", f"html={page}"]
    if policy:
        args += ["--policy", policy]
    result = subprocess.run(args, capture_output=True, text=True)
    check(result.returncode == code, f"{' '.join(args)} exited {result.returncode}, expected {code}\n"
                                     f"{result.stdout}{result.stderr}")

    dom, log = open_in_browser(page, os.path.join(tmp, "profile-" + name))
    parsed = Page()
    parsed.feed(dom)
    check(parsed.data is not None, f"{name}: no squall-data script in the dumped DOM")
    data = json.loads(parsed.data)
    want = expected_charts(data)
    root = parsed.root
    check(root.get("data-charts-expected") == str(want),
          f"{name}: data-charts-expected={root.get('data-charts-expected')!r}, the data calls for {want}")
    check(root.get("data-charts-drawn") == str(want),
          f"{name}: data-charts-drawn={root.get('data-charts-drawn')!r} of {want} charts")
    check("data-errors" not in root, f"{name}: {root.get('data-errors')} uncaught errors on the page")
    check(parsed.charts == want, f"{name}: {parsed.charts} uPlot charts in the DOM, expected {want}")
    problems = layout_problems(parsed)
    check(not problems, f"{name}: the charts' layout:\n" + "\n".join(problems))
    check_marks(name, data, parsed)
    # Both incidents inject faults: their chart over time must be among the drawn ones.
    check(data["injected_faults"], f"{name}: no injected_faults series in the page's data")
    check(any(t.startswith("Injected faults per window") for t in parsed.titles),
          f"{name}: no injected-faults chart among the drawn titles {parsed.titles}")
    console = [line for line in log.splitlines() if re.search(r":CONSOLE[:(]", line)]
    check(not console, f"{name}: the page logged to the console:\n" + "\n".join(console))
    print(f"html_browser_test: {name}: {want} charts drawn, none empty, no label clipped, no console output")
    return page


def check_marks(name, data, parsed):
    """The shaded windows, the threshold lines and the colours."""
    bands = len(data["schedule"]["faults"]) + len(data["schedule"]["bursts"])
    time_charts = [n for n, t in enumerate(parsed.titles) if not t.startswith("Task end-to-end latency")]
    for n in time_charts:
        caption = parsed.captions[n]
        check(caption.count("; ") + 1 == bands if bands else caption == "",
              f"{name}: chart {n} ({parsed.titles[n]!r}) lists {caption!r} for {bands} shaded windows")
    for t in data["thresholds"]:
        text = t["label"] + (" \u2713" if t["passed"] else " \u2717")
        drawn = [n for n, layout in enumerate(parsed.layouts)
                 if any(label["text"] == text for label in layout["labels"])]
        check(drawn, f"{name}: threshold {t['label']!r} is drawn on no chart")
    colours = {}
    for label, style in parsed.legend:
        colours.setdefault(label, set()).add(style)
    mixed = {label: styles for label, styles in colours.items() if len(styles) > 1}
    check(not mixed, f"{name}: legend names with several colours: {mixed}")


def broken_page(page, tmp, tag, change):
    """A copy of `page` whose data `change` altered."""
    with open(page, encoding="utf-8") as f:
        text = f.read()
    open_tag = '<script type="application/json" id="squall-data">'
    begin = text.index(open_tag) + len(open_tag)
    end = text.index("</script>", begin)
    data = json.loads(text[begin:end])
    change(data)
    body = json.dumps(data).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    path = os.path.join(tmp, f"broken-{tag}.html")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text[:begin] + body + text[end:])
    return path


def empty_success(data):
    data["task_success"] = [None] * len(data["task_success"])


def long_provider_name(data):
    data["providers"][0]["name"] = "x" * 300


def check_checks_can_fail(page, tmp):
    """The layout checks refuse a page with an empty chart and one with a clipped label."""
    for tag, change, expected in [("empty", empty_success, "is empty"), ("clipped", long_provider_name, "is clipped")]:
        broken = broken_page(page, tmp, tag, change)
        dom, _ = open_in_browser(broken, os.path.join(tmp, "profile-broken-" + tag))
        parsed = Page()
        parsed.feed(dom)
        problems = layout_problems(parsed)
        check(any(expected in p for p in problems),
              f"broken page ({tag}): the checks found {problems}, expected a chart that {expected}")
        print(f"html_browser_test: a page broken on purpose ({tag}) is refused: {problems[0]}")


SWEEP = "scenarios/sweeps/launch-surge-policies.json"


def open_sweep_page(sweep, name, tmp):
    """Runs `sweep` with its JSON report and HTML page, opens the page: (dom, log, parsed page,
    its data, the JSON report)."""
    page = os.path.join(tmp, name + ".html")
    report = os.path.join(tmp, name + ".json")
    args = [SQUALL, "sweep", sweep, "--quiet", "--jobs", "2", "--out", report, "--report", f"html={page}"]
    result = subprocess.run(args, capture_output=True, text=True)
    check(result.returncode == 0, f"{' '.join(args)} exited {result.returncode}\n{result.stdout}{result.stderr}")
    dom, log = open_in_browser(page, os.path.join(tmp, "profile-" + name))
    parsed = Page()
    parsed.feed(dom)
    check(parsed.data is not None, f"{name}: no squall-data script in the dumped DOM")
    with open(report, encoding="utf-8") as f:
        return dom, log, parsed, json.loads(parsed.data), json.load(f)


def labelled_or_listed(parsed, layout_index, points):
    """The points whose name is neither drawn on the chart's canvas nor listed under it."""
    drawn = {label["text"] for label in parsed.layouts[layout_index]["labels"] if label["kind"] == "canvas"}
    caption = parsed.captions[layout_index]
    listed = caption.split("Not labelled for lack of room: ", 1)[1] if "Not labelled" in caption else ""
    return [p["name"] for p in points if p["name"] not in drawn and p["name"] + " (" not in listed]


def check_pareto(name, parsed, data):
    """The Pareto chart's layout (nothing empty, clipped or overlapping), each point named on
    the chart or under it, each whisker holding its mean, the point area's legend."""
    problems = layout_problems(parsed)
    check(not problems, f"{name}: the charts' layout:\n" + "\n".join(problems))
    missing = labelled_or_listed(parsed, 0, data["points"])
    check(not missing, f"{name}: points neither labelled nor listed under the chart: {missing}")
    for p in data["points"]:
        for axis in ("x", "y"):
            low, high = p[axis + "_low"], p[axis + "_high"]
            check(low is None or low <= p[axis] <= high, f"{name}: {p['name']}'s {axis} whisker [{low}, {high}] "
                                                         f"does not hold its mean {p[axis]}")
    if data["z"]:
        check(f"Point area: {data['z']['metric']}" in parsed.captions[0],
              f"{name}: the caption {parsed.captions[0]!r} does not say what a point's area shows")


def check_sweep_page(tmp):
    dom, log, parsed, data, sweep_report = open_sweep_page(SWEEP, "sweep", tmp)
    root = parsed.root
    check(root.get("data-squall-sweep") == "1", "sweep: not a sweep page (no data-squall-sweep)")
    check(root.get("data-charts-expected") == "1", f"sweep: data-charts-expected={root.get('data-charts-expected')!r}")
    check(root.get("data-charts-drawn") == "1", f"sweep: data-charts-drawn={root.get('data-charts-drawn')!r}")
    check("data-errors" not in root, f"sweep: {root.get('data-errors')} uncaught errors on the page")
    check(parsed.charts == 1, f"sweep: {parsed.charts} uPlot charts in the DOM, expected 1")
    check(parsed.titles and parsed.titles[0].startswith("Variants' means: task_success (max) against latency_ms.p99"),
          f"sweep: chart title {parsed.titles}")
    variants = sweep_report["variants"]
    line = html.escape(sweep_report["recommendation"]["line"], quote=False)
    check(f'<p class="recommendation">{line}</p>' in dom, f"sweep: the page does not state {line!r}")
    check(sorted(p["name"] for p in data["points"]) == sorted(v["name"] for v in variants),
          "sweep: the chart's points are not the sweep's variants")
    front = {v["name"] for v in variants if v["pareto"]}
    check({p["name"] for p in data["points"] if p["front"]} == front, "sweep: the chart's front is not the report's")
    check_pareto("sweep", parsed, data)
    check(re.search(r'<tr class="(better|worse|same)">', dom), "sweep: no table row carries its verdict's class")
    console = [line for line in log.splitlines() if re.search(r":CONSOLE[:(]", line)]
    check(not console, "sweep: the page logged to the console:\n" + "\n".join(console))
    print(f"html_browser_test: sweep: Pareto chart drawn with {len(data['points'])} points, all named, "
          "nothing clipped or piled, no console output")
    return os.path.join(tmp, "sweep.html")


def crowded(data):
    """Every point on the same spot, one with a name longer than the chart is wide."""
    first = data["points"][0]
    for p in data["points"]:
        for key in ("x", "y", "x_low", "x_high", "y_low", "y_high"):
            p[key] = first[key]
    data["points"][-1]["name"] = "y" * 300


def check_crowded_sweep_page(page, tmp):
    """Labels that cannot all fit are listed under the chart, never drawn clipped or piled."""
    broken = broken_page(page, tmp, "crowded", crowded)
    dom, _ = open_in_browser(broken, os.path.join(tmp, "profile-crowded"))
    parsed = Page()
    parsed.feed(dom)
    data = json.loads(parsed.data)
    check_pareto("crowded sweep", parsed, data)
    check("y" * 300 + " (" in parsed.captions[0], "crowded sweep: the long name is not listed under the chart")
    print("html_browser_test: a crowded Pareto chart lists the names it cannot place: " +
          parsed.captions[0].split("Not labelled", 1)[1][:60] + "...")


def check_one_objective_page(tmp):
    """A sweep with one objective: the variants side by side, each named, nothing clipped."""
    sweep = os.path.join(tmp, "one-objective-sweep.json")
    with open(sweep, "w", encoding="utf-8") as f:
        json.dump({"name": "one-objective", "scenario": os.path.abspath("scenarios/quickstart.json"),
                   "objectives": [{"metric": "task_success", "goal": "max"}],
                   "variants": [{"name": "own"}, {"name": "naive", "policy": os.path.abspath(
                       "scenarios/policies/naive-retry.json")}], "seeds": 3}, f)
    _, log, parsed, data, _ = open_sweep_page(sweep, "one-objective", tmp)
    check(parsed.titles == ["Variants' means: task_success (max)"], f"one objective: chart titles {parsed.titles}")
    check_pareto("one objective", parsed, data)
    print("html_browser_test: one objective: the variants side by side, all named")


ROBUSTNESS_SWEEP = "scenarios/sweeps/launch-surge-robustness.json"


def check_robustness_page(tmp):
    """The shipped robustness sweep's page: the Pareto chart and one robustness chart per
    metric (each policy's means over the storm's intensity, with whiskers) drawn, and their
    data the JSON report's robustness section."""
    dom, log, parsed, data, sweep_report = open_sweep_page(ROBUSTNESS_SWEEP, "robustness", tmp)
    rob = sweep_report["robustness"]
    want = 1 + len(rob["metrics"])
    counters = {k: parsed.root.get(k) for k in ("data-charts-expected", "data-charts-drawn", "data-errors")}
    check(counters == {"data-charts-expected": str(want), "data-charts-drawn": str(want), "data-errors": None},
          f"robustness: page counters {counters}, expected {want} charts expected and drawn, no errors")
    check(parsed.charts == want, f"robustness: {parsed.charts} uPlot charts in the DOM, expected {want}")
    check("task_success over probability (means with 95% CI whiskers)" in parsed.titles,
          f"robustness: no task_success robustness chart among {parsed.titles}")
    chart = data["robustness"]["charts"][0]
    check([s["name"] for s in chart["series"]] == rob["rows"], "robustness: the chart's lines are not the policies")
    check(data["robustness"]["x"] == [c["x"] for c in rob["columns"]], "robustness: the chart's x are not the settings")
    means = [[cell["mean"] for cell in row] for row in rob["metrics"][chart["metric"]]]
    check([s["mean"] for s in chart["series"]] == means, "robustness: the chart's means are not the report's")
    check(all(lo is not None and lo <= m <= hi for s in chart["series"] for lo, m, hi in zip(s["low"], s["mean"], s["high"])),
          "robustness: a whisker does not hold its mean")
    check_pareto("robustness", parsed, data)
    def setting(v):
        return {k: x for k, x in v["params"].items() if k.startswith("/scenario/")}
    baseline = next(v for v in sweep_report["variants"] if v["name"] == sweep_report["baseline"])
    check(sorted(p["name"] for p in data["points"]) ==
          sorted(v["name"] for v in sweep_report["variants"] if setting(v) == setting(baseline)),
          "robustness: the Pareto chart does not hold exactly the variants on the baseline's scenario settings")
    check(dom.count("<h4>") == len(rob["metrics"]), "robustness: not one robustness table per metric")
    console = [line for line in log.splitlines() if re.search(r":CONSOLE[:(]", line)]
    check(not console, "robustness: the page logged to the console:\n" + "\n".join(console))
    print(f"html_browser_test: robustness: {want} charts drawn, no console output")


def main():
    version = subprocess.run([BROWSER, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"html_browser_test: opening pages in {BROWSER} ({version})")
    with tempfile.TemporaryDirectory(prefix="squall-html-") as tmp:
        pages = [check_page(scenario, policy, code, tmp) for scenario, policy, code in RUNS]
        check_checks_can_fail(pages[0], tmp)
        check_crowded_sweep_page(check_sweep_page(tmp), tmp)
        check_one_objective_page(tmp)
        check_robustness_page(tmp)
    print("html_browser_test: 6 passed, 0 failed")


main()
