"""The commands a cassette message suggests keep every option that locates the cassettes (the suite, the
user's --wsb-cassette-dir), so following them records into the folder the run reads; a folder the user
named is the one replayed, never the shipped cassettes of a bundled suite behind it. The folder is in the
command even when the user named none: pytest reads its config file (which anchors the default folder) from the
command's paths, so a suite in a clone or an installed package would take that folder's ``cassettes/``."""

from __future__ import annotations

import shlex

from conftest import TINY_GRADES, TINY_SCENARIOS, write_lexbench_suite


def test_a_broken_cassettes_command_records_into_the_users_folder(pytester, tiny_suite):
    pytester.runpytest("suites", "--wsb-cassette-dir=mine").assert_outcomes(passed=3, failed=1)
    cassette = pytester.path / "mine" / "tiny" / "local" / "t2.yaml"
    cassette.write_text("interactions: 42\nversion: 1\n")
    result = pytester.runpytest("suites", "--wsb-cassette-dir=mine", "--wsb-record-mode=none")
    result.assert_outcomes(passed=2, failed=1, errors=1)
    line = next(line for line in result.outlines if "; re-record it: " in line)
    command = shlex.split(line.split("; re-record it: ", 1)[1])
    assert command == [
        "pytest",
        "suites/tiny::t2[local]",
        "--provider",
        "local",
        "--wsb-cassette-dir=mine",
        "--wsb-record-mode=rewrite",
    ]
    pytester.runpytest(*command[1:]).assert_outcomes(passed=1)
    assert not (pytester.path / "cassettes").exists()  # nothing went to the default folder
    pytester.runpytest("suites", "--wsb-cassette-dir=mine", "--wsb-record-mode=none").assert_outcomes(
        passed=3, failed=1
    )


def test_a_missing_cassettes_message_gives_the_command_with_the_users_folder(pytester, tiny_suite):
    outside = pytester.path.parent / f"{pytester.path.name}-cassettes"
    result = pytester.runpytest("suites", f"--wsb-cassette-dir={outside}", "--wsb-record-mode=none", "-k", "t2")
    result.assert_outcomes(errors=1)
    line = next(line for line in result.outlines if "Record it with: " in line)
    command = shlex.split(line.split("Record it with: ", 1)[1])
    assert command == [
        "pytest",
        "--suite",
        "suites/tiny",
        "--provider",
        "local",
        f"--wsb-cassette-dir={outside}",
        "--wsb-record-mode=once",
        "-k",
        "t2",
    ]
    pytester.runpytest(*command[1:]).assert_outcomes(passed=1)
    assert (outside / "tiny" / "local" / "t2.yaml").is_file() and not (pytester.path / "cassettes").exists()


def test_an_empty_folder_named_for_a_bundled_suite_is_replayed_not_the_shipped_cassettes(pytester):
    (pytester.path / "empty").mkdir()
    named = pytester.runpytest(
        "--suite", "lexbench-sample", "--wsb-record-mode=none", "--wsb-cassette-dir=empty", "-k", "q001"
    )
    named.assert_outcomes(errors=1)
    named.stdout.fnmatch_lines(
        [
            "*no cassette at */empty/lexbench-sample/local/q001.yaml*",
            "*Record it with: pytest --suite * --provider local --wsb-cassette-dir=empty "
            "--wsb-record-mode=once -k 'q001'*",
        ]
    )
    # without a folder named, the shipped cassettes replay from anywhere
    pytester.runpytest("--suite", "lexbench-sample", "--wsb-record-mode=none", "-k", "q001").assert_outcomes(passed=1)


def test_a_suite_in_another_project_is_re_recorded_into_the_folder_the_run_read(pytester):
    # the user's project names a suite in a clone beside it, which has its own config file: a command naming
    # the clone's suite folder makes pytest read the clone's config, and its default cassette folder with it
    clone = pytester.path / "clone"
    write_lexbench_suite(clone, "tiny", TINY_SCENARIOS, TINY_GRADES)
    (clone / "pytest.ini").write_text("[pytest]\nwsb_local_corpus = corpus/corpus.jsonl\n")
    pytester.makeini("[pytest]\nwsb_suite = clone/suites/tiny\nwsb_local_corpus = clone/corpus/corpus.jsonl\n")
    pytester.runpytest("-k", "t2").assert_outcomes(passed=1)
    cassette = pytester.path / "cassettes" / "tiny" / "local" / "t2.yaml"
    cassette.write_text(cassette.read_text()[:200])
    result = pytester.runpytest("--wsb-record-mode=none", "-k", "t2")
    result.assert_outcomes(errors=1)
    line = next(line for line in result.outlines if "; re-record it: " in line)
    command = shlex.split(line.split("; re-record it: ", 1)[1])
    assert command == [
        "pytest",
        "clone/suites/tiny::t2[local]",
        "--provider",
        "local",
        "--wsb-cassette-dir=cassettes",
        "--wsb-record-mode=rewrite",
    ]
    pytester.runpytest(*command[1:]).assert_outcomes(passed=1)
    assert not (clone / "cassettes").exists()  # not the clone's folder
    pytester.runpytest("--wsb-record-mode=none", "-k", "t2").assert_outcomes(passed=1)
