"""A JSON body's credential fields are filtered as it is parsed: the same text as walking the parsed value."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from pytest_websearchbench.cassettes.scrub import SECRET_FIELDS, SecretFilter
from pytest_websearchbench.core.secrets import FILTERED


def walked(value: Any) -> Any:
    """The oracle: every object of the parsed value, outermost first, its credential strings filtered."""
    if isinstance(value, dict):
        return {
            k: FILTERED if k.lower() in SECRET_FIELDS and isinstance(v, str) else walked(v) for k, v in value.items()
        }
    if isinstance(value, list):
        return [walked(v) for v in value]
    return value


KEYS = st.sampled_from(
    sorted(SECRET_FIELDS) + ["Key", "TOKEN", "Api-Key", "query", "results", "title", "kéy", "\u212aey"]
)  # the Kelvin sign lowers to "k"
SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)


def _object_text(pairs: list[tuple[str, str]]) -> str:
    # written by hand so that a key may appear twice, as JSON text allows
    return "{" + ", ".join(f"{json.dumps(key)}: {value}" for key, value in pairs) + "}"


JSON_TEXT = st.recursive(
    SCALARS.map(json.dumps),
    lambda inner: (
        st.lists(inner, max_size=4).map(lambda items: "[" + ", ".join(items) + "]")
        | st.lists(st.tuples(KEYS, inner), max_size=4).map(_object_text)
    ),
    max_leaves=20,
)


@given(JSON_TEXT)
def test_filtering_while_parsing_writes_what_walking_the_parsed_value_writes(text):
    expected = json.dumps(walked(json.loads(text)), ensure_ascii=False)
    assert SecretFilter({}, [])._scrub_body(text) == expected
    assert SecretFilter({}, [])._scrub_body(text.encode()) == expected.encode()


def test_a_credential_field_in_a_nested_answer_is_filtered_and_other_values_kept():
    body = json.dumps({"results": [{"title": "t", "Token": "abc", "key": 3}], "auth": {"api_key": "zzz"}})
    assert json.loads(SecretFilter({}, [])._scrub_body(body)) == {
        "results": [{"title": "t", "Token": FILTERED, "key": 3}],
        "auth": {"api_key": FILTERED},
    }
