"""`league draw CHAMPIONSHIP ROUND [--seed N] [--write]`: the proposal read aloud, and the round appended to the
file with everything else (comments included) left as it was (Quatrilho Art. 9, 14)."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from league.cli import main
from league.content.diagnostics import Diagnostics
from league.cli.draw import DrawError, append_round, round_block
from league.games.quatrilho.draw import DrawProposal, Table
from league.content.yamlio import parse_yaml
from tests.quatrilho_fixtures import content, head, registrations

ROOT = Path(__file__).resolve().parent.parent


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


# a championship in progress, written by hand with comments everywhere
COMMENTED = head(status="in_progress") + registrations(9, late={9: 2}) + """\
# as rodadas, em ordem
rounds:
  # 1ª rodada: 8 jogadores, duas mesas de 4
  - tables:
      1: {1: 150, 2: 150, 3: 50, 4: 50}   # conferido pelo fiscal
      2: {5: 130, 6: 110, 7: 90, 8: 70}
    rebuys: {}

# decisões da comissão
draws: []   # nenhuma ainda
"""


@pytest.fixture
def champ(tmp_path) -> Path:
    root = content(tmp_path, {"teste": COMMENTED})
    return root / "seasons" / "2026" / "quatrilho" / "teste.yaml"


def test_draw_prints_a_table_list_to_read_aloud(champ):
    res = run("draw", champ, 2, "--seed", 11)
    assert res.exit_code == 0, res.output
    out = res.output
    # 9 players in round 2 (the late registration joins, Art. 5): one table of 5 and one of 4 (Art. 14)
    assert out.startswith("Sorteio da 2ª rodada — Campeonato Teste\nSemente 11 (para repetir: league draw ")
    assert "9 jogadores em 2 mesas: 1 de 5 e 1 de 4.\n" in out
    assert out.count("Cadeira ") == 9 and "\nMesa 1\n  Cadeira 1: nº " in out and "\nMesa 2\n" in out
    assert "Jogador q09" in out                   # the late registration is drawn from round 2 on
    assert res.output == run("draw", champ, 2, "--seed", 11).output        # reproducible from the seed
    assert run("draw", champ, 2, "--seed", 12).output != out


def test_draw_round_1_leaves_the_late_registration_out_and_announces_jokers(champ):
    # round 1: players 1–8 (9 joins in round 2); with --absent 8, 7 players need one joker: 4 + (3 + C1)
    res = run("draw", champ, 1, "--seed", 3, "--absent", 8)
    assert res.exit_code == 0, res.output
    assert "Jogador q09" not in res.output and "Jogador q08" not in res.output
    assert "coringa C1" in res.output
    assert "1 coringa adicionado: 7 jogadores não formam mesas de 4 e 5." in res.output


def test_draw_write_appends_the_round_and_keeps_every_comment(champ):
    before = champ.read_text(encoding="utf-8")
    res = run("draw", champ, 2, "--seed", 11, "--write")
    assert res.exit_code == 0, res.output
    after = champ.read_text(encoding="utf-8")
    # every original line is still there, in order, and only the round's lines were added
    old, new = before.splitlines(), after.splitlines()
    it = iter(new)
    assert all(any(n == o for n in it) for o in old)
    added = [ln for ln in new if ln not in old]
    assert added[0] == "  # 2ª rodada: sorteio proposto por `league draw` (semente 11); troque cada null pelas fichas contadas."
    assert added[1:3] == ["  - seed: 11", "    tables:"]
    assert len(added) == 5 and all(": null" in ln for ln in added[3:])
    # inserted after round 1, before the comment that belongs to draws:
    assert new.index(added[0]) > new.index("    rebuys: {}") and new.index(added[-1]) < new.index("# decisões da comissão")
    # the file loads, with round 2 drawn and not yet counted, seats in the order announced
    report = run("check", "--content", champ.parents[3])
    assert report.exit_code == 0, report.output
    printed = [ln.split("nº ")[1].split(",")[0] for ln in res.output.splitlines() if "Cadeira" in ln]
    written = [s.split(":")[0] for ln in added[3:] for s in ln.split("{")[1].rstrip("}").split(", ")]
    assert printed == written
    # a second --write of the same round is refused and changes nothing
    again = run("draw", champ, 2, "--seed", 11, "--write")
    assert again.exit_code == 1 and "a 2ª rodada já está no arquivo" in again.output
    assert champ.read_text(encoding="utf-8") == after


def test_draw_write_is_undone_when_the_file_would_not_load(champ):
    text = champ.read_text(encoding="utf-8").replace("status: in_progress", "status: final")
    champ.write_text(text, encoding="utf-8")
    res = run("draw", champ, 2, "--seed", 1, "--write")
    assert res.exit_code == 1
    assert "sem as fichas contadas, mas o campeonato está encerrado" in res.output
    assert "o arquivo não foi alterado" in res.output
    assert champ.read_text(encoding="utf-8") == text


def test_draw_refuses_rounds_out_of_order_and_files_with_errors(champ):
    res = run("draw", champ, 3, "--seed", 1)
    assert res.exit_code == 1 and "a próxima a sortear é a 2ª" in res.output
    champ.write_text(champ.read_text(encoding="utf-8").replace("3: 50, 4: 50", "3: 50, 4: 55"), encoding="utf-8")
    res = run("draw", champ, 2, "--seed", 1)
    assert res.exit_code == 1 and "mesa 1, rodada 1: soma 405, esperado 400" in res.output


def test_draw_finds_the_championship_by_year_and_id(champ):
    res = run("draw", "2026/teste", 2, "--seed", 11, "--content", champ.parents[3])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[2:] == run("draw", champ, 2, "--seed", 11).output.splitlines()[2:]
    bad = run("draw", "2026/tste", 2, "--content", champ.parents[3])
    assert bad.exit_code == 2 and "\"2026/teste\"" in bad.output       # did you mean
    assert run("draw", champ, 0).exit_code == 2


def test_draw_without_seed_shows_the_seed_it_used(champ):
    res = run("draw", champ, 2)
    assert res.exit_code == 0
    seed = int(res.output.splitlines()[1].split()[1])
    assert run("draw", champ, 2, "--seed", seed).output == res.output


# ---------------------------------------------------------------- the text edit itself

PROPOSAL = DrawProposal(round=1, seed=5, tables=(Table(1, (3, 1, "C1", 2)),), jokers=1, repeats=0, notes=())


def parsed(text):
    return parse_yaml(text, "x.yaml", Diagnostics())


def test_append_round_when_the_file_has_no_rounds_yet():
    text = "name: X  # nome\nplayers: {1: a, 2: b, 3: c}\n"
    new = append_round(text, parsed(text), PROPOSAL)
    assert new.startswith(text)
    assert parsed(new)["rounds"][0] == {"seed": 5, "tables": {1: {3: None, 1: None, "C1": None, 2: None}}}
    empty = "rounds: []   # ainda nada\ndraws: []\n"
    new = append_round(empty, parsed(empty), PROPOSAL)
    assert new.startswith("rounds:   # ainda nada\n") and new.endswith("draws: []\n")
    assert len(parsed(new)["rounds"]) == 1


def test_append_round_keeps_the_indentation_of_the_list():
    text = textwrap.dedent("""\
        rounds:
        -   tables:
                1: {1: 100, 2: 100, 3: 100, 4: 100}
        """)
    new = append_round(text, parsed(text), PROPOSAL)
    assert "-   seed: 5\n    tables:\n      1: {3: null, 1: null, C1: null, 2: null}\n" in new
    assert len(parsed(new)["rounds"]) == 2


def test_append_round_refuses_a_flow_list():
    text = "rounds: [{tables: {1: {1: 100, 2: 100, 3: 100, 4: 100}}}]\n"
    with pytest.raises(DrawError):
        append_round(text, parsed(text), PROPOSAL)


def test_round_block_lists_absent_players():
    assert round_block(PROPOSAL, "  ", " ", absent=[9, 4])[-1] == "    absent: [4, 9]\n"


# ---------------------------------------------------------------- the demo's recorded draws are reproducible

@pytest.mark.skipif(not (ROOT / "content" / "seasons" / "2026" / "quatrilho").is_dir(), reason="no demo content")
def test_every_recorded_seed_of_the_demo_reproduces_its_tables():
    from league.engine.build import check
    from league.cli.draw import propose
    report = check(ROOT / "content")
    checked = 0
    for sr in report.results.seasons:
        for ch in sr.season.championships:
            for r in ch.rounds:
                if r.seed is None:
                    continue
                proposal = propose(ch, r.number, r.seed, absent=r.absent)
                drawn = [[s for s in t.seats if isinstance(s, int)] for t in proposal.tables]
                assert drawn == [t.players for t in r.tables], (ch.id, r.number)
                checked += 1
    assert checked >= 10
