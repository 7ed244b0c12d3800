"""league as a package that works anywhere (issue 37): the sdist carries the templates, their static files and
the catalogs; the wheel built from it installs into a fresh venv, where `league new site` then `league build`
make a site from a folder far from any checkout. Offline: the sdist and the wheel are built with the setuptools
of this environment (no build isolation, no index), and the fresh venv finds league's dependencies in this
environment's site-packages (a .pth file) instead of downloading them."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DIST = "liga_truco-0.1.0"      # pyproject's name, liga-truco, as a file name
pytestmark = pytest.mark.slow   # ~20 s: an sdist, a wheel, a venv and a build


def run(cmd, **kw) -> subprocess.CompletedProcess:
    got = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=600, **kw)
    assert got.returncode == 0, f"{cmd}\n{got.stdout[-3000:]}\n{got.stderr[-3000:]}"
    return got


def clean_env(**extra: str) -> dict[str, str]:
    """This environment without what would let a child find league's checkout, or a registry."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV") and not k.startswith(("LEAGUE_", "PIP_"))}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1", **extra)
    return env


def source_files() -> list[str]:
    """The working tree's files as a clone would have them (tracked, and new ones not ignored)."""
    if (REPO / ".git").exists() and shutil.which("git"):
        out = run(["git", "-C", REPO, "ls-files", "-z", "--cached", "--others", "--exclude-standard"]).stdout
        return [f for f in out.split("\0") if f and (REPO / f).is_file()]
    skip = {".git", ".venv", "site", ".league-cache", "node_modules", "__pycache__", "test-artifacts", "build"}
    return [p.relative_to(REPO).as_posix() for p in REPO.rglob("*")
            if p.is_file() and not skip & set(p.relative_to(REPO).parts) and ".egg-info" not in str(p)]


def can_build_wheels() -> bool:
    """setuptools builds wheels itself from 70.1 on; before, it needs the `wheel` package."""
    try:
        import setuptools
    except ImportError:
        return False
    major, minor = (int(x) for x in setuptools.__version__.split(".")[:2])
    if (major, minor) >= (70, 1):
        return True
    try:
        import wheel  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    """The sdist of the working tree, and the wheel built from that sdist (as `python -m build` does)."""
    if not can_build_wheels():
        pytest.fail("this environment cannot build a wheel offline: it needs setuptools>=70.1 (or the wheel "
                    "package) — the test extra, `make install`")
    tmp = tmp_path_factory.mktemp("package")
    src, dist = tmp / "src", tmp / "dist"
    for rel in source_files():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / rel, src / rel)
    code = "import sys; from setuptools import build_meta as b; print(b.build_sdist(sys.argv[1]))"
    sdist = dist / run([sys.executable, "-c", code, dist], cwd=src, env=clean_env()).stdout.split()[-1]
    with tarfile.open(sdist) as tar:
        tar.extractall(tmp / "unpacked", filter="data")
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
         "-w", dist, tmp / "unpacked" / DIST], env=clean_env())
    return {"src": src, "sdist": sdist, "wheel": dist / f"{DIST}-py3-none-any.whl"}


def runtime_files(src: Path) -> set[str]:
    """What league reads at run time besides its code: the templates, their static files, the catalogs."""
    return {p.relative_to(src).as_posix() for d in ("league/templates", "league/locale")
            for p in (src / d).rglob("*") if p.is_file()}


def test_the_sdist_and_the_wheel_carry_the_templates_static_files_and_catalogs(built):
    wanted = runtime_files(built["src"])
    assert {"league/templates/base.html", "league/templates/static/style.css", "league/templates/static/site.js",
            "league/locale/en/LC_MESSAGES/messages.po"} <= wanted
    with tarfile.open(built["sdist"]) as tar:
        in_sdist = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    assert wanted <= in_sdist, sorted(wanted - in_sdist)
    with zipfile.ZipFile(built["wheel"]) as whl:
        names = set(whl.namelist())
        metadata = whl.read(f"{DIST}.dist-info/METADATA").decode()
        entry_points = whl.read(f"{DIST}.dist-info/entry_points.txt").decode()
    assert wanted <= names, sorted(wanted - names)
    assert "Name: liga-truco\n" in metadata
    assert "league = league.cli:run" in entry_points   # the command keeps its name
    assert not any(n.startswith(("tests/", "content/", "templates/")) for n in names)


@pytest.fixture(scope="module")
def venv(built, tmp_path_factory) -> Path:
    """A fresh venv with the wheel installed; league's dependencies from this environment (a .pth file)."""
    venv = tmp_path_factory.mktemp("venv") / "v"
    run([sys.executable, "-m", "venv", "--without-pip", venv], env=clean_env())   # this pip installs into it
    purelib = run([venv / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                  env=clean_env()).stdout.strip()
    # where this environment's packages are (its site-packages, and any a .pth file of its own adds)
    deps = [p for p in sys.path if p and Path(p).name in ("site-packages", "dist-packages") and Path(p).is_dir()]
    (Path(purelib) / "league-test-deps.pth").write_text("".join(f"{p}\n" for p in deps), encoding="utf-8")
    run([sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", "--quiet", "--no-deps",
         "--no-index", built["wheel"]], env=clean_env())
    return venv


def test_the_installed_league_reads_its_own_files(venv, tmp_path):
    code = ("import json, league, league.site.paths as p, league.i18n as i; "
            "print(json.dumps([league.__file__, str(p.default_templates()), str(i.LOCALE_DIR)]))")
    found = json.loads(run([venv / "bin" / "python", "-c", code], cwd=tmp_path, env=clean_env()).stdout)
    purelib = next((venv / "lib").glob("python3*/site-packages")).resolve()
    for path in found:
        assert Path(path).resolve().is_relative_to(purelib), found   # not the checkout's


def test_league_new_site_then_build_from_any_folder(venv, tmp_path):
    """What a federation's webmaster does after `pipx install liga_truco-….whl`: no checkout anywhere."""
    league = venv / "bin" / "league"
    env = clean_env(PATH=f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    made = run([league, "new", "site", "fprt", "--name", "Federação Paranaense de Truco", "--short-name", "FPRT",
                "--season", "2026"], cwd=tmp_path, env=env)
    assert "criado fprt/" in made.stderr
    folder = tmp_path / "fprt"
    assert not (folder / "templates").exists()
    checked = run([league, "check"], cwd=folder, env=env)
    assert checked.stderr.splitlines()[-1] == "conteúdo válido."
    run([league, "build"], cwd=folder, env=env)
    site_dir = folder / "site"
    assert "Federação Paranaense de Truco" in (site_dir / "index.html").read_text(encoding="utf-8")
    assert (site_dir / "2026" / "truco" / "etapa-1" / "index.html").is_file()
    css = list((site_dir / "static").glob("style.*.css"))
    assert len(css) == 1 and css[0].read_bytes().startswith((REPO / "league/templates/static/style.css")
                                                             .read_bytes()[:200])
    assert (site_dir / "pagefind" / "pagefind.js").is_file()   # the search index, by the installed pagefind
    ranking = json.loads((site_dir / "api" / "2026" / "truco" / "ranking.json").read_text(encoding="utf-8"))
    # the example stage: clube-a wins its one match 4 boards to 1, so 20 and 16 ranking points (Truco 12.1)
    assert [(c["club"], c["points"]) for c in ranking["clubs"]] == [("clube-a", 20), ("clube-b", 16)]
