"""Labelled endpoints unit by unit: ``NAME@LABEL`` parsed and refused, a label's settings and key read before its
provider's (its base URL never), the registry's labelled entries, the live queue keeping one case's endpoints
side by side, the A/A pairs and their noise floor."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from pytest_websearchbench.core.exceptions import ConfigurationError
from pytest_websearchbench.core.family import MetricColumn, Score
from pytest_websearchbench.providers import ProviderContext, ProviderRegistry, register_builtin_providers
from pytest_websearchbench.providers.catalog import endpoint_ini_keys
from pytest_websearchbench.providers.endpoints import Endpoint, labelled
from pytest_websearchbench.reporting.figures import NoiseFloor, _noise_floor, _variant
from pytest_websearchbench.reporting.results import ItemMeta, ItemRecord, ItemRun
from pytest_websearchbench.run.live.plan import interleaved
from pytest_websearchbench.run.session import RunState


def test_a_variant_is_a_provider_and_an_optional_label():
    assert Endpoint.parse("serper") == Endpoint("serper")
    prod = Endpoint.parse("serper@prod")
    assert (prod.provider, prod.label, prod.variant) == ("serper", "prod", "serper@prod")
    assert (prod.key_var, prod.base_url_var, prod.base_url_ini) == (
        "SERPER_PROD_API_KEY",
        "WSB_SERPER_PROD_BASE_URL",
        "wsb_serper_prod_base_url",
    )
    assert Endpoint.parse("google-cse@eu_2").base_url_var == "WSB_GOOGLE_CSE_EU_2_BASE_URL"
    assert labelled(("local", "serper@a", "serper@b")) == [Endpoint("serper", "a"), Endpoint("serper", "b")]


@pytest.mark.parametrize("variant", ["serper@", "@prod", "serper@Prod", "serper@pro-d", "serper@a@b", "serper@_a"])
def test_a_label_that_cannot_name_a_variable_or_a_folder_is_refused(variant):
    with pytest.raises(ConfigurationError, match="write NAME@LABEL with a label of lower-case letters"):
        Endpoint.parse(variant)


def _context(name, environ, ini=None):
    return ProviderContext(name=name, environ=environ, ini=lambda key: (ini or {}).get(key, ""), calls_out=True)


def test_a_labels_settings_come_first_then_its_providers_but_never_the_providers_base_url():
    environ = {"WSB_SERPER_GL": "de", "WSB_SERPER_HL": "de", "WSB_SERPER_PROD_HL": "fr"}
    ini = {"wsb_serper_base_url": "https://provider.example", "wsb_serper_prod_base_url": "https://prod.example/"}
    prod = _context("serper@prod", environ, ini)
    assert (prod.option("gl"), prod.option("hl"), prod.option("tbs", "x")) == ("de", "fr", "x")
    assert prod.base_url("https://default.example") == "https://prod.example"
    staging = _context("serper@staging", environ, ini)
    assert staging.base_url("https://default.example") == "https://default.example"  # not the provider's
    assert _context("serper", environ, ini).base_url("https://default.example") == "https://provider.example"


def test_a_labelled_entry_reads_its_own_key_then_the_providers_and_keeps_both_secret(tmp_path):
    registry = ProviderRegistry()
    register_builtin_providers(registry)
    entry = registry.entry("serper@staging")
    assert (entry.name, entry.label_key) == ("serper@staging", "SERPER_STAGING_API_KEY")
    assert "SERPER_STAGING_API_KEY" in entry.secret_env and "SERPER_API_KEY" in entry.secret_env
    assert entry.environ({"SERPER_API_KEY": "p", "SERPER_STAGING_API_KEY": "s"})["SERPER_API_KEY"] == "s"
    assert entry.environ({"SERPER_API_KEY": "p", "SERPER_STAGING_API_KEY": " "})["SERPER_API_KEY"] == "p"
    assert entry.missing_key({"SERPER_API_KEY": "p"}, tmp_path) is None
    assert entry.missing_key({}, tmp_path).startswith(
        "provider 'serper@staging' needs an API key: set SERPER_STAGING_API_KEY (or SERPER_API_KEY);"
    )
    assert entry in registry.entries()  # the results file scrubs its key by name
    assert registry.entry("local@a").label_key == ""  # a provider without a key has none to label
    provider = entry.factory(_context("serper@staging", entry.environ({"SERPER_STAGING_API_KEY": "s"})))
    assert provider.secrets() == ["s"]
    with pytest.raises(ConfigurationError, match=r"set SERPER_STAGING_API_KEY \(or SERPER_API_KEY\)"):
        entry.factory(_context("serper@staging", entry.environ({})))
    with pytest.raises(ConfigurationError, match="unknown provider 'nope' in 'nope@a'; known: "):
        registry.entry("nope@a")


def test_a_labels_ini_keys_are_its_base_url_and_its_providers_options():
    keys = dict(endpoint_ini_keys(["serper@prod", "local", "serper@Bad", "local@b"]))
    assert set(keys) == {"wsb_serper_prod_base_url", "wsb_serper_prod_gl", "wsb_serper_prod_hl",
                         "wsb_serper_prod_tbs", "wsb_local_b_base_url"}  # fmt: skip


def _spec(case, variant):
    return (
        SimpleNamespace(suite=SimpleNamespace(name="s"), case=SimpleNamespace(id=case), variant=variant),
        Path(),
        None,
    )


def test_the_live_queue_keeps_one_cases_endpoints_side_by_side_in_the_runs_order():
    todo = [_spec(c, v) for v in ("serper@a", "serper@b", "tavily") for c in ("q1", "q2")]  # variant by variant
    order = [(spec.case.id, spec.variant) for spec, _, _ in interleaved(todo)]
    assert order == [
        ("q1", "serper@a"),
        ("q1", "serper@b"),
        ("q2", "serper@a"),
        ("q2", "serper@b"),
        ("q1", "tavily"),
        ("q2", "tavily"),
    ]


def test_the_a_a_pairs_are_labels_of_one_provider_at_one_base_url():
    state = RunState(
        None, None, None, None, "run", endpoints={"serper@a": "u", "serper@b": "v", "serper@c": "u", "exa@d": "u"}
    )  # type: ignore[arg-type]
    assert state.same_endpoints() == [("serper@a", "serper@c")]


def _records(variant, values):
    return [
        ItemRecord(
            f"s::q{i}[{variant}]",
            ItemMeta("s", f"q{i}", variant, "lexbench", "scenario", "1", "d"),
            ItemRun(),
            Score(True, {"ndcg": value}),
        )
        for i, value in enumerate(values)
    ]


def test_the_noise_floor_is_the_larger_end_of_the_a_a_mean_differences_interval():
    column = MetricColumn("ndcg", "nDCG@5", error_value=0.0)
    a = _variant("serper@a", _records("serper@a", [0.5, 0.6, 0.7, 0.8]), [column], None)
    b = _variant("serper@b", _records("serper@b", [0.5, 0.7, 0.7, 0.6]), [column], None)
    floor = _noise_floor([a, b], [column], "serper@a", "serper@b")
    assert isinstance(floor, NoiseFloor)
    assert (floor.n, floor.differing) == (4, 2)
    assert floor.delta == pytest.approx(-0.025) and floor.low <= floor.delta <= floor.high
    assert floor.floor == pytest.approx(max(abs(floor.low), abs(floor.high)))
    assert floor.text().startswith(
        "noise floor (A/A serper@a vs serper@b, one endpoint): nDCG@5 mean Δ -0.025 ["
    ) and floor.text().endswith(f"is noise (--wsb-min-effect={floor.floor:.3g})")
    assert _noise_floor([a], [column], "serper@a", "serper@b") is None


def test_the_old_name_of_calls_out_still_answers_and_warns_that_it_is_deprecated():
    context = _context("serper", {})
    with pytest.warns(pytest.PytestDeprecationWarning, match="use ProviderContext.calls_out"):
        assert context.record_mode_may_record is True
