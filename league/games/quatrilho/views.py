"""The Quatrilho pages' view models: championship, season overview and player history (with the player's
curve of points over the rounds), in the build's language (league/i18n.py)."""
from __future__ import annotations

from collections import Counter, defaultdict
from decimal import Decimal
from typing import Any, Iterator, Optional

from league import i18n
from league.i18n import L_, _, ngettext, pgettext
from league.games.quatrilho.championship import (
    Cell, Championship, ChampionshipResult, QRound, needs_decision, positions_by_round, table_sum,
)
from league.standings.core import position_blocks

STATUS = {"final": L_("encerrado"), "in_progress": L_("em andamento"), "scheduled": L_("agendado")}
TIED_IN = {"net": L_("pontos positivos"), "positive_rounds": L_("rodadas com pontos ganhos"),
           "points_won": L_("soma dos pontos ganhos"), "best_round": L_("melhor rodada")}
AHEAD = {"net": (L_("por ter mais pontos positivos"), L_("por ter menos pontos positivos")),
         "positive_rounds": (L_("por ter mais rodadas com pontos ganhos"),
                             L_("por ter menos rodadas com pontos ganhos")),
         "points_won": (L_("pela maior soma dos pontos ganhos nas rodadas"),
                        L_("pela menor soma dos pontos ganhos nas rodadas")),
         "best_round": (L_("pela maior pontuação numa só rodada"), L_("pela menor pontuação numa só rodada"))}


def brl(value: Decimal) -> str:
    """Money in reais, formatted by Babel for the build's locale: R$ 1.234,56 (no-break space) / R$1,234.56."""
    return i18n.money(value)


def signed(v: Any) -> str:
    return i18n.signed(v)


def _pos(position: int, tied: bool = False) -> str:
    return i18n.position(position, tied)


def _n(n: int, singular: str, plural: str) -> str:
    """ngettext with the count in front ("%(num)s rodada"); pt_BR: 0 and 1 singular."""
    return ngettext(singular, plural, n) % {"num": n}


def champ_url(site, ch: Championship) -> str:
    return site.url(ch.season, "quatrilho", ch.id)


def _value_text(key: str, v: Any) -> str:
    return signed(v) if key == "net" else str(v)


def tie_sentences(site, res: ChampionshipResult) -> dict[int, str]:
    """For every line tied on net points with a neighbour, one sentence saying how the tie ended.
    # Quatrilho Art. 22 (criteria), Art. 3 (decision of the commission)"""
    order = list(res.championship.config.tiebreaks)
    out: dict[int, list[str]] = {}
    lines = res.lines
    for ln, nxt in zip(lines, lines[1:]):
        b = ln.ranked.boundary
        if b is None or b.key == order[0]:
            continue
        ahead, behind = _tie_broken(site, res.championship, ln, nxt, b)
        out.setdefault(ln.number, []).append(ahead)
        out.setdefault(nxt.number, []).append(behind)
    for block in position_blocks([ln.ranked for ln in lines]):
        if len(block) > 1:
            for ln, text in _tie_shared(site, res, [res.by_number[r.key] for r in block]):
                out.setdefault(ln.number, []).append(text)
    return {k: " ".join(v) for k, v in out.items()}


def _tie_broken(site, ch: Championship, ln, nxt, b) -> tuple[str, str]:
    """The sentences of two neighbours tied on net points, for the one ahead and the one behind: a later
    criterion of Art. 22 (boundary b) told them apart, or the commission did (Art. 3)."""
    a_name, b_name = site.player_name(ln.player), site.player_name(nxt.player)
    if b.key == "draw":
        return _decided_by_commission(ch, ln, nxt, a_name, b_name)
    order = list(ch.config.tiebreaks)
    before = order[:order.index(b.key)] if b.key in order else order
    tied_in = _and([_("%(criterion)s (%(value)s)") % {"criterion": TIED_IN[k],
                                                       "value": _value_text(k, ln.values[k])}
                    for k in before if k in TIED_IN])
    up, down = AHEAD[b.key]
    return (_("Empatado com %(other)s em %(tied_in)s; à frente %(reason)s (%(mine)s contra %(theirs)s) — Art. 22.")
            % {"other": b_name, "tied_in": tied_in, "reason": up, "mine": b.above, "theirs": b.below},
            _("Empatado com %(other)s em %(tied_in)s; atrás %(reason)s (%(mine)s contra %(theirs)s) — Art. 22.")
            % {"other": a_name, "tied_in": tied_in, "reason": down, "mine": b.below, "theirs": b.above})


def _decided_by_commission(ch: Championship, ln, nxt, a_name: str, b_name: str) -> tuple[str, str]:
    """Tied in every criterion of Art. 22, ordered by the commission's recorded decision (Art. 3), with its note."""
    d = next((d for d in ch.draws if ln.number in d.members and nxt.number in d.members), None)
    if d and d.note:
        ahead = _("Empatado com %(other)s em todos os critérios do Art. 22; à frente por decisão da "
                  "comissão registrada (Art. 3): %(note)s.")
        behind = _("Empatado com %(other)s em todos os critérios do Art. 22; atrás por decisão da "
                   "comissão registrada (Art. 3): %(note)s.")
    else:
        ahead = _("Empatado com %(other)s em todos os critérios do Art. 22; à frente por decisão da "
                  "comissão registrada (Art. 3).")
        behind = _("Empatado com %(other)s em todos os critérios do Art. 22; atrás por decisão da "
                   "comissão registrada (Art. 3).")
    note = d.note if d and d.note else ""
    return ahead % {"other": b_name, "note": note}, behind % {"other": a_name, "note": note}


def _tie_shared(site, res: ChampionshipResult, members: list) -> Iterator[tuple[Any, str]]:
    """(line, sentence) of players tied in every criterion of Art. 22: the position is shared, waiting for the
    commission's decision when a title, prize or place depends on it (Art. 3)."""
    v = members[0].values
    pending = needs_decision(res, members)
    for ln in members:
        others = _and([site.player_name(o.player) for o in members if o is not ln])
        values = {"others": others, "net": _value_text("net", v["net"]),
                  "rounds": _n(v["positive_rounds"], "%(num)s rodada com pontos ganhos",
                               "%(num)s rodadas com pontos ganhos"),
                  "won": v["points_won"], "best": v["best_round"]}
        if pending:
            text = _("Empatado com %(others)s em todos os critérios do Art. 22 (%(net)s; %(rounds)s; %(won)s "
                     "pontos ganhos; melhor rodada %(best)s): posição dividida, aguardando decisão da comissão "
                     "(Art. 3).")
        else:
            text = _("Empatado com %(others)s em todos os critérios do Art. 22 (%(net)s; %(rounds)s; %(won)s "
                     "pontos ganhos; melhor rodada %(best)s): posição dividida.")
        yield ln, text % values


def _and(items: list[str]) -> str:
    """"a", "a e b", "a, b e c" (Babel's list pattern for the locale)."""
    return i18n.join(items)


def _cell_view(c: Cell) -> dict:
    details = []
    if c.table is not None:
        details.append(_("mesa %(table)s") % {"table": c.table})
    if c.chips is not None:
        details.append(_n(c.chips, "%(num)s ficha", "%(num)s fichas"))
    details += _cell_marks(c)
    text = {"played": lambda: signed(c.result), "pending": lambda: _("a contar"), "late": lambda: "—",
            "out": lambda: "—", "absent": lambda: _("ausente") if not c.penalty else signed(c.result)}[c.status]()
    note = {"late": L_("inscrição atrasada (Art. 5)"), "out": L_("desclassificado antes (Art. 16)"),
            "absent": L_("ausente"), "pending": L_("mesa ainda não contada")}.get(c.status)
    if note:
        details.insert(0, str(note))
    return {"text": text, "detail": ", ".join(details), "status": c.status, "dq": c.disqualified,
            "rebuys": c.rebuys, "penalty": c.penalty}


def championship_view(site, season_result, res: ChampionshipResult) -> dict:
    ch = res.championship
    final = ch.is_final
    sentences = tie_sentences(site, res)
    qualified = {q.line.player: q.championship.championship for q in season_result.qualifiers}
    dq_reason = {d.player: (r.number, d.reason) for r in ch.rounds for d in r.disqualified}
    name = site.player_name
    lines = [_line_view(site, ch, ln, sentences, qualified.get(ln.player), dq_reason.get(ln.number))
             for ln in res.lines]
    rounds = [_round_view(site, res, r) for r in ch.rounds]
    return {
        "title": ch.name, "season": season_result.season, "ch": ch, "status": STATUS[ch.status], "final": final,
        "lines": lines, "round_numbers": [r.number for r in ch.rounds], "rounds": rounds,
        "champions": [{"pos": _pos(ln.award.eligible_place), "name": name(ln.player), "url": site.player_url(ln.player),
                       "medal": ln.award.eligible_place <= 3, "prize": _prize_text(ln)}
                      for ln in res.champions],
        "champions_count": ch.config.champions, "qualifiers_count": ch.config.state_qualifiers,
        "prizes": _prize_views(res, name), "money": brl(res.registration_money), "fee": brl(ch.fee),
        "registrations": _n(res.registrations, "%(num)s inscrição", "%(num)s inscrições"),
        "rebuys": _n(res.rebuys, "%(num)s reinscrição", "%(num)s reinscrições"),
        **_record_views(ch, name),
        "overview_url": site.url(ch.season, "quatrilho"),
        "api": site.url("api", ch.season, "quatrilho"), "source": site.source(ch.mark),
    }


def _prize_text(ln) -> str:
    return brl(ln.award.prize) if ln.award.prize else ""


def _line_view(site, ch: Championship, ln, sentences: dict, q: Optional[Championship],
               dq: Optional[tuple[int, str]]) -> dict:
    """One line of the classification; q: the championship that sent the player to the state final, if any;
    dq: (round, reason) of the player's disqualification, if any (Art. 16)."""
    return {
        "pos": _pos(ln.position, ln.tied), "number": ln.number, "name": site.player_name(ln.player),
        "url": site.player_url(ln.player), "cells": [_cell_view(c) for c in ln.cells],
        "net": signed(ln.values["net"]), "positive_rounds": ln.values["positive_rounds"],
        "points_won": ln.values["points_won"], "best_round": ln.values["best_round"],
        "champion": ln.award.champion, "prize": _prize_text(ln),
        "dq": ln.disqualified_in is not None,
        "dq_text": (_("desclassificado na rodada %(round)s (%(reason)s)") % {
            "round": dq[0], "reason": dq[1]} if dq is not None else ""),
        "why": sentences.get(ln.number, ""),
        "qualified": q is not None and q.id == ch.id,
        "qualified_elsewhere": q.name if q is not None and q.id != ch.id and _qualifying_place(ch, ln) else None,
    }


def _qualifying_place(ch: Championship, ln) -> bool:
    """The line's eligible place is one that goes to the state final (Art. 21–23)."""
    return ln.award.eligible_place is not None and ln.award.eligible_place <= ch.config.state_qualifiers


def _prize_views(res: ChampionshipResult, name) -> list[dict]:
    """Each prize (Art. 23): its place, percentage and amount, and who wins it (players sharing a place share
    the prizes of the places they occupy); "a definir" until the championship is final."""
    ch = res.championship
    final = ch.is_final
    sharing = Counter(ln.award.eligible_place for ln in res.lines)     # players at each eligible place
    prizes = []
    for place, amount in enumerate(res.prizes, start=1):
        winners = [name(ln.player) for ln in res.lines if ln.award.eligible_place is not None
                   and ln.award.eligible_place <= place < ln.award.eligible_place + sharing[ln.award.eligible_place]]
        prizes.append({"place": _pos(place), "pct": i18n.decimal(ch.prizes.get(place, Decimal(0))),
                       "amount": brl(amount), "winners": ", ".join(winners) if final else _("a definir"),
                       "shared": final and len(winners) > 1})
    return prizes


def _record_views(ch: Championship, name) -> dict:
    """The championship's records: draws (commission decisions), penalties and re-registrations."""
    return {
        "draws": [{"order": ", ".join(f"{n} ({name(ch.players[n].player)})" for n in d.order), "note": d.note}
                  for d in ch.draws],
        "penalties": [{"round": r.number, "number": p.player, "name": name(ch.players[p.player].player),
                       "chips": p.chips, "reason": p.reason} for r in ch.rounds for p in r.penalties],
        "rebuy_list": [{"round": r.number, "number": n, "name": name(ch.players[n].player), "count": k}
                       for r in ch.rounds for n, k in sorted(r.rebuys.items())],
    }


def _round_view(site, res: ChampionshipResult, r: QRound) -> dict:
    ch = res.championship
    tables = [_table_view(site, res, r, t) for t in r.tables]
    name = lambda n: f"{n} ({site.player_name(ch.players[n].player)})"  # noqa: E731
    return {"number": r.number, "seed": r.seed, "counted": r.counted, "tables": tables, "note": r.note,
            "absent": ", ".join(name(n) for n in r.absent),
            "disqualified": [{"who": name(d.player), "reason": d.reason} for d in r.disqualified],
            "penalties": [{"who": name(p.player), "chips": p.chips, "reason": p.reason} for p in r.penalties],
            "rebuys": ", ".join(name(n) + (f" ×{k}" if k > 1 else "") for n, k in sorted(r.rebuys.items()))}


def _table_view(site, res: ChampionshipResult, r: QRound, t) -> dict:
    """A table of the round: its seats, and its sum checked when every seat is counted (Art. 8, 16, 19)."""
    seats = [_joker_seat(i, key, chips) if isinstance(key, str) else _player_seat(site, res, r, i, key, chips)
             for i, (key, chips) in enumerate(t.seats, start=1)]
    check = None
    if t.counted and all(c is not None for _, c in t.seats):
        found, expected, _detail = table_sum(r, t, res.championship.config.stake)
        check = _("soma %(found)s, esperado %(expected)s (%(detail)s)") % {
            "found": found, "expected": expected, "detail": _table_count(r, t)}
    return {"number": t.number, "seats": seats, "counted": t.counted, "check": check,
            "adjustment": next((a for a in r.adjustments if a.table == t.number), None),
            "commission": r.commission_paid.get(t.number, 0), "source": site.source(t.mark)}


def _joker_seat(i: int, key: str, chips: Optional[int]) -> dict:
    return {"seat": i, "number": "", "name": _("Coringa %(joker)s") % {"joker": key}, "url": None,
            "joker": True,
            "chips": "—" if chips is None else chips, "rebuys": 0, "penalty": 0, "result": "—",
            "dq": False}


def _player_seat(site, res: ChampionshipResult, r: QRound, i: int, key: int, chips: Optional[int]) -> dict:
    c = res.cell(r.number, key)
    player = res.championship.players[key].player
    return {"seat": i, "number": key, "name": site.player_name(player),
            "url": site.player_url(player), "joker": False,
            "chips": "—" if chips is None else chips, "rebuys": c.rebuys, "penalty": c.penalty,
            "result": signed(c.result) if c.result is not None else "—", "dq": c.disqualified}


def _table_count(r: QRound, t) -> str:
    """The count behind a table's expected sum (quatrilho.table_sum's words in the page's language; no
    re-registrations is left unsaid, like no jokers)."""
    rebuys = sum(r.rebuys.get(n, 0) for n in t.players)
    commission = r.commission_paid.get(t.number, 0)
    parts = [_n(len(t.players), "%(num)s jogador", "%(num)s jogadores")]
    if t.jokers:
        parts.append(_n(len(t.jokers), "%(num)s coringa", "%(num)s coringas"))
    if rebuys:
        parts.append(_n(rebuys, "%(num)s reinscrição", "%(num)s reinscrições"))
    if commission:
        parts.append(_n(commission, "%(num)s paga pela comissão", "%(num)s pagas pela comissão"))
    return ", ".join(parts)


def season_overview(site, season_result) -> dict:
    year = season_result.season.year
    champs = [_championship_summary(site, res) for res in season_result.championships]
    qualifiers = [_qualifier_view(site, q) for q in season_result.qualifiers]
    pending = [c["ch"].name for c in champs if not c["ch"].is_final]
    return {"title": _("Quatrilho — %(season)s") % {"season": season_result.season.title},
            "season": season_result.season,
            "championships": champs, "qualifiers": qualifiers, "pending": pending,
            "qualifiers_count": season_result.season.quatrilho.state_qualifiers,
            "api": site.url("api", year, "quatrilho")}


def _championship_summary(site, res: ChampionshipResult) -> dict:
    """A championship on the season's overview: status, players, rounds counted, money, leader, champions."""
    ch = res.championship
    counted = sum(1 for r in ch.rounds if r.counted)
    return {"ch": ch, "url": champ_url(site, ch), "status": STATUS[ch.status], "players": res.registrations,
            "rounds": _n(counted, "%(num)s rodada contada", "%(num)s rodadas contadas") if counted
            else _("nenhuma rodada contada"),
            "money": brl(res.registration_money),
            "leader": [(site.player_name(ln.player), site.player_url(ln.player))
                       for ln in res.lines if ln.position == 1 and ln.award.eligible_place is not None],
            "champions": [(ln.award.eligible_place, site.player_name(ln.player), site.player_url(ln.player))
                          for ln in res.champions]}


def _qualifier_view(site, q) -> dict:
    """A player sent to the state final, and the championship that sent him."""
    ch = q.championship.championship
    return {"championship": ch.name, "url": champ_url(site, ch), "municipality": ch.municipality or "",
            "pos": _pos(q.line.position, q.line.tied), "name": site.player_name(q.line.player),
            "player_url": site.player_url(q.line.player), "number": q.line.number}


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
    for sr, qualified, res, ln in _history_lines(site).get(player_id, ()):
        ch = res.championship
        out.append({"season": sr.season, "name": ch.name, "date": ch.date, "url": champ_url(site, ch),
                    "pos": _pos(ln.position, ln.tied), "number": ln.number,
                    "net": signed(ln.values["net"]), "prize": _prize_text(ln),
                    "notes": ", ".join(_history_notes(player_id, qualified, ch, ln)),
                    "curve": curve(site, player_id, res, ln), "rounds": player_rounds(site, res, ln),
                    "final": ch.is_final})
    return out


def _positions(site, res: ChampionshipResult) -> list[dict]:
    """positions_by_round(res), worked out once per build (every player of the championship asks)."""
    memo = site.__dict__.setdefault("_q_positions", {})
    key = (res.championship.season, res.championship.id)
    got = memo.get(key)
    if got is None:
        got = memo[key] = positions_by_round(res)
    return got


def _round_notes(c: Cell) -> str:
    """What a player's round says besides table, chips and result: not played, re-registrations, penalty."""
    notes = {"late": L_("inscrição atrasada (Art. 5)"), "out": L_("desclassificado antes (Art. 16)"),
             "absent": L_("ausente"), "pending": L_("mesa ainda não contada")}.get(c.status)
    return ", ".join(([str(notes)] if notes else []) + _cell_marks(c))


def _cell_marks(c) -> list[str]:
    """A round's re-registrations (Art. 19), penalty and disqualification, in words."""
    marks = []
    if c.rebuys:
        marks.append(_n(c.rebuys, "%(num)s reinscrição", "%(num)s reinscrições"))
    if c.penalty:
        marks.append(_n(c.penalty, "penalidade de %(num)s ficha", "penalidade de %(num)s fichas"))
    if c.disqualified:
        marks.append(_("desclassificado nesta rodada"))
    return marks


def player_rounds(site, res: ChampionshipResult, ln) -> list[dict]:
    """A player's rounds of a championship: the table (linked to it on the championship page), chips counted,
    the round's result, the points added up so far and the position after the round (Art. 21, 22; none
    from the first round not yet counted)."""
    ch = res.championship
    positions = _positions(site, res)
    url = champ_url(site, ch)
    rows: list[dict] = []
    total: Optional[int] = 0
    for i, (r, c) in enumerate(zip(ch.rounds, ln.cells)):
        counted = total is not None and c.status != "pending" and r.counted
        total = total + (c.result or 0) if counted else None
        pos = positions[i].get(ln.number) if i < len(positions) and total is not None else None
        rows.append(_round_row(url, r, c, total, pos))
    return rows


def _round_row(url: str, r: QRound, c: Cell, total: Optional[int], pos: Optional[tuple]) -> dict:
    """One line of player_rounds: "—" where nothing is known yet (not played, not counted)."""
    shown = c.status == "played" or (c.status == "absent" and c.penalty)   # a result of the player's own
    return {"round": pgettext("round number", "%(n)sª rodada") % {"n": r.number}, "table": c.table,
            "table_url": f"{url}#rodada-{r.number}-mesa-{c.table}" if c.table else None,
            "chips": "—" if c.chips is None else c.chips, "result": signed(c.result) if shown else "—",
            "total": "—" if total is None else signed(total), "pos": _pos(*pos) if pos else "—",
            "notes": _round_notes(c)}


def _history_lines(site) -> dict:
    """player → (season result, its qualifiers, championship result, the player's line), oldest first; built
    once per build (not per player)."""
    memo = site.__dict__.get("_q_history")
    if memo is None:
        memo = site.__dict__["_q_history"] = defaultdict(list)
        for sr in site.r.seasons:
            qualified = {q.line.player: q.championship.championship for q in sr.qualifiers}
            for res in sr.championships:
                for pid, ln in res.by_player.items():
                    memo[pid].append((sr, qualified, res, ln))
    return memo


def _history_notes(player_id: str, qualified: dict, ch: Championship, ln) -> list[str]:
    """What the player's line of a championship says besides the numbers: title (Art. 21), state final
    (Art. 21–23), disqualification (Art. 16), work in progress."""
    notes = []
    if ln.award.champion:
        notes.append(_("campeão") if ln.award.eligible_place == 1 else
                     _("campeão (%(place)s)") % {"place": _pos(ln.award.eligible_place)})
    if player_id in qualified and qualified[player_id].id == ch.id:
        notes.append(_("classificado ao estadual"))
    elif player_id in qualified and _qualifying_place(ch, ln):
        notes.append(_("já classificado ao estadual em %(championship)s") % {
            "championship": qualified[player_id].municipality or qualified[player_id].name})
    if ln.disqualified_in:
        notes.append(_("desclassificado na rodada %(round)s") % {"round": ln.disqualified_in})
    if not ch.is_final:
        notes.append(_("em andamento"))
    return notes


def curve(site, player_id: str, res: ChampionshipResult, ln) -> Optional[dict]:
    """The player's points (Art. 21: chips won less chips lost) added up round by round, for
    Charts.rounds: labels, values (None from the first round not yet counted), title, alt text listing
    every round, and the SVG's path. None with fewer than two counted rounds (nothing to draw)."""
    ch = res.championship
    labels, values, said = [], [], []
    total = 0
    counted = True
    for r, c in zip(ch.rounds, ln.cells):
        labels.append(_("R%(round)s") % {"round": r.number})
        if c.status == "pending" or not r.counted:
            counted = False
        if not counted:
            values.append(None)
            continue
        total += c.result or 0
        values.append(total)
        round_text = signed(c.result) if c.status in ("played", "absent") else "—"
        said.append(_("%(round)s: %(total)s (rodada %(result)s)") % {
            "round": pgettext("round number", "%(n)sª rodada") % {"n": r.number}, "total": signed(total),
            "result": round_text})
    if len(said) < 2:
        return None
    name = site.player_name(player_id)
    title = _("Pontos de %(player)s no %(championship)s, somados rodada a rodada") % {
        "player": name, "championship": ch.name}
    alt = _("Gráfico: pontos positivos de %(player)s no %(championship)s após cada rodada: %(rounds)s.") % {
        "player": name, "championship": ch.name, "rounds": "; ".join(said)}
    return {"path": f"jogadores/{player_id}/quatrilho-{ch.season}-{ch.id}.svg", "title": title,
            "labels": labels, "values": values, "alt": alt}
