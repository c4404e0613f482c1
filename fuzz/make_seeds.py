#!/usr/bin/env python3
"""Seed corpora and dictionaries of the fuzz harnesses, generated from the checkout.

Usage: fuzz/make_seeds.py OUT_DIR [SQUALL_BINARY]

Writes OUT_DIR/seeds/<harness>/<sha1> (one input a file) and OUT_DIR/dict/<harness>.dict
(libFuzzer's dictionary format: one quoted token a line). Seeds come from the shipped files
(scenarios/, bench/), the test fixtures (tests/*/data) and the JSON literals of the tests'
sources (raw strings, adjacent pieces joined); with a squall binary (the release build's),
also from what squall writes: a run's report, a sweep shard's partial result, an OTLP trace
export. Dictionaries hold every object key of the harness's seeds and of the JSON Schemas,
quoted as the format writes them, and the grammar's own tokens. Nothing is copied by hand:
a new scenario, fixture or test literal becomes a seed on the next run.
"""
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def files(*patterns):
    found = []
    for pattern in patterns:
        found += sorted(p for p in ROOT.glob(pattern) if p.is_file() and "node_modules" not in p.parts)
    return found


def raw_literals(path):
    """The raw string literals of a C++ source, adjacent ones joined into one text."""
    text = path.read_text(errors="replace")
    piece = r'R"(?P<d>[^(\s]{0,16})\((?P<body>.*?)\)(?P=d)"'
    joined = re.compile(r"(?:%s\s*)+" % piece.replace("(?P<d>", "(?:").replace("(?P=d)", "").replace("(?P<body>", "(?:"), re.S)
    for run in joined.finditer(text):
        yield "".join(m.group("body") for m in re.finditer(piece, run.group(0), re.S))


def strip_comments(text):
    """JSON with // and /* */ comments (scenario files) as plain JSON."""
    out, i, quoted = [], 0, False
    while i < len(text):
        c = text[i]
        if quoted:
            out.append(c)
            if c == "\\":
                out.append(text[i + 1 : i + 2])
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
            out.append(c)
        elif text.startswith("//", i):
            i = text.find("\n", i)
            i = len(text) if i < 0 else i
            continue
        elif text.startswith("/*", i):
            i = text.find("*/", i) + 2
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def as_json(text):
    try:
        return json.loads(strip_comments(text))
    except (ValueError, RecursionError):
        return None


def keys_of(value, into):
    if isinstance(value, dict):
        for k, v in value.items():
            into.add(k)
            keys_of(v, into)
    elif isinstance(value, list):
        for v in value:
            keys_of(v, into)


def schema_words(path):
    """Property names and enum strings of a JSON Schema."""
    words = set()

    def walk(node):
        if isinstance(node, dict):
            for name in node.get("properties", {}):
                words.add(name)
            for v in node.get("enum", []):
                if isinstance(v, str):
                    words.add(v)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(json.loads(path.read_text()))
    return words


def dict_escape(data):
    """A token as libFuzzer's dictionary reads it: printable ASCII, and escapes for the rest."""
    return "".join(chr(b) if 0x20 <= b < 0x7F and chr(b) not in '"\\' else
                   ("\\" + chr(b) if chr(b) in '"\\' else "\\x%02X" % b) for b in data)


class Harness:
    def __init__(self, name):
        self.name, self.seeds, self.tokens = name, [], set()

    def seed(self, data):
        if isinstance(data, str):
            data = data.encode()
        if data:
            self.seeds.append(data)

    def json_keys(self, value, quote='"{}"'):
        found = set()
        keys_of(value, found)
        self.tokens |= {quote.format(k) for k in found if k and len(k) < 64}

    def write(self, out):
        seed_dir = out / "seeds" / self.name
        seed_dir.mkdir(parents=True, exist_ok=True)
        for data in self.seeds:
            (seed_dir / hashlib.sha1(data).hexdigest()).write_bytes(data)
        (out / "dict").mkdir(parents=True, exist_ok=True)
        with open(out / "dict" / f"{self.name}.dict", "w") as f:
            for token in sorted(self.tokens):
                f.write('"%s"\n' % dict_escape(token.encode()))
        return len(self.seeds), len(self.tokens)


def kind_of(doc):
    if not isinstance(doc, dict):
        return None
    if "workload" in doc or "providers" in doc:
        return "scenario"
    if "variants" in doc:
        return "sweep"
    if doc and all(isinstance(v, list) for v in doc.values()):
        return "policy"
    return None


def scenario_family(h):
    scenario, yaml_h, policy, sweep, threshold, duration = (h[n] for n in
        ("scenario_json", "scenario_yaml", "policy", "sweep", "threshold", "duration"))
    sources = files("scenarios/**/*.json", "bench/**/*.json", "tests/*/data/**/*.json", "tests/live/scenarios/*.json")
    literals = [(p, t) for p in files("tests/sim/*.cpp", "tests/cli/*.cpp", "tests/live/*.cpp") for t in raw_literals(p)]
    texts = [(p, p.read_text(errors="replace")) for p in sources] + literals
    for _, text in texts:
        doc = as_json(text)
        kind = kind_of(doc)
        if kind is None:
            continue
        {"scenario": scenario, "sweep": sweep, "policy": policy}[kind].seed(text)
        {"scenario": scenario, "sweep": sweep, "policy": policy}[kind].json_keys(doc)
        for metric, expr in (doc.get("thresholds") or {}).items() if kind == "scenario" else []:
            for e in expr if isinstance(expr, list) else [expr]:
                e = e.get("threshold") if isinstance(e, dict) else e
                if isinstance(e, str):
                    threshold.seed(f"{metric}\n{e}")
                    threshold.tokens.add(metric.split("{")[0])
        for s in re.findall(r'"(\d[0-9.]*(?:ns|us|ms|s|m|h)(?:[0-9.]+(?:ms|us|ns|s|m))*)"', text):
            duration.seed(s)
    for text in scenario.seeds[:20]:  # JSON without comments is YAML in flow style
        yaml_h.seed(strip_comments(text.decode(errors="replace")))
    for p in files("scenarios/**/*.yaml", "scenarios/**/*.yml", "tests/*/data/**/*.yaml"):
        yaml_h.seed(p.read_bytes())
    for _, text in files_literals("tests/sim/yaml_document_test.cpp", "tests/cli/*.cpp"):
        if re.search(r"^\s*[a-z_]+:", text, re.M) and not text.lstrip().startswith("{"):
            yaml_h.seed(text)
    for schema in files("scenarios/schema/*.json"):
        words = schema_words(schema)
        for hh in (scenario, policy, sweep):
            hh.tokens |= {f'"{w}"' for w in words if len(w) < 64}
        yaml_h.tokens |= {f"{w}:" for w in words if len(w) < 64} | {w for w in words if len(w) < 64}
    yaml_h.tokens |= {"&a ", "*a", "<<: ", "!!str ", "- ", "---", "...", "|", ">", "{", "}", "[", "]", "'", '"', "\t"}
    for hh in (scenario, policy, sweep):
        hh.tokens |= {"//", "/*", "*/", "{", "}", "[", "]", ":", ",", "null", "true", "false", "1e999", "-0", "\\u0000"}
    threshold.tokens |= {"rate", "p(", ")", "p(99)", "p(99.9)", "avg", "min", "max", "med", "count", "sum", "<", "<=",
                         ">", ">=", "==", "{", "}", ":", ",", "\n", " ", "ms", "s", "m", "h", "us", "ns", "1m30s"}
    duration.tokens |= {"ns", "us", "ms", "s", "m", "h", ".", "0", "9", "-", "1h", "30m", "999999999999"}


def files_literals(*patterns):
    return [(p, t) for p in files(*patterns) for t in raw_literals(p)]


def corpus_seeds(h):
    corpus = h["corpus"]
    for p in files("scenarios/corpora/*.jsonl", "bench/scenarios/*.jsonl", "tests/*/data/*.jsonl"):
        data = p.read_bytes()
        corpus.seed(data[:16384])  # a few dozen documents of each: mutations stay fast
    for _, text in files_literals("tests/mocks/corpus_test.cpp"):
        corpus.seed(text)
    corpus.tokens |= {'"title"', '"link"', '"snippet"', "{", "}", ":", ",", "\n", "\r\n", "\\u00e9", '"'}


def retry_after_seeds(h):
    ra = h["retry_after"]
    source = (ROOT / "tests/engine/retry_after_test.cpp").read_text()
    for s in re.findall(r'"([^"\\]{1,40})"', source):
        if re.fullmatch(r"[ \t]*[0-9A-Za-z ,.:+-]+[ \t]*", s):
            ra.seed(s)
    ra.tokens |= {"GMT", "Sun, ", "Mon, ", "Thu, ", "Feb", "Dec", " 1970 ", "00:00:00", ".", "s", "9999999999", " "}


def replay_seeds(h, otlp_export):
    otlp, litellm = h["replay_otlp"], h["replay_litellm"]
    for _, text in files_literals("tests/replay/*.cpp"):
        for line in text.splitlines() or [text]:
            doc = as_json(line)
            if isinstance(doc, dict) and "trace_id" in doc:
                litellm.seed(line + "\n")
                litellm.json_keys(doc)
            if isinstance(doc, dict) and "resourceSpans" in doc:
                otlp.seed(line)
                otlp.json_keys(doc)
    if litellm.seeds:  # the literals one file, as a gateway logs them
        litellm.seed(b"".join(litellm.seeds))
    if otlp_export:  # its first 30 spans, one document as squall writes it (a span a line)
        lines = otlp_export.decode(errors="replace").splitlines()
        head = "\n".join(lines[:31]).rstrip().rstrip(",") + "\n]}]}]}\n"
        otlp.seed(head)
        otlp.json_keys(as_json(head))
        otlp.tokens |= {f'"{v}"' for v in re.findall(r'"key":"([a-z_.]+)"', head)}
    for hh in (otlp, litellm):
        hh.tokens |= {"{", "}", "[", "]", ":", ",", "null", "\n"}


def live_seeds(h):
    live = h["live_request"]
    bodies = set()
    for _, text in files_literals("tests/live/*.cpp"):
        doc = as_json(text)
        if isinstance(doc, dict) and ({"model", "query", "input"} & doc.keys()):
            bodies.add(text)
            live.json_keys(doc)
    for body in sorted(bodies):
        doc = json.loads(body)
        if "input" in doc:
            paths = ["/v1/embeddings"]
        elif "messages" in doc:
            paths = ["/v1/messages" if "max_tokens" in doc else "/v1/chat/completions"]
        else:
            paths = ["/p/web/search", "/p/kb/query"]
        for path in paths:
            live.seed(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      f"Content-Length: {len(body.encode())}\r\n\r\n{body}")
    live.seed("GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n")
    live.seed("POST /v1/chat/completions HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n")
    live.tokens |= {"POST ", "GET ", " HTTP/1.1\r\n", "\r\n", "Content-Length: ", "Transfer-Encoding: chunked",
                    "/v1/chat/completions", "/v1/messages", "/v1/embeddings", "/p/", "/search", "/query", "?",
                    '"base64"', '"float"', "{", "}", "[", "]", ":", ","}


def from_squall(squall, h):
    """What squall writes: a report (compare), a shard's partial (merge), an OTLP export."""
    report, partial = h["compare_report"], h["merge_partial"]
    otlp = None
    for golden in files("tests/golden/*.json"):
        doc = as_json(golden.read_text())
        if isinstance(doc, dict) and "squall_report_version" in doc:
            report.seed(golden.read_bytes())
            report.json_keys(doc)
    if not squall:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        def run(*args):
            return subprocess.run([squall, *args], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  timeout=600).returncode

        run("run", "scenarios/ci/search-outage-breaker.json", "-q", "--out", f"{tmp}/r.json",
            "--report", f"otlp={tmp}/t.otlp.json")
        for shard in ("1/2", "2/2"):
            run("sweep", "tests/cli/data/sweep-quickstart.json", "-q", "--shard", shard, "--out", f"{tmp}/p{shard[0]}.json")
        for name, h_ in (("r.json", report), ("p1.json", partial), ("p2.json", partial)):
            p = Path(tmp, name)
            if p.exists():
                h_.seed(p.read_bytes())
                h_.json_keys(json.loads(p.read_text()))
        t = Path(tmp, "t.otlp.json")
        otlp = t.read_bytes() if t.exists() else None
    for hh in (report, partial):
        hh.tokens |= {"{", "}", "[", "]", ":", ",", "null", "1e308", "-1", "9007199254740993"}
    return otlp


def main():
    out = Path(sys.argv[1])
    squall = sys.argv[2] if len(sys.argv) > 2 and os.access(sys.argv[2], os.X_OK) else None
    names = ["duration", "retry_after", "threshold", "corpus", "scenario_json", "scenario_yaml", "policy", "sweep",
             "merge_partial", "compare_report", "replay_otlp", "replay_litellm", "live_request"]
    h = {n: Harness(n) for n in names}
    scenario_family(h)
    corpus_seeds(h)
    retry_after_seeds(h)
    otlp_export = from_squall(squall, h)
    replay_seeds(h, otlp_export)
    live_seeds(h)
    for n in names:
        seeds, tokens = h[n].write(out)
        print(f"{n}: {seeds} seeds, {tokens} dictionary tokens")
    if not squall:
        print("make_seeds: no squall binary given: no report, partial or OTLP seeds from squall's own output")


if __name__ == "__main__":
    main()
