"""The shape checks of a championship file's maps keyed by numbers (registrations, places, tables, seats,
rebuys, the commission's payments): keys and values, so that every message names the registration, table or
round; a bad entry is reported and dropped, and the file stops after the shape checks, like any file with a
shape error."""
from __future__ import annotations

import re
from typing import Any

from league.content.diagnostics import did_you_mean
from league.content.validate import describe
from league.content.yamlio import MDict, MList

JOKER = re.compile(r"^C[0-9]+$")


def number(k: Any) -> bool:
    """A registration, place or table number: an integer ≥ 1."""
    return isinstance(k, int) and not isinstance(k, bool) and k >= 1


def real(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def check_numbered_maps(loader, raw: MDict) -> bool:
    """Checks the numbered maps of one championship file (its raw YAML) before the schema reads it; True when
    none had a problem. `loader`: the Loader (its diags and check_slug)."""
    before = len(loader.diags.errors)
    ids = _registrations(loader, raw.get("players"))
    _prizes(loader, raw.get("prizes"))
    rounds = raw.get("rounds")
    for i, item in enumerate(rounds if isinstance(rounds, MList) else []):
        if isinstance(item, MDict):
            _round(loader, item, i + 1, ids)
    return len(loader.diags.errors) == before


def _registrations(loader, regs: Any) -> dict[str, int]:
    """players: number -> registration (Art. 6); returns the number of each player id written, for hints."""
    ids: dict[str, int] = {}
    if not isinstance(regs, MDict):
        return ids
    for k, v in regs.items():
        pid = v.get("player") if isinstance(v, MDict) else v
        if number(k) and isinstance(pid, str):
            ids[pid] = k
    _keys(loader, regs, "número de inscrição inválido", "(Art. 6)",
          lambda k: f"escreva \"{ids.get(k) or 'N'}: {k}\": o número primeiro, depois o jogador"
          if isinstance(k, str) else None)
    for k in list(regs):
        if not _registration(loader, regs, k):
            del regs[k]
    return ids


def _prizes(loader, prizes: Any) -> None:
    """prizes: place -> percentage of the registration money (Art. 23)."""
    if isinstance(prizes, MDict):
        _keys(loader, prizes, "colocação inválida", "(Art. 23)", lambda k: None)
        _values(loader, prizes, lambda v: real(v) and 0 < v <= 100, lambda k, v: (
            f"prêmio do {k}º lugar inválido: recebido {describe(v)}; esperado uma porcentagem maior que 0 e até 100 "
            "(Art. 23)"))


def _round(loader, item: MDict, rnd: int, ids: dict) -> None:
    """One round's tables (their seats and chips), rebuys and the commission's payments."""
    tables = item.get("tables")
    if isinstance(tables, MDict):
        _keys(loader, tables, "número de mesa inválido", "", lambda k: None)
        for tno, seats in tables.items():
            if isinstance(seats, MDict):
                _seats(loader, seats, ids, rnd, tno)
    rebuys, paid = item.get("rebuys"), item.get("commission_paid")
    if isinstance(rebuys, MDict):
        _keys(loader, rebuys, "número de inscrição inválido", "", lambda k: f"use o número de inscrição {ids[k]}"
              if k in ids else None)
        _values(loader, rebuys, lambda v: number(v) or v == 0, lambda k, v: (
            f"rebuys, rodada {rnd}: quantidade inválida para o jogador {k}: recebido {describe(v)}; esperado um "
            "número inteiro (1 = uma reinscrição ou talha)"))
    if isinstance(paid, MDict):
        _keys(loader, paid, "número de mesa inválido", "", lambda k: None)
        _values(loader, paid, lambda v: number(v) or v == 0, lambda k, v: (
            f"commission_paid, rodada {rnd}: fichas inválidas para a mesa {k}: recebido {describe(v)}; "
            "esperado um número inteiro ≥ 0"))


def _seats(loader, seats: MDict, ids: dict, rnd: int, tno: Any) -> None:
    """A table's seats: registration number (or joker C1, C2…, Art. 16) -> chips counted, or null."""
    _seat_keys(loader, seats, ids, rnd, tno)
    _values(loader, seats, lambda v: v is None or (number(v) or v == 0), lambda k, v: (
        f"mesa {tno}, rodada {rnd}: fichas {'do coringa' if isinstance(k, str) else 'do jogador'} "
        f"{k} inválidas: recebido {describe(v)}; esperado um número inteiro ≥ 0, ou null se a mesa "
        "ainda não foi contada"))


def _keys(loader, m: MDict, what: str, art: str, hint) -> None:
    for k in [k for k in m if not number(k)]:
        loader.diags.error(m.kmark(k), f"{what}: recebido {describe(k)}; esperado um número inteiro ≥ 1"
                           + (f" {art}" if art else ""), hint(k), code="type")
        del m[k]


def _values(loader, m: MDict, ok, message) -> None:
    for k in [k for k, v in m.items() if not ok(v)]:
        loader.diags.error(m.vmark(k), message(k, m[k]), code="type")
        del m[k]


def _registration(loader, regs: MDict, k: int) -> bool:
    """players: N: id, or N: {player: id, from_round: 2} (Art. 5, 6)."""
    v, mark = regs[k], regs.vmark(k)
    if isinstance(v, str):
        return loader.check_slug(v, mark, f"id de jogador do número {k}")
    if not isinstance(v, MDict):
        loader.diags.error(mark, f"inscrição {k} inválida: recebido {describe(v)}; esperado o id do jogador, ou "
                           "{player: id, from_round: 2} para uma inscrição atrasada", code="type")
        return False
    ok = True
    for key in v:
        if key not in ("player", "from_round"):
            loader.diags.error(v.kmark(key), f"chave desconhecida \"{key}\" na inscrição {k}",
                               did_you_mean(str(key), ["player", "from_round"]) or "chaves aceitas: player, from_round",
                               code="unknown-key")
            ok = False
    if "player" not in v:
        loader.diags.error(v.mark, f"falta a chave obrigatória \"player\" na inscrição {k}", "acrescente \"player: …\"",
                           code="missing")
        ok = False
    elif not loader.check_slug(v["player"], v.vmark("player"), f"id de jogador do número {k}"):
        ok = False
    if "from_round" in v and not number(v["from_round"]):
        loader.diags.error(v.vmark("from_round"), f"from_round inválido na inscrição {k}: recebido "
                           f"{describe(v['from_round'])}; esperado 2 (inscrição atrasada, Art. 5)", code="type")
        ok = False
    return ok


def _seat_keys(loader, seats: MDict, ids: dict, rnd: int, tno: Any) -> None:
    for k in [k for k in seats if not number(k) and not (isinstance(k, str) and JOKER.match(k))]:
        loader.diags.error(seats.kmark(k), f"mesa {tno}, rodada {rnd}: assento inválido: recebido {describe(k)}; "
                           "esperado o número de inscrição do jogador, ou C1, C2… para um coringa (Art. 16)",
                           _seat_hint(k, ids), code="type")
        del seats[k]


def _seat_hint(k: Any, ids: dict) -> str:
    """What a seat written wrong was probably meant to be: the player's number, a joker, a close number."""
    if isinstance(k, str) and k in ids:
        return f"use o número de inscrição: {ids[k]}"
    if isinstance(k, str) and JOKER.match(k.upper()):
        return f"escreva \"{k.upper()}\""
    return did_you_mean(k, ids) or "cada assento é o número de inscrição do jogador (Art. 6)"
