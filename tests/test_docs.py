"""docs/: the format reference is generated from the schema and complete, the API reference names every file,
JSON key and CSV column the build writes, and every link in README.md and docs/*.md stays inside the repository."""
from __future__ import annotations

import importlib.machinery
import importlib.util
import re
from pathlib import Path

import pytest

from league.cli.schema import generate, kinds

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
FORMAT = DOCS / "formato.md"


def _tool():
    """tools/docs-format (a script without .py) as a module."""
    path = REPO / "tools" / "docs-format"
    loader = importlib.machinery.SourceFileLoader("docs_format", str(path))
    spec = importlib.util.spec_from_loader("docs_format", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def tool():
    return _tool()


# ---------------------------------------------------------------- docs/formato.md

def test_format_reference_is_up_to_date(tool):
    text = FORMAT.read_text(encoding="utf-8")
    assert tool.rewrite(text, tool.blocks()) == text, \
        "docs/formato.md está desatualizado em relação a league/content/schema.py: rode `tools/docs-format` e faça commit"


def _properties(node, defs, seen=None):
    """Every key name an object of the schema accepts, wherever it is (an independent walk of the JSON Schema)."""
    seen = set() if seen is None else seen
    out = set()
    if isinstance(node, dict):
        ref = node.get("$ref")
        if ref:
            name = ref.rsplit("/", 1)[-1]
            if name not in seen:
                seen.add(name)
                out |= _properties(defs[name], defs, seen)
        for key, value in node.get("properties", {}).items():
            out.add(key)
            out |= _properties(value, defs, seen)
        for key, value in node.items():
            if key not in ("properties", "$defs"):
                out |= _properties(value, defs, seen)
    elif isinstance(node, list):
        for value in node:
            out |= _properties(value, defs, seen)
    return out


def _block(text: str, name: str) -> str:
    m = re.search(rf"^<!-- gerado: {re.escape(name)} -->\n(.*?)^<!-- fim -->$", text, re.S | re.M)
    assert m, f"docs/formato.md: falta o bloco <!-- gerado: {name} --> … <!-- fim -->"
    return m.group(1)


@pytest.mark.parametrize("kind", kinds(), ids=lambda k: k.name)
def test_format_reference_lists_every_key_of_the_schema(kind):
    doc = generate(kind)
    block = _block(FORMAT.read_text(encoding="utf-8"), kind.name)
    listed = set()
    for row in block.splitlines():
        m = re.match(r"^\| `([^`]+)` \|", row)
        if m:
            listed.add(re.split(r"[.\]]", m.group(1).replace("[]", "]"))[-1] or m.group(1))
    missing = sorted(_properties(doc, doc.get("$defs", {})) - listed)
    assert not missing, f"docs/formato.md ({kind.name}) não explica a(s) chave(s) {missing}: rode `tools/docs-format`"


def test_format_tool_refuses_a_file_without_a_block_for_every_kind(tool):
    blocks = tool.blocks()
    text = "# x\n\n" + "".join(f"<!-- gerado: {n} -->\n<!-- fim -->\n" for n in list(blocks)[1:])
    with pytest.raises(tool.Stale, match=rf"gerado: {list(blocks)[0]} -->"):
        tool.rewrite(text, blocks)
    with pytest.raises(tool.Stale, match="não corresponde a nenhum tipo"):
        tool.rewrite(text + "<!-- gerado: nada -->\n<!-- fim -->\n", {**blocks})


def test_format_tool_rewrites_only_the_blocks(tool):
    blocks = {"a": "| chave |\n|---|\n| `x` |\n"}
    text = "prosa antes\n<!-- gerado: a -->\nvelho\n<!-- fim -->\nprosa depois\n"
    assert tool.rewrite(text, blocks) == "prosa antes\n<!-- gerado: a -->\n\n| chave |\n|---|\n| `x` |\n\n" \
                                         "<!-- fim -->\nprosa depois\n"


def test_format_tool_describes_a_new_key(tool):
    """A key added to a model shows up in its kind's table, with its type, bounds, default and description."""
    doc = generate(next(k for k in kinds() if k.name == "league"))
    doc["$defs"]["TrucoSettings"]["properties"]["max_pairs"] = {
        "type": "integer", "minimum": 5, "default": 6, "description": "Duplas por elenco."}
    table = tool.table(doc)
    assert "| `truco.max_pairs` | inteiro | não | ≥ 5 | `6` | Duplas por elenco. |" in table


# ---------------------------------------------------------------- docs/api.md

API_DOC = DOCS / "api.md"


@pytest.fixture(scope="module")
def demo_api(tmp_path_factory) -> Path:
    """The api/ folder of a real build of the demo content (no search index, no cache: only what it writes)."""
    from league.engine.build import build
    out = tmp_path_factory.mktemp("docs-site") / "site"
    build(REPO / "content", out, templates=REPO / "league" / "templates", cache_dir=False, search=False)
    return out / "api"


def _season_folder(name: str) -> Path:
    """content/seasons/<year>; for api/latest/, the current season's (the latest by year)."""
    seasons = REPO / "content" / "seasons"
    if name == "latest":
        return max((p for p in seasons.iterdir() if p.name.isdigit()), key=lambda p: int(p.name))
    return seasons / name


def _generic(rel: str) -> str:
    """api/2026/truco/etapa-1-grupos.csv → api/<temporada>/truco/<etapa>-grupos.csv, as docs/api.md names it
    (api/latest/truco/etapa-1.json → api/latest/truco/<etapa>.json)."""
    ids = {"truco": "<etapa>", "quatrilho": "<campeonato>"}
    parts = rel.split("/")
    if len(parts) == 4 and (parts[1].isdigit() or parts[1] == "latest"):
        folder = _season_folder(parts[1]) / parts[2]
        parts[1] = parts[1] if parts[1] == "latest" else "<temporada>"
        stems = sorted((p.stem for p in folder.glob("*.y*ml")), key=len, reverse=True)
        for stem in stems:
            if parts[3] == stem + Path(parts[3]).suffix or parts[3].startswith(stem + "-"):
                parts[3] = ids[parts[2]] + parts[3][len(stem):]
                break
    return "/".join(parts)


def test_api_reference_names_every_file_the_build_writes(demo_api):
    text = API_DOC.read_text(encoding="utf-8")
    files = sorted(p.relative_to(demo_api.parent).as_posix() for p in demo_api.rglob("*") if p.is_file())
    assert files, "the demo build wrote no api/ file"
    missing = sorted({_generic(f) for f in files if f"`{_generic(f)}`" not in text})
    assert not missing, f"docs/api.md não descreve o(s) arquivo(s) {missing}"


def test_api_reference_names_every_csv_column(demo_api):
    import csv
    text = API_DOC.read_text(encoding="utf-8")
    missing = set()
    for path in sorted(demo_api.rglob("*.csv")):
        first = path.read_text(encoding="utf-8-sig").split("\n", 1)[0]
        if not first:
            continue   # a table without rows: an empty file
        delimiter = ";" if first.count(";") > first.count(",") else ","
        header = next(csv.reader([first], delimiter=delimiter))
        # a ranking's -br.csv has a column per stage, named by the stage's id: docs/api.md calls it `<etapa>`
        stages = {p.stem for p in (REPO / "content" / "seasons").glob("*/truco/*.y*ml")}
        header = ["<etapa>" if col in stages else col for col in header]
        missing |= {(col, _generic(path.relative_to(demo_api.parent).as_posix()))
                    for col in header if f"`{col}`" not in text}
    assert not missing, f"docs/api.md não explica a(s) coluna(s) {sorted(missing)}"


def _json_keys(value, top: bool = True) -> set[str]:
    """The keys of a JSON document: its top-level object's, and those of every record (object in a list)."""
    out: set[str] = set()
    if isinstance(value, dict):
        if top:
            out |= set(value)
        for v in value.values():
            out |= _json_keys(v, top=False) if isinstance(v, list) else set()
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, dict):
                out |= set(item)
                out |= _json_keys(item, top=False)
    return out


def test_api_reference_names_every_json_key(demo_api):
    import json
    text = API_DOC.read_text(encoding="utf-8")
    missing = set()
    for path in sorted(demo_api.rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        missing |= {(key, _generic(path.relative_to(demo_api.parent).as_posix()))
                    for key in _json_keys(data) if f"`{key}`" not in text}
    assert not missing, f"docs/api.md não explica o(s) campo(s) {sorted(missing)}"


# ---------------------------------------------------------------- links in README.md and docs/

_FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
_LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)


def _prose(path: Path) -> str:
    """The Markdown text without fenced code blocks nor inline code (where brackets are not links)."""
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    return re.sub(r"`[^`\n]*`", "", text)


def _anchors(path: Path) -> set[str]:
    """The ids GitHub gives the headings of a Markdown file: lower case, punctuation dropped, spaces to
    hyphens, a repeated one suffixed -1, -2…"""
    seen: dict[str, int] = {}
    out = set()
    for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*\s*$", _FENCE.sub("", path.read_text(encoding="utf-8")), re.M):
        text = re.sub(r"`([^`]*)`", r"\1", m.group(1))
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
        slug = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def _doc_files() -> list[Path]:
    return [REPO / "README.md", *sorted(DOCS.glob("*.md"))]


@pytest.mark.parametrize("path", _doc_files(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_links_stay_inside_the_repository_and_resolve(path):
    text = _prose(path)
    targets = _LINK.findall(text) + _REF.findall(text)
    bad = []
    for target in targets:
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):   # https:, mailto:: not a file of the repository
            continue
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        if REPO.resolve() not in (dest, *dest.parents):
            bad.append(f"{target}: fora do repositório")
        elif not dest.exists():
            bad.append(f"{target}: arquivo não existe")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            bad.append(f"{target}: não há título #{anchor} em {dest.relative_to(REPO.resolve())}")
    assert not bad, f"{path.relative_to(REPO)}: links quebrados: {bad}"


@pytest.mark.parametrize("path", _doc_files(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_docs_never_send_readers_outside_the_repository(path):
    """Not even as a path in backticks: ../shared (the project's specs) is not in a checkout or on GitHub."""
    text = path.read_text(encoding="utf-8")
    assert "../shared" not in text and "shared/spec" not in text, \
        f"{path.relative_to(REPO)} aponta para fora do repositório (../shared): aponte para docs/"


def test_format_reference_quatrilho_example_passes_league_check(tmp_path):
    """The complete championship of docs/formato.md is valid content (with its players added to the demo's)."""
    import shutil

    import yaml

    from league.engine.build import check
    text = FORMAT.read_text(encoding="utf-8")
    section = text[text.index("## Campeonato de Quatrilho"):]
    example = re.search(r"^```yaml\n(.*?)^```", section, re.S | re.M).group(1)
    content = tmp_path / "content"
    shutil.copytree(REPO / "content", content)
    players = yaml.safe_load(example)["players"]
    ids = [p if isinstance(p, str) else p["player"] for p in players.values()]
    with (content / "players.yaml").open("a", encoding="utf-8") as fh:
        fh.writelines(f"{pid}: {{name: {pid.replace('-', ' ').title()}}}\n" for pid in ids)
    (content / "seasons" / "2026" / "quatrilho" / "exemplo.yaml").write_text(example, encoding="utf-8")
    from league.content.diagnostics import LeagueError
    try:
        diagnostics = check(content, cache_dir=False).diagnostics
    except LeagueError as exc:
        diagnostics = exc.diagnostics
    mine = [d for d in diagnostics if "exemplo.yaml" in d.mark.path]
    assert all(d.level == "warning" and d.code == "adjustment" for d in mine), [str(d) for d in mine]
