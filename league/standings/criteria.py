"""The one registry of tie-break criteria: for each key, the object that splits a tie, its name, the phrase
of an explanation ("à frente pelo número de vitórias"), its order, the regulation item and which lists of
league.yaml may name it. Everything that spells a criterion reads it from here: the schema (the keys
`team_tiebreaks`, `pair_tiebreaks` and `quatrilho.tiebreaks` accept, and their defaults), the games (the
criterion objects), the explanations (league.standings.explain), the rules page, and the API and `league
diff`, whose `decided_by` is the key.

A new criterion: a CriterionSpec here (and, when its explanation needs more than "à frente <phrase> (a contra
b)", a sentence in explain._SENTENCES); the schema, the docs' key tables and the rules page follow.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from league.i18n import L_
from league.standings.core import Criterion, HeadToHead, Metric, RecordedDraw

TRUCO = "truco"            # may be named in truco.team_tiebreaks and truco.pair_tiebreaks
QUATRILHO = "quatrilho"    # may be named in quatrilho.tiebreaks


@dataclass(frozen=True)
class CriterionSpec:
    key: str
    name: Any                      # lazy text (L_): "número de vitórias"
    phrase: Any                    # lazy text: "pelo número de vitórias"; None where explain has a sentence of its own
    item: str                      # the regulation item that defines it
    make: Optional[Callable[[], Criterion]] = None   # None: built by its game with data of its own (see below)
    higher_first: bool = True
    settings: tuple = ()           # the league.yaml lists that may name it (TRUCO, QUATRILHO); () = fixed by the rules

    def criterion(self) -> Criterion:
        if self.make is None:
            raise ValueError(f"o critério {self.key!r} é montado pela própria regra, não pela lista de critérios")
        return self.make()


def _metric(key: str) -> Callable[[], Criterion]:
    return lambda: Metric(key)


_SPECS = (
    # Truco: teams (10.1) and pairs (10.3, 12.2)
    CriterionSpec("wins", L_("número de vitórias"), L_("pelo número de vitórias"), "Truco 10.1",
                  _metric("wins"), settings=(TRUCO,)),
    CriterionSpec("points", L_("número de pontos"), L_("pelo número de pontos"), "Truco 9.1, 10.1",
                  _metric("points"), settings=(TRUCO,)),
    CriterionSpec("head_to_head", L_("confronto direto"), None, "Truco 10.1, 10.2.1", HeadToHead, settings=(TRUCO,)),
    CriterionSpec("pair_points_balance", L_("saldo de pontos das duplas"), L_("pelo saldo de pontos das duplas"),
                  "Truco 10.1, 10.3", _metric("pair_points_balance"), settings=(TRUCO,)),
    CriterionSpec("pontinhos_balance", L_("saldo de pontinhos"), L_("pelo saldo de pontinhos"), "Truco 10.1",
                  _metric("pontinhos_balance"), settings=(TRUCO,)),
    # Truco: the stage's classification (11) and the annual ranking (12.2): fixed by the regulation
    CriterionSpec("group_position", L_("colocação no grupo"), None, "Truco 11", higher_first=False),
    CriterionSpec("eliminated_in", L_("fase alcançada no mata-mata"), None, "Truco 11"),
    CriterionSpec("countback", L_("número de melhores colocações"), None, "Truco 12.2", _metric("countback")),
    # Quatrilho: the classification (Art. 21, 22)
    CriterionSpec("net", L_("pontos positivos"), L_("pelos pontos positivos (ganhos menos perdidos)"),
                  "Quatrilho Art. 21", _metric("net"), settings=(QUATRILHO,)),
    CriterionSpec("positive_rounds", L_("rodadas com pontos ganhos"), L_("pelo número de rodadas com pontos ganhos"),
                  "Quatrilho Art. 22", _metric("positive_rounds"), settings=(QUATRILHO,)),
    CriterionSpec("points_won", L_("soma dos pontos ganhos"), L_("pela soma dos pontos ganhos"),
                  "Quatrilho Art. 22", _metric("points_won"), settings=(QUATRILHO,)),
    CriterionSpec("best_round", L_("maior pontuação em uma rodada"), L_("pela maior pontuação em uma rodada"),
                  "Quatrilho Art. 22", _metric("best_round"), settings=(QUATRILHO,)),
    # both: a decision recorded in the content, last (Truco 10.1's sorteio; Quatrilho Art. 3, the commission)
    CriterionSpec("draw", L_("sorteio"), None, "Truco 10.1; Quatrilho Art. 3", RecordedDraw,
                  settings=(TRUCO, QUATRILHO)),
)

CRITERIA: dict[str, CriterionSpec] = {s.key: s for s in _SPECS}


def keys_for(setting: str) -> tuple[str, ...]:
    """The keys a league.yaml list may name (TRUCO or QUATRILHO), in the registry's order."""
    return tuple(s.key for s in _SPECS if setting in s.settings)


# the defaults of league.yaml's lists: the regulations' orders
TEAM_DEFAULT = ("wins", "points", "head_to_head", "pair_points_balance", "pontinhos_balance", "draw")   # Truco 10.1
PAIR_DEFAULT = ("points", "wins", "head_to_head", "pair_points_balance", "pontinhos_balance", "draw")   # Truco 10.3, 12.2
ANNUAL_ORDER = ("points", "countback")   # the annual rankings, fixed: Truco 12.2
QUATRILHO_DEFAULT = ("net", "positive_rounds", "points_won", "best_round", "draw")                    # Art. 21, 22, 3


def make(keys: Sequence[str]) -> list[Criterion]:
    """The criterion objects of a precedence named by keys (a league.yaml list)."""
    return [CRITERIA[k].criterion() for k in keys]


def name(key: str) -> str:
    """The criterion's name in the build's language ("número de vitórias"); the key itself if unknown."""
    spec = CRITERIA.get(key)
    return str(spec.name) if spec is not None else key


def phrase(key: str) -> Optional[str]:
    """"pelo número de vitórias", or None where the explanation has a sentence of its own."""
    spec = CRITERIA.get(key)
    return str(spec.phrase) if spec is not None and spec.phrase is not None else None
