"""`league new site PASTA` (issue 37): a new federation's content that `league check` accepts and `league build`
turns into a site as it is — league.yaml, two clubs, twenty players, one season, one finished stage — with the
JSON Schemas its files' modelines point at; never over a folder that has something in it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from league.cli import main
from league.cli.new_site import yaml_str
from league.engine.build import build


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def made(tmp_path) -> Path:
    folder = tmp_path / "fprt"
    res = run("new", "site", folder, "--name", "Federação Paranaense de Truco", "--short-name", "FPRT",
              "--season", "2026")
    assert res.exit_code == 0, res.output
    assert f"criado {folder}/" in res.output
    assert f"próximos passos: cd {folder} && league build && league serve" in res.output
    return folder


def test_new_site_writes_the_content_schemas_and_editor_settings(made):
    files = sorted(p.relative_to(made).as_posix() for p in made.rglob("*") if p.is_file())
    assert files == [
        ".gitignore", ".vscode/settings.json",
        "content/clubs.yaml", "content/league.yaml", "content/players.yaml",
        "content/seasons/2026/season.yaml", "content/seasons/2026/truco/etapa-1.yaml",
        "schemas/championship.schema.json", "schemas/clubs.schema.json", "schemas/league.schema.json",
        "schemas/page.schema.json", "schemas/players.schema.json", "schemas/season.schema.json",
        "schemas/stage.schema.json",
    ]
    league = yaml.safe_load((made / "content" / "league.yaml").read_text(encoding="utf-8"))
    assert (league["name"], league["short_name"], league["locale"]) == ("Federação Paranaense de Truco", "FPRT",
                                                                         "pt_BR")
    # the regulations' defaults written out, for the webmaster to see and change (Truco 9.1, 12.1)
    assert league["truco"]["boards"] == 5
    assert league["truco"]["ranking_points"] == [20, 16, 12, 8, 6, 4, 3, 2]
    assert yaml.safe_load((made / "content" / "clubs.yaml").read_text(encoding="utf-8")) == {
        "clube-a": {"name": "Clube A", "city": "Cidade A"}, "clube-b": {"name": "Clube B", "city": "Cidade B"}}
    players = yaml.safe_load((made / "content" / "players.yaml").read_text(encoding="utf-8"))
    assert len(players) == 20 and players["jogador-b10"] == {"name": "Jogador B10", "club": "clube-b"}
    assert (made / ".gitignore").read_text(encoding="utf-8").splitlines()[1:] == ["/site/", "/.league-cache/"]
    settings = json.loads((made / ".vscode" / "settings.json").read_text(encoding="utf-8"))
    assert settings["yaml.schemas"]["./schemas/stage.schema.json"] == ["content/seasons/*/truco/*.yaml",
                                                                      "content/seasons/*/truco/*.yml"]


def test_every_modeline_leads_to_its_schema(made):
    for path in sorted((made / "content").rglob("*.yaml")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema="), path
        assert (path.parent / first.split("=", 1)[1]).resolve().is_file(), path


def test_the_new_site_checks_and_builds_with_the_regulations_points(made, tmp_path):
    res = run("check", "--content", made / "content")
    assert res.exit_code == 0, res.output
    assert res.output.strip().splitlines()[-1] == "conteúdo válido."   # no warning: no tie left to a draw
    build(made / "content", made / "site", cache_dir=False, search=False)
    index = (made / "site" / "index.html").read_text(encoding="utf-8")
    assert "Federação Paranaense de Truco" in index
    ranking = json.loads((made / "site" / "api" / "2026" / "truco" / "ranking.json").read_text(encoding="utf-8"))
    # one match, clube-a 4 boards to 1 (boards 1, 2, 3 and 5): 1st and 2nd of the stage, 20 and 16 ranking
    # points (Truco 12.1: 20, 16, 12, …)
    assert [(c["club"], c["position"], c["points"]) for c in ranking["clubs"]] == [("clube-a", 1, 20),
                                                                                  ("clube-b", 2, 16)]
    # pairs: the five winners by pair points (Truco 10.3: 2x0 gives 3, 2x1 gives 2), then by pontinhos
    # balance (Truco 10.1) — a5 12-5 12-10 (3, +9), a1 12-7 12-9 (3, +8), b7 12-7 12-10 away (3, +7);
    # a9 12-3 4-12 12-6 (2, +7), a3 9-12 12-10 12-8 (2, +3) — get 20, 16, 12, 8, 6 (Truco 12.1)
    top = [(p["players"], p["points"]) for p in ranking["pairs"][:5]]
    assert top == [(["jogador-a5", "jogador-a6"], 20), (["jogador-a1", "jogador-a2"], 16),
                   (["jogador-b7", "jogador-b8"], 12), (["jogador-a10", "jogador-a9"], 8),
                   (["jogador-a3", "jogador-a4"], 6)]


def test_new_site_refuses_a_folder_with_something_in_it(tmp_path):
    folder = tmp_path / "fprt"
    folder.mkdir()
    (folder / "notas.txt").write_text("minhas notas", encoding="utf-8")
    res = run("new", "site", folder)
    assert res.exit_code == 2
    assert res.output == (f"erro: {folder} não está vazia: nada foi escrito (escolha uma pasta nova, "
                          "ex.: fprt-site)\n")
    assert sorted(p.name for p in folder.iterdir()) == ["notas.txt"]


def test_new_site_checks_its_options_before_writing(tmp_path):
    res = run("new", "site", tmp_path / "a", "--season", "26")
    assert (res.exit_code, res.output) == (2, "erro: \"26\" não é uma temporada: use o ano com 4 dígitos "
                                              "(ex.: 2026)\n")
    res = run("new", "site", tmp_path / "a", "--name", "  ")
    assert (res.exit_code, res.output) == (2, "erro: --name vazio: escreva o nome "
                                              "(ex.: --name \"Federação Paranaense de Truco\")\n")
    assert not (tmp_path / "a").exists()


def test_an_empty_folder_is_used(tmp_path):
    (tmp_path / "vazia").mkdir()
    assert run("new", "site", tmp_path / "vazia", "--season", "2027").exit_code == 0
    assert (tmp_path / "vazia" / "content" / "seasons" / "2027" / "truco" / "etapa-1.yaml").is_file()


@pytest.mark.parametrize("text, written", [
    ("Federação Paranaense de Truco", "Federação Paranaense de Truco"),
    ("Liga: Oeste", '"Liga: Oeste"'),            # ": " would make a mapping
    ("2026", '"2026"'),                          # a number
    ("yes", '"yes"'),                            # a boolean in YAML 1.1
    ("FPRT # oficial", '"FPRT # oficial"'),      # a comment
    ('Liga "Oeste"', '"Liga \\"Oeste\\""'),
])
def test_names_are_written_so_that_yaml_reads_them_back(text, written):
    assert yaml_str(text) == written
    assert yaml.safe_load(f"name: {written}\n") == {"name": text}


def test_a_name_that_needs_quotes_builds(tmp_path):
    folder = tmp_path / "liga"
    assert run("new", "site", folder, "--name", "Liga: Oeste #1", "--short-name", "2026").exit_code == 0
    league = yaml.safe_load((folder / "content" / "league.yaml").read_text(encoding="utf-8"))
    assert (league["name"], league["short_name"]) == ("Liga: Oeste #1", "2026")
    assert run("check", "--content", folder / "content").exit_code == 0
