"""The compiled templates kept between builds in the user's cache folder (league/engine/template_cache.py):
Jinja2's FileSystemBytecodeCache, in a folder named by everything the compiled code depends on besides a
template's source — never in the build cache, which CI restores and so is input."""
import shutil
from pathlib import Path

import jinja2
import pytest

from league.engine import build as B
from league.engine import cache as C
from league.site.render import SiteEnvironment

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def content(tmp_path) -> Path:
    c = tmp_path / "content"
    shutil.copytree(ROOT / "content", c)
    return c


@pytest.fixture
def compiled(monkeypatch) -> list:
    """The names of the templates Jinja2 compiles from source (not read back from a bytecode cache), in this
    process; and no environment kept from an earlier build in this process (league.engine.build._ENV)."""
    names: list = []
    real = jinja2.Environment.compile

    def counting(self, source, name=None, filename=None, raw=False, defer_init=False):
        names.append(name)
        return real(self, source, name, filename, raw, defer_init)
    monkeypatch.setattr(SiteEnvironment, "compile", counting)
    monkeypatch.setattr(B, "_ENV", {})
    return names


def _files(site: Path) -> dict:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*"))
            if p.is_file() and p.name != ".league-build.json"}


def _build(content: Path, out: Path) -> None:
    B._ENV.clear()   # (a new process: nothing compiled in memory)
    B.build(content, out, cache_dir=False, search=False)


def test_a_second_build_compiles_no_template_and_writes_the_same_site(content, tmp_path, monkeypatch, compiled):
    # the demo's pages use every one of league's templates but the ones only other kinds of content use: the
    # first build compiles each it uses once and keeps it; the second, in a new site, compiles none
    monkeypatch.setenv("LEAGUE_TEMPLATE_CACHE", str(tmp_path / "tc"))
    _build(content, tmp_path / "one")
    first = sorted(compiled)
    assert "base.html" in first and "stage.html" in first and len(first) == len(set(first))
    (folder,) = (tmp_path / "tc").iterdir()
    assert folder.name.startswith("jinja-pt_BR-")
    assert len(list(folder.iterdir())) == len(first)   # one file a template compiled
    compiled.clear()
    _build(content, tmp_path / "two")
    assert compiled == []
    assert _files(tmp_path / "two") == _files(tmp_path / "one")


def test_another_locale_another_folder(content, tmp_path, monkeypatch, compiled):
    # the texts are translated when a template is compiled (league/i18n.py): English pages never come from the
    # Portuguese bytecode
    monkeypatch.setenv("LEAGUE_TEMPLATE_CACHE", str(tmp_path / "tc"))
    _build(content, tmp_path / "pt")
    yaml = content / "league.yaml"
    yaml.write_text(yaml.read_text(encoding="utf-8").replace("locale: pt_BR", "locale: en"), encoding="utf-8")
    compiled.clear()
    _build(content, tmp_path / "en")
    assert "base.html" in compiled                       # compiled again, for English
    assert sorted(p.name[:len("jinja-en-")] for p in (tmp_path / "tc").iterdir()) == ["jinja-en-", "jinja-pt_"]
    monkeypatch.setenv("LEAGUE_TEMPLATE_CACHE", "off")
    _build(content, tmp_path / "en-uncached")
    assert _files(tmp_path / "en") == _files(tmp_path / "en-uncached")


def test_a_new_league_uses_a_new_folder_and_deletes_the_old_one(content, tmp_path, monkeypatch, compiled):
    monkeypatch.setenv("LEAGUE_TEMPLATE_CACHE", str(tmp_path / "tc"))
    _build(content, tmp_path / "one")
    (old,) = (tmp_path / "tc").iterdir()
    monkeypatch.setattr(C, "_CODE", "another league's code")   # what code_version() says of league's source
    compiled.clear()
    _build(content, tmp_path / "two")
    (new,) = (tmp_path / "tc").iterdir()
    assert new.name != old.name and "base.html" in compiled


def test_a_damaged_file_is_compiled_again(content, tmp_path, monkeypatch, compiled):
    # each file starts with Jinja2's magic header, then a pickled checksum and marshalled code: a file cut after
    # its header, or another one's bytes, is compiled again (and rewritten), never an error
    monkeypatch.setenv("LEAGUE_TEMPLATE_CACHE", str(tmp_path / "tc"))
    _build(content, tmp_path / "one")
    (folder,) = (tmp_path / "tc").iterdir()
    files = sorted(folder.iterdir())
    magic = jinja2.bccache.bc_magic
    files[0].write_bytes(magic + b"\x80\x04garbage")
    files[1].write_bytes(b"not a template at all")
    compiled.clear()
    _build(content, tmp_path / "two")
    assert len(compiled) == 2
    assert _files(tmp_path / "two") == _files(tmp_path / "one")
    assert files[0].read_bytes().startswith(magic) and files[1].read_bytes().startswith(magic)


def test_no_usable_folder_leaves_the_build_as_without_it(content, tmp_path, monkeypatch, compiled):
    blocker = tmp_path / "a-file"
    blocker.write_text("where the folder would be\n", encoding="utf-8")
    monkeypatch.setenv("LEAGUE_TEMPLATE_CACHE", str(blocker / "tc"))
    _build(content, tmp_path / "one")
    first = len(compiled)
    monkeypatch.setenv("LEAGUE_TEMPLATE_CACHE", "off")
    compiled.clear()
    _build(content, tmp_path / "two")
    assert first == len(compiled) > 0
    assert _files(tmp_path / "one") == _files(tmp_path / "two")


def test_the_default_folder_is_the_users_cache_never_the_build_cache(tmp_path, monkeypatch):
    from league.engine.template_cache import template_cache
    monkeypatch.delenv("LEAGUE_TEMPLATE_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    bcc = template_cache("pt_BR")
    assert Path(bcc.directory).parent == tmp_path / "xdg" / "league"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert Path(template_cache("en").directory).parent == tmp_path / "home" / ".cache" / "league"
    monkeypatch.setenv("LEAGUE_TEMPLATE_CACHE", "off")
    assert template_cache("en") is None
