"""Program agents (``--wsb-agent "cmd:…"``) and agents registered through the plugin hook: a shell
script replaying the oracle's route through the ``browser`` CLI scores 100 on a task of each template
(``--every-task``: on every bundled task); one
that goes on acting is stopped at the step cap (the action after the last allowed one answers an
error); one that outlives the wall-clock limit is killed; ``--wsb-repeat`` makes the calibration rows."""

from __future__ import annotations

import hashlib
import json
import textwrap

import pytest
from wb_support import one_task_a_template, sample_tasks

from conftest import require_sandbox, summary_shows
from pytest_websearchbench.webbench.agents.calibration import wilson

FAST = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest")


def _script(folder, name: str, body: str):
    path = folder / name
    path.write_text("#!/bin/sh\n" + textwrap.dedent(body))
    path.chmod(0o755)
    return path


def _items(path) -> dict:
    return {i["case_id"]: i for i in json.loads(path.read_text())["items"]}


@pytest.mark.e2e
def test_a_shell_script_replaying_the_oracle_through_the_cli_scores_100_everywhere(pytester, monkeypatch, request):
    routes = pytester.path / "routes"
    routes.mkdir()
    tasks = one_task_a_template(request.config.getoption("every_task"))  # --every-task: all 28
    for task in tasks:  # the script finds its route by the brief it is given
        digest = hashlib.sha256(task.instruction.encode()).hexdigest()
        (routes / f"{digest}.jsonl").write_text("".join(json.dumps(a) + "\n" for a in task.routes["oracle"]))
    monkeypatch.setenv("ROUTES", str(routes))
    _script(
        pytester.path,
        "replay.sh",
        """\
        set -eu
        printf '%s' "$WSB_BRIEF" | cmp -s - "$WSB_BRIEF_FILE"  # the brief, as a variable and as a file
        case "$WSB_WORKSPACE_URL" in http://127.0.0.1:*) ;; *) exit 9 ;; esac
        browser < "$ROUTES/$(sha256sum "$WSB_BRIEF_FILE" | cut -d' ' -f1).jsonl" > /dev/null
    """,
    )
    results = pytester.path / "r.json"
    result = pytester.runpytest(
        *FAST,
        "--suite",
        "webbench-sample",
        "--wsb-agent",
        "cmd:./replay.sh",
        "-n",
        "2",
        f"--wsb-json={results}",
        "-k",
        " or ".join(f"{task.name}[" for task in tasks),
    )
    result.assert_outcomes(passed=len(tasks))
    result.stdout.fnmatch_lines([f"*episode failure modes*none {len(tasks)}*"])
    assert "PytestUnknownMarkWarning" not in result.stdout.str()
    items = _items(results)
    assert {i["provider"] for i in items.values()} == {"cmd-replay-sh"}  # a safe name for ids and markers
    for task in tasks:
        item = items[task.name]
        extra = item["raw"]["extra"]
        assert item["metrics"]["webscore"] == 100.0 and extra["steps"] == task.reference_steps
        assert extra["stopped"] == "decided" and extra["details"]["exit_code"] == 0


@pytest.mark.e2e
def test_a_script_that_goes_on_is_stopped_at_the_step_cap(pytester):
    task = min(sample_tasks(), key=lambda t: t.step_budget)
    _script(
        pytester.path,
        "busy.sh",
        """\
        i=0
        while [ $i -lt $((WSB_STEP_BUDGET + 3)) ]; do
            browser navigate url=/ > /dev/null || echo refused
            i=$((i + 1))
        done
    """,
    )
    results = pytester.path / "r.json"
    result = pytester.runpytest(
        *FAST,
        "--suite",
        "webbench-sample",
        "--wsb-agent",
        "cmd:./busy.sh",
        "-k",
        f"{task.name}[",
        f"--wsb-json={results}",
    )
    result.assert_outcomes(failed=1)
    summary_shows(  # the failure's message is folded within 120 columns
        result.stdout.str(), f"{task.step_budget}/{task.step_budget} steps, stopped: budget, episode failure: step cap"
    )
    extra = _items(results)[task.name]["raw"]["extra"]
    assert extra["steps"] == task.step_budget and len(extra["log"]) == task.step_budget
    assert extra["details"]["stdout_tail"].split() == ["refused"] * 3  # every action past the cap was refused


@pytest.mark.e2e
def test_a_program_that_outlives_the_time_limit_is_killed(pytester):
    task = sample_tasks()[0]
    _script(
        pytester.path,
        "slow.sh",
        """\
        browser navigate url=/ > /dev/null
        sleep 60
    """,
    )
    results = pytester.path / "r.json"
    result = pytester.runpytest(
        *FAST,
        "--suite",
        "webbench-sample",
        "--wsb-agent",
        "cmd:./slow.sh",
        "--wsb-agent-time-limit",
        "1.5",
        "-k",
        f"{task.name}[",
        f"--wsb-json={results}",
    )
    result.assert_outcomes(failed=1)
    extra = _items(results)[task.name]["raw"]["extra"]
    assert extra["stopped"] == "time" and extra["details"]["exit_code"] is None and extra["steps"] == 1
    assert extra["details"]["seconds"] < 10
    assert _items(results)[task.name]["results"][0]["episode_failure"] == "time limit"


@pytest.mark.parametrize(
    "agent, message",
    [
        ("cmd:./missing.sh", "--wsb-agent 'cmd:./missing.sh': no program at */missing.sh"),
        ("cmd:", "--wsb-agent 'cmd:': give a command after 'cmd:'"),
        ("cmd:no-such-program-anywhere", "*'no-such-program-anywhere' is not on PATH"),
        ("gpt", "--wsb-agent: unknown agent 'gpt'; agents: oracle, *, model, cmd:COMMAND*"),
    ],
)
def test_bad_agents_are_one_usage_error(pytester, agent, message):
    result = pytester.runpytest(*FAST, "--suite", "webbench-sample", "--wsb-agent", agent)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{message}*"])


@pytest.mark.e2e
def test_an_agent_registered_through_the_hook_works_every_task(pytester):
    pytester.makeconftest("""
        class Replayer:
            def work(self, ctx):
                assert ctx.brief == ctx.task.instruction and ctx.base_url.startswith("http://127.0.0.1:")
                for action in ctx.task.routes["oracle"]:
                    ctx.act(action)
                return {"budget": ctx.budget}

        def pytest_websearchbench_add_agents(registry):
            registry.add("replayer", Replayer, help="replays the oracle in-process")
    """)
    results = pytester.path / "r.json"
    result = pytester.runpytest(*FAST, "--suite", "webbench-sample", "--wsb-agent", "replayer", f"--wsb-json={results}")
    result.assert_outcomes(passed=len(sample_tasks()))
    for task in sample_tasks():
        assert _items(results)[task.name]["raw"]["extra"]["details"] == {"budget": task.step_budget}


def test_a_hook_cannot_take_a_built_in_name(pytester):
    pytester.makeconftest("""
        def pytest_websearchbench_add_agents(registry):
            registry.add("oracle", object)
    """)
    result = pytester.runpytest(*FAST, "--suite", "webbench-sample")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*cannot register an agent named 'oracle'*"])


@pytest.mark.e2e
def test_repeat_runs_episodes_per_task_and_the_summary_gives_the_calibration_rows(pytester):
    tasks = sample_tasks()
    result = pytester.runpytest(
        *FAST, "--suite", "webbench-sample", "--wsb-agent", "oracle,noop", "--wsb-repeat", "2", "-n", "2"
    )
    result.assert_outcomes(passed=2 * len(tasks), failed=2 * len(tasks))
    result.stdout.fnmatch_lines(
        [f"*episode failure modes*none {2 * len(tasks)}*premature termination {2 * len(tasks)}*"]
    )
    for template in sorted({t.template for t in tasks}):
        n = 2 * sum(t.template == template for t in tasks)
        low, high = wilson(n, n)
        low0, high0 = wilson(0, n)
        result.stdout.fnmatch_lines(  # below the side-by-side table, a line per agent (wrapped within 120)
            [
                f"  calibration {template}",
                f"    oracle  pass {n}/{n} = 1.00 [[]80% {low:.2f}, {high:.2f}[]] · WebScore 100.0 · "
                f"strict 1.00 · steps *majority failure: none",
                f"    noop    pass 0/{n} = 0.00 [[]80% {low0:.2f}, {high0:.2f}[]] · WebScore 0.0*majority failure: *",
            ]
        )
    collected = pytester.runpytest(*FAST, "--suite", "webbench-sample", "--wsb-repeat", "2", "--co", "-q")
    collected.stdout.fnmatch_lines(
        [f"*::{tasks[0].name}@1[[]oracle[]]", f"*::{tasks[0].name}@2[[]oracle[]]", f"{2 * len(tasks)} tests collected*"]
    )


def test_chromium_that_is_not_there_is_one_usage_error_with_the_install_command(pytester, monkeypatch):
    monkeypatch.setenv("WSB_CHROMIUM", str(pytester.path / "no-chromium"))
    result = pytester.runpytest(*FAST, "--suite", "webbench-sample", "--wsb-browser", "chromium")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*--wsb-browser chromium: no chromium at */no-chromium; install it with: sudo apt-get install -y chromium*"]
    )


def test_a_program_is_not_given_the_runs_key_so_it_cannot_print_it(pytester, monkeypatch):
    task = sample_tasks()[0]
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-value-0123456789")
    _script(
        pytester.path,
        "leaky.sh",
        """\
        echo "my key is $OPENAI_API_KEY"
        echo "and again $OPENAI_API_KEY" >&2
    """,
    )
    results = pytester.path / "r.json"
    result = pytester.runpytest(
        *FAST,
        "--suite",
        "webbench-sample",
        "--wsb-agent",
        "cmd:./leaky.sh",
        "-k",
        f"{task.name}[",
        f"--wsb-json={results}",
    )
    # the program is not given the key at all (it takes no step either: an error quoting its last words)
    assert "sk-secret-value-0123456789" not in results.read_text() + result.stdout.str()
    assert _items(results)[task.name]["error"].endswith("its last words: and again")


def test_a_key_named_by_wsb_agent_env_is_given_and_scrubbed_from_what_the_program_prints(pytester, monkeypatch):
    task = sample_tasks()[0]
    monkeypatch.setenv("MY_AGENT_API_KEY", "agent-secret-value-0123456789")
    monkeypatch.setenv("SERPER_API_KEY", "serper-secret-0123456789")
    _script(
        pytester.path,
        "own-key.sh",
        """\
        browser read > /dev/null
        echo "mine: ${MY_AGENT_API_KEY:-none}"
        echo "the run's: ${SERPER_API_KEY:-none}" >&2
    """,
    )
    results = pytester.path / "r.json"
    args = (*FAST, "--suite", "webbench-sample", "--wsb-agent", "cmd:./own-key.sh", "-k", f"{task.name}[")
    pytester.runpytest(*args, f"--wsb-json={results}")
    details = _items(results)[task.name]["raw"]["extra"]["details"]
    assert (details["stdout_tail"], details["stderr_tail"]) == ("mine: none\n", "the run's: none\n")
    result = pytester.runpytest(*args, f"--wsb-json={results}", "--wsb-agent-env", "MY_AGENT_API_KEY", "-rA")
    details = _items(results)[task.name]["raw"]["extra"]["details"]
    # given (the program printed something in its place), scrubbed; the run's own key still withheld
    assert (details["stdout_tail"], details["stderr_tail"]) == ("mine: <FILTERED>\n", "the run's: none\n")
    assert "agent-secret-value" not in results.read_text() + result.stdout.str()
    bad = pytester.runpytest(*args, "--wsb-agent-env", "MY-KEY")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    bad.stderr.fnmatch_lines(["*--wsb-agent-env: 'MY-KEY' is not an environment variable's name*"])


def test_two_programs_that_would_share_an_item_name_are_a_usage_error(pytester):
    _script(pytester.path, "x.sh", "exit 0\n")
    (pytester.path / "other").mkdir()
    _script(pytester.path / "other", "x.sh", "exit 0\n")
    result = pytester.runpytest(*FAST, "--suite", "webbench-sample", "--wsb-agent", "cmd:./x.sh,cmd:other/x.sh")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*'cmd:./x.sh' and 'cmd:other/x.sh' would both be named 'cmd-x-sh'; rename one*"])


def test_what_a_program_started_dies_with_the_episode_and_only_the_tail_of_its_output_is_read(tmp_path, monkeypatch):
    import time
    import tracemalloc

    from pytest_websearchbench.webbench.agents.program_agent import OUTPUT_TAIL, run_program
    from pytest_websearchbench.webbench.agents.session import Session

    marks = tmp_path / "marks"
    marks.mkdir()
    monkeypatch.setenv("MARKS", str(marks))
    # a child in the background and one in a session of its own, each writing for at most 5 s; the
    # program waits until both write, prints 8 MB and exits
    program = _script(
        tmp_path,
        "spawn.sh",
        """\
        loop='i=0; while [ $i -lt 100 ]; do echo . >> "$MARKS/$0"; sleep 0.05; i=$((i + 1)); done'
        sh -c "$loop" background &
        setsid sh -c "$loop" setsid &
        # and two that leave no trace of the episode: a cleared environment in a session of its own, and a
        # double fork whose middle process exits at once
        env -i MARKS="$MARKS" setsid sh -c "$loop" cleared &
        env -i MARKS="$MARKS" sh -c "(env -i MARKS=\"$MARKS\" sh -c '$loop' daemon &) ; exit 0"
        while [ ! -s "$MARKS/background" ] || [ ! -s "$MARKS/setsid" ] || [ ! -s "$MARKS/cleared" ] \
              || [ ! -s "$MARKS/daemon" ]; do sleep 0.01; done
        head -c 8000000 /dev/zero | tr '\\0' x
        echo the end
    """,
    )
    tracemalloc.start()
    try:
        done = run_program(
            Session(None, 5, lambda: False), [str(program)], "brief", "http://127.0.0.1:9", tmp_path / "work", 30.0
        )
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert done.exit_code == 0 and done.stdout.endswith("x" * 10 + "the end\n") and len(done.stdout) == OUTPUT_TAIL
    assert peak < 2_000_000  # the 8 MB were never read
    sizes = {path.name: path.stat().st_size for path in marks.iterdir()}
    assert set(sizes) == {"background", "setsid", "cleared", "daemon"}
    time.sleep(0.4)
    assert {path.name: path.stat().st_size for path in marks.iterdir()} == sizes


def test_a_program_agent_gets_no_key_or_token_of_the_run():
    from pytest_websearchbench.webbench.agents.program_agent import agent_environment

    given = {
        "PATH": "/usr/bin",
        "HOME": "/root",
        "LANG": "C.UTF-8",
        "SERPER_API_KEY": "k1",
        "OPENAI_API_KEY": "k2",
        "HF_TOKEN": "k3",
        "GOOGLE_CSE_ID": "k4",
        "BRAVE_SEARCH_API_KEY": "k5",
        "YDC_API_KEY": "k6",
        "WSB_SERPER_BASE_URL": "http://127.0.0.1:1",
        "AWS_SECRET": "k7",
        "DB_PASSWORD": "k8",
        "KEYBOARD": "us",
        "TOKENIZERS_PARALLELISM": "false",
    }
    assert agent_environment(given) == {
        "PATH": "/usr/bin",
        "HOME": "/root",
        "LANG": "C.UTF-8",
        "KEYBOARD": "us",
        "TOKENIZERS_PARALLELISM": "false",
    }


@pytest.mark.parametrize(
    "where, body",
    [
        ("output", "head -c 3000000 /dev/zero; sleep 5"),
        ("working folder", "head -c 3000000 /dev/zero > big.bin; sleep 5"),
        ("/tmp", "head -c 3000000 /dev/zero > /tmp/big.bin; sleep 5"),
    ],
)
def test_a_program_that_writes_past_its_limits_is_stopped_with_the_reason(tmp_path, monkeypatch, where, body):
    from pytest_websearchbench.webbench.agents import program_agent
    from pytest_websearchbench.webbench.agents.sandbox import confinement
    from pytest_websearchbench.webbench.agents.session import Session

    if where == "/tmp":
        require_sandbox("program agents cannot be sandboxed")
    monkeypatch.setattr(program_agent, "OUTPUT_LIMIT", 1 << 20)
    monkeypatch.setattr(program_agent, "DISK_LIMIT", 1 << 20)
    monkeypatch.setattr(program_agent, "LIMIT_EVERY", 0.05)
    program = _script(tmp_path, "writer.sh", body + "\n")
    sandbox, why = confinement("auto" if where == "/tmp" else "off", [str(program)], ())
    done = program_agent.run_program(
        Session(None, 5, lambda: False),
        [str(program)],
        "brief",
        "http://127.0.0.1:9",
        tmp_path / "work",
        30.0,
        sandbox,
        why,
    )
    expected = "of output" if where == "output" else "to its working folder and /tmp"
    assert expected in done.limit and "(the limit is 1 MB)" in done.limit and done.seconds < 5
