"""Repository integration: netlify.toml builds and publishes the site with safe headers and caching, and the
GitHub workflow checks the content and runs the tests on every pull request."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import yaml

from league.engine.build import build
from tests.util import write_content, two_team_stage

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def netlify() -> dict:
    with open(REPO / "netlify.toml", "rb") as fh:
        return tomllib.load(fh)


@pytest.fixture(scope="module")
def workflow() -> dict:
    return yaml.safe_load((REPO / ".github" / "workflows" / "check.yml").read_text(encoding="utf-8"))


def headers_for(netlify: dict, path: str) -> dict:
    rules = [h for h in netlify["headers"] if h["for"] == path]
    assert len(rules) == 1, path
    return rules[0]["values"]


def csp(netlify: dict) -> dict[str, list[str]]:
    policy = headers_for(netlify, "/*")["Content-Security-Policy"]
    out = {}
    for part in filter(None, (p.strip() for p in policy.split(";"))):
        name, *sources = part.split()
        out[name] = sources
    return out


def python_version() -> str:
    with open(REPO / "pyproject.toml", "rb") as fh:
        spec = tomllib.load(fh)["project"]["requires-python"]
    return re.fullmatch(r">=\s*(\d+\.\d+)", spec).group(1)


# ---------------------------------------------------------------- netlify.toml

# the locked versions, hash-checked, then league without dependencies (tests/test_lock.py: the lock installs)
NETLIFY_INSTALL = "pip install --require-hashes -r requirements/site.txt && pip install --no-deps ."


def test_netlify_builds_the_site_and_publishes_site_dir(netlify):
    assert netlify["build"]["command"] == f"{NETLIFY_INSTALL} && league build"
    assert netlify["build"]["publish"] == "site"
    assert netlify["build"]["environment"]["PYTHON_VERSION"] == python_version()


def test_netlify_deploy_previews_are_drafts(netlify):
    for context in ("deploy-preview", "branch-deploy"):
        assert netlify["context"][context]["command"] == f"{NETLIFY_INSTALL} && league build --draft"
    assert "production" not in netlify.get("context", {})  # production uses [build]


def test_content_security_policy_allows_only_the_site_itself(netlify):
    policy = csp(netlify)
    assert policy["default-src"] == ["'self'"]
    # search (pagefind) compiles WebAssembly served by the site itself; JavaScript eval stays forbidden
    assert policy["script-src"] in (["'self'"], ["'self'", "'wasm-unsafe-eval'"])
    for directive in ("style-src", "img-src", "font-src", "connect-src"):
        assert policy[directive] == ["'self'"], directive
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["base-uri"] == ["'self'"] and policy["form-action"] == ["'self'"]
    for directive, sources in policy.items():
        for src in sources:
            allowed = ("'self'", "'none'") + (("'wasm-unsafe-eval'",) if directive == "script-src" else ())
            assert src in allowed, f"{directive} {src}: só a própria origem"


def test_security_headers(netlify):
    h = headers_for(netlify, "/*")
    assert h["X-Content-Type-Options"] == "nosniff"
    assert h["X-Frame-Options"] == "DENY"
    assert h["Referrer-Policy"] == "strict-origin-when-cross-origin"
    assert h["Strict-Transport-Security"].startswith("max-age=31536000")
    assert "camera=()" in h["Permissions-Policy"]


def test_cache_headers(netlify):
    static = headers_for(netlify, "/static/*")["Cache-Control"]
    assert static == "public, max-age=31536000, immutable"
    api = headers_for(netlify, "/api/*")["Cache-Control"]
    assert "max-age=300" in api and "immutable" not in api


def test_built_site_fits_the_headers(tmp_path):
    """What the headers promise holds for a real build: every file under static/ has a content hash in its
    name (so `immutable` is safe), and no page needs inline script, inline style or another origin (so the
    CSP breaks nothing)."""
    stage = two_team_stage('1ª Etapa')
    content = write_content(tmp_path, {"etapa-1": stage}, clubs=["aa", "bb"])
    out = tmp_path / "site"
    build(content, out)
    static = [p for p in (out / "static").rglob("*") if p.is_file()]
    assert static
    for p in static:
        assert re.search(r"\.[0-9a-f]{8,}\.[a-z0-9]+$", p.name), f"{p.name} sem hash no nome: não pode ser immutable"
    pages = list(out.rglob("*.html"))
    assert pages
    for page in pages:
        html = page.read_text(encoding="utf-8")
        rel = page.relative_to(out)
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), f"{rel}: script inline"
        assert "<style" not in html and not re.search(r"\sstyle=", html), f"{rel}: estilo inline"
        assert not re.search(r"\son[a-z]+=", html), f"{rel}: evento inline"
        # resources the browser loads (links to other sites, e.g. the repository, are navigation: fine)
        for m in re.finditer(r'\ssrc="(?:https?:)?//[^"]*"', html):
            assert False, f"{rel}: recurso de outra origem {m.group(0)}"
        for tag in re.findall(r"<link\b[^>]*>", html):
            loads = re.search(r'rel="[^"]*\b(stylesheet|preload|modulepreload|icon|manifest|prefetch)\b', tag)
            assert not (loads and re.search(r'href="(?:https?:)?//', tag)), f"{rel}: recurso de outra origem {tag}"



# a stand-in for Netlify Build's utils.cache (@netlify/cache-utils): restore copies a saved path back unless it
# exists already, save copies it away; both say whether they did. Netlify's container is `base`; its cache
# survives the container (`store`).
_NETLIFY_HARNESS = r"""
const fs = require("fs"), path = require("path");
const [pluginDir, base, store, event] = process.argv.slice(2);
process.chdir(base);
const calls = [];
const cache = {
  async restore(p) { calls.push(["restore", p]); const from = path.join(store, p);
    if (fs.existsSync(p) || !fs.existsSync(from)) return false;
    fs.cpSync(from, p, {recursive: true, preserveTimestamps: true}); return true; },
  async save(p) { calls.push(["save", p]); if (!fs.existsSync(p)) return false;
    fs.rmSync(path.join(store, p), {recursive: true, force: true});
    fs.cpSync(p, path.join(store, p), {recursive: true, preserveTimestamps: true}); return true; },
};
require(path.resolve(pluginDir, "index.js"))[event]({utils: {cache}}).then(
  () => console.log(JSON.stringify(calls)), (e) => { console.error(e); process.exit(1); });
"""


def test_netlify_keeps_the_build_cache_between_builds(netlify, tmp_path):
    """netlify/plugins/league-cache restores league's cache (.league-cache/ beside content/, league's
    default) before the build command and saves it after: a build in a new container then reads every
    unchanged file from the cache instead of parsing it."""
    import json
    import shutil
    import subprocess
    from league.engine.cache import Cache, default_dir
    from league.engine.loader import Loader
    node = shutil.which("node")
    if node is None:
        pytest.skip("node (Netlify runs build plugins with Node.js) is not installed")
    (plugin,) = netlify["plugins"]
    plugin_dir = REPO / plugin["package"]
    assert yaml.safe_load((plugin_dir / "manifest.yml").read_text(encoding="utf-8"))["name"] == "league-cache"
    (tmp_path / "harness.js").write_text(_NETLIFY_HARNESS, encoding="utf-8")
    store = tmp_path / "netlify-cache"
    store.mkdir()

    def container():   # a fresh clone of the repository: its content, no cache, no site
        base = tmp_path / "container"
        shutil.rmtree(base, ignore_errors=True)
        shutil.copytree(REPO / "content", base / "content")
        return base

    def event(base, name):
        got = subprocess.run([node, str(tmp_path / "harness.js"), str(plugin_dir), str(base), str(store), name],
                             capture_output=True, text=True, check=True)
        return json.loads(got.stdout.strip().splitlines()[-1])

    base = container()
    cache_dir = default_dir(base / "content")
    assert cache_dir == base / ".league-cache"
    assert event(base, "onPreBuild") == [["restore", ".league-cache"]] and not cache_dir.exists()
    build(base / "content", base / "site")          # the build command: `league build`, the default cache
    assert event(base, "onPostBuild") == [["save", ".league-cache"]]

    base = container()   # the next build, in a new container
    event(base, "onPreBuild")
    cache = Cache(cache_dir)
    Loader(base / "content", cache).load()
    assert cache.hits > 0 and cache.misses == 0, "every file of the unchanged content comes from the cache"


# ---------------------------------------------------------------- .github/workflows/check.yml

def steps(workflow: dict, job: str = "content") -> list[dict]:
    """The steps of a job: `content` checks the content and summarises the changes (tests/test_workflow.py
    has the comment job and the tests job)."""
    return workflow["jobs"][job]["steps"]


def test_workflow_runs_on_pull_requests(workflow):
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads the key `on` as true
    assert "pull_request" in triggers
    assert workflow["permissions"] == {"contents": "read"}


def test_workflow_checks_content_and_runs_tests(workflow, netlify):
    s = steps(workflow)
    uses = [st.get("uses", "") for st in s]
    runs = [st.get("run", "") for st in s]
    assert any(u.startswith("actions/checkout@") for u in uses)
    setup = next(st for st in s if st.get("uses", "").startswith("actions/setup-python@"))
    assert str(setup["with"]["python-version"]) == netlify["build"]["environment"]["PYTHON_VERSION"]
    install = runs.index(NETLIFY_INSTALL)   # installed as Netlify installs it
    check = runs.index("league check --format github")
    assert uses.index(setup["uses"]) < install < check
    assert "continue-on-error" not in s[check]
    # the tests: a job of their own, which does not wait for the content check (it runs even when that fails)
    tests = workflow["jobs"]["tests"]
    assert "needs" not in tests and "if" not in tests
    assert any("bash .ci/run" in st.get("run", "") for st in tests["steps"])


def test_workflow_keeps_the_league_cache_between_runs(workflow, monkeypatch):
    # restored before `league check` (which fills it) and `league diff` (which reads it for both sides);
    # a new key each run, since a saved cache is never replaced; the latest one is restored
    s = steps(workflow)
    cache = next(st for st in s if st.get("uses", "").startswith("actions/cache@"))
    assert cache["with"]["path"] == ".league-cache"
    from league.engine.cache import default_dir
    monkeypatch.delenv("LEAGUE_CACHE_DIR", raising=False)
    assert default_dir(REPO / "content") == REPO / cache["with"]["path"]   # where league puts it
    assert cache["with"]["key"] == "league-cache-${{ github.run_id }}"
    assert cache["with"]["restore-keys"] == "league-cache-"
    runs = [st.get("run", "") for st in s]
    assert s.index(cache) < runs.index("league check --format github")


def test_workflow_summarises_the_ranking_changes_for_the_reviewer(workflow):
    s = steps(workflow)
    diff = next(st for st in s if "league diff" in st.get("run", ""))
    assert diff["if"] == "github.event_name == 'pull_request'"
    script = diff["run"].splitlines()
    assert script[0] == 'league diff "origin/$BASE_REF" --format markdown > "$RUNNER_TEMP/diff.md"'
    assert 'cat "$RUNNER_TEMP/diff.md" >> "$GITHUB_STEP_SUMMARY"' in script
    assert diff["env"]["BASE_REF"] == "${{ github.base_ref }}"  # through env, never pasted into the script
    checkout = next(st for st in s if st.get("uses", "").startswith("actions/checkout@"))
    assert checkout["with"]["fetch-depth"] == 0  # the base branch must be there for league diff
