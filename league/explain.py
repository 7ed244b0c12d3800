"""Says in Portuguese why one entry is ahead of the next ("à frente pelo confronto direto (3x2)")."""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Optional

from league.standings.core import Boundary

NAMES = {
    "wins": "número de vitórias",
    "points": "número de pontos",
    "head_to_head": "confronto direto",
    "pair_points_balance": "saldo de pontos das duplas",
    "pontinhos_balance": "saldo de pontinhos",
    "draw": "sorteio",
    "group_position": "colocação no grupo",
    "eliminated_in": "fase alcançada no mata-mata",
    "countback": "número de melhores colocações",
    "net": "pontos positivos",
    "positive_rounds": "rodadas com pontos ganhos",
    "points_won": "soma dos pontos ganhos",
    "best_round": "maior pontuação em uma rodada",
}


# "à frente <phrase> (a contra b)": each criterion with its own article
PHRASES = {
    "wins": "pelo número de vitórias",
    "points": "pelo número de pontos",
    "pair_points_balance": "pelo saldo de pontos das duplas",
    "pontinhos_balance": "pelo saldo de pontinhos",
    "net": "pelos pontos positivos (ganhos menos perdidos)",
    "positive_rounds": "pelo número de rodadas com pontos ganhos",
    "points_won": "pela soma dos pontos ganhos",
    "best_round": "pela maior pontuação em uma rodada",
}


def fmt_num(v: Any) -> str:
    if isinstance(v, Decimal):
        v = int(v) if v == v.to_integral_value() else float(v)
    if isinstance(v, float):
        return f"{v:.2f}".replace(".", ",")
    return str(v)


def signed(v: Any) -> str:
    if v is None:
        return "?"
    s = fmt_num(v)
    return f"+{s}" if (isinstance(v, (int, float, Decimal)) and v > 0) else s.replace("-", "−")


def ordinal(n: int) -> str:
    return f"{n}º"


def explain(b: Optional[Boundary], what: str = "equipes") -> Optional[str]:
    """One sentence for a boundary decided by a criterion."""
    if b is None:
        return None
    key = b.key
    if key == "head_to_head":
        (above, size, all_met), (below, _, _) = b.above, b.below
        if all_met:
            if size == 2:
                return f"à frente pelo confronto direto ({above[1]}x{below[1]})"
            return (f"à frente pelo confronto direto entre as {size} {what} ({above[0]} vit., {above[1]} pts "
                    f"contra {below[0]} vit., {below[1]} pts)")
        (wins, maximum) = above
        return (f"à frente pelo confronto direto ({wins} vitória(s); nenhuma outra empatada pode passar de "
                f"{maximum}, pois nem todas se enfrentaram)")
    if key == "draw":
        return "à frente por sorteio registrado"
    if key in ("pair_points_balance", "pontinhos_balance"):
        return f"à frente {PHRASES[key]} ({signed(b.above)} contra {signed(b.below)})"
    if key == "group_position":
        return f"à frente pela colocação no grupo ({b.above[1]}º contra {b.below[1]}º)"
    if key == "eliminated_in":
        return "à frente por ter avançado mais no mata-mata"
    if key == "countback":
        for i, (x, y) in enumerate(zip(b.above, b.below)):
            if x != y:
                return f"à frente pelo número de {i + 1}º lugares ({x} contra {y})"
        return "à frente pelas colocações"
    if key in PHRASES:
        return f"à frente {PHRASES[key]} ({fmt_num(b.above)} contra {fmt_num(b.below)})"
    return f"à frente pelo critério “{NAMES.get(key, key)}”"


def tie_text(final: bool, needs_draw: bool = True) -> str:
    if final and needs_draw:
        return "empate — aguardando sorteio"
    return "empate"
