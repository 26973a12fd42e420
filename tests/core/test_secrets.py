"""The one scrubber on the forms a key takes inside documents: JSON-escaped text in a provider's answer
(scrubbed value by value, before the document is serialised), twice percent-encoded, base64 inside a
longer value (``Bearer KEY``, ``user:KEY``) and HTML character references; and the private values the
xdist controller must know by name because it never created the provider."""

from __future__ import annotations

import base64
import html
import json
import re
from urllib.parse import quote

from hypothesis import given
from hypothesis import strategies as st

from pytest_websearchbench.core import secrets
from pytest_websearchbench.core.secrets import FILTERED, scrub, scrub_value
from pytest_websearchbench.providers import register_builtin_providers
from pytest_websearchbench.providers.registry import ProviderRegistry
from pytest_websearchbench.reporting.json_results import run_secrets, write_document

KEY = "sk-PLANTED/escaped_key_0123456789"


def _json_escaped(text: str) -> list[str]:
    """The key as a provider's answer may carry it inside a string: ``\\/`` and ``\\uXXXX`` escapes."""
    return [text.replace("/", "\\/"), "".join(f"\\u{ord(c):04x}" for c in text)]


def test_a_key_json_escaped_inside_a_provider_answer_is_not_written_to_the_results_file(tmp_path):
    escaped = _json_escaped(KEY)
    document = {
        "items": [
            {
                "raw": {"hits": [{"snippet": f"token={form} end"} for form in escaped]},
                "extra": {f"key {escaped[0]}": escaped[1]},
            }
        ]
    }
    path = tmp_path / "results.json"
    write_document(path, document, [KEY])
    text = path.read_text("utf-8")
    loaded = json.loads(text)
    strings = json.dumps(loaded, ensure_ascii=False)
    assert not any(form in strings or form in text for form in escaped)
    assert loaded["items"][0]["raw"]["hits"][0]["snippet"] == f"token={FILTERED} end"
    assert loaded["items"][0]["extra"] == {f"key {FILTERED}": FILTERED}
    # the HTML report scrubs each value it shows with the same scrubber, before escaping it
    assert all(scrub(f"token={form} end", [KEY]) == f"token={FILTERED} end" for form in escaped)


def test_scrub_value_scrubs_every_string_and_keeps_the_rest():
    value = {"a": [KEY, 1, 2.5, None, True, ("x", KEY)], KEY: {"n": 3}}
    assert scrub_value(value, [KEY]) == {"a": [FILTERED, 1, 2.5, None, True, ["x", FILTERED]], FILTERED: {"n": 3}}


@given(
    key=st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=8, max_size=24),
    user=st.text(st.characters(codec="ascii", exclude_characters=":"), max_size=5),
    before=st.text(max_size=8),
    after=st.text(max_size=8),
)
def test_twice_percent_encoded_base64_inside_a_longer_value_and_html_references_are_scrubbed(key, user, before, after):
    raw = key.encode("utf-8")
    forms = {
        "quote_twice": quote(quote(key, safe=""), safe=""),
        "bearer_base64": base64.b64encode(b"Bearer " + raw).decode(),
        "basic_base64": base64.b64encode(f"{user}:".encode() + raw).decode(),
        "basic_base64_urlsafe": base64.urlsafe_b64encode(f"{user}:".encode() + raw + b"\n").decode(),
        "html_decimal": "".join(f"&#{ord(c)};" for c in key),
        "html_hex": "".join(f"&#x{ord(c):X};" for c in key),
        "html_escape": html.escape(key),
    }
    for name, form in forms.items():
        text = scrub(before + form + after, [key])
        assert form not in text and FILTERED in text, name


def test_the_controller_knows_a_private_setting_by_its_variable():
    registry = ProviderRegistry()
    register_builtin_providers(registry)
    environ = {"GOOGLE_API_KEY": "AIza-planted-key", "GOOGLE_CSE_ID": "cx-planted-engine-017"}
    assert {"AIza-planted-key", "cx-planted-engine-017"} <= set(run_secrets(registry, [], environ))


def _pattern_with_case_groups(value: str) -> re.Pattern[str]:
    """The pattern as first written, one group of forms a character and case-insensitive groups for the hex
    digits (the engine tries every form at every position): the oracle of the faster ``pattern``."""
    chars = []
    for char in value:
        utf8 = secrets._utf8(char)
        forms = {
            re.escape(char),
            re.escape(json.dumps(char)[1:-1]),
            "(?i:" + "".join(f"%{byte:02x}" for byte in utf8) + ")",
            "(?i:" + "".join(f"%25{byte:02x}" for byte in utf8) + ")",
            f"&#0*{ord(char)};",
            f"(?i:&#x0*{ord(char):x};)",
        }
        if ord(char) <= 0xFFFF:
            forms.add(f"(?i:\\\\u{ord(char):04x})")
        if char in secrets._HTML_NAMED:
            forms.add(re.escape(secrets._HTML_NAMED[char]))
        forms.update({" ": [r"\+", "(?i:%2b)"], "/": [r"\\/"]}.get(char, []))
        chars.append("(?:" + "|".join(sorted(forms)) + ")")
    return re.compile("|".join(["".join(chars), *map(re.escape, secrets._base64_forms(secrets._utf8(value)))]))


def _encoded_mix(draw, key: str) -> str:
    """The key with each character in a form drawn for it, so that forms mix (as the pattern allows)."""
    out = []
    for char in key:
        utf8 = char.encode("utf-8")
        out.append(
            draw(
                st.sampled_from(
                    [
                        char,
                        json.dumps(char)[1:-1],
                        "".join(f"%{b:02X}" for b in utf8),
                        "".join(f"%25{b:02x}" for b in utf8),
                        f"&#{ord(char)};",
                        f"&#X{ord(char):x};",
                        html.escape(char),
                        f"\\u{ord(char):04X}" if ord(char) <= 0xFFFF else char,
                    ]
                )
            )
        )
    return "".join(out)


@st.composite
def _key_and_text(draw):
    """A key of characters that have many forms, and a text of noise, the key, its forms mixed, its base64."""
    key = draw(st.text(st.sampled_from("aZ9%&#;\\/+ -_x:é\"'<"), min_size=4, max_size=10))
    pieces = []
    for kind in draw(st.lists(st.sampled_from(["noise", "key", "mix", "bearer"]), max_size=6)):
        if kind == "noise":
            pieces.append(draw(st.text(st.sampled_from("aZ9%&#;\\/+ 2u5x"), max_size=6)))
        elif kind == "key":
            pieces.append(key)
        elif kind == "mix":
            pieces.append(_encoded_mix(draw, key))
        else:
            pieces.append(base64.b64encode(b"Bearer " + key.encode()).decode())
    return key, "".join(pieces)


@given(_key_and_text())
def test_the_faster_pattern_scrubs_as_the_first_one(key_and_text):
    key, text = key_and_text
    ours, oracle = secrets.pattern(key), _pattern_with_case_groups(key)
    assert [m.span() for m in ours.finditer(text)] == [m.span() for m in oracle.finditer(text)]
