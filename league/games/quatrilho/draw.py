"""Proposes the seat draw of a Quatrilho championship round: tables of 5 (and 4), jokers when needed, few repeated table-mates, reproducible from a seed."""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from itertools import combinations
from typing import Iterable, Sequence

__all__ = ["Table", "DrawProposal", "table_sizes", "propose_draw", "count_repeats"]

JOKER_PREFIX = "C"  # jokers (coringas) are seated as "C1", "C2", … (Quatrilho Art. 12, 16)
DEFAULT_ATTEMPTS = 200


@dataclass(frozen=True)
class Table:
    number: int  # 1-based table number
    seats: tuple[int | str, ...]  # registration numbers in seat order; jokers are strings "C1", "C2", …


@dataclass(frozen=True)
class DrawProposal:
    round: int
    seed: int
    tables: tuple[Table, ...]
    jokers: int  # how many jokers (coringas) were added
    repeats: int  # player pairs seated together that already sat together in an earlier round
    notes: tuple[str, ...]  # pt-BR sentences to announce


def _seatable(m: int) -> bool:
    # Quatrilho Art. 14: ceil(m/5) tables of 4 or 5 players seat m players iff 4*ceil(m/5) <= m.
    return m > 0 and 4 * math.ceil(m / 5) <= m


def table_sizes(n: int) -> tuple[list[int], int]:
    """Table sizes for n players and the number of jokers needed. # Quatrilho Art. 14

    Tables have 5 players and some of 4 when needed: ceil(m/5) tables whose
    sizes differ by at most one, bigger tables first, where m = n + jokers.
    Jokers (Art. 12, 16) are added, as few as possible, only when n players
    cannot be seated that way (n < 4, 6, 7, 11).
    """
    if n < 0:
        raise ValueError(f"número de jogadores negativo: {n}")
    if n == 0:
        return [], 0
    jokers = 0
    while not _seatable(n + jokers):  # Quatrilho Art. 12, 16: fill tables of 4 with jokers
        jokers += 1
    m = n + jokers
    count = math.ceil(m / 5)  # Quatrilho Art. 14: 5 per table, some of 4 to close the list
    base, extra = divmod(m, count)
    return [base + 1] * extra + [base] * (count - extra), jokers


def _players_of(seats: Iterable) -> list[int]:
    """The registration numbers among seats, jokers (strings) left out."""
    return [s for s in seats if isinstance(s, int) and not isinstance(s, bool)]


def _met_counts(previous_rounds: Sequence[Sequence[Sequence[int]]]) -> dict[tuple[int, int], int]:
    """For each pair of players (smaller number first), in how many earlier rounds they shared a table."""
    counts: dict[tuple[int, int], int] = {}
    for round_tables in previous_rounds:
        pairs: set[tuple[int, int]] = set()
        for table in round_tables:
            seats = table.seats if isinstance(table, Table) else table
            pairs.update(combinations(sorted(set(_players_of(seats))), 2))
        for pair in pairs:
            counts[pair] = counts.get(pair, 0) + 1
    return counts


def count_repeats(tables, previous_rounds) -> int:
    """Number of distinct player pairs seated together in `tables` that already sat together in an earlier round.

    `tables` holds `Table`s or plain sequences of seats; jokers (strings) never count.
    """
    met = _met_counts(previous_rounds)
    repeated: set[tuple[int, int]] = set()
    for table in tables:
        seats = table.seats if isinstance(table, Table) else table
        for pair in combinations(sorted(set(_players_of(seats))), 2):
            if pair in met:
                repeated.add(pair)
    return len(repeated)


class _Search:
    """Local search over assignments of players to tables of fixed capacity (Quatrilho Art. 9: new draw each round).

    The cost of a pair seated together is 0 if they never met, else big + (rounds they met):
    first fewer repeated pairs, then, among equals, fewer third or fourth meetings.
    """

    def __init__(self, players: list[int], capacities: list[int], met: dict[tuple[int, int], int], rng: random.Random):
        self.players = players
        self.capacities = capacities
        self.rng = rng
        n = len(players)
        index = {p: i for i, p in enumerate(players)}
        big = 1 + sum(met.values())  # more than any possible sum of meeting counts
        self.big = big
        self.w = [[0] * n for _ in range(n)]
        for (a, b), k in met.items():
            if a in index and b in index:
                i, j = index[a], index[b]
                self.w[i][j] = self.w[j][i] = big + k
        # every pair of tables (t < u), for choosing swaps
        self.cross_pairs = [
            (t, u) for t in range(len(capacities)) for u in range(t + 1, len(capacities))
        ]

    def cost(self, tables: list[list[int]]) -> int:
        w = self.w
        return sum(w[a][b] for table in tables for a, b in combinations(table, 2))

    def descend(self, tables: list[list[int]]) -> None:
        """Swap players between tables while a swap lowers the cost (first improvement, random order)."""
        rng, w = self.rng, self.w
        near = self.near(tables)
        moves = self.moves(tables)
        improved = True
        while improved:
            improved = False
            rng.shuffle(moves)
            for t, i, u, j in moves:
                a, b = tables[t][i], tables[u][j]
                na, nb, wab = near[a], near[b], w[a][b]
                # a leaves t for u (where b no longer is), b leaves u for t (where a no longer is)
                if na[u] + nb[t] - 2 * wab < na[t] + nb[u]:
                    tables[t][i], tables[u][j] = b, a
                    for p, row in enumerate(w):
                        d = row[a] - row[b]
                        if d:
                            near[p][t] -= d
                            near[p][u] += d
                    improved = True

    def near(self, tables: list[list[int]]) -> list[list[int]]:
        """near[p][t]: cost of player p's pairs with the players of table t."""
        w = self.w
        return [[sum(w[p][x] for x in table) for table in tables] for p in range(len(w))]

    def moves(self, tables: list[list[int]]) -> list[tuple[int, int, int, int]]:
        """Every swap (t, i, u, j): the i-th player of table t with the j-th of table u."""
        return [
            (t, i, u, j)
            for t, u in self.cross_pairs
            for i in range(len(tables[t]))
            for j in range(len(tables[u]))
        ]

    def kick(self, tables: list[list[int]], swaps: int) -> None:
        """Random swaps between tables, to leave a local minimum."""
        rng = self.rng
        for _ in range(swaps):
            t, u = self.cross_pairs[rng.randrange(len(self.cross_pairs))]
            if not tables[t] or not tables[u]:
                continue
            i, j = rng.randrange(len(tables[t])), rng.randrange(len(tables[u]))
            tables[t][i], tables[u][j] = tables[u][j], tables[t][i]

    def lower_bound(self, previous_groups: list[list[int]]) -> int:
        """A cost no arrangement can beat, from the pigeonhole principle on one earlier round.

        A table of s players drawn from the g tables of that round (each player who did not
        play it counting as a table of his own) holds at least the pairs of the most even
        split of s into g parts, and each such pair already met.
        """
        if not previous_groups:
            return 0
        seen = {p for group in previous_groups for p in group}
        g = len(previous_groups) + len(self.players) - len(seen)
        pairs = 0
        for s in self.capacities:
            q, r = divmod(s, g)
            pairs += r * (q + 1) * q // 2 + (g - r) * q * (q - 1) // 2
        return pairs * (self.big + 1)

    def run(self, attempts: int, bound: int = 0) -> list[list[int]]:
        """Best arrangement (lists of player indices per table) found in `attempts` descents.

        The first descent starts from a random draw; each later one starts from the best
        arrangement so far, kicked by a few random swaps (iterated local search); every
        fourth starts afresh from a random draw.
        """
        order = list(range(len(self.players)))
        best: list[list[int]] | None = None
        best_cost = 0
        for attempt in range(max(1, attempts)):
            tables = self.start(order, best, attempt)
            self.descend(tables)
            c = self.cost(tables)
            if best is None or c < best_cost:
                best, best_cost = [list(t) for t in tables], c
            if best_cost <= bound or not self.cross_pairs:  # cannot do better
                break
        assert best is not None
        return best

    def start(self, order: list[int], best: list[list[int]] | None, attempt: int) -> list[list[int]]:
        """Where a descent starts: a random draw (the first and every fourth), else the best so far, kicked."""
        rng = self.rng
        if best is None or attempt % 4 == 0:
            rng.shuffle(order)
            tables, k = [], 0
            for cap in self.capacities:
                tables.append(order[k:k + cap])
                k += cap
            return tables
        tables = [list(t) for t in best]
        self.kick(tables, 2 + rng.randrange(3))
        return tables


def _plural(k: int, one: str, many: str) -> str:
    return one if k == 1 else many


def propose_draw(
    players: Sequence[int],
    previous_rounds: Sequence[Sequence[Sequence[int]]],
    round_number: int,
    seed: int,
    attempts: int = DEFAULT_ATTEMPTS,
) -> DrawProposal:
    """players: registration numbers to seat this round; previous_rounds: for each earlier round, its tables as lists of registration numbers.

    The same arguments always give the same proposal: all randomness comes from
    `random.Random(seed)`, and the order of `players` does not matter.
    """
    # Quatrilho Art. 9: a new draw of tables and seats every round.
    # Quatrilho Art. 14: tables of 5, some of 4 to seat everyone; Art. 12, 16: jokers when even that fails.
    ordered = _checked_players(players, round_number)
    rng = random.Random(seed)
    sizes, jokers = table_sizes(len(ordered))
    joker_count = _spread_jokers(rng, len(sizes), jokers)
    capacities = [size - j for size, j in zip(sizes, joker_count)]
    search = _Search(ordered, capacities, _met_counts(previous_rounds), rng)
    best = search.run(attempts, _lower_bound(search, ordered, previous_rounds))
    tables = _seat(rng, ordered, best, joker_count)
    repeats = count_repeats(tables, previous_rounds)
    return DrawProposal(
        round=round_number,
        seed=seed,
        tables=tuple(tables),
        jokers=jokers,
        repeats=repeats,
        notes=tuple(_notes(len(ordered), jokers, repeats, previous_rounds)),
    )


def _checked_players(players: Sequence[int], round_number: int) -> list[int]:
    """The players in order, once each; ValueError for a bad round, no players or a repeated number."""
    if round_number < 1:
        raise ValueError(f"rodada inválida: {round_number}")
    ordered = sorted(players)
    if not ordered:
        raise ValueError("nenhum jogador para sortear")
    duplicates = sorted({p for a, p in zip(ordered, ordered[1:]) if a == p})
    if duplicates:
        raise ValueError("jogadores repetidos no sorteio: " + ", ".join(map(str, duplicates)))
    return ordered


def _spread_jokers(rng: random.Random, tables: int, jokers: int) -> list[int]:
    """How many jokers sit at each table. # Quatrilho Art. 12, 16: jokers at different tables where possible
    (at most 3 are ever needed, and then all tables have 4 seats, so spreading them keeps tables alike)."""
    joker_count = [0] * tables
    joker_tables = rng.sample(range(tables), min(jokers, tables))
    for k in range(jokers):
        joker_count[joker_tables[k % len(joker_tables)]] += 1
    return joker_count


def _lower_bound(search: _Search, ordered: list[int], previous_rounds) -> int:
    """The best lower bound on the cost over the earlier rounds (_Search.lower_bound): the search stops there."""
    bound = 0
    index = {p: i for i, p in enumerate(ordered)}
    for round_tables in previous_rounds:
        groups = [
            [index[p] for p in _players_of(t.seats if isinstance(t, Table) else t) if p in index]
            for t in round_tables
        ]
        bound = max(bound, search.lower_bound([g for g in groups if g]))
    return bound


def _seat(rng: random.Random, ordered: list[int], best: list[list[int]], joker_count: list[int]) -> list[Table]:
    """The tables, numbered, with their jokers C1, C2, …, every seat drawn.
    # Quatrilho Art. 9: the seat is drawn too; tables stay bigger first, as the sizes are."""
    tables: list[Table] = []
    next_joker = 1
    for number, (members, j) in enumerate(zip(best, joker_count), start=1):
        seats: list[int | str] = [ordered[i] for i in members]
        for _ in range(j):
            seats.append(f"{JOKER_PREFIX}{next_joker}")
            next_joker += 1
        rng.shuffle(seats)
        tables.append(Table(number=number, seats=tuple(seats)))
    return tables


def _notes(n: int, jokers: int, repeats: int, previous_rounds) -> list[str]:
    """The sentences to announce with the draw: jokers added, pairs that meet again."""
    notes: list[str] = []
    if jokers:
        notes.append(
            f"{jokers} {_plural(jokers, 'coringa adicionado', 'coringas adicionados')}: "
            f"{n} {_plural(n, 'jogador não forma', 'jogadores não formam')} mesas de 4 e 5."
        )
    if any(previous_rounds):
        if repeats:
            notes.append(
                f"{repeats} {_plural(repeats, 'par de jogadores já se encontrou', 'pares de jogadores já se encontraram')} "
                "em rodada anterior."
            )
        else:
            notes.append("Nenhum par de jogadores se repete de rodada anterior.")
    return notes
