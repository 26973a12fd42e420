"""A cassette's parse kept in the cache folder reads back as exactly what vcrpy's loader makes of the text
(the oracle), and a parse that JSON cannot keep exactly, or a cache that cannot be used, changes nothing."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from vcr.serializers import yamlserializer

from pytest_websearchbench.cassettes.parsed import parsed


def same(a, b) -> bool:
    """Exactly the same value: repr tells a tuple from a list, True from 1, 1.0 from 1, -0.0 from 0.0, and
    writes nan alike."""
    return repr(a) == repr(b)

SCALARS = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True)
           | st.text(max_size=12) | st.binary(max_size=12))
KEYS = st.text(max_size=6) | st.integers(-3, 3)  # a mapping with an integer key cannot be kept as JSON
VALUES = st.recursive(
    SCALARS | st.dates() | st.tuples(SCALARS),  # dates and tuples: what JSON cannot keep
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3), max_leaves=12)


def _kept(folder):
    return sorted(folder.glob("*.json")) if folder.exists() else []


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=150)
@given(value=st.dictionaries(st.text(max_size=6), VALUES, max_size=3))
def test_what_is_read_back_is_what_vcrpys_loader_makes_of_the_text(tmp_path_factory, value):
    folder = tmp_path_factory.mktemp("kept")
    text = yamlserializer.serialize(value)
    expected = yamlserializer.deserialize(text)
    first = parsed(text, yamlserializer.deserialize, folder)  # parsed, and kept when JSON keeps it exactly
    second = parsed(text, lambda _: pytest.fail("parsed again"), folder) if _kept(folder) else \
        parsed(text, yamlserializer.deserialize, folder)
    assert same(first, expected) and same(second, expected)


def test_a_kept_parse_is_read_instead_of_parsing(tmp_path):
    text = yamlserializer.serialize({"interactions": [{"request": {"body": b"\x00\xffraw", "uri": "http://x"}}]})
    first = parsed(text, yamlserializer.deserialize, tmp_path)
    assert len(_kept(tmp_path)) == 1
    again = parsed(text, lambda _: pytest.fail("parsed again"), tmp_path)
    assert same(again, first) and again["interactions"][0]["request"]["body"] == b"\x00\xffraw"


@pytest.mark.parametrize("value", [{"when": datetime.date(2024, 5, 1)}, {"pair": (1, 2)}, {"n": 1.0, 3: "int key"},
                                   {"x": float("nan")}, {"deep": [[[{"\x00bytes": "looks like bytes"}]]]}])
def test_a_parse_json_cannot_keep_exactly_is_not_kept_and_parses_each_time(tmp_path, value):
    text = yamlserializer.serialize(value)
    calls = []

    def counting(t):
        calls.append(t)
        return yamlserializer.deserialize(t)

    for _ in range(2):
        got = parsed(text, counting, tmp_path)
        assert same(got, yamlserializer.deserialize(text))
    assert len(calls) == 2 and _kept(tmp_path) == []


def test_a_parse_that_raises_is_never_kept(tmp_path):
    with pytest.raises(Exception):
        parsed("interactions: [unclosed", yamlserializer.deserialize, tmp_path)
    assert _kept(tmp_path) == []


def test_a_cache_folder_that_cannot_be_made_is_no_cache(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    text = yamlserializer.serialize({"interactions": []})
    assert parsed(text, yamlserializer.deserialize, blocker / "cassettes") == {"interactions": []}


def test_a_damaged_kept_file_is_parsed_again_and_replaced(tmp_path):
    text = yamlserializer.serialize({"interactions": [{"a": 1}]})
    parsed(text, yamlserializer.deserialize, tmp_path)
    [kept] = _kept(tmp_path)
    kept.write_text('{"interactions": [')
    assert parsed(text, yamlserializer.deserialize, tmp_path) == {"interactions": [{"a": 1}]}
    assert parsed(text, lambda _: pytest.fail("parsed again"), tmp_path) == {"interactions": [{"a": 1}]}
