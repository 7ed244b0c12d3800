"""Says why one entry is ahead of the next ("à frente pelo confronto direto (3x2)"), in the build's language
(league/i18n.py: the sentences are the catalog's Portuguese msgids)."""
from __future__ import annotations

from typing import Any, Optional

from league import i18n
from league.i18n import _
from league.standings.core import Boundary, countback_counts
from league.standings.criteria import CRITERIA

# criterion key → its name ("número de vitórias") and its phrase ("pelo número de vitórias"): the registry's
# (league/standings/criteria.py), as lazy texts for the templates (NAMES) and the sentences below
NAMES = {key: spec.name for key, spec in CRITERIA.items()}
PHRASES = {key: spec.phrase for key, spec in CRITERIA.items() if spec.phrase is not None}


def fmt_num(v: Any) -> str:
    """A number in the build's locale (Babel): 12, 1.234, 6,50."""
    return i18n.number(v)


def signed(v: Any) -> str:
    """+12, −3 (a true minus), 0; "?" when missing."""
    return i18n.signed(v)


def ordinal(n: int) -> str:
    return i18n.ordinal(n)


def explain(b: Optional[Boundary], what: str = "equipes") -> Optional[str]:
    """One sentence for a boundary decided by a criterion (`what`: "equipes" or "duplas")."""
    if b is None:
        return None
    say = _SENTENCES.get(b.key)
    if say is not None:
        return say(b, what)
    if b.key in PHRASES:
        return _("à frente %(criterion)s (%(above)s contra %(below)s)") % {
            "criterion": PHRASES[b.key], "above": fmt_num(b.above), "below": fmt_num(b.below)}
    return _("à frente pelo critério “%(criterion)s”") % {"criterion": NAMES.get(b.key, b.key)}


def _head_to_head(b: Boundary, what: str) -> str:
    """league.standings.core.HeadToHead's values: ((wins, points), size, True) when every pair met (FIDE C.07
    6.2); ((wins, the most another could reach), size, False) when not (6.3)."""
    above, size, all_met = b.above
    below = b.below[0]
    if not all_met:
        (wins, maximum) = above
        return _("à frente pelo confronto direto (%(wins)s vitória(s); nenhuma outra empatada pode passar de "
                 "%(maximum)s, pois nem todas se enfrentaram)") % {"wins": wins, "maximum": maximum}
    if size == 2:
        return _("à frente pelo confronto direto (%(above)sx%(below)s)") % {"above": above[1], "below": below[1]}
    values = {"size": size, "wins": above[0], "points": above[1], "wins_below": below[0],
              "points_below": below[1]}
    if what == "duplas":
        return _("à frente pelo confronto direto entre as %(size)s duplas (%(wins)s vit., %(points)s pts "
                 "contra %(wins_below)s vit., %(points_below)s pts)") % values
    return _("à frente pelo confronto direto entre as %(size)s equipes (%(wins)s vit., %(points)s pts "
             "contra %(wins_below)s vit., %(points_below)s pts)") % values


def _draw(b: Boundary, what: str) -> str:
    return _("à frente por sorteio registrado")


def _balance(b: Boundary, what: str) -> str:
    """A balance, signed: +12 contra −3."""
    return _("à frente %(criterion)s (%(above)s contra %(below)s)") % {
        "criterion": PHRASES[b.key], "above": signed(b.above), "below": signed(b.below)}


def _group_position(b: Boundary, what: str) -> str:
    return _("à frente pela colocação no grupo (%(above)s contra %(below)s)") % {
        "above": ordinal(b.above[1]), "below": ordinal(b.below[1])}


def _eliminated_in(b: Boundary, what: str) -> str:
    return _("à frente por ter avançado mais no mata-mata")


def _countback(b: Boundary, what: str) -> str:
    """league.standings.core.countback: the first place whose counts differ."""
    above, below = countback_counts(b.above), countback_counts(b.below)
    for place in sorted({*above, *below}):
        x, y = above.get(place, 0), below.get(place, 0)
        if x != y:
            return _("à frente pelo número de %(place)s lugares (%(above)s contra %(below)s)") % {
                "place": ordinal(place), "above": x, "below": y}
    return _("à frente pelas colocações")


# criterion key → its sentence (a criterion of PHRASES that is not here: "à frente <phrase> (a contra b)")
_SENTENCES = {
    "head_to_head": _head_to_head,
    "draw": _draw,
    "pair_points_balance": _balance,
    "pontinhos_balance": _balance,
    "group_position": _group_position,
    "eliminated_in": _eliminated_in,
    "countback": _countback,
}


def tie_text(final: bool, needs_draw: bool = True) -> str:
    if final and needs_draw:
        return _("empate — aguardando sorteio")
    return _("empate")
