"""Quatrilho championship rules, one test per article, with the values worked by hand in the comments."""
from __future__ import annotations

import json
from decimal import Decimal

from league.site.api import api_files
from league.games.quatrilho.views import brl
from league.games.quatrilho import rules as R
from league.standings.core import Row
from tests.quatrilho_fixtures import EIGHT, errors, head, line, messages, registrations, result, run

REL = "content/seasons/2026/quatrilho/teste.yaml"


def line_no(text: str, needle: str) -> int:
    return next(i for i, ln in enumerate(text.splitlines(), start=1) if needle in ln)


# ---------------------------------------------------------------- Art. 8, 12, 15, 19: the round result

def test_quatrilho_art_8_round_result_is_chips_minus_the_stake():
    assert R.round_result(134, 0, 0) == 34          # 134 − 100
    assert R.round_result(66, 0, 0) == -34          # 66 − 100
    assert R.round_result(100, 0, 0) == 0


def test_quatrilho_art_15_19_a_rebuy_costs_another_stake():
    assert R.round_result(150, 1, 0) == -50         # 150 − 100 × (1 + 1)
    assert R.round_result(0, 1, 0) == -200          # lost the talha too (Art. 19): the commission pays the rest


def test_quatrilho_art_12_penalty_is_deducted_on_top_of_the_chips():
    assert R.round_result(112, 0, 200) == -188      # 112 − 100 − 200


def test_quatrilho_art_12_penalty_end_to_end(tmp_path):
    # player 1 counted 150 chips (+50) but arrived late at the restart: 150 − 100 − 200 = −150
    text = EIGHT + "    penalties:\n      - {player: 1, reason: Atraso no reinício (Art. 12)}\n"
    res = result(run(tmp_path, {"teste": text}))
    assert line(res, 1).rounds == [-150]
    assert line(res, 1).cells[0].penalty == 200      # 200 chips unless the file says otherwise (Art. 12)
    assert line(res, 2).position == 1                # +50, alone now


# ---------------------------------------------------------------- the conservation check (Art. 8, 16, 19)

def test_quatrilho_art_8_19_expected_table_sum():
    assert R.expected_table_sum(5, 0, 0) == 500
    assert R.expected_table_sum(5, 1, 25) == 625    # 100 × (5 + 1) + 25 paid by the commission
    assert R.expected_table_sum(6, 0, 0) == 600     # 5 players and the joker who took a seat (Art. 16)


CONSERVATION = head() + registrations(10) + """\
rounds:
  - tables:
      1: {1: 120, 2: 80, 3: 100, 4: 100, 5: 100}
      2: {6: 100, 7: 100, 8: 100, 9: 100, 10: 100}
  - tables:
      1: {1: 100, 2: 100, 3: 100, 4: 100, 5: 100}
      2: {6: 105, 7: 100, 8: 100, 9: 100, 10: 100}
"""


def test_quatrilho_conservation_passes_when_every_table_adds_up(tmp_path):
    ok = CONSERVATION.replace("6: 105, 7: 100", "6: 105, 7: 95")   # 105 + 95 + 300 = 500
    report = run(tmp_path, {"teste": ok})
    assert not [d for d in report.diagnostics if d.code == "conservation"]


def test_quatrilho_conservation_fails_with_file_line_round_table_and_sums(tmp_path):
    # round 2, table 2: 105 + 4 × 100 = 505; expected 5 × 100 = 500
    diags = errors(tmp_path, {"teste": CONSERVATION})
    assert len(diags) == 1
    d = diags[0]
    assert d.message == "mesa 2, rodada 2: soma 505, esperado 500 (5 jogadores, 0 reinscrições)"
    assert (d.mark.path, d.mark.line, d.mark.col) == (REL, line_no(CONSERVATION, "6: 105"), 7)
    assert "adjustments: [{table: 2, chips: 5" in d.hint
    assert d.format_text().startswith(f"{REL}:{d.mark.line}:7: erro: mesa 2, rodada 2: soma 505")


def test_quatrilho_conservation_counts_rebuys_jokers_and_commission(tmp_path):
    # table 1: 5 players, 1 rebuy (player 2), the commission paid 25 for player 2's debt (Art. 19):
    #   expected 100 × (5 + 1) + 25 = 625; counted 250 + 0 + 125 + 125 + 125 = 625
    # table 2: 4 players and the joker C1 (Art. 16): expected 100 × 5 = 500; counted 4 × 110 + 60 = 500
    text = head() + registrations(9) + """\
rounds:
  - tables:
      1: {1: 250, 2: 0, 3: 125, 4: 125, 5: 125}
      2: {6: 110, 7: 110, 8: 110, 9: 110, C1: 60}
    rebuys: {2: 1}
    commission_paid: {1: 25}
"""
    res = result(run(tmp_path, {"teste": text}))
    assert line(res, 2).rounds == [-200]             # 0 − 100 × 2: the debt paid by the commission is not his
    assert line(res, 1).rounds == [150]
    assert line(res, 6).rounds == [10]
    assert [ln.player for ln in res.lines if ln.player.startswith("C")] == []   # jokers never classified
    wrong = text.replace("commission_paid: {1: 25}", "commission_paid: {1: 20}")
    assert messages(errors(tmp_path / "b", {"teste": wrong})) == [
        "mesa 1, rodada 1: soma 625, esperado 620 (5 jogadores, 1 reinscrição, 20 pagas pela comissão)"]


def test_quatrilho_conservation_adjustment_turns_the_error_into_a_warning(tmp_path):
    text = CONSERVATION + "    adjustments:\n      - {table: 2, chips: 5, reason: Ficha a mais, conferido pelo fiscal}\n"
    text = text.replace("reason: Ficha a mais, conferido pelo fiscal", "reason: \"Ficha a mais, conferido pelo fiscal\"")
    report = run(tmp_path, {"teste": text})
    warn = [d for d in report.diagnostics if d.code == "adjustment"]
    assert [d.message for d in warn] == ["mesa 2, rodada 2: soma 505, esperado 500 (5 jogadores, 0 reinscrições); "
                                         "diferença de +5 aceita pelo ajuste: Ficha a mais, conferido pelo fiscal"]
    assert warn[0].mark.line == line_no(text, "6: 105")
    wrong = text.replace("chips: 5,", "chips: -5,")
    diags = errors(tmp_path / "b", {"teste": wrong})
    assert diags[0].message.startswith("mesa 2, rodada 2: soma 505, esperado 500 (5 jogadores, 0 reinscrições); "
                                       "o ajuste registrado")


def test_quatrilho_joker_chips_not_written_skip_the_check_with_a_warning(tmp_path):
    text = head(status="in_progress") + registrations(3) + """\
rounds:
  - tables:
      1: {1: 100, 2: 100, 3: 90, C1: null}
"""
    report = run(tmp_path, {"teste": text})
    assert any(d.code == "unchecked" and "coringa C1" in d.message for d in report.diagnostics)


# ---------------------------------------------------------------- registrations (Art. 2, 5, 6)

def test_quatrilho_art_2_at_most_20_players(tmp_path):
    text = head() + registrations(21) + "rounds: []\n"
    assert "21 inscritos; o máximo é 20 (Art. 2)" in messages(errors(tmp_path, {"teste": text}))


def test_quatrilho_art_2_limit_is_a_setting(tmp_path):
    text = head(status="scheduled") + registrations(21)
    run(tmp_path, {"teste": text}, season="quatrilho: {max_players: 24}\n")


def test_quatrilho_art_5_late_registration_plays_from_round_2(tmp_path):
    # 9 players in round 1 (5 + 4), the late player 10 joins in round 2 (5 + 5); his round 1 counts 0
    text = head() + registrations(10, late={10: 2}) + """\
rounds:
  - tables:
      1: {1: 100, 2: 100, 3: 100, 4: 100, 5: 100}
      2: {6: 100, 7: 100, 8: 100, 9: 100}
  - tables:
      1: {1: 100, 2: 100, 3: 100, 4: 100, 5: 100}
      2: {6: 100, 7: 100, 8: 100, 9: 90, 10: 110}
"""
    res = result(run(tmp_path, {"teste": text}))
    assert line(res, 10).rounds == [0, 10]
    assert line(res, 10).cells[0].status == "late"


def test_quatrilho_art_5_late_registration_only_until_round_1(tmp_path):
    text = head(status="scheduled") + registrations(4, late={4: 3})
    diags = errors(tmp_path, {"teste": text})
    assert messages(diags) == ["inscrição atrasada do jogador 4 a partir da rodada 3; só é permitida até o fim da 1ª "
                               "rodada, para jogar a partir da 2ª (Art. 5)"]


def test_quatrilho_art_5_late_player_cannot_sit_in_round_1(tmp_path):
    text = head() + registrations(5, late={5: 2}) + "rounds:\n  - tables:\n      1: {1: 100, 2: 100, 3: 100, 4: 100, 5: 100}\n"
    assert "o jogador 5 (q05) foi inscrito com atraso e joga a partir da rodada 2 (Art. 5)" in messages(
        errors(tmp_path, {"teste": text}))


def test_quatrilho_art_6_registration_numbers_and_players(tmp_path):
    text = head(status="scheduled") + "players:\n  1: q01\n  dois: q02\n  3: q01\n  4: q4\n"
    diags = errors(tmp_path, {"teste": text})
    assert messages(diags) == [
        "número de inscrição inválido: recebido \"dois\" (texto); esperado um número inteiro ≥ 1 (Art. 6)",
    ]
    text = head(status="scheduled") + "players:\n  1: q01\n  3: q01\n  4: q4\n"
    diags = errors(tmp_path / "b", {"teste": text})
    assert messages(diags) == ["o jogador \"q01\" já está inscrito com o número 1",
                               "jogador desconhecido \"q4\" (não está em players.yaml)"]
    assert "\"q04\"" in diags[1].hint


# ---------------------------------------------------------------- seating (Art. 9, 14, 16)

def test_quatrilho_art_9_one_table_per_player_per_round(tmp_path):
    text = head() + registrations(8) + """\
rounds:
  - tables:
      1: {1: 100, 2: 100, 3: 100, 4: 100}
      2: {5: 100, 6: 100, 7: 100, 8: 100, 1: 100}
"""
    diags = errors(tmp_path, {"teste": text})
    first = line_no(text, "1: {1: 100")
    assert messages(diags) == [f"o jogador 1 (q01) já está na mesa 1 da rodada 1 (linha {first})"]
    assert diags[0].mark.line == first + 1


def test_quatrilho_every_eligible_player_is_seated_or_absent(tmp_path):
    text = head() + registrations(9) + "rounds:\n  - tables:\n      1: {1: 100, 2: 100, 3: 100, 4: 100}\n" \
        "      2: {5: 100, 6: 100, 7: 100, 8: 100}\n"
    diags = errors(tmp_path, {"teste": text})
    assert messages(diags) == ["rodada 1: 1 jogador inscrito sem mesa: 9 (q09)"]
    assert "absent: [9]" in diags[0].hint
    res = result(run(tmp_path / "b", {"teste": text + "    absent: [9]\n"}))
    assert line(res, 9).rounds == [0] and line(res, 9).cells[0].status == "absent"


def test_quatrilho_art_14_tables_of_4_or_5(tmp_path):
    text = head() + registrations(9) + """\
rounds:
  - tables:
      1: {1: 100, 2: 100, 3: 100}
      2: {4: 100, 5: 100, 6: 100, 7: 100, 8: 100, 9: 100}
"""
    assert messages(errors(tmp_path, {"teste": text})) == [
        "mesa 1, rodada 1: 3 jogadores; uma mesa tem 4 ou 5 (Art. 14)",
        "mesa 2, rodada 1: 6 jogadores; uma mesa tem 4 ou 5 (Art. 14)"]
    # three players and a joker make a table of 4 (Art. 12, 16)
    fixed = text.replace("3: 100}", "3: 100, C1: 100}").replace("9: 100}\n", "9: 100}\n").replace(
        "2: {4: 100, 5: 100, 6: 100, 7: 100, 8: 100, 9: 100}", "2: {4: 100, 5: 100, 6: 100, 7: 100, 8: 100}\n"
        "    absent: [9]")
    run(tmp_path / "b", {"teste": fixed})


# ---------------------------------------------------------------- Art. 15, 16: disqualification

DQ = EIGHT + "    disqualified:\n      - {player: 1, reason: Art. 15}\n"


def test_quatrilho_art_16_disqualified_keeps_his_line_but_no_title_or_prize(tmp_path):
    # 1 and 2 share +50; 1 is disqualified: 2 is the first eligible player and takes the 1st prize alone.
    # registration money 8 × 10,00 = 80,00; prizes 30% 24,00 · 20% 16,00 · 10% 8,00
    res = result(run(tmp_path, {"teste": DQ}))
    one, two = line(res, 1), line(res, 2)
    assert (one.position, one.tied, two.position, two.tied) == (1, True, 1, True)
    assert one.disqualified_in == 1 and not one.award.champion and one.award.prize == 0
    assert two.award.eligible_place == 1 and two.award.prize == Decimal("24.00")
    assert [ln.number for ln in res.lines if ln.award.champion] == [2, 5, 6, 7, 8]
    assert line(res, 5).award.prize == Decimal("16.00") and line(res, 6).award.prize == Decimal("8.00")


def test_quatrilho_art_16_disqualified_player_plays_no_later_round(tmp_path):
    text = DQ + "  - tables:\n      1: {1: 100, 2: 100, 3: 100, 4: 100}\n      2: {5: 100, 6: 100, 7: 100, 8: 100}\n"
    diags = errors(tmp_path, {"teste": text})
    dq_line = line_no(text, "{player: 1, reason: Art. 15}")
    assert messages(diags) == [f"o jogador 1 (q01) foi desclassificado na rodada 1 (linha {dq_line}) e não joga mais "
                               "(Art. 16)"]
    later = DQ + "  - tables:\n      1: {C1: 100, 2: 100, 3: 100, 4: 100}\n      2: {5: 100, 6: 100, 7: 100, 8: 100}\n"
    res = result(run(tmp_path / "b", {"teste": later}))
    assert line(res, 1).cells[1].status == "out" and line(res, 1).rounds == [50, 0]


def test_quatrilho_art_15_16_joker_takes_the_seat_of_the_disqualified_player(tmp_path):
    # table 1: 5 players; player 1 ran out of chips (0) and was disqualified, the joker C1 finished with 80:
    #   6 seats → 600 = 0 + 130 + 130 + 130 + 130 + 80; the table still counts as a table of 5 (Art. 14)
    text = head() + registrations(9) + """\
rounds:
  - tables:
      1: {1: 0, 2: 130, 3: 130, 4: 130, 5: 130, C1: 80}
      2: {6: 100, 7: 100, 8: 100, 9: 100}
    disqualified:
      - {player: 1, reason: Ficou devendo e não se reinscreveu (Art. 15)}
"""
    res = result(run(tmp_path, {"teste": text}))
    assert line(res, 1).rounds == [-100] and line(res, 1).disqualified_in == 1


# ---------------------------------------------------------------- Art. 19: rebuys

def test_quatrilho_art_19_one_rebuy_per_round(tmp_path):
    text = EIGHT.replace("1: {1: 150", "1: {1: 350") + "    rebuys: {1: 2}\n"
    assert messages(errors(tmp_path, {"teste": text})) == [
        "o jogador 1 (q01) tem 2 reinscrições na rodada 1; o máximo é 1 por rodada (Art. 19)"]
    res = result(run(tmp_path / "b", {"teste": text}, season="quatrilho: {max_rebuys_per_round: 2}\n"))
    assert line(res, 1).rounds == [50]               # 350 − 100 × 3
    assert res.registration_money == Decimal("100.00")   # (8 + 2) × 10,00


# ---------------------------------------------------------------- Art. 21, 22: classification

def rows(data: dict) -> dict:
    return {k: Row(k, {"rounds": v, **R.metrics(v)}) for k, v in data.items()}


def order(data: dict, draws=()):
    ranked, _ = R.classify(rows(data), ("net", "positive_rounds", "points_won", "best_round", "draw"), draws)
    return [(r.key, r.position, r.decided_by) for r in ranked]


def test_quatrilho_art_21_net_points():
    # net = sum of the round results: +34 −20 +50 +49 = 113 (outputs.md example)
    assert R.metrics([34, -20, 50, 49]) == {"net": 113, "positive_rounds": 3, "points_won": 133, "best_round": 50}
    assert R.metrics([None, 10, 0, -5]) == {"net": 5, "positive_rounds": 1, "points_won": 10, "best_round": 10}
    assert R.metrics([-5, -10]) == {"net": -15, "positive_rounds": 0, "points_won": 0, "best_round": 0}
    assert order({"a": [30, 30], "b": [100, -10], "c": [0, 0]}) == [("b", 1, "net"), ("a", 2, "net"), ("c", 3, None)]


def test_quatrilho_art_22_1_more_rounds_with_points_won():
    # both +260; a: +80 +70 −30 +140 → 3 positive rounds (won 290); b: +210 −40 +150 −60 → 2 (won 360)
    assert order({"b": [210, -40, 150, -60], "a": [80, 70, -30, 140]}) == [("a", 1, "positive_rounds"), ("b", 2, None)]


def test_quatrilho_art_22_2_larger_sum_of_points_won():
    # both +120 with 2 positive rounds; a won 100 + 60 = 160, b won 90 + 50 = 140
    assert order({"b": [90, 50, -20, 0], "a": [100, -40, 60, 0]}) == [("a", 1, "points_won"), ("b", 2, None)]


def test_quatrilho_art_22_3_best_single_round():
    # both +140, 2 positive rounds, 170 won; best round a 120, b 90
    assert order({"b": [90, 80, -30, 0], "a": [120, -30, 50, 0]}) == [("a", 1, "best_round"), ("b", 2, None)]


def test_quatrilho_art_3_recorded_draw_then_shared():
    from league.models import DrawRecord
    tie = {"a": [30, -10, 20, 0], "b": [20, 0, 30, -10]}        # +40, 2 rounds, 50 won, best 30: equal in all
    assert order(tie) == [("a", 1, None), ("b", 1, None)]        # shared
    draw = DrawRecord(frozenset({"a", "b"}), ("b", "a"), "Sorteio da comissão", None)
    assert order(tie, [draw]) == [("b", 1, "draw"), ("a", 2, None)]


def test_quatrilho_art_21_22_end_to_end_shared_first_place(tmp_path):
    # 1 and 2 both +50 after one round: tied in every criterion → 1º= for both, a warning asks for a decision;
    # they share the 1st and 2nd prizes: (24,00 + 16,00) / 2 = 20,00 each; 5 is 3rd and gets 8,00
    report = run(tmp_path, {"teste": EIGHT})
    res = result(report)
    assert [(ln.number, ln.position, ln.tied) for ln in res.lines] == [
        (1, 1, True), (2, 1, True), (5, 3, False), (6, 4, False), (7, 5, False), (8, 6, False), (3, 7, True),
        (4, 7, True)]
    assert [line(res, n).award.prize for n in (1, 2, 5, 6)] == [Decimal("20.00"), Decimal("20.00"),
                                                                 Decimal("8.00"), Decimal("0")]
    assert [ln.number for ln in res.lines if ln.award.champion] == [1, 2, 5, 6, 7]
    warn = [d for d in report.diagnostics if d.code == "draw-needed"]
    assert len(warn) == 1 and "no 1º lugar entre os jogadores 1, 2" in warn[0].message   # 7º= decides nothing
    decided = run(tmp_path / "b", {"teste": EIGHT + "draws:\n  - {players: [1, 2], order: [2, 1], note: Sorteio}\n"})
    res = result(decided)
    assert [(ln.number, ln.position, ln.ranked.decided_by) for ln in res.lines[:3]] == [
        (2, 1, "draw"), (1, 2, "net"), (5, 3, "net")]
    assert [line(res, n).award.prize for n in (2, 1)] == [Decimal("24.00"), Decimal("16.00")]
    assert not [d for d in decided.diagnostics if d.code == "draw-needed"]


def test_quatrilho_draw_must_name_registered_players_once(tmp_path):
    text = EIGHT + "draws:\n  - {players: [1, 22], order: [22, 1]}\n  - {players: [1, 2], order: [1, 1]}\n"
    assert messages(errors(tmp_path, {"teste": text})) == [
        "draws: o número 22 não está inscrito",
        "order: deve conter exatamente os jogadores do sorteio, cada um uma vez"]


# ---------------------------------------------------------------- Art. 23: prizes and state qualifiers

def test_quatrilho_art_7_23_registration_money_and_prizes():
    # (20 registrations + 6 re-registrations) × R$ 55,00 = R$ 1.430,00
    money = R.registration_money(20, 6, Decimal("55.00"))
    assert money == Decimal("1430.00")
    # 25% = 357,50 · 15% = 214,50 · 10% = 143,00 · 6% = 85,80; place 5 has no percentage here
    table = R.prize_amounts(money, {1: Decimal(25), 2: Decimal(15), 3: Decimal(10), 4: Decimal(6), 6: Decimal(1)})
    assert table == [Decimal("357.50"), Decimal("214.50"), Decimal("143.00"), Decimal("85.80"), Decimal("0.00"),
                     Decimal("14.30")]
    # two players sharing places 2–3: (214,50 + 143,00) / 2 = 178,75 each; sharing 6–7: 14,30 / 2 = 7,15
    assert R.shared_prize(table, 2, 2) == Decimal("178.75")
    assert R.shared_prize(table, 6, 2) == Decimal("7.15")


def test_quatrilho_prizes_cannot_exceed_100_percent(tmp_path):
    text = head(prizes="{1: 60, 2: 30, 3: 20}", status="scheduled") + registrations(4)
    assert messages(errors(tmp_path, {"teste": text})) == [
        "os prêmios somam 110% do valor das inscrições; o máximo é 100% (Art. 23)"]


def test_brazilian_money_format():
    # Babel's pt_BR currency format: a no-break space keeps "R$" with the amount
    assert brl(Decimal("1234.56")) == "R$\xa01.234,56"
    assert brl(Decimal("357.5")) == "R$\xa0357,50"
    assert brl(Decimal("0")) == "R$\xa00,00"
    assert brl(Decimal("1234567")) == "R$\xa01.234.567,00"


def test_quatrilho_art_23_state_qualifiers_across_championships(tmp_path):
    # "a" (10/05): 1 = 2 (+50), 5, 6 → 4 qualifiers q01, q02, q05, q06 (the 1st place is shared: both qualify)
    # "b" (14/06): the same results but players 5 and 6 swapped with 1 and 2 by their registrations:
    #   q05 and q06 qualified already in "a": listed once, under "a"; nobody replaces them in "b"
    a = EIGHT + "draws:\n  - {players: [1, 2], order: [1, 2]}\n"
    b = (head(name="Outro", date="2026-06-14") + "players:\n  1: q05\n  2: q06\n  3: q03\n  4: q04\n  5: q09\n"
         "  6: q10\n  7: q07\n  8: q08\n" + EIGHT[EIGHT.index("rounds:"):] + "draws:\n  - {players: [1, 2], order: [1, 2]}\n")
    report = run(tmp_path, {"b": b, "a": a})
    sr = report.results.seasons[0]
    got = [(q.championship.championship.id, q.line.position, q.line.player) for q in sr.qualifiers]
    assert got == [("a", 1, "q01"), ("a", 2, "q02"), ("a", 3, "q05"), ("a", 4, "q06"),
                   ("b", 3, "q09"), ("b", 4, "q10")]


def test_quatrilho_no_titles_prizes_or_qualifiers_before_the_end(tmp_path):
    report = run(tmp_path, {"teste": EIGHT.replace("status: final", "status: in_progress")})
    res = result(report)
    assert not any(ln.award.champion or ln.award.prize for ln in res.lines)
    assert report.results.seasons[0].qualifiers == []
    assert any(d.code == "in-progress" for d in report.diagnostics)
    assert not any(d.code == "draw-needed" for d in report.diagnostics)


# ---------------------------------------------------------------- drawn rounds not yet counted

def test_quatrilho_round_drawn_but_not_counted(tmp_path):
    text = EIGHT.replace("status: final", "status: in_progress") + \
        "  - tables:\n      1: {1: null, 5: null, 3: null, 7: null}\n      2: {2: null, 6: null, 4: null, 8: null}\n"
    res = result(run(tmp_path, {"teste": text}))
    assert line(res, 1).cells[1].status == "pending" and line(res, 1).rounds == [50, 0]
    final = text.replace("status: in_progress", "status: final")
    assert "mesa 1, rodada 2: sem as fichas contadas, mas o campeonato está encerrado (status: final)" in messages(
        errors(tmp_path / "b", {"teste": final}))
    half = text.replace("1: {1: null, 5: null", "1: {1: 100, 5: null")
    assert "mesa 1, rodada 2: falta a contagem de fichas do jogador 5" in messages(errors(tmp_path / "c", {"teste": half}))


# ---------------------------------------------------------------- shape errors speak of tables and registrations

def test_quatrilho_shape_errors_name_the_table_and_the_seat(tmp_path):
    text = head() + registrations(4) + """\
rounds:
  - tables:
      1: {1: -5, 2: "12a", q03: 100, c1: 100}
      mesa-2: {4: 100}
    rebuys: {2: -1}
    penaltys: []
"""
    diags = errors(tmp_path, {"teste": text})
    assert messages(diags) == [
        "mesa 1, rodada 1: fichas do jogador 1 inválidas: recebido -5 (número); esperado um número inteiro ≥ 0, "
        "ou null se a mesa ainda não foi contada",
        "mesa 1, rodada 1: fichas do jogador 2 inválidas: recebido \"12a\" (texto); esperado um número inteiro ≥ 0, "
        "ou null se a mesa ainda não foi contada",
        "mesa 1, rodada 1: assento inválido: recebido \"q03\" (texto); esperado o número de inscrição do jogador, ou "
        "C1, C2… para um coringa (Art. 16)",
        "mesa 1, rodada 1: assento inválido: recebido \"c1\" (texto); esperado o número de inscrição do jogador, ou "
        "C1, C2… para um coringa (Art. 16)",
        "número de mesa inválido: recebido \"mesa-2\" (texto); esperado um número inteiro ≥ 1",
        "rebuys, rodada 1: quantidade inválida para o jogador 2: recebido -1 (número); esperado um número inteiro "
        "(1 = uma reinscrição ou talha)",
        "chave desconhecida \"penaltys\" em rounds[1]",
    ]
    assert [d.hint for d in diags][2:4] == ["use o número de inscrição: 3", "escreva \"C1\""]
    assert diags[-1].hint == "você quis dizer \"penalties\"?"


# ---------------------------------------------------------------- JSON and CSV (outputs.md)

CHAMPIONSHIP_KEYS = ["season", "championship", "status", "classification", "registration_money"]
LINE_KEYS = ["position", "tied", "player", "number", "rounds", "net", "positive_rounds", "points_won", "best_round",
             "champion", "disqualified", "prize", "decided_by"]
# the names issue 37 added beside the ids; the keys of outputs.md stay, in their order
NAMES = {"championship_name", "player_name"}


def contract(record: dict) -> dict:
    return {k: v for k, v in record.items() if k not in NAMES}


def test_quatrilho_json_has_exactly_the_keys_of_outputs_md(tmp_path):
    report = run(tmp_path, {"teste": DQ})
    files = api_files(report.results)
    data = json.loads(files["api/2026/quatrilho/teste.json"])
    assert list(contract(data)) == CHAMPIONSHIP_KEYS
    assert all(list(contract(e)) == LINE_KEYS for e in data["classification"])
    # the names beside the ids: the file's `name:` (head()) and players.yaml's (write_content: "Jogador <id>")
    assert data["championship_name"] == "Campeonato Teste"
    assert data["classification"][0]["player_name"] == "Jogador q01"
    first = contract(data["classification"][0])
    assert first == {"position": 1, "tied": True, "player": "q01", "number": 1, "rounds": [50], "net": 50,
                     "positive_rounds": 1, "points_won": 50, "best_round": 50, "champion": False,
                     "disqualified": True, "prize": 0, "decided_by": None}
    assert data["classification"][1]["prize"] == 24 and data["registration_money"] == 80
    q = json.loads(files["api/2026/quatrilho/qualifiers.json"])
    assert list(q) == ["season", "qualifiers"]
    assert q["qualifiers"][0] == {"championship": "teste", "championship_name": "Campeonato Teste", "position": 1,
                                  "player": "q02", "player_name": "Jogador q02"}
    assert all(list(contract(e)) == ["championship", "position", "player"] for e in q["qualifiers"])
    csv = files["api/2026/quatrilho/teste-classificacao.csv"].splitlines()
    assert csv[0] == ("position,tied,player,number,round_1,net,positive_rounds,points_won,best_round,champion,"
                      "disqualified,prize,decided_by")
    assert csv[1] == "1,true,q01,1,50,50,1,50,50,false,true,0,"
    assert files["api/2026/quatrilho/teste-mesas.csv"].splitlines()[:2] == [
        "round,table,seat,number,player,chips,rebuys,penalty,result", "1,1,1,1,q01,150,0,0,50"]
    assert files["api/2026/quatrilho/qualifiers.csv"].splitlines()[0] == "championship,position,player"
