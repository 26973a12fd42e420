"""The opt-in strict grader (`grader_strict`), rule by rule: CommonMark fences, comment tokens, any occurrence grounds."""

from __future__ import annotations

import pytest

from pytest_websearchbench import CodeVerdict
from pytest_websearchbench.codebench.grader import leaked_needles
from pytest_websearchbench.codebench.grader_strict import grade_code_answer_strict as grade_code_answer
from pytest_websearchbench.codebench.grader_strict import last_code_block
from pytest_websearchbench.codebench.grader_strict import strict_grounding_key as grounding_key

DOC = "https://docs.acme.example/api/v2/tickets"


def fenced(code: str, info: str = "python") -> str:
    return f"Here you go.\n\n```{info}\n{code}\n```\n"


def grade(answer: str, needles=("mark_resolved",), *, urls=(DOC,), texts=(), cite_urls=True) -> CodeVerdict:
    return grade_code_answer(answer, list(needles), seen_urls=list(urls), seen_text=list(texts), cite_urls=cite_urls)


# --------------------------------------------------------------------------- step 1: which code


def test_rule1_the_last_fenced_block_is_the_code():
    answer = fenced("desk.close()") + "or better:\n" + fenced(f"# {DOC}\ndesk.mark_resolved()")
    verdict = grade(answer)
    assert verdict.code == f"# {DOC}\ndesk.mark_resolved()"
    assert verdict.passed
    # the needle only in an earlier block does not count
    assert grade(fenced(f"# {DOC}\ndesk.mark_resolved()") + fenced("desk.close()")).notes == ("missing:mark_resolved",)


def test_rule1_an_unclosed_fence_gives_empty_code():
    answer = fenced(f"# {DOC}\ndesk.mark_resolved()") + "```python\n# " + DOC + "\ndesk.mark_resolved()\n"
    assert last_code_block(answer) == ""
    assert grade(answer).notes == ("empty submission",)


def test_rule1_without_a_fence_the_whole_answer_is_the_code():
    answer = f"# {DOC}\ndesk.mark_resolved()\n"
    assert last_code_block(answer) == answer
    assert grade(answer).passed


def test_rule1_tilde_fences_and_longer_fences_count_inline_backticks_do_not():
    assert last_code_block("~~~py\nx = 1\n~~~\n") == "x = 1"
    assert last_code_block("````\n```\nnot a close\n````") == "```\nnot a close"
    assert last_code_block("use ```mark_resolved``` here") == "use ```mark_resolved``` here"


def test_rule1_indented_fence_strips_its_indent_from_the_code():
    answer = "  ```python\n  if True:\n      x = 1\n  ```\n"
    assert last_code_block(answer) == "if True:\n    x = 1"
    assert grade(answer, needles=()).compiled


# --------------------------------------------------------------------------- step 2: empty, compile


def test_rule2_empty_code_fails_as_empty_submission():
    for answer in ("", "   \n", "```python\n\n```"):
        verdict = grade(answer)
        assert not verdict.passed and not verdict.compiled and verdict.notes == ("empty submission",)


def test_rule2_code_must_compile():
    verdict = grade(fenced(f"# {DOC}\ndef f(:\n    desk.mark_resolved()"))
    assert not verdict.passed and not verdict.compiled
    assert len(verdict.notes) == 1 and verdict.notes[0].startswith("syntax error")


def test_rule2_compile_checks_syntax_only_nothing_runs(tmp_path):
    marker = tmp_path / "ran"
    code = (
        f"# {DOC}\nopen({str(marker)!r}, 'w').write('x')\nimport module_that_does_not_exist\n"
        "raise SystemExit(3)\ndesk.mark_resolved(undefined_name)"
    )
    verdict = grade(fenced(code))
    assert verdict.passed and verdict.compiled
    assert not marker.exists()


# --------------------------------------------------------------------------- step 3: needles


def test_rule3_every_needle_must_appear():
    verdict = grade(fenced(f"# {DOC}\ndesk.mark_resolved()"), needles=("mark_resolved", "resolution_code"))
    assert not verdict.passed and verdict.compiled
    assert verdict.notes == ("missing:resolution_code",)


def test_rule3_matching_is_case_sensitive_substring():
    assert grade(fenced(f"# {DOC}\ndesk.Mark_Resolved()")).notes == ("missing:mark_resolved",)
    assert grade(fenced(f"# {DOC}\ndesk.mark_resolved_later()")).passed  # a substring is enough


def test_rule3_a_comment_counts():
    assert grade(fenced(f"# {DOC}\n# use mark_resolved here\npass")).passed


def test_rule3_needles_shorter_than_four_characters_are_dropped():
    verdict = grade(fenced(f"# {DOC}\ndesk.mark_resolved()"), needles=("mark_resolved", "DAP", "v2", ""))
    assert verdict.passed and [c.needle for c in verdict.checks] == ["mark_resolved"]
    # with only short needles nothing is required but a compiling answer
    assert grade(fenced("pass"), needles=("DAP",)).passed


def test_rule3_needles_are_deduplicated():
    verdict = grade(fenced("desk.close()"), needles=("mark_resolved", "mark_resolved"))
    assert verdict.notes == ("missing:mark_resolved",)


# --------------------------------------------------------------------------- step 4: citations


def test_rule4_a_needle_without_a_source_is_uncited():
    assert grade(fenced("desk.mark_resolved()")).notes == ("uncited:mark_resolved",)


def test_rule4_a_comment_url_is_the_current_source_until_the_next():
    other = "https://docs.acme.example/api/v2/queues"
    code = f"# see {DOC}\nx = 1\n\ndesk.mark_resolved()\n# {other}\ndesk.route_to_queue()"
    verdict = grade(fenced(code), needles=("mark_resolved", "route_to_queue"), urls=(DOC, other))
    assert verdict.passed
    sources = {c.needle: c.sources for c in verdict.checks}
    assert sources == {"mark_resolved": (DOC,), "route_to_queue": (other,)}


def test_rule4_a_needle_above_the_first_url_is_uncited():
    code = f"desk.mark_resolved()\n# {DOC}\ndesk.other_call()"
    assert grade(fenced(code)).notes == ("uncited:mark_resolved",)


def test_rule4_a_url_in_a_trailing_comment_cites_its_own_line():
    assert grade(fenced(f"desk.mark_resolved()  # {DOC}")).passed


def test_rule4_a_url_in_a_string_literal_is_not_a_citation():
    code = f'BASE = "{DOC}"\ndesk.mark_resolved(BASE)'
    assert grade(fenced(code)).notes == ("uncited:mark_resolved",)


def test_rule4_each_line_of_a_needle_is_attributed_any_cited_line_will_do():
    other = "https://docs.acme.example/api/v1/tickets"
    code = f"desk.mark_resolved()\n# {other}\n# {DOC}\nagain = desk.mark_resolved"
    verdict = grade(fenced(code))
    assert verdict.passed and verdict.checks[0].sources == (DOC,)


def test_rule4_without_cite_urls_no_citation_is_needed_but_grounding_by_text_is():
    answer = fenced("desk.mark_resolved()")
    assert grade(answer, cite_urls=False, texts=("call desk.mark_resolved(id)",)).passed
    assert grade(answer, cite_urls=False, texts=()).notes == ("ungrounded:mark_resolved",)


# --------------------------------------------------------------------------- step 5: grounding


def test_rule5_url_normalisation_drops_scheme_query_fragment_case_www_and_trailing_slash():
    assert (
        grounding_key("HTTPS://WWW.Docs.Acme.Example/API/v2/Tickets/?page=2#resolve")
        == "docs.acme.example/api/v2/tickets"
    )
    assert grounding_key("http://docs.acme.example/api/v2/tickets") == grounding_key(DOC + "/")
    # unlike the pooling key, which keeps the scheme and the query
    from pytest_websearchbench.core.urls import normalize_url

    assert normalize_url(DOC + "?a=1") != grounding_key(DOC + "?a=1")


def test_rule5_a_cited_url_equal_to_a_seen_url_after_normalisation_grounds():
    answer = fenced("# http://www.docs.acme.example/api/v2/tickets/?ref=nav#top\ndesk.mark_resolved()")
    verdict = grade(answer, urls=("https://docs.acme.example/api/v2/tickets",))
    assert verdict.passed and verdict.checks[0].grounded_by == "url:https://docs.acme.example/api/v2/tickets"


def test_rule5_a_prefix_either_way_grounds():
    deeper = fenced(f"# {DOC}/resolve#params\ndesk.mark_resolved()")
    assert grade(deeper, urls=(DOC,)).passed  # the cited URL is under a seen one
    shallower = fenced("# https://docs.acme.example/api\ndesk.mark_resolved()")
    assert grade(shallower, urls=(DOC,)).passed  # a seen URL is under the cited one


def test_rule5_an_unseen_url_is_ungrounded():
    answer = fenced("# https://blog.example.org/acme-tips\ndesk.mark_resolved()")
    assert grade(answer, urls=(DOC,)).notes == ("ungrounded:mark_resolved",)
    # nor does a cited URL ground when nothing was seen at all
    assert grade(fenced(f"# {DOC}\ndesk.mark_resolved()"), urls=()).notes == ("ungrounded:mark_resolved",)


def test_rule5_the_needle_verbatim_in_seen_text_grounds_whatever_the_url():
    answer = fenced("# https://blog.example.org/acme-tips\ndesk.mark_resolved()")
    assert grade(answer, urls=(), texts=("Tickets v2", "call desk.mark_resolved(ticket)")).passed
    assert grade(answer, urls=(), texts=("call desk.Mark_Resolved(ticket)",)).notes == ("ungrounded:mark_resolved",)


def test_rule5_an_empty_url_grounds_nothing():
    answer = fenced("# https://\ndesk.mark_resolved()")
    assert grade(answer, urls=("https://",)).notes == ("uncited:mark_resolved",)


def test_rule5_queries_do_not_count(tmp_path):
    from code_support import write_rows

    from pytest_websearchbench.codebench.scoring import score_agent
    from pytest_websearchbench.codebench.tasks import load_rows
    from pytest_websearchbench.core.family import RawResults

    task = load_rows(write_rows(tmp_path / "eval.jsonl", [{"required": ["mark_resolved"]}]))[0]
    raw = RawResults(
        queries=["acme mark_resolved tickets"],
        extra={"mode": "agent", "answer": fenced("# https://blog.example.org/x\ndesk.mark_resolved()")},
    )
    score = score_agent(task, raw)
    assert not score.passed and "ungrounded:mark_resolved" in score.message
    assert score.metrics["leaky_queries"] == 1.0


# --------------------------------------------------------------------------- the verdict


def test_pass_is_compiled_and_no_note():
    verdict = grade(fenced(f"# {DOC}\ndesk.mark_resolved()"))
    assert verdict == CodeVerdict(True, True, (), verdict.code, verdict.checks)
    many = grade(
        fenced("desk.mark_resolved()\n# https://x.example/a\ndesk.close_ticket()"),
        needles=("mark_resolved", "close_ticket", "reopen_ticket"),
        urls=(),
    )
    assert many.notes == ("uncited:mark_resolved", "ungrounded:close_ticket", "missing:reopen_ticket")
    assert not many.passed and many.compiled


def test_grounding_off_when_both_seen_arguments_are_none():
    verdict = grade_code_answer(
        "desk.mark_resolved()", ["mark_resolved"], seen_urls=None, seen_text=None, cite_urls=False
    )
    assert verdict.passed and verdict.checks[0].grounded_by == ""
    with pytest.raises(TypeError):
        grade_code_answer("x", ["mark_resolved"], seen_urls=None, seen_text=[])


def test_leak_diagnostic_flags_needles_in_a_query_case_insensitively():
    assert leaked_needles("how to MARK_RESOLVED in acme", ["mark_resolved", "v2", "queue_key"]) == ["mark_resolved"]
    assert leaked_needles("acme v2 tickets", ["v2"]) == []
