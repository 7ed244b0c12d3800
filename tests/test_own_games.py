"""Issue 36, item 2: a pair's and a player's own boards on their pages, each linking to its match on the stage
page, whose matches and groups have stable ids (league/site/boards.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from league.site.boards import stage_anchors
from tests.pages import page, text
from tests.truco_fixtures import W20, W21, groups_phase, knockout_phase, match, result, run, stage, stage_result

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "content" / "seasons" / "2026" / "truco"
pytestmark = pytest.mark.skipif(not DEMO.is_dir(), reason="no demo content")

PAIR = "duplas/luiz-pinheiro--nilson-nowak/"   # Clube Princesa dos Campos' sixth pair: one to three boards a stage


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    from league.engine.build import build
    out = tmp_path_factory.mktemp("site")
    build(ROOT / "content", out, templates=ROOT / "league" / "templates", search=False, cache_dir=False)
    return out


def _games(site: Path, path: str) -> list[dict]:
    return [t for t in page(site, path).tables if t["section"] == "jogos"]


def test_the_pair_page_lists_its_boards_stage_by_stage_newest_first(site):
    tables = _games(site, PAIR)
    # one table per stage it played, the newest first; 6ª Etapa is scheduled (no board yet)
    assert [t["caption"] for t in tables] == [
        "5ª Etapa 2026 · Clube Princesa dos Campos · em andamento (jogos de Luiz Pinheiro e Nilson Nowak)",
        "4ª Etapa 2026 · Clube Princesa dos Campos (jogos de Luiz Pinheiro e Nilson Nowak)",
        "3ª Etapa 2026 · Clube Princesa dos Campos (jogos de Luiz Pinheiro e Nilson Nowak)",
        "2ª Etapa 2026 · Clube Princesa dos Campos (jogos de Luiz Pinheiro e Nilson Nowak)",
        "1ª Etapa 2026 · Clube Princesa dos Campos (jogos de Luiz Pinheiro e Nilson Nowak)"]
    # [opponents + their team, pair points (ours first), games (our pontinhos first), the match: where and the
    # team result, ours first]. From content/seasons/2026/truco:
    assert [t["rows"] for t in tables] == [
        [   # etapa-5, Grupo B. princesa × heranca-gaucha, board 2 {home: 6, away: 6, score: "12-8 12-7"}: won
            # 2x0 → 3 pair points to 0 (item 10.3); boards 6-12 11-12 (lost), us, 12-9 12-11, 11-12 12-3 12-7,
            # 12-6 12-9: princesa 4 boards to 1 (item 9.1)
            ["Alceu Zanatta e Maicon Marcon CTG Herança Gaúcha", "3–0", "12-8 12-7", "Grupo B: 4x1"],
            # princesa × beira-rio, board 4 named by players, "12-2 12-3": 3–0; princesa wins all five boards
            # (12-8 0-12 12-0, 12-5 12-7, 12-3 12-11, ours, 12-6 12-11)
            ["Júlio Pacheco e Rosana Pietrowski Sociedade Beira-Rio", "3–0", "12-2 12-3", "Grupo B: 5x0"]],
        [   # etapa-4, Grupo A, princesa × pe-vermelho-b board: "6-12 12-5 12-8": won 2x1 → 2 to 1
            ["Benedito Teixeira e Reginaldo Mazur Pé Vermelho B", "2–1", "6-12 12-5 12-8", "Grupo A: 4x1"]],
            # (boards 12-8 12-5 W, ours W, 8-12 11-12 L, 12-7 12-7 W, 11-12 12-9 12-11 W: 4x1)
        [   # etapa-3, princesa × querencia, {home: 6, away: 2, score: "10-12 6-12"}: lost 0x2 → 0 to 3; boards
            # L, ours L, 12-4 12-10 W, 12-4 12-5 W, 7-12 12-7 12-0 W: 3x2
            ["Emerson Pereira e Roberto Ferreira CTG Querência Maringá", "0–3", "10-12 6-12", "Grupo A: 3x2"]],
        [   # etapa-2, princesa × pe-vermelho-b, {home: 6, away: 1, score: "9-12 12-8 12-1"}: 2 to 1; all 5 won
            ["Gilmar Moreira e Reinaldo Marçal Pé Vermelho B", "2–1", "9-12 12-8 12-1", "Grupo B: 5x0"],
         # etapa-2, mouraoense × princesa (we are away): board 3 "12-11 10-12 0-12" is, from our side,
         # 11-12 12-10 12-0: won 2x1 → 2 to 1; mouraoense wins boards 1, 2 and 5 → princesa 2x3
         ["Alceu Martinelli e Fernando Batista Truco Clube Mourãoense", "2–1", "11-12 12-10 12-0", "Grupo B: 2x3"],
         # the semifinal tropeiros × princesa, {home: 1, away: 6, score: "11-12 12-9 12-6"}: from our side
         # 12-11 9-12 6-12, lost 1x2 → 1 to 2; tropeiros win boards 1, 4 (6-12 12-8 12-4) and 5 → 2x3
         ["Edemar Prestes e Jorge Guimarães CTG Tropeiros do Guairacá", "1–2", "12-11 9-12 6-12", "Semifinal: 2x3"]],
        [   # etapa-1, oeste × princesa (away): "9-12 8-12" is 12-9 12-8 for us, 3–0; oeste wins 3 boards of 5
            ["Laércio Franceschi e Reginaldo Fontana Associação Oeste de Truco", "3–0", "12-9 12-8", "Grupo D: 2x3"]]]
    assert [t["links"][0][-1] for t in tables] == [
        "/2026/truco/etapa-5/#jogo-princesa-heranca-gaucha", "/2026/truco/etapa-4/#jogo-princesa-pe-vermelho-b",
        "/2026/truco/etapa-3/#jogo-princesa-querencia", "/2026/truco/etapa-2/#jogo-princesa-pe-vermelho-b",
        "/2026/truco/etapa-1/#jogo-oeste-princesa"]


def test_the_player_page_lists_the_same_boards_with_the_partner(site):
    # a player with one partner: the pair's boards, without a partner column
    tables = _games(site, "jogadores/nilson-nowak/")
    assert [t["rows"] for t in tables] == [t["rows"] for t in _games(site, PAIR)]
    # Denise Martins played the 2ª Etapa with Vitor Okamoto and the others with Fernando Pietrowski (princesa's
    # fifth pair every time): a partner column. The 2ª Etapa's first board: princesa × astra, board 5
    # "10-12 6-12": lost 0x2 → 0 to 3 (item 10.3); princesa won boards 1–4 (12-4 12-9, 12-9 12-11, 12-2 12-7,
    # 12-4 7-12 12-7) → 4x1
    tables = _games(site, "jogadores/denise-martins/")
    assert [len(t["rows"]) for t in tables] == [2, 6, 4, 6, 6]
    assert [{r[3] for r in t["rows"]} for t in tables] == [{"Fernando Pietrowski"}] * 3 + [{"Vitor Okamoto"}] + \
        [{"Fernando Pietrowski"}]
    assert tables[3]["rows"][0] == ["Fabiana Fagundes e Laércio Machado ASTRA Arapongas", "0–3", "10-12 6-12",
                                    "Vitor Okamoto", "Grupo B: 4x1"]


def test_every_link_to_a_match_or_group_lands_on_an_id_of_its_page(site):
    ids: dict = {}
    checked = 0
    for folder in ("duplas", "jogadores", "2026/truco"):
        for p in sorted((site / folder).glob("*/index.html")):
            for href in page(site, str(p.relative_to(site))).links:
                if "#" not in href or not href.startswith(("/", "#")):   # (the source files on GitHub: #L12)
                    continue
                path, anchor = href.split("#", 1)
                target = path.lstrip("/") if path else str(p.parent.relative_to(site)) + "/"
                if target not in ids:
                    ids[target] = set(page(site, target).ids)
                assert anchor in ids[target], f"{p}: {href} has no id {anchor!r} there"
                checked += 1
    assert checked > 1000


def test_the_ids_of_a_stage_page_are_unique(site):
    for p in sorted((site / "2026" / "truco").glob("*/index.html")):
        ids = page(site, str(p.relative_to(site))).ids
        assert len(ids) == len(set(ids)), f"{p}: {[i for i in ids if ids.count(i) > 1]}"


def test_match_and_group_anchors_are_stable_and_unique(tmp_path):
    # a final between the same home and away teams as a group match, and team ids that would spell the same
    # anchor ("a-b" × "c" and "a" × "b-c" both give jogo-a-b-c)
    teams = ["a", "b-c", "a-b", "c"]
    group = groups_phase({"Grupo Único": (teams, [match("a", "b-c", result(3)), match("a-b", "c", result(3))])})
    final = knockout_phase([("Final", {"for_place": 1}, [match("a", "b-c", result(4))])])
    report = run(tmp_path, {"etapa-1": stage(teams, [group, final])}, clubs=teams)
    matches, groups = stage_anchors(stage_result(report).stage)
    assert list(matches.values()) == ["jogo-a-b-c", "jogo-a-b-c-2", "jogo-a-b-c-3"]
    assert groups == {(0, "Grupo Único"): "grupo-unico"}


def test_a_group_not_named_grupo_gets_the_prefix(tmp_path):
    group = groups_phase({"Chave 1": (["aa", "bb"], [match("aa", "bb", [W20, W21, W20, W20, W20])])})
    report = run(tmp_path, {"etapa-1": stage(["aa", "bb"], [group])}, clubs=["aa", "bb"])
    assert stage_anchors(stage_result(report).stage) == ({"fase-de-grupos-chave-1-1": "jogo-aa-bb"},
                                                          {(0, "Chave 1"): "grupo-chave-1"})


# ---------------------------------------------------------------- Quatrilho: a player's rounds

def _rounds(site: Path, player: str, championship: str) -> dict:
    return next(t for t in page(site, f"jogadores/{player}/").tables
                if t["section"] == "quatrilho" and t["caption"].endswith(
                    "mesa, fichas contadas, resultado da rodada, pontos somados e posição depois da rodada "
                    "(Art. 21, 22)") and championship in t["caption"])


def test_a_quatrilho_player_page_has_a_table_of_rounds_and_the_prize(site):
    t = _rounds(site, "alceu-zanatta", "Chapecó")   # nº 8 in content/seasons/2026/quatrilho/chapeco.yaml
    assert t["headers"] == ["Rodada", "Total", "Pos.", "Resultado", "Mesa", "Fichas", "Observação"]
    # result = chips − 100 (no re-registration, no penalty; Art. 8, 21): 160, 150, 140, 150 → +60 +50 +40 +50,
    # added up +60 +110 +150 +200. Position after each round, over the rounds so far (Art. 21):
    #  R1: nº 11 +210 (310 chips), nº 14 +130, nº 15 +120, nº 3 +95, nº 18 +90, nº 5 +80, then nº 8 +60 → 7º
    #  R2: nº 11 +170 and nº 18 +170, nº 3 +155, nº 5 +150, nº 13 +120 (30 + 90), then nº 8 +110 → 6º
    #  R3: nº 11 +320, nº 3 +275, then nº 8 +150 (nº 15 and nº 18 +140) → 3º
    #  R4: nº 3 +320, nº 5 and nº 11 +260 (the file's comment), nº 8 +200 → 4º, the final classification
    assert t["rows"] == [["1ª rodada", "+60", "7º", "+60", "mesa 3", "160", ""],
                         ["2ª rodada", "+110", "6º", "+50", "mesa 3", "150", ""],
                         ["3ª rodada", "+150", "3º", "+40", "mesa 1", "140", ""],
                         ["4ª rodada", "+200", "4º", "+50", "mesa 2", "150", ""]]
    assert [links[0] for links in t["links"]] == [
        "/2026/quatrilho/chapeco/#rodada-1-mesa-3", "/2026/quatrilho/chapeco/#rodada-2-mesa-3",
        "/2026/quatrilho/chapeco/#rodada-3-mesa-1", "/2026/quatrilho/chapeco/#rodada-4-mesa-2"]
    ids = page(site, "2026/quatrilho/chapeco/").ids
    assert all(links[0].split("#")[1] in ids for links in t["links"])
    # 4th eligible place: 6 % of (20 + 6) × R$ 55,00 = R$ 85,80 (Art. 23)
    assert "Prêmio: R$ 85,80 (Art. 23)." in text(site, "jogadores/alceu-zanatta/")


def test_a_round_with_a_penalty_and_a_re_registration_says_so(site):
    t = _rounds(site, "ires-tomazoni", "Chapecó")   # nº 9
    # R3: 112 chips − 100 − 200 penalty (Art. 12) = −188; R4: 88 chips − 100 × (1 + 1 re-registration) = −112.
    # After R1 −65, R2 −64 → −129; R3 −317, the lowest of the 20 (nº 16 −305, nº 17 −287) → 20º; R4 −429,
    # still the lowest (nº 16 −372) → 20º
    assert t["rows"][2:] == [["3ª rodada", "−317", "20º", "−188", "mesa 4", "112", "penalidade de 200 fichas"],
                             ["4ª rodada", "−429", "20º", "−112", "mesa 2", "88", "1 reinscrição"]]
    assert "Sem prêmio em dinheiro (Art. 23)." in text(site, "jogadores/ires-tomazoni/")


def test_a_championship_in_progress_stops_at_the_first_round_not_counted(site):
    t = _rounds(site, "gentil-dalmolin", "Xanxerê")   # nº 2 in xanxere.yaml, in progress
    # R1 150 chips → +50, 3rd behind nº 7 +90 and nº 1 +61; R2 120 → +20, +70, tied in every Art. 22 criterion
    # with nº 9 (+20 +50: 2 positive rounds, 70 won, best 50) behind nº 7 +150 and nº 13 +110 → 3º=; the 3rd
    # round is drawn (table 3) but not counted
    assert t["rows"] == [["1ª rodada", "+50", "3º", "+50", "mesa 2", "150", ""],
                         ["2ª rodada", "+70", "3º=", "+20", "mesa 2", "120", ""],
                         ["3ª rodada", "—", "—", "—", "mesa 3", "—", "mesa ainda não contada"]]
    assert "Prêmio: definido no encerramento do campeonato." in text(site, "jogadores/gentil-dalmolin/")
