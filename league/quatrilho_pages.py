"""The Quatrilho pages' view models: championship, season overview and player history, all in pt-BR."""
from __future__ import annotations

from collections import Counter
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Iterator

from league.explain import signed
from league.quatrilho import (
    Cell, Championship, ChampionshipResult, QRound, needs_decision, pct_text, plural, table_sum,
)
from league.rules import quatrilho as R
from league.standings.core import position_blocks

STATUS = {"final": "encerrado", "in_progress": "em andamento", "scheduled": "agendado"}
TIED_IN = {"net": "pontos positivos", "positive_rounds": "rodadas com pontos ganhos",
           "points_won": "soma dos pontos ganhos", "best_round": "melhor rodada"}
AHEAD = {"net": ("por ter mais pontos positivos", "por ter menos pontos positivos"),
         "positive_rounds": ("por ter mais rodadas com pontos ganhos", "por ter menos rodadas com pontos ganhos"),
         "points_won": ("pela maior soma dos pontos ganhos nas rodadas", "pela menor soma dos pontos ganhos nas rodadas"),
         "best_round": ("pela maior pontuação numa só rodada", "pela menor pontuação numa só rodada")}


def brl(value: Decimal) -> str:
    """R$ with Brazilian separators: R$ 1.234,56."""
    q = Decimal(value).quantize(R.CENT, rounding=ROUND_HALF_UP)
    return "R$ " + f"{q:,.2f}".replace(",", " ").replace(".", ",").replace(" ", ".")


def champ_url(site, ch: Championship) -> str:
    return site.url(ch.season, "quatrilho", ch.id)


def _value_text(key: str, v: Any) -> str:
    return signed(v) if key == "net" else str(v)


def tie_sentences(site, res: ChampionshipResult) -> dict[int, str]:
    """For every line tied on net points with a neighbour, one sentence in pt-BR saying how the tie ended.
    # Quatrilho Art. 22 (criteria), Art. 3 (decision of the commission)"""
    ch = res.championship
    order = list(ch.config.tiebreaks)
    out: dict[int, list[str]] = {}
    lines = res.lines
    for i, ln in enumerate(lines[:-1]):
        b = ln.ranked.boundary
        if b is None or b.key == order[0]:
            continue
        nxt = lines[i + 1]
        before = order[:order.index(b.key)] if b.key in order else order
        tied_in = _and([f"{TIED_IN[k]} ({_value_text(k, ln.values[k])})" for k in before if k in TIED_IN])
        a_name, b_name = site.player_name(ln.player), site.player_name(nxt.player)
        if b.key == "draw":
            d = next((d for d in ch.draws if ln.number in d.members and nxt.number in d.members), None)
            why = "decisão da comissão registrada (Art. 3)" + (f": {d.note}" if d and d.note else "")
            out.setdefault(ln.number, []).append(f"Empatado com {b_name} em todos os critérios do Art. 22; "
                                                 f"à frente por {why}.")
            out.setdefault(nxt.number, []).append(f"Empatado com {a_name} em todos os critérios do Art. 22; "
                                                  f"atrás por {why}.")
            continue
        up, down = AHEAD[b.key]
        out.setdefault(ln.number, []).append(f"Empatado com {b_name} em {tied_in}; à frente {up} "
                                             f"({b.above} contra {b.below}) — Art. 22.")
        out.setdefault(nxt.number, []).append(f"Empatado com {a_name} em {tied_in}; atrás {down} "
                                              f"({b.below} contra {b.above}) — Art. 22.")
    for block in position_blocks([ln.ranked for ln in lines]):
        if len(block) < 2:
            continue
        members = [res.by_number[r.key] for r in block]
        v = members[0].values
        pending = needs_decision(res, members)
        for ln in members:
            others = _and([site.player_name(o.player) for o in members if o is not ln])
            out.setdefault(ln.number, []).append(
                f"Empatado com {others} em todos os critérios do Art. 22 ({_value_text('net', v['net'])}; "
                f"{plural(v['positive_rounds'], 'rodada', 'rodadas')} com pontos ganhos; "
                f"{v['points_won']} pontos ganhos; melhor rodada {v['best_round']}): posição dividida"
                + (", aguardando decisão da comissão (Art. 3)." if pending else "."))
    return {k: " ".join(v) for k, v in out.items()}


def _and(items: list[str]) -> str:
    """"a", "a e b", "a, b e c"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " e " + items[-1]


def _cell_view(c: Cell) -> dict:
    details = []
    if c.table is not None:
        details.append(f"mesa {c.table}")
    if c.chips is not None:
        details.append(f"{c.chips} fichas")
    if c.rebuys:
        details.append(plural(c.rebuys, "reinscrição", "reinscrições"))
    if c.penalty:
        details.append(f"penalidade de {c.penalty} fichas")
    if c.disqualified:
        details.append("desclassificado nesta rodada")
    text = {"played": signed(c.result), "pending": "a contar", "late": "—", "out": "—",
            "absent": "ausente" if not c.penalty else signed(c.result)}[c.status]
    note = {"late": "inscrição atrasada (Art. 5)", "out": "desclassificado antes (Art. 16)",
            "absent": "ausente", "pending": "mesa ainda não contada"}.get(c.status)
    if note:
        details.insert(0, note)
    return {"text": text, "detail": ", ".join(details), "status": c.status, "dq": c.disqualified,
            "rebuys": c.rebuys, "penalty": c.penalty}


def championship_view(site, season_result, res: ChampionshipResult) -> dict:
    ch = res.championship
    final = ch.is_final
    sentences = tie_sentences(site, res)
    qualified = {q.line.player: q.championship.championship for q in season_result.qualifiers}
    dq_reason = {d.player: (r.number, d.reason) for r in ch.rounds for d in r.disqualified}
    name = site.player_name
    lines = []
    for ln in res.lines:
        q = qualified.get(ln.player)
        lines.append({
            "pos": f"{ln.position}º" + ("=" if ln.tied else ""), "number": ln.number, "name": name(ln.player),
            "url": site.player_url(ln.player), "cells": [_cell_view(c) for c in ln.cells],
            "net": signed(ln.values["net"]), "positive_rounds": ln.values["positive_rounds"],
            "points_won": ln.values["points_won"], "best_round": ln.values["best_round"],
            "champion": ln.award.champion, "prize": brl(ln.award.prize) if ln.award.prize else "",
            "dq": ln.disqualified_in is not None,
            "dq_text": (f"desclassificado na rodada {dq_reason[ln.number][0]} ({dq_reason[ln.number][1]})"
                        if ln.number in dq_reason else ""),
            "why": sentences.get(ln.number, ""),
            "qualified": q is not None and q.id == ch.id,
            "qualified_elsewhere": q.name if q is not None and q.id != ch.id and ln.award.eligible_place is not None
            and ln.award.eligible_place <= ch.config.state_qualifiers else None,
        })
    sharing = Counter(ln.award.eligible_place for ln in res.lines)     # players at each eligible place
    prizes = []
    for place, amount in enumerate(res.prizes, start=1):
        winners = [name(ln.player) for ln in res.lines if ln.award.eligible_place is not None
                   and ln.award.eligible_place <= place < ln.award.eligible_place + sharing[ln.award.eligible_place]]
        prizes.append({"place": f"{place}º", "pct": pct_text(ch.prizes.get(place, Decimal(0))), "amount": brl(amount),
                       "winners": ", ".join(winners) if final else "a definir",
                       "shared": final and len(winners) > 1})
    rounds = [_round_view(site, res, r) for r in ch.rounds]
    return {
        "title": ch.name, "season": season_result.season, "ch": ch, "status": STATUS[ch.status], "final": final,
        "lines": lines, "round_numbers": [r.number for r in ch.rounds], "rounds": rounds,
        "champions": [{"pos": f"{ln.award.eligible_place}º", "name": name(ln.player), "url": site.player_url(ln.player),
                       "medal": ln.award.eligible_place <= 3, "prize": brl(ln.award.prize) if ln.award.prize else ""}
                      for ln in res.champions],
        "champions_count": ch.config.champions, "qualifiers_count": ch.config.state_qualifiers,
        "prizes": prizes, "money": brl(res.registration_money), "fee": brl(ch.fee),
        "registrations": plural(res.registrations, "inscrição", "inscrições"),
        "rebuys": plural(res.rebuys, "reinscrição", "reinscrições"),
        "draws": [{"order": ", ".join(f"{n} ({name(ch.players[n].player)})" for n in d.order), "note": d.note}
                  for d in ch.draws],
        "penalties": [{"round": r.number, "number": p.player, "name": name(ch.players[p.player].player),
                       "chips": p.chips, "reason": p.reason} for r in ch.rounds for p in r.penalties],
        "rebuy_list": [{"round": r.number, "number": n, "name": name(ch.players[n].player), "count": k}
                       for r in ch.rounds for n, k in sorted(r.rebuys.items())],
        "overview_url": site.url(ch.season, "quatrilho"),
        "api": site.url("api", ch.season, "quatrilho"), "source": site.source(ch.mark),
    }


def _round_view(site, res: ChampionshipResult, r: QRound) -> dict:
    ch = res.championship
    tables = []
    for t in r.tables:
        seats = []
        for i, (key, chips) in enumerate(t.seats, start=1):
            if isinstance(key, str):
                seats.append({"seat": i, "number": "", "name": f"Coringa {key}", "url": None, "joker": True,
                              "chips": "—" if chips is None else chips, "rebuys": 0, "penalty": 0, "result": "—",
                              "dq": False})
                continue
            c = res.cell(r.number, key)
            seats.append({"seat": i, "number": key, "name": site.player_name(ch.players[key].player),
                          "url": site.player_url(ch.players[key].player), "joker": False,
                          "chips": "—" if chips is None else chips, "rebuys": c.rebuys, "penalty": c.penalty,
                          "result": signed(c.result) if c.result is not None else "—", "dq": c.disqualified})
        check = None
        if t.counted and all(c is not None for _, c in t.seats):
            found, expected, detail = table_sum(r, t, ch.config.stake)
            check = f"soma {found}, esperado {expected} ({detail})"
        tables.append({"number": t.number, "seats": seats, "counted": t.counted, "check": check,
                       "adjustment": next((a for a in r.adjustments if a.table == t.number), None),
                       "commission": r.commission_paid.get(t.number, 0), "source": site.source(t.mark)})
    name = lambda n: f"{n} ({site.player_name(ch.players[n].player)})"  # noqa: E731
    return {"number": r.number, "seed": r.seed, "counted": r.counted, "tables": tables, "note": r.note,
            "absent": ", ".join(name(n) for n in r.absent),
            "disqualified": [{"who": name(d.player), "reason": d.reason} for d in r.disqualified],
            "penalties": [{"who": name(p.player), "chips": p.chips, "reason": p.reason} for p in r.penalties],
            "rebuys": ", ".join(name(n) + (f" ×{k}" if k > 1 else "") for n, k in sorted(r.rebuys.items()))}


def season_overview(site, season_result) -> dict:
    year = season_result.season.year
    champs = []
    for res in season_result.championships:
        ch = res.championship
        counted = sum(1 for r in ch.rounds if r.counted)
        champs.append({"ch": ch, "url": champ_url(site, ch), "status": STATUS[ch.status], "players": res.registrations,
                       "rounds": plural(counted, "rodada contada", "rodadas contadas"),
                       "money": brl(res.registration_money),
                       "leader": [(site.player_name(ln.player), site.player_url(ln.player))
                                  for ln in res.lines if ln.position == 1 and ln.award.eligible_place is not None],
                       "champions": [(ln.award.eligible_place, site.player_name(ln.player), site.player_url(ln.player))
                                     for ln in res.champions]})
    qualifiers = [{"championship": q.championship.championship.name, "url": champ_url(site, q.championship.championship),
                   "municipality": q.championship.championship.municipality or "",
                   "pos": f"{q.line.position}º" + ("=" if q.line.tied else ""), "name": site.player_name(q.line.player),
                   "player_url": site.player_url(q.line.player), "number": q.line.number}
                  for q in season_result.qualifiers]
    pending = [c["ch"].name for c in champs if not c["ch"].is_final]
    return {"title": f"Quatrilho — {season_result.season.title}", "season": season_result.season,
            "championships": champs, "qualifiers": qualifiers, "pending": pending,
            "qualifiers_count": season_result.season.quatrilho.state_qualifiers,
            "api": site.url("api", year, "quatrilho")}


def pages(site, season_result) -> Iterator[tuple[str, str, dict]]:
    """(path, template, context) of the season's Quatrilho pages: one per championship and the overview."""
    year = season_result.season.year
    for res in season_result.championships:
        yield (f"{year}/quatrilho/{res.championship.id}/index.html", "championship.html",
               championship_view(site, season_result, res))
    yield f"{year}/quatrilho/index.html", "quatrilho_season.html", season_overview(site, season_result)


def history(site, player_id: str) -> list[dict]:
    """The player's Quatrilho championships, oldest first, for the player page."""
    out = []
    for sr in site.r.seasons:
        qualified = {q.line.player: q.championship.championship for q in sr.qualifiers}
        for res in sr.championships:
            ln = res.by_player.get(player_id)
            if ln is None:
                continue
            ch = res.championship
            notes = []
            if ln.award.champion:
                notes.append("campeão" if ln.award.eligible_place == 1 else f"campeão ({ln.award.eligible_place}º)")
            if player_id in qualified and qualified[player_id].id == ch.id:
                notes.append("classificado ao estadual")
            elif player_id in qualified and ln.award.eligible_place is not None \
                    and ln.award.eligible_place <= ch.config.state_qualifiers:
                notes.append(f"já classificado ao estadual em {qualified[player_id].municipality or qualified[player_id].name}")
            if ln.disqualified_in:
                notes.append(f"desclassificado na rodada {ln.disqualified_in}")
            if not ch.is_final:
                notes.append("em andamento")
            out.append({"season": sr.season, "name": ch.name, "date": ch.date, "url": champ_url(site, ch),
                        "pos": f"{ln.position}º" + ("=" if ln.tied else ""), "number": ln.number,
                        "net": signed(ln.values["net"]), "prize": brl(ln.award.prize) if ln.award.prize else "",
                        "notes": ", ".join(notes)})
    return out
