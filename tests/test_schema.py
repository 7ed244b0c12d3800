"""`league schema`: the committed JSON Schemas are the ones the models generate, they are valid draft 2020-12,
every key has a Portuguese description, and real content (the demo, the spec's examples) validates."""
from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from league.cli import main
from league.cli.schema import generate, kinds, schema_files, schema_for_file, vscode_mapping
from tests.util import write_content, two_team_stage

REPO = Path(__file__).resolve().parents[1]
SCHEMAS = REPO / "schemas"
REGENERATE = "rode `league schema --vscode .vscode/settings.json` e faça commit de schemas/ e .vscode/"


class Yaml12Loader(yaml.SafeLoader):
    """Like the editor's YAML extension (YAML 1.2 core schema): 2026-03-14 is text, not a date."""


Yaml12Loader.yaml_implicit_resolvers = {
    ch: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for ch, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}


def load(text: str):
    return yaml.load(text, Loader=Yaml12Loader)


def jsonable(value):
    """What the editor's YAML extension (YAML 1.2) sees: keys are text, dates are text."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [jsonable(v) for v in value]
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    return value


def validator(kind_name: str) -> jsonschema.Draft202012Validator:
    kind = next(k for k in kinds() if k.name == kind_name)
    return jsonschema.Draft202012Validator(generate(kind), format_checker=jsonschema.FormatChecker())


def errors(kind_name: str, text: str) -> list[str]:
    data = jsonable(load(text))
    return [": ".join(filter(None, ["/".join(map(str, e.absolute_path)), e.message]))
            for e in validator(kind_name).iter_errors(data)]


# ---------------------------------------------------------------- committed files are fresh

def test_committed_schemas_equal_fresh_ones():
    fresh = schema_files()
    committed = {p.name: p.read_text(encoding="utf-8") for p in SCHEMAS.glob("*.schema.json")}
    assert sorted(committed) == sorted(fresh), REGENERATE
    for name, text in fresh.items():
        assert json.loads(committed[name]) == json.loads(text), f"schemas/{name} desatualizado: {REGENERATE}"
        assert committed[name] == text, f"schemas/{name} desatualizado: {REGENERATE}"


def test_vscode_settings_map_every_schema_to_its_content_files():
    settings = json.loads((REPO / ".vscode" / "settings.json").read_text(encoding="utf-8"))
    assert settings["yaml.schemas"] == vscode_mapping("./schemas"), REGENERATE
    for path in settings["yaml.schemas"]:
        assert (REPO / path).is_file(), path
    assert vscode_mapping()["./schemas/stage.schema.json"] == ["content/seasons/*/truco/*.yaml",
                                                              "content/seasons/*/truco/*.yml"]


@pytest.mark.parametrize("kind", kinds(), ids=lambda k: k.name)
def test_schema_is_valid_draft_2020_12_with_id_title_and_description(kind):
    doc = generate(kind)
    jsonschema.Draft202012Validator.check_schema(doc)
    assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert doc["$id"] == f"urn:league:schema:{kind.name}"
    assert doc["title"] and doc["description"]


def _properties(node, path=""):
    if isinstance(node, dict):
        for key, prop in node.get("properties", {}).items():
            yield f"{path}/{key}", prop
        for key, child in node.items():
            yield from _properties(child, f"{path}/{key}")
    elif isinstance(node, list):
        for i, child in enumerate(node):
            yield from _properties(child, f"{path}/{i}")


@pytest.mark.parametrize("kind", kinds(), ids=lambda k: k.name)
def test_every_key_has_a_portuguese_description_and_no_english_title(kind):
    props = list(_properties(generate(kind)))
    assert props
    missing = [path for path, prop in props if not prop.get("description")]
    assert not missing, f"chaves sem description em league/content/schema.py: {missing}"
    assert not [path for path, prop in props if "title" in prop]


def test_season_overrides_explain_their_keys_like_league_yaml():
    doc = generate(next(k for k in kinds() if k.name == "season"))
    boards = doc["$defs"]["TrucoOverrides"]["properties"]["boards"]["description"]
    assert boards.startswith("Jogos (duplas) por confronto de equipes (item 9.1).")
    assert "Só nesta temporada" in boards


# ---------------------------------------------------------------- content validates

def _front_matter(text: str):
    if not text.startswith("---"):
        return None
    end = text.find("\n---", 3)
    return text[3:end] if end > 0 else None


def test_demo_content_validates():
    content = REPO / "content"
    if not (content / "league.yaml").is_file():
        pytest.skip("sem conteúdo de demonstração em content/")
    seen = set()
    for path in sorted(content.rglob("*")):
        rel = path.relative_to(REPO).as_posix()
        if path.suffix in (".yaml", ".yml"):
            kind = schema_for_file(rel)
            if kind is None:  # e.g. the Quatrilho schema before its model exists
                continue
            text = path.read_text(encoding="utf-8")
        elif path.suffix == ".md" and _front_matter(path.read_text(encoding="utf-8")) is not None:
            kind = next(k for k in kinds() if k.name == "page")
            text = _front_matter(path.read_text(encoding="utf-8"))
        else:
            continue
        seen.add(kind.name)
        data = jsonable(load(text)) or {}
        errs = [e.message for e in validator(kind.name).iter_errors(data)]
        assert not errs, f"{rel}: {errs}"
    assert {"league", "clubs", "players", "stage"} <= seen


def test_test_content_tree_validates(tmp_path):
    stage = two_team_stage('Etapa')
    content = write_content(tmp_path, {"etapa-1": stage}, clubs=["aa", "bb"])
    for path in sorted(content.rglob("*.yaml")):
        kind = schema_for_file("content/" + path.relative_to(content).as_posix())
        assert kind is not None, path
        assert errors(kind.name, path.read_text(encoding="utf-8")) == [], path


LEAGUE_EXAMPLE = """\
name: Federação Paranaense de Truco
short_name: FPRT
base_url: https://example.org/
locale: pt_BR
truco:
  boards: 5
  games_to_win: 2
  game_points: 12
  walkover_games: ["12-0", "12-0"]
  team_tiebreaks: [wins, points, head_to_head, pair_points_balance, pontinhos_balance, draw]
  pair_tiebreaks: [points, wins, head_to_head, pair_points_balance, pontinhos_balance, draw]
  ranking_points: [20, 16, 12, 8, 6, 4, 3, 2]
quatrilho:
  stake: 100
  max_players: 20
  max_rebuys_per_round: 1
  champions: 5
  state_qualifiers: 4
  tiebreaks: [net, positive_rounds, points_won, best_round, draw]
"""

STAGE_EXAMPLE = """\
name: 1ª Etapa
date: 2026-03-14
host: aptru
city: Curitiba
status: final
teams:
  aptru:
    pairs:
      - [ana-souza, bia-lima]
      - [caio-reis, davi-melo]
  aptru-b:
    club: aptru
    name: APTRU B
    pairs: [[edu-rosa, fabio-dias]]
phases:
  - name: Fase de grupos
    groups:
      Grupo A:
        teams: [aptru, serapio, aptru-b]
        matches:
          - home: aptru
            away: serapio
            boards:
              - "12-7 9-12 12-10"
              - "2-1"
              - {home: 6, away: 4, score: "12-0 12-4"}
              - {home: [ivo-lara, joao-sa], away: [lia-cruz, mia-reis], score: "10-12 11-12"}
              - {home: 2, away: 2, walkover: home}
          - {home: aptru-b, away: serapio, walkover: aptru-b}
  - name: Quartas de final
    knockout:
      - round: Semifinal do 5º ao 8º
        places: [5, 8]
        matches: []
      - round: Final
        for_place: 1
        matches: []
draws:
  - teams: [aptru-b, serapio]
    order: [serapio, aptru-b]
    note: Sorteio na mesa da organização, 14/03
  - pairs: [[ana-souza, bia-lima], [caio-reis, davi-melo]]
    order: [[caio-reis, davi-melo], [ana-souza, bia-lima]]
classification:
  order: [aptru, serapio, aptru-b]
  reason: Decisão da comissão organizadora (ata nº 3)
disqualified:
  - team: aptru-b
    reason: Item 4.12
"""

CHAMPIONSHIP_EXAMPLE = """\
name: 1º Campeonato Aberto de Quatrilho de Chapecó
municipality: Chapecó
date: 2026-05-10
status: final
fee: 50.00
prizes: {1: 25, 2: 15, 3: 10, 4: 6, 5: 5, 6: 4, 7: 3, 8: 2}
players:
  1: ana-souza
  2: bia-lima
  5: caio-reis
  6: davi-melo
  9: edu-rosa
  10: fabio-dias
  13: gil-neto
  14: hugo-paz
  17: {player: rui-prado, from_round: 2}
rounds:
  - tables:
      1: {1: 134, 5: 80, 9: 100, 13: 120}
      2: {2: 95, 6: 105, 10: 150, 14: 50}
    rebuys: {5: 1}
    penalties:
      - {player: 9, chips: 200, reason: Atraso no reinício (Art. 12)}
    commission_paid: {2: 0}
    adjustments:
      - {table: 2, chips: 5, reason: "Ficha perdida, conferido pelo fiscal"}
    disqualified:
      - {player: 14, reason: Art. 15}
draws:
  - players: [3, 8]
    order: [8, 3]
    note: Decisão da comissão (Art. 3)
"""


@pytest.mark.parametrize("kind,text", [
    ("league", LEAGUE_EXAMPLE),
    ("league", "name: FT\nshort_name: FT\n"),
    ("clubs", "aptru: {name: APTRU, city: Curitiba}\nserapio: {name: Serapió, city: Siqueira Campos}\n"),
    ("clubs", "{}\n"),
    ("players", "ana-souza: {name: Ana Souza, club: aptru}\nbia-lima: {name: Bia Lima}\n"),
    ("season", "title: Temporada 2026\ntruco: {boards: 3, ranking_points: [10, 8, 6.5]}\nquatrilho: {stake: 50}\n"),
    ("stage", STAGE_EXAMPLE),
    ("stage", "name: 3ª Etapa\ndate: 2026-09-12\nstatus: scheduled\n"),
    ("page", "title: Regulamento do Interclubes\norder: 2\n"),
    ("page", "title: Etapa 1\ndate: 2026-03-15\nseason: 2026\nstage: etapa-1\nsummary: Resumo.\n"),
])
def test_examples_validate(kind, text):
    assert errors(kind, text) == []


def test_championship_example_validates():
    if "championship" not in {k.name for k in kinds()}:
        pytest.skip("league/content/schema.py ainda não tem ChampionshipFile")
    assert errors("championship", CHAMPIONSHIP_EXAMPLE) == []
    head = "name: C\ndate: 2026-05-10\nstatus: in_progress\nfee: 50\nplayers: {1: ana-souza, 2: bia-lima}\n"
    assert errors("championship", head + "rounds: [{tables: {1: {1: 100, 2: 100, C1: 100, C2: 100}, 2: null}}]\n") == []
    errs = errors("championship", head + "rounds: [{tables: {mesa-1: {1: 100}}}]\n")
    assert any(e.startswith("rounds/0/tables: 'mesa-1' does not match") for e in errs), errs
    errs = errors("championship", head + "rounds: [{tables: {1: {jogador-1: 100}}}]\n")
    assert any(e.startswith("rounds/0/tables/1: {'jogador-1': 100} is not valid under any") for e in errs), errs


@pytest.mark.parametrize("kind,text,expected", [
    ("league", "name: FT\n", "'short_name' is a required property"),
    ("league", "name: FT\nshort_name: FT\ntruco: {bords: 5}\n", "truco: Additional properties are not allowed ('bords'"),
    ("league", "name: FT\nshort_name: FT\ntruco: {team_tiebreaks: [vitorias]}\n",
     "truco/team_tiebreaks/0: 'vitorias' is not one of"),
    ("clubs", "APTRU: {name: APTRU}\n", "'APTRU' does not match"),
    ("clubs", "aptru: {nome: APTRU}\n", "aptru: 'name' is a required property"),
    ("players", "ana-souza: {name: Ana, club: APTRU}\n", "ana-souza/club: 'APTRU' is not valid under any"),
    ("stage", "name: E\ndate: 2026-02-30\nstatus: final\n", "date: '2026-02-30' is not a 'date'"),
    ("stage", "name: E\ndate: 2026-03-14\nstatus: encerado\n", "status: 'encerado' is not one of"),
    ("stage", "name: E\ndate: 2026-03-14\nstatus: final\nteams: {Equipe A: {pairs: []}}\n",
     "teams: 'Equipe A' does not match"),
    ("stage", "name: E\ndate: 2026-03-14\nstatus: final\nteams: {aa: {pairs: [[a-1, a-2, a-3]]}}\n",
     "teams/aa/pairs/0: ['a-1', 'a-2', 'a-3'] is too long"),
    # the bounds of league.content.schema (dates 1900..2100, every number non-negative where the rule needs it and
    # bounded far above real use) are in the schema too: the editor flags them as the loader does
    ("stage", "name: E\ndate: 9999-12-31\nstatus: final\n", "date: '9999-12-31' does not match"),
    ("league", "name: FT\nshort_name: FT\ntruco: {boards: 1000000000}\n",
     "truco/boards: 1000000000 is greater than the maximum of 99"),
    ("league", "name: FT\nshort_name: FT\ntruco: {ranking_points: [20, -5]}\n", "truco/ranking_points/1: -5 is not valid"),
    ("season", "quatrilho: {max_players: 1000000}\n", "quatrilho: {'max_players': 1000000} is not valid"),
    ("championship", "name: C\ndate: 2026-05-10\nstatus: final\nfee: -5\nplayers: {1: ana}\n",
     "fee: -5 is less than the minimum of 0"),
    ("championship", "name: C\ndate: 2026-05-10\nstatus: final\nfee: 5\nplayers: {1000000: ana}\n",
     "players: '1000000' does not match"),
])
def test_schemas_reject_what_the_loader_rejects(kind, text, expected):
    errs = errors(kind, text)
    assert any(e.startswith(expected) for e in errs), errs


# ---------------------------------------------------------------- the command

def test_schema_command_writes_checks_and_cleans(tmp_path):
    out = tmp_path / "schemas"
    runner = CliRunner()
    res = runner.invoke(main, ["schema", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert {p.name: p.read_text(encoding="utf-8") for p in out.iterdir()} == schema_files()
    assert runner.invoke(main, ["schema", "--out", str(out), "--check"]).exit_code == 0
    (out / "stage.schema.json").write_text("{}\n", encoding="utf-8")
    (out / "velho.schema.json").write_text("{}\n", encoding="utf-8")
    res = runner.invoke(main, ["schema", "--out", str(out), "--check"])
    assert res.exit_code == 1
    assert "stage.schema.json: desatualizado" in res.output and "velho.schema.json: desatualizado" in res.output
    res = runner.invoke(main, ["schema", "--out", str(out)])
    assert res.exit_code == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(schema_files())


def test_schema_command_updates_vscode_settings_keeping_other_keys(tmp_path):
    settings = tmp_path / ".vscode" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"editor.rulers": [100]}\n', encoding="utf-8")
    res = CliRunner().invoke(main, ["schema", "--out", str(tmp_path / "schemas"), "--vscode", str(settings)])
    assert res.exit_code == 0, res.output
    data = json.loads(settings.read_text(encoding="utf-8"))
    assert data["editor.rulers"] == [100]
    assert data["yaml.schemas"] == vscode_mapping("./schemas")
