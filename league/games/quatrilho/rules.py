"""Pure Quatrilho championship rules: what a round is worth, what a table must add up to, how players are
ordered (Art. 21, 22), who are champions, what each place earns (Art. 23) and who goes to the state final."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Hashable, Iterable, Optional, Sequence

from league.games.truco.ranking import shared_points
from league.standings.core import RankContext, Ranked, Row, position_blocks, rank
from league.standings.criteria import make

CENT = Decimal("0.01")


def round_result(chips: int, rebuys: int, penalty: int, stake: int = 100) -> int:
    """Chips counted − stake × (1 + re-registrations) − penalty chips.
    # Quatrilho Art. 8 (chips become points), 15 and 19 (re-registration, talha), 12 (penalty), 21"""
    return chips - stake * (1 + rebuys) - penalty


def expected_table_sum(seats: int, rebuys: int, commission: int, stake: int = 100) -> int:
    """What the chips counted at a table must add up to: one stake per seat (jokers included) and per
    re-registration, plus what the commission paid for a busted player.
    # Quatrilho Art. 8 (100 chips at registration and re-registration), 16 (joker), 19 (commission pays the debt)"""
    return stake * (seats + rebuys) + commission


def registration_money(registrations: int, rebuys: int, fee: Decimal) -> Decimal:
    """(registrations + re-registrations) × fee, in R$. # Quatrilho Art. 7, 23"""
    return ((registrations + rebuys) * Decimal(fee)).quantize(CENT, rounding=ROUND_HALF_UP)


def prize_amounts(money: Decimal, percentages: dict[int, Decimal]) -> list[Decimal]:
    """Prize in R$ of places 1..max, as a list (index 0 = 1st place); places without a percentage get 0.
    # Quatrilho Art. 23 (places 1–8 receive a percentage of the registration money)"""
    if not percentages:
        return []
    return [(money * percentages.get(p, Decimal(0)) / 100).quantize(CENT, rounding=ROUND_HALF_UP)
            for p in range(1, max(percentages) + 1)]


def shared_prize(table: Sequence[Decimal], place: int, count: int) -> Decimal:
    """The prize of `count` players sharing `place`: the mean of the prizes of the places they occupy.
    # Quatrilho Art. 23 (decision, as Truco 12.1: a tie left unresolved shares the places)"""
    return Decimal(shared_points(table, place, count)).quantize(CENT) if count else Decimal(0)


def metrics(results: Iterable[Optional[int]]) -> dict:
    """Net points and the Art. 22 tiebreak values of one player's round results (None: round not played).
    # Quatrilho Art. 21 (net = points won − points lost), Art. 22 (rounds with points won, sum of the points
    won, the most points won in one round — a player with no positive round has 0 there)"""
    played = [r for r in results if r is not None]
    won = [r for r in played if r > 0]
    return {"net": sum(played), "positive_rounds": len(won), "points_won": sum(won),
            "best_round": max(won, default=0)}


def classify(rows: dict[Hashable, Row], tiebreaks: Sequence[str], draws: Sequence = ()) -> tuple[list[Ranked], RankContext]:
    """Order players by net points, then the Art. 22 criteria, then a recorded decision; else shared.
    # Quatrilho Art. 21, 22 (and Art. 3 for the recorded draw)"""
    ctx = RankContext(rows=rows, draws=draws)
    ranked = rank(list(rows), make(tiebreaks), ctx, tie_order=lambda k: k)   # (league.standings.criteria)
    return ranked, ctx


@dataclass(frozen=True)
class Award:
    """What one classification line earns: its place among eligible players, title and prize."""

    eligible_place: Optional[int]   # None for a disqualified player
    shared: bool                    # the eligible place is shared with another eligible player
    champion: bool
    prize: Decimal


def awards(ranked: Sequence[Ranked], ineligible: set, champions: int, prizes: Sequence[Decimal],
           final: bool = True) -> dict[Hashable, Award]:
    """Eligible places (disqualified players skipped), champions and prizes.
    # Quatrilho Art. 21 (the first `champions` eligible players are champions), Art. 23 (prizes by place);
    decisions: a disqualified player keeps his line but no title or prize, and the next eligible player
    takes his place; players tied at an eligible place share it (champions all, prizes averaged);
    a championship not final gives no titles or prizes yet."""
    out: dict[Hashable, Award] = {}
    place = 1
    for block in position_blocks(ranked):
        eligible = [r for r in block if r.key not in ineligible]
        prize = shared_prize(prizes, place, len(eligible)) if final and eligible else Decimal(0)
        for r in block:
            if r.key in ineligible:
                out[r.key] = Award(None, False, False, Decimal(0))
            else:
                out[r.key] = Award(place, len(eligible) > 1, final and place <= champions, prize)
        place += len(eligible)
    return out


def state_qualifiers(championships: Sequence[tuple[str, Sequence[tuple[str, int, Optional[int]]]]],
                     count: int) -> list[tuple[str, str, int]]:
    """(championship, player, position) of the qualifiers for the state championship, earlier championship first.

    `championships`: for each final championship in date order, its lines as (player, position, eligible place).
    # Quatrilho Art. 23 (the first 4 of each municipal championship); decisions: eligible places only,
    a tie at the last place takes every tied player, a player who qualifies twice is listed once, under the
    earlier championship, and nobody replaces him in the later one."""
    seen: set[str] = set()
    out = []
    for champ, lines in championships:
        for player, position, place in lines:
            if place is not None and place <= count and player not in seen:
                seen.add(player)
                out.append((champ, player, position))
    return out
