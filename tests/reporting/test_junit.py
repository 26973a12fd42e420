"""JUnit XML of the bundled run (under xdist: the controller writes it from the workers' reports): each test
case carries flat properties, its identity and each metric of its item by its summary label (lower-cased) as a
JSON number, the numbers the results file holds; nothing else of the plugin's reaches the XML."""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET

from pytest_websearchbench.run.registry import FAMILIES

IDENTITY = ("suite", "case", "variant", "family")


def test_a_bundled_runs_junit_xml_has_flat_identity_and_numeric_metric_properties(bundled_run):
    junit, results = bundled_run["junit"], bundled_run["results"]
    items = {(i["suite"], i["case_id"], i["provider"]): i for i in json.loads(results.read_text("utf-8"))["items"]}
    cases = ET.parse(junit).getroot().iter("testcase")
    seen = set()
    for case in cases:
        properties = [(p.get("name"), p.get("value")) for p in case.iterfind("properties/property")]
        names = [name for name, _ in properties]
        assert names[:4] == list(IDENTITY) and len(set(names)) == len(names), names
        values = dict(properties)
        key = values["suite"], values["case"], values["variant"]
        item = items[key]
        assert values["family"] == item["family"] and case.get("name") == f"{key[1]}[{key[2]}]"
        key_of = {c.label.lower(): c.key for c in FAMILIES[item["family"]].columns(item["kind"], 5)}
        metrics = {key_of.get(name, name): json.loads(value) for name, value in properties[4:]}
        assert all(isinstance(v, float) and math.isfinite(v) for v in metrics.values())
        assert metrics == item["metrics"], key  # the item's metrics, every one, as numbers
        seen.add(key)
    assert seen == set(items) and len(seen) == 141  # 113 search and code items, 28 WebBench tasks
    assert any(item["family"] == "webbench" and item["metrics"]["webscore"] for item in items.values())
    lexbench = next(c for c in ET.parse(junit).getroot().iter("testcase") if c.get("name") == "q001[local]")
    assert {"ndcg@5", "success@5", "p@5"} <= {p.get("name") for p in lexbench.iterfind("properties/property")}
