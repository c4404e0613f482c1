#!/usr/bin/env python3
"""Rewrites the threshold metric names in scenarios/schema/scenario.schema.json
(properties/thresholds/propertyNames/pattern) from reports/metric_catalogue.hpp's MetricId
enum, in catalogue order. tests/sim/schema_test.cpp (ThresholdMetricNamesAreTheCatalogue)
fails until this is run after a metric is added. Run from the source directory; it edits
the one line of the pattern in place and leaves the rest of the file as written.
"""
import re
import sys

CATALOGUE = "reports/metric_catalogue.hpp"
SCHEMA = "scenarios/schema/scenario.schema.json"

with open(CATALOGUE, encoding="utf-8") as f:
    enum = f.read().split("enum class MetricId", 1)[1].split("};", 1)[0]
names = re.findall(r"^\s*([a-z0-9_]+),", enum, re.M)
if not names:
    sys.exit(f"update-schema-metrics: no MetricId values found in {CATALOGUE}")

with open(SCHEMA, encoding="utf-8") as f:
    text = f.read()
# The propertyNames pattern is the only one that starts with whitespace and then the names.
pattern = re.compile(r'("pattern": "\^\[ \\\\t\\\\n\\\\r\]\*\()[a-z0-9_|]+(\))')
new_text, count = pattern.subn(lambda m: m.group(1) + "|".join(names) + m.group(2), text)
if count != 1:
    sys.exit(f"update-schema-metrics: expected one metric-name pattern in {SCHEMA}, found {count}")
with open(SCHEMA, "w", encoding="utf-8") as f:
    f.write(new_text)
print(f"update-schema-metrics: {len(names)} metrics")
