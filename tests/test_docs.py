"""docs/: the format reference is generated from the schema and complete, the API reference names every file,
JSON key and CSV column the build writes, and every link in README.md and docs/*.md stays inside the repository."""
from __future__ import annotations

import importlib.machinery
import importlib.util
import re
from pathlib import Path

import pytest

from league.schema_cli import generate, kinds

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
        "docs/formato.md está desatualizado em relação a league/schema.py: rode `tools/docs-format` e faça commit"


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
