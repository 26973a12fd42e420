"""The quick body matcher (recorder.body_matches) gives vcrpy's ``body`` matcher's verdict on every pair
of requests: vcrpy's own matcher is the oracle."""

from __future__ import annotations

import json
import urllib.parse

from hypothesis import given
from hypothesis import strategies as st
from vcr.matchers import body as vcrpy_body
from vcr.request import Request

from pytest_websearchbench.cassettes.recorder import body_matches

CONTENT_TYPES = [
    None,
    "application/json",
    "application/json; charset=utf-8",
    "application/x-www-form-urlencoded",
    "text/plain",
]
values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.text("ab ", max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("xyz"), inner, max_size=3),
    max_leaves=6,
)


@st.composite
def bodies(draw) -> bytes | None:
    """A body as clients send them: JSON (keys in any order, any spacing), a form, raw bytes (under a JSON
    header too: vcrpy then compares them raw), none."""
    kind = draw(st.sampled_from(["json", "form", "raw", "none"]))
    if kind == "json":
        value = draw(values)
        if isinstance(value, dict):
            value = dict(draw(st.permutations(list(value.items()))))
        return json.dumps(value, separators=draw(st.sampled_from([(",", ":"), (", ", ": ")]))).encode()
    if kind == "form":
        pairs = draw(st.lists(st.tuples(st.sampled_from("ab"), st.text("xy", max_size=2)), max_size=3))
        return urllib.parse.urlencode(pairs).encode()
    return draw(st.binary(max_size=4)) if kind == "raw" else None


@st.composite
def requests(draw) -> Request:
    content_type = draw(st.sampled_from(CONTENT_TYPES))
    headers = {"Content-Type": content_type} if content_type else {}
    return Request("POST", "https://api.example/v1/search", draw(bodies()), headers)


def vcrpy_verdict(new: Request, recorded: Request) -> bool:
    try:
        vcrpy_body(new, recorded)
    except AssertionError:
        return False
    return True


@given(requests(), requests())
def test_the_verdict_is_vcrpys(new, recorded):
    assert body_matches(new, recorded) is vcrpy_verdict(new, recorded)


def test_equal_json_in_another_key_order_and_spacing_matches_and_a_changed_value_does_not():
    json_headers = {"Content-Type": "application/json"}
    recorded = Request("POST", "https://api.example/v1", b'{"q": "soup", "k": 5}', json_headers)
    assert body_matches(Request("POST", "https://api.example/v1", b'{"k":5,"q":"soup"}', json_headers), recorded)
    assert not body_matches(Request("POST", "https://api.example/v1", b'{"k":6,"q":"soup"}', json_headers), recorded)
    # without the JSON header on both sides vcrpy compares the bytes
    assert not body_matches(Request("POST", "https://api.example/v1", b'{"k":5,"q":"soup"}', {}), recorded)
