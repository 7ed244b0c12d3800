"""Says why one entry is ahead of the next ("à frente pelo confronto direto (3x2)"), in the build's language
(league/i18n.py: the sentences are the catalog's Portuguese msgids)."""
from __future__ import annotations

from typing import Any, Optional

from league import i18n
from league.i18n import L_, _
from league.standings.core import Boundary, countback_counts
from league.standings.criteria import CRITERIA

# criterion key → its name ("número de vitórias") and its phrase ("pelo número de vitórias"): the registry's
# (league/standings/criteria.py), as lazy texts for the templates (NAMES) and the sentences below
NAMES = {key: spec.name for key, spec in CRITERIA.items()}
PHRASES = {key: spec.phrase for key, spec in CRITERIA.items() if spec.phrase is not None}


# What each criterion compares, for the rules page (league/site/rules.py): teams (Truco 10.1, 10.2.1), pairs
# (10.3, 12.2; PAIR_RULES where they differ) and Quatrilho players (Art. 21, 22, 3)
RULES = {
    "wins": L_("confrontos ganhos"),
    "points": L_("um por jogo ganho (item 9.1)"),
    "head_to_head": L_("vitórias e depois pontos só nos confrontos entre as empatadas; se nem todas se "
                       "enfrentaram, só fica à frente quem as outras já não podem alcançar (itens 10.1 e 10.2.1)"),
    "pair_points_balance": L_("jogo a jogo, um 2x0 vale +3, um 2x1 +1, um 1x2 −1 e um 0x2 −3 (item 10.3)"),
    "pontinhos_balance": L_("tentos ganhos menos tentos perdidos, em todas as partidas"),
    "draw": L_("feito pela organização e registrado no arquivo da etapa; o site nunca sorteia (item 10.1)"),
    "net": L_("a soma dos resultados das rodadas: pontos ganhos menos pontos perdidos (Art. 21)"),
    "positive_rounds": L_("quem tiver mais (Art. 22)"),
    "points_won": L_("a maior soma dos resultados positivos das rodadas (Art. 22)"),
    "best_round": L_("o maior resultado numa só rodada (Art. 22)"),
}
PAIR_RULES = {
    "wins": L_("jogos ganhos"),
    "points": L_("pontos de dupla: 3 por um 2x0, 2 por um 2x1, 1 por um 1x2 (item 10.3)"),
    "head_to_head": L_("vitórias e depois pontos só nos jogos entre as duplas empatadas; se nem todas se "
                       "enfrentaram, só fica à frente quem as outras já não podem alcançar"),
}
QUATRILHO_RULES = {
    "draw": L_("ou decisão da comissão, registrados no arquivo do campeonato (Art. 3)"),
}


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
    """league.standings.core.countback: the first place whose counts differ, as a reader says it: "mais vezes
    em 2º lugar (2 contra 1)" (the points are equal, the better places counted the same). # Truco 12.2;
    decision: countback"""
    above, below = countback_counts(b.above), countback_counts(b.below)
    for place in sorted({*above, *below}):
        x, y = above.get(place, 0), below.get(place, 0)
        if x != y:
            return _("mais vezes em %(place)s lugar (%(above)s contra %(below)s)") % {
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
