"""A search item's previews (URL, title, snippet) are in the results file once: a raw hit whose preview is
its scored row's is written as a reference to that row, and reads back whole."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from pytest_websearchbench.core.family import Score
from pytest_websearchbench.reporting.results import ItemMeta, ItemRecord, ItemRun

text = st.text(max_size=12)
hit = st.fixed_dictionaries(
    {
        "rank": st.integers(1, 6),
        "url": text,
        "title": text,
        "snippet": text,
        "extra": st.dictionaries(st.sampled_from(["site", "published"]), text, max_size=2),
    }
)


def _record(hits, rows):
    return ItemRecord(
        "s::q[p]",
        ItemMeta("s", "q", "p", "lexbench"),
        ItemRun(raw={"queries": ["q"], "hits": hits, "pages": [], "extra": {}}),
        Score(True, {"ndcg@5": 1.0}, results=rows, primary="ndcg@5"),
    )


def _rows(hits, data) -> list[dict]:
    """Scored rows for ``hits``: some repeat a hit's preview exactly, some change its title, some ranks have none."""
    rows = []
    for h in hits:
        choice = data.draw(st.sampled_from(["same", "other-title", "none"]))
        if choice != "none":
            rows.append(
                {
                    "rank": h["rank"],
                    "url": h["url"],
                    "snippet": h["snippet"],
                    "grade": 1,
                    "title": h["title"] if choice == "same" else h["title"] + "!",
                }
            )
    return rows


@given(st.lists(hit, max_size=6), st.data())
def test_an_item_reads_back_as_it_was_whatever_its_rows_repeat(hits, data):
    rows = _rows(hits, data)
    record = _record(hits, rows)
    written = json.loads(json.dumps(record.to_dict(shared_previews=True)))
    back = ItemRecord.from_dict(written)
    assert back.run.raw == record.run.raw and back.score.results == rows


def test_a_hit_repeated_by_its_row_is_written_once():
    hits = [
        {"rank": 1, "url": "https://a.example/x", "title": "A", "snippet": "about a", "extra": {"site": "a"}},
        {"rank": 2, "url": "https://b.example/y", "title": "B", "snippet": "about b", "extra": {}},
    ]
    rows = [
        {"rank": 1, "url": "https://a.example/x", "title": "A", "snippet": "about a", "grade": 3},
        {"rank": 2, "url": "https://b.example/y", "title": "B (graded preview)", "snippet": "about b", "grade": 0},
    ]
    written = _record(hits, rows).to_dict(shared_previews=True)
    assert written["raw"]["hits"] == [{"rank": 1, "extra": {"site": "a"}, "preview": "row"}, hits[1]]
    assert written["results"] == rows
    assert _record(hits, rows).to_dict()["raw"]["hits"] == hits  # in the run (the report's views): whole


@given(st.lists(hit, max_size=6), st.data())
def test_without_answers_drops_only_the_answered_text(hits, data):
    # the file a run writes without --wsb-json-raw: a row loses only a title and snippet its rank's hit holds
    rows = _rows(hits, data)
    written = json.loads(json.dumps(_record(hits, rows).to_dict(shared_previews=True, answers=False)))
    assert written["raw"] == {"queries": ["q"], "extra": {}}
    hit_of = {h["rank"]: h for h in hits}  # a rank held twice: its last hit, as the writer reads them
    for row, kept in zip(rows, written["results"]):
        answered = all(row[key] == hit_of[row["rank"]][key] for key in ("url", "title", "snippet"))
        assert kept == ({k: v for k, v in row.items() if k not in ("title", "snippet")} if answered else row)
    back = ItemRecord.from_dict(written)
    assert back.score.results == written["results"] and back.run.raw == written["raw"]
