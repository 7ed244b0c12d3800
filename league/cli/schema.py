"""`league schema`: JSON Schema (draft 2020-12) of every content file kind, generated from the pydantic
models of league/content/schema.py, so that an editor's YAML extension autocompletes keys and shows their
Portuguese descriptions on hover. The files are committed under schemas/ (a test keeps them fresh)."""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import click

from league.cli.conventions import Command, info, verbosity_options
from pydantic import TypeAdapter
from pydantic.json_schema import GenerateJsonSchema

from league.content import schema as S

DIALECT = "https://json-schema.org/draft/2020-12/schema"
ID_PREFIX = "urn:league:schema:"
SLUG_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"


@dataclass(frozen=True)
class Kind:
    """One kind of content file: its schema file name, model, where such files live, and how it is titled."""

    name: str
    model: Any                       # a pydantic model, or a type for TypeAdapter (mapping id → model)
    globs: tuple[str, ...]           # paths from the repository root (for .vscode/settings.json); () = no YAML file
    title: str
    description: str

    @property
    def filename(self) -> str:
        return f"{self.name}.schema.json"


def _yaml_globs(pattern: str) -> tuple[str, ...]:
    return (f"{pattern}.yaml", f"{pattern}.yml")


def kinds() -> list[Kind]:
    """Every content file kind known to league/content/schema.py (the Quatrilho championship when its model exists)."""
    out = [
        Kind("league", S.LeagueFile, ("content/league.yaml",), "league.yaml — a federação e suas regras",
             "Nome e sigla da federação, endereço do site e as regras de cálculo do Truco e do Quatrilho. "
             "Toda chave de truco: e quatrilho: é opcional e tem o valor padrão do regulamento."),
        Kind("clubs", dict[S.Slug, S.Club], ("content/clubs.yaml",), "clubs.yaml — clubes",
             "Um clube por linha: id → {name, city}. O id usa letras minúsculas, números e hífens (ex.: aptru)."),
        Kind("players", dict[S.Slug, S.Player], ("content/players.yaml",), "players.yaml — jogadores",
             "Um jogador por linha: id → {name, club}. O id usa letras minúsculas, números e hífens "
             "(ex.: ana-souza); club é opcional."),
        Kind("season", S.SeasonFile, ("content/seasons/*/season.yaml",), "season.yaml — uma temporada",
             "Opcional: título da temporada e regras que valem só nesta temporada."),
        Kind("stage", S.StageFile, _yaml_globs("content/seasons/*/truco/*"),
             "Etapa do Interclubes de Truco",
             "Uma etapa: equipes e elencos, fases de grupos e mata-mata com o placar de cada jogo, sorteios, "
             "desclassificações. O nome do arquivo é o id da etapa (ex.: etapa-1.yaml)."),
    ]
    champ = getattr(S, "ChampionshipFile", None)
    if champ is not None:
        out.append(Kind("championship", champ, _yaml_globs("content/seasons/*/quatrilho/*"),
                        "Campeonato de Quatrilho",
                        "Um campeonato: inscritos, rodadas com as fichas contadas em cada mesa, reinscrições, "
                        "penalidades e sorteios. O nome do arquivo é o id do campeonato (ex.: chapeco.yaml)."))
    out.append(Kind("page", S.PageMeta, (), "Cabeçalho (front matter) de páginas e notícias",
                    "O bloco YAML entre as linhas --- no início de content/pages/*.md e content/news/*.md."))
    return out


class _Generator(GenerateJsonSchema):
    """pydantic's generator, adjusted for YAML files edited by hand:
    - no English titles derived from field names (the Portuguese description is what a hover shows);
    - a mapping whose keys are ids (or numbers) rejects other keys: `propertyNames` + `additionalProperties`
      instead of `patternProperties` (which would let any other key through)."""

    def field_title_should_be_set(self, schema) -> bool:  # noqa: D102
        return False

    def dict_schema(self, schema):  # noqa: D102
        js = super().dict_schema(schema)
        pprops = js.get("patternProperties")
        if isinstance(pprops, dict) and len(pprops) == 1 and "additionalProperties" not in js:
            (pattern, value), = pprops.items()
            del js["patternProperties"]
            js["propertyNames"] = {"pattern": pattern}
            js["additionalProperties"] = value
        names = _key_names(schema.get("keys_schema"))
        if names is not None and "propertyNames" not in js:
            # YAML writes `1: ana-souza`; as JSON (what the editor's extension checks) the key is the text "1"
            js["propertyNames"] = names
        return js


WRAPPERS = ("function-after", "function-before", "function-wrap", "nullable")   # core schemas around another


def _key_names(core: Optional[dict]) -> Optional[dict]:
    """The `propertyNames` schema for the keys of a mapping: numbers and ids become text patterns."""
    while core and core.get("type") in WRAPPERS and "schema" in core:
        core = core["schema"]
    names = KEY_NAMES.get(core["type"]) if core else None
    return names(core) if names else None


def _str_key_names(core: dict) -> Optional[dict]:
    return {"pattern": core["pattern"]} if core.get("pattern") else None


def _union_key_names(core: dict) -> Optional[dict]:
    """Any of the choices' patterns, when each has one."""
    parts = [_key_names(c[0] if isinstance(c, tuple) else c) for c in core["choices"]]
    return {"anyOf": parts} if parts and all(parts) else None


def _int_key_names(core: dict) -> dict:
    """The pattern of a number written as a key: positive or any; 1 … 10ⁿ exactly (league.content.schema's bounds on
    numbers used as keys: registrations, tables, places)."""
    positive = (core.get("ge") is not None and core["ge"] >= 1) or (core.get("gt") is not None and core["gt"] >= 0)
    top = core.get("le")
    if positive and _power_of_ten(top):
        return {"pattern": rf"^([1-9][0-9]{{0,{len(str(top)) - 2}}}|{top})$"}
    return {"pattern": r"^[1-9][0-9]*$" if positive else r"^(0|-?[1-9][0-9]*)$"}


def _power_of_ten(top: Optional[int]) -> bool:
    """10, 100, 1000…"""
    return top is not None and top >= 10 and str(top) == "1" + "0" * (len(str(top)) - 1)


KEY_NAMES = {"int": _int_key_names, "str": _str_key_names, "union": _union_key_names}   # by pydantic-core type


def generate(kind: Kind) -> dict:
    """The JSON Schema document of one file kind, with $schema, $id, title and description first."""
    if isinstance(kind.model, type) and hasattr(kind.model, "model_json_schema"):
        body = kind.model.model_json_schema(schema_generator=_Generator)
    else:
        body = TypeAdapter(kind.model).json_schema(schema_generator=_Generator)
    body.pop("title", None)
    body.pop("description", None)
    _inherit_descriptions(body)
    doc = {"$schema": DIALECT, "$id": f"{ID_PREFIX}{kind.name}", "title": kind.title,
           "description": kind.description}
    doc.update(body)
    return doc


def _inherit_descriptions(body: dict) -> None:
    """Season overrides (TrucoOverrides, …) repeat the keys of league.yaml (TrucoSettings, …): a key without a
    description of its own takes the one of league.yaml, so the editor's hover explains it there too."""
    for name, node in body.get("$defs", {}).items():
        if not name.endswith("Overrides"):
            continue
        base = getattr(S, name[: -len("Overrides")] + "Settings", None)
        if base is None:
            continue
        for key, prop in node.get("properties", {}).items():
            field = base.model_fields.get(key)
            if "description" not in prop and field is not None and field.description:
                prop["description"] = field.description + " Só nesta temporada; sem esta chave, vale a de league.yaml."


def render(doc: dict) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


def schema_files() -> dict[str, str]:
    """File name → text, for every kind."""
    return {k.filename: render(generate(k)) for k in kinds()}


def vscode_mapping(schema_dir: str = "./schemas") -> dict[str, list[str]]:
    """The `yaml.schemas` setting of the YAML extension (yaml-language-server): schema file → content globs."""
    return {f"{schema_dir}/{k.filename}": list(k.globs) for k in kinds() if k.globs}


def update_vscode(settings: Path, out: Path) -> bool:
    """Sets `yaml.schemas` in a VS Code settings file (other settings kept); the workspace root is the folder
    above .vscode/. Returns True when the file changed."""
    import os
    root = settings.resolve().parent.parent
    rel = Path(os.path.relpath(out.resolve(), root)).as_posix()
    data = json.loads(settings.read_text(encoding="utf-8")) if settings.exists() else {}
    new = dict(data)
    new["yaml.schemas"] = vscode_mapping(f"./{rel}")
    if new == data:
        return False
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps(new, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return True


def write_schemas(out: Path) -> tuple[list[Path], list[Path]]:
    """Writes every schema under out/ (only files that changed) and removes stale *.schema.json files.
    Returns (written, removed)."""
    out.mkdir(parents=True, exist_ok=True)
    files = schema_files()
    written, removed = [], []
    for name, text in files.items():
        path = out / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            tmp = path.with_name(f".{name}.tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(path)
            written.append(path)
    for path in sorted(out.glob("*.schema.json")):
        if path.name not in files:
            path.unlink()
            removed.append(path)
    return written, removed


def stale_schemas(out: Path) -> list[str]:
    """Names of the schema files under out/ that are missing, different from a fresh one, or no longer made."""
    files = schema_files()
    bad = [n for n, t in files.items() if not (out / n).exists() or (out / n).read_text(encoding="utf-8") != t]
    bad += [p.name for p in sorted(out.glob("*.schema.json")) if p.name not in files] if out.is_dir() else []
    return bad


@click.command("schema", cls=Command)
@click.option("--out", default="schemas", type=click.Path(path_type=Path), show_default=True,
              help="Pasta onde os arquivos .schema.json são escritos.")
@click.option("--check", "check_only", is_flag=True,
              help="Não escreve nada; sai com status 1 se algum arquivo está desatualizado.")
@click.option("--vscode", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Também atualiza yaml.schemas neste arquivo de configuração do VS Code "
                   "(ex.: .vscode/settings.json).")
@verbosity_options
def schema(out: Path, check_only: bool, vscode: Optional[Path]) -> None:
    """Escreve o JSON Schema de cada tipo de arquivo de conteúdo (autocompletar e ajuda no editor)."""
    if check_only:
        bad = stale_schemas(out)
        for name in bad:
            click.echo(f"{out / name}: desatualizado", err=True)
        if bad:
            click.echo("rode `league schema` e faça commit da pasta " + f"{out}/", err=True)
            sys.exit(1)
        info(f"{out}/: esquemas em dia.")
        return
    written, removed = write_schemas(out)
    for p in written:
        info(f"escrito {p}")
    for p in removed:
        info(f"removido {p} (tipo de arquivo que não existe mais)")
    if vscode is not None and update_vscode(vscode, out):
        info(f"atualizado {vscode}")
    n = len(kinds())
    info(f"{out}/: {n} esquemas" + ("" if written or removed else ", nenhum mudou") + ".")


def schema_for_file(rel_path: str) -> Optional[Kind]:
    """The kind whose globs match a path relative to the repository root, or None."""
    from fnmatch import fnmatchcase
    for k in kinds():
        if any(fnmatchcase(rel_path, g) for g in k.globs):
            return k
    return None
