"""The sandbox hides every version-control folder a program could read history from (vcs_entries): of each
kind, at the top of a readable folder, below it to the depth searched, and a worktree's gitdir."""

from __future__ import annotations

import pytest

from pytest_websearchbench.webbench.agents.sandbox import VCS, VCS_DEPTH, vcs_entries


@pytest.mark.parametrize("kind", VCS)
def test_each_kind_is_found_at_the_top_and_below(tmp_path, kind):
    top = tmp_path / "suite"
    (top / kind).mkdir(parents=True)
    deep = top.joinpath(*[f"d{i}" for i in range(VCS_DEPTH)], kind)
    deep.mkdir(parents=True)
    too_deep = top.joinpath(*[f"d{i}" for i in range(VCS_DEPTH + 1)], kind)
    too_deep.mkdir(parents=True)
    assert vcs_entries([top]) == [top / kind, deep]


def test_a_worktrees_git_file_and_its_gitdir_are_both_hidden(tmp_path):
    main, worktree = tmp_path / "main", tmp_path / "tree"
    gitdir = main / ".git" / "worktrees" / "tree"
    gitdir.mkdir(parents=True)
    worktree.mkdir()
    (worktree / ".git").write_text(f"gitdir: {gitdir}\n")
    assert set(vcs_entries([worktree, main])) == {worktree / ".git", main / ".git", gitdir}
    # the gitdir outside every readable folder is not the sandbox's to cover
    assert vcs_entries([worktree]) == [worktree / ".git"]


def test_dependency_folders_and_symlinks_are_not_searched(tmp_path):
    top = tmp_path / "agent"
    (top / "node_modules" / "pkg" / ".git").mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / ".hg").mkdir(parents=True)
    (top / "link").symlink_to(elsewhere)
    assert vcs_entries([top]) == []
