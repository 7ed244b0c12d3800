"""`league diff REV`: in a real git repository, one changed board moves teams in the group, the stage
classification and the annual club ranking, and the diff says so in Portuguese lines and in Markdown."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from league.cli import main
from tests.util import boards_for, squad, write_content, two_team_stage

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git não está instalado")

CLUBS = ["aa", "bb", "cc"]


def stage(bb_cc_home_wins: int = 3, status: str = "final") -> str:
    """aa beats bb and cc; bb–cc decides 2nd and 3rd."""
    return f"""\
    name: 1ª Etapa
    date: 2026-03-14
    status: {status}
    teams: {{aa: {squad("aa")}, bb: {squad("bb")}, cc: {squad("cc")}}}
    phases:
      - name: Fase de grupos
        groups:
          Grupo A:
            teams: [aa, bb, cc]
            matches:
              - {{home: aa, away: bb, boards: {boards_for(3)}}}
              - {{home: aa, away: cc, boards: {boards_for(4)}}}
              - {{home: bb, away: cc, boards: {boards_for(bb_cc_home_wins)}}}
    """


def git(repo: Path, *args: str) -> str:
    res = subprocess.run(["git", "-c", "user.name=Editora", "-c", "user.email=editora@example.org",
                          "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", *args],
                         cwd=repo, capture_output=True, text=True, check=True)
    return res.stdout


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def repo(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    write_content(repo, {"etapa-1": stage()}, clubs=CLUBS)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "etapa 1")
    return repo


def write_stage(repo: Path, text: str, sid: str = "etapa-1") -> None:
    import textwrap
    (repo / "content" / "seasons" / "2026" / "truco" / f"{sid}.yaml").write_text(textwrap.dedent(text),
                                                                                encoding="utf-8")


def test_one_changed_board_moves_group_stage_and_annual_ranking(repo):
    write_stage(repo, stage(bb_cc_home_wins=2))  # one board of bb–cc now won by cc: cc wins the match
    res = run("diff", "HEAD", "--content", repo / "content")
    assert res.exit_code == 0, res.output
    out = res.output
    head = git(repo, "rev-parse", "--short", "HEAD").strip()
    assert out.startswith(f"Classificações: HEAD ({head}) → árvore de trabalho, {repo / 'content'}/\n")
    assert "\nTemporada 2026 — ranking de clubes\n" \
           "  Clube CC: 3º → 2º no ranking de clubes (+4 pts)\n" \
           "  Clube BB: 2º → 3º no ranking de clubes (−4 pts)\n" in out
    assert "\n1ª Etapa (2026) — classificação\n" \
           "  Clube CC: 3º → 2º na classificação da 1ª Etapa (+4 pts)\n" \
           "  Clube BB: 2º → 3º na classificação da 1ª Etapa (−4 pts)\n" in out
    # boards won 3 → 4; every board 12-5 12-5 is worth 3 pair points and 14 pontinhos
    assert "\n1ª Etapa (2026) — Grupo A\n" \
           "  Clube CC: 3º → 2º no Grupo A da 1ª Etapa (+1 pt, vitórias 0 → 1, saldo de duplas −12 → −6, " \
           "saldo de pontinhos −56 → −28)\n" \
           "  Clube BB: 2º → 3º no Grupo A da 1ª Etapa (−1 pt, vitórias 1 → 0, saldo de duplas 0 → −6, " \
           "saldo de pontinhos 0 → −28)\n" in out
    assert "Clube AA" not in out  # aa did not move and its numbers did not change
    # the pairs of board 3 swap places; places 5–11 are shared: (6+4+3+2+0+0+0)/7 = 2,14 points
    assert "\n1ª Etapa (2026) — duplas\n" \
           "  Jogador cc-3a + Jogador cc-3b: 12º (empate) → 5º (empate) na classificação de duplas da 1ª Etapa " \
           "(+2,14 pts, pontos de dupla 0 → 3, vitórias 0 → 1, saldo de duplas −6 → 0, saldo de pontinhos −28 → 0)\n" \
           in out
    assert "  Jogador bb-3a + Jogador bb-3b: 5º (empate) → 12º (empate) no ranking de duplas (−2,14 pts)\n" in out
    assert out.endswith("\n10 mudança(s) em 5 tabela(s).\n")


def test_markdown_for_a_pull_request_comment(repo):
    write_stage(repo, stage(bb_cc_home_wins=2))
    res = run("diff", "HEAD", "--content", repo / "content", "--format", "markdown")
    assert res.exit_code == 0, res.output
    md = res.output
    head = git(repo, "rev-parse", "--short", "HEAD").strip()
    assert md.startswith(f"### Classificações: `HEAD` (`{head}`) → esta versão\n")
    assert "**Temporada 2026 — ranking de clubes**\n\n| | antes | depois | mudança |\n|---|---|---|---|\n" \
           "| Clube CC | 3º | **2º** | +4 pts |\n| Clube BB | 2º | **3º** | −4 pts |\n" in md
    assert "<details><summary>1ª Etapa (2026) — Grupo A — 2 mudança(s)</summary>" in md
    assert md.rstrip().endswith("Gerado por `league diff`.")


def test_no_change(repo):
    res = run("diff", "HEAD", "--content", repo / "content")
    assert res.exit_code == 0
    assert "Nenhuma mudança em tabelas, classificações ou rankings." in res.output
    res = run("diff", "HEAD", "--content", repo / "content", "--format", "markdown")
    assert "Nenhuma mudança em tabelas, classificações ou rankings." in res.output


def test_an_older_revision_by_name(repo):
    write_stage(repo, stage(bb_cc_home_wins=2))
    git(repo, "commit", "-q", "-am", "corrige placar")
    res = run("diff", "HEAD~1", "--content", repo / "content")
    assert "Clube CC: 3º → 2º no ranking de clubes (+4 pts)" in res.output
    assert "Nenhuma mudança" in run("diff", "HEAD", "--content", repo / "content").output


def test_status_change_and_a_new_stage(repo):
    write_stage(repo, stage(status="in_progress"))
    git(repo, "commit", "-q", "-am", "em andamento")
    write_stage(repo, stage())
    write_stage(repo, stage().replace("1ª Etapa", "2ª Etapa").replace("2026-03-14", "2026-04-11"), "etapa-2")
    out = run("diff", "HEAD", "--content", repo / "content").output
    assert "\n1ª Etapa (2026) — classificação\n  1ª Etapa (2026): em andamento → encerrada\n" \
           "  Clube AA: 1º na classificação da 1ª Etapa (+20 pts)\n" in out
    assert "\n2ª Etapa (2026) — classificação (nova)\n  2ª Etapa (2026): encerrada\n" \
           "  Clube AA: entra na classificação da 2ª Etapa em 1º, com 20 pts\n" in out
    # no final stage at HEAD: nobody was in the annual ranking
    assert "Clube AA: entra no ranking de clubes em 1º, com 40 pts" in out


def test_content_that_fails_at_rev_is_reported_and_everything_is_new(repo):
    write_stage(repo, stage().replace("status: final", "status: encerado"))   # a word no status takes
    git(repo, "commit", "-q", "-am", "quebrado")
    write_stage(repo, stage())
    res = run("diff", "HEAD", "--content", repo / "content")
    assert res.exit_code == 0, res.output
    assert "atenção: o conteúdo em HEAD tem 1 erro(s) e não pôde ser calculado; tudo aparece como novo." \
           in res.output
    assert "Temporada 2026 — ranking de clubes (nova)\n  Clube AA: entra no ranking de clubes em 1º, com 20 pts" \
           in res.output
    md = run("diff", "HEAD", "--content", repo / "content", "--format", "markdown").output
    assert "> **Atenção:** o conteúdo em HEAD tem 1 erro(s) e não pôde ser calculado; tudo aparece como novo." in md


def test_content_that_did_not_exist_at_rev(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "README.md").write_text("x\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "início")
    write_content(repo, {"etapa-1": stage()}, clubs=CLUBS)
    res = run("diff", "HEAD", "--content", repo / "content")
    assert res.exit_code == 0, res.output
    assert "atenção: content/ não existia em HEAD; tudo aparece como novo." in res.output


def test_errors_in_the_working_tree_exit_1(repo):
    write_stage(repo, stage().replace("12-5 12-5", "12-12 12-5", 1))
    res = run("diff", "HEAD", "--content", repo / "content")
    assert res.exit_code == 1
    assert "content/seasons/2026/truco/etapa-1.yaml:" in res.output
    assert "1 erro(s) no conteúdo atual: corrija-os (league check) antes de comparar." in res.output


def test_git_problems_exit_2(repo, tmp_path):
    res = run("diff", "nada-disso", "--content", repo / "content")
    assert res.exit_code == 2
    assert "erro: revisão \"nada-disso\" não encontrada no repositório" in res.output
    elsewhere = write_content(tmp_path / "solto", {}, clubs=CLUBS)
    res = run("diff", "HEAD", "--content", elsewhere)
    assert res.exit_code == 2
    assert "não está num repositório git" in res.output


def test_a_team_that_leaves_the_stage_leaves_the_rankings(repo):
    write_stage(repo, two_team_stage('1ª Etapa'))
    out = run("diff", "HEAD", "--content", repo / "content").output
    assert "  Clube CC: sai do ranking de clubes (era 3º, 12 pts)\n" in out
    assert "  Clube CC: sai da classificação da 1ª Etapa (era 3º, 12 pts)\n" in out
    assert "  Clube CC: sai do Grupo A da 1ª Etapa (era 3º, 3 pts)\n" in out  # 3 boards won


def test_quatrilho_championship_and_state_qualifiers(repo):
    from league.cli.new import championship_skeleton
    text = championship_skeleton("2026", "chapeco")
    for i in range(1, 9):
        text = text.replace(f"<jogador-{i}>", f"q-{i}")
    text = (text.replace("<AAAA-MM-DD>", "2026-05-10").replace("<valor-da-inscricao>", "50.00")
            .replace("status: scheduled", "status: final")
            .replace("1: {1: <fichas>, 2: <fichas>, 3: <fichas>, 4: <fichas>}", "1: {1: 160, 2: 120, 3: 80, 4: 40}")
            .replace("<fichas>", "100"))
    players = repo / "content" / "players.yaml"
    players.write_text(players.read_text(encoding="utf-8") +
                       "".join(f"q-{i}: {{name: Quatrilheiro {i}}}\n" for i in range(1, 9)), encoding="utf-8")
    champ = repo / "content" / "seasons" / "2026" / "quatrilho" / "chapeco.yaml"
    champ.parent.mkdir()
    champ.write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "quatrilho")
    # a recount: players 1 and 4 swap their chips at table 1; prizes are % of 8 × R$ 50 (1º 25%, 8º 2%)
    champ.write_text(text.replace("1: {1: 160, 2: 120, 3: 80, 4: 40}", "1: {1: 40, 2: 120, 3: 80, 4: 160}"),
                     encoding="utf-8")
    out = run("diff", "HEAD", "--content", repo / "content").output
    name = "Campeonato Aberto de Quatrilho de Chapeco"
    assert f"\n{name} (2026) — classificação\n" \
           f"  Quatrilheiro 4: 8º → 1º no {name} (+120 pts, prêmio R$ 8,00 → R$ 100,00)\n" in out
    assert f"  Quatrilheiro 1: 1º → 8º no {name} (−120 pts, prêmio R$ 100,00 → R$ 8,00)\n" in out
    assert "\nTemporada 2026 — classificados ao estadual do Quatrilho\n" in out
    assert f"  Quatrilheiro 4 (1º, {name}): entra nos classificados ao estadual\n" in out
    assert f"  Quatrilheiro 1 (1º, {name}): sai dos classificados ao estadual\n" in out


def test_the_revision_reads_what_it_shares_with_the_working_tree_from_its_cache(repo, monkeypatch):
    # the PR workflow runs `league check` (which fills .league-cache/ beside content/), then `league diff`:
    # both sides read the cache, so the only file parsed is the edited stage as it was at REV
    import textwrap
    write_stage(repo, textwrap.dedent(stage()).replace("1ª Etapa", "2ª Etapa").replace("2026-03-14", "2026-04-11"),
                sid="etapa-2")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "etapa 2")
    write_stage(repo, stage(bb_cc_home_wins=2))
    assert run("check", "--content", repo / "content").exit_code == 0
    from league.engine.loader import Loader
    parsed = []
    fresh = Loader.task_fresh

    def task_fresh(self, league, task, key):
        parsed.append(task.path.name)
        return fresh(self, league, task, key)
    monkeypatch.setattr(Loader, "task_fresh", task_fresh)
    res = run("diff", "HEAD", "--content", repo / "content")
    assert res.exit_code == 0, res.output
    assert "Clube CC: 3º → 2º na classificação da 1ª Etapa (+4 pts)" in res.output
    assert parsed == ["etapa-1.yaml"], parsed
    assert "2ª Etapa (2026) —" not in res.output   # the stage read from the cache did not change
