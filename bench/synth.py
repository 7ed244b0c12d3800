#!/usr/bin/env python3
"""Generate a synthetic, valid content archive (spec/data-format.md) to benchmark and stress `league`.

    python bench/synth.py --seasons 20 --teams 40 --championships 6 --seed 1 --out /tmp/archive

The tree has the federation files, one folder per season (years 2027-S .. 2026) with six Truco
stages and Q Quatrilho championships each, a few Markdown pages and news posts. Every stage is
a group phase (round robin, groups of 4 or 5) followed by an 8-team knockout with a placement
bracket for places 5-8; in the last season etapa-5 is in progress and etapa-6 is scheduled.

Everything is drawn from `random.Random(seed)` with integer arithmetic only, and files are written
in a fixed order, so the same arguments always give byte-identical files. Stdlib only.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import shutil
import sys
import time
import unicodedata

import random

# --------------------------------------------------------------------------------------------
# Name material
# --------------------------------------------------------------------------------------------

FIRST_NAMES = """
Ana Beatriz Bruna Camila Carla Daniela Débora Eduarda Fernanda Gabriela Helena Isabela Juliana
Larissa Letícia Luana Mariana Natália Patrícia Rafaela Renata Sabrina Tatiane Vanessa Vitória
Aline Cláudia Elaine Márcia Rosana Sandra Silvana Sônia Tânia Vera Neusa Lurdes Ivone Rosângela
Adriano Alexandre André Antônio Bruno Caio Carlos César Cláudio Daniel Davi Diego Edson Eduardo
Emerson Fábio Felipe Fernando Gabriel Gilberto Gilmar Guilherme Gustavo Hélio Henrique Hugo Igor
Ivo Jair Jefferson João Jorge José Juliano Leandro Leonardo Lucas Luís Marcelo Marcos Mário
Mateus Maurício Nelson Osmar Paulo Pedro Rafael Renato Ricardo Roberto Rodrigo Rogério Ronaldo
Sérgio Sidnei Tiago Valdir Vinícius Wagner Wilson Ademir Altair Valmor Dirceu Nilson Celso
Darci Elton Evandro Genésio Irineu Jacó Lauro Moacir Neri Odair Orlando Pedrinho Reinaldo Sadi
Teodoro Vanderlei Zeca Kauê Enzo Otávio Arthur Heitor Bernardo Samuel Murilo Lorenzo Benício
""".split()

SURNAMES = """
Silva Santos Oliveira Souza Rodrigues Ferreira Alves Pereira Lima Gomes Costa Ribeiro Martins
Carvalho Almeida Lopes Soares Fernandes Vieira Barbosa Rocha Dias Nascimento Andrade Moreira
Nunes Marques Machado Mendes Freitas Cardoso Ramos Gonçalves Santana Teixeira Araújo Pinto
Moraes Correia Cavalcanti Batista Campos Reis Melo Castro Prado Bueno Kovalski Wisniewski
Schmidt Müller Zanella Bortolini Tomasi Pagliosa Bertoldi Nogueira Farias Brandão Siqueira
Xavier Pacheco Leite Rosa Paz Mota Neto Sá Luz Cruz Lara Borges Camargo Fontana Zanatta
Bianchi Kruger Hoffmann Stein Becker Dalmolin Scheffer Grando Fiorentin Kuhn Trevisan Baggio
Gasparin Pagnoncelli Lorenzetti Slompo Woicik Nowak Kaminski Chiquito Sartori Benedetti
""".split()

# Paraná cities hosting Truco clubs.
CITIES = [
    "Curitiba", "Londrina", "Maringá", "Ponta Grossa", "Cascavel", "São José dos Pinhais",
    "Foz do Iguaçu", "Colombo", "Guarapuava", "Paranaguá", "Araucária", "Toledo", "Apucarana",
    "Pinhais", "Campo Largo", "Arapongas", "Almirante Tamandaré", "Umuarama", "Piraquara", "Cambé",
    "Sarandi", "Fazenda Rio Grande", "Paranavaí", "Francisco Beltrão", "Pato Branco", "Cianorte",
    "Telêmaco Borba", "Castro", "Rolândia", "Irati", "União da Vitória", "Ibiporã", "Prudentópolis",
    "Marechal Cândido Rondon", "Palmas", "Lapa", "Cornélio Procópio", "Medianeira",
    "Santo Antônio da Platina", "Jacarezinho", "Siqueira Campos", "Dois Vizinhos",
    "Assis Chateaubriand", "Palotina", "Bandeirantes", "Rio Negro", "Ivaiporã", "Jaguariaíva",
    "Wenceslau Braz", "Arapoti", "Ibaiti", "Laranjeiras do Sul", "Chopinzinho", "Pitanga",
    "Mandaguari", "Goioerê", "Campo Mourão", "Quedas do Iguaçu", "Realeza", "Santa Helena",
]

# (abbreviation used in the club's name and id, long form for the pages)
CLUB_KINDS = ["ACT", "CRT", "GRT", "AAT", "SRT", "CTG", "AET", "UTC"]

# Western Santa Catarina / Rio Grande do Sul municipalities hosting Quatrilho championships.
MUNICIPALITIES = [
    "Chapecó", "Xanxerê", "Concórdia", "São Miguel do Oeste", "Pinhalzinho", "Maravilha", "Xaxim",
    "Seara", "Palmitos", "Quilombo", "Coronel Freitas", "São Lourenço do Oeste", "Abelardo Luz",
    "Joaçaba", "Videira", "Caçador", "Campos Novos", "Erechim", "Frederico Westphalen",
    "Dionísio Cerqueira", "Itapiranga", "Descanso", "Cunha Porã", "Saudades", "Águas de Chapecó",
    "Caxambu do Sul", "Guatambu", "Nova Itaberaba", "Cordilheira Alta", "Nova Erechim",
]

# Loser's pontinhos in a game, 0..11, weighted towards close games.
LOSER_POOL = [p for p, w in enumerate([2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 9]) for _ in range(w)]

PRIZES = "{1: 25, 2: 15, 3: 10, 4: 6, 5: 5, 6: 4, 7: 3, 8: 2}"
FEES = ["30.00", "40.00", "50.00", "50.00", "60.00"]
STAGES_PER_SEASON = 6
LAST_YEAR = 2026
MONTHS_PT = ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto",
             "setembro", "outubro", "novembro", "dezembro"]
SLUG_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
# Words YAML 1.1 would not read as a plain string.
YAML_RESERVED = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}


def slugify(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def q(text: str) -> str:
    """A YAML double-quoted scalar (JSON strings are valid YAML), UTF-8 kept as is."""
    return json.dumps(text, ensure_ascii=False)


def ordinal(n: int, feminine: bool = True) -> str:
    return f"{n}{'ª' if feminine else 'º'}"


def saturday_in(rng: random.Random, year: int, month: int, weekday: int = 5) -> dt.date:
    """A random Saturday (or other weekday, Monday=0) among the first three of the month."""
    first = dt.date(year, month, 1)
    first += dt.timedelta(days=(weekday - first.weekday()) % 7)
    return first + dt.timedelta(days=7 * rng.randrange(3))


# --------------------------------------------------------------------------------------------
# The world: clubs, players, rosters and pairs, evolving season after season
# --------------------------------------------------------------------------------------------

class World:
    def __init__(self, rng: random.Random, teams: int, championships: int):
        self.rng = rng
        self.players: dict[str, dict] = {}      # id -> {name, club, skill}
        self.clubs: dict[str, dict] = {}        # id -> {name, city, big}
        self.roster: dict[str, list[str]] = {}  # club -> player ids
        self.pairs: dict[str, list[tuple[str, str]]] = {}  # club -> this season's pairs
        self.last_pairs: dict[str, list[tuple[str, str]]] = {}
        self.qpool: list[str] = []               # active Quatrilho players

        # b-teams per stage: between kmin and kmax; enough clubs so that some skip a stage
        self.kmin = teams // 10
        self.kmax = max(1, teams // 5)
        n_clubs = teams - self.kmin + max(1, teams // 10)
        n_big = min(n_clubs, self.kmax + max(1, self.kmax // 3))
        combos = [(k, c) for c in CITIES for k in CLUB_KINDS]
        if n_clubs > len(combos):
            raise SystemExit(f"--teams {teams} is too large (at most {len(combos) - max(1, teams // 10)})")
        # First clubs get one per city, then the cities fill up with a second kind, ...
        cities = CITIES[:]
        rng.shuffle(cities)
        chosen: list[tuple[str, str]] = []
        kinds_by_city = {c: rng.sample(CLUB_KINDS, len(CLUB_KINDS)) for c in CITIES}
        level = 0
        while len(chosen) < n_clubs:
            for city in cities:
                if len(chosen) == n_clubs:
                    break
                chosen.append((kinds_by_city[city][level], city))
            level += 1
        big_ids = set()  # membership only, never iterated
        for i, (kind, city) in enumerate(chosen):
            cid = slugify(f"{kind} {city}")
            assert SLUG_RE.match(cid) and not cid.endswith("-b") and cid not in YAML_RESERVED
            self.clubs[cid] = {"name": f"{kind} {city}", "city": city, "big": i < n_big}
            if i < n_big:
                big_ids.add(cid)
        self.club_ids = sorted(self.clubs)
        self.big_clubs = [c for c in self.club_ids if c in big_ids]
        self.target = {c: (rng.randint(24, 28) if self.clubs[c]["big"] else rng.randint(12, 16))
                       for c in self.club_ids}
        for c in self.club_ids:
            self.roster[c] = [self.new_player(c) for _ in range(self.target[c])]
        self.q_target = 40 + 12 * championships
        self.qpool = [self.new_player(None) for _ in range(self.q_target)]

    def new_player(self, club: str | None) -> str:
        rng = self.rng
        first = rng.choice(FIRST_NAMES)
        name = f"{first} {rng.choice(SURNAMES)}"
        if rng.random() < 0.2:
            name = f"{first} {rng.choice(SURNAMES)} {rng.choice(SURNAMES)}"
        base = slugify(name)
        pid, n = base, 1
        while pid in self.players:
            n += 1
            pid = f"{base}-{n}"
        self.players[pid] = {"name": name, "club": club, "skill": rng.randint(10, 90)}
        return pid

    def turnover(self) -> None:
        """Between seasons: some players retire, some change club, newcomers fill the rosters."""
        rng = self.rng
        movers: list[str] = []
        for c in self.club_ids:
            keep = []
            for p in self.roster[c]:
                r = rng.random()
                if r < 0.08:
                    self.players[p]["club"] = None           # retired
                elif r < 0.14:
                    movers.append(p)
                else:
                    keep.append(p)
            self.roster[c] = keep
        for p in movers:
            old = self.players[p]["club"]
            dest = rng.choice([c for c in self.club_ids if c != old])
            self.players[p]["club"] = dest
            self.roster[dest].append(p)
        for c in self.club_ids:
            while len(self.roster[c]) < self.target[c]:
                self.roster[c].append(self.new_player(c))
        # Quatrilho pool
        self.qpool = [p for p in self.qpool if rng.random() >= 0.08]
        while len(self.qpool) < self.q_target:
            self.qpool.append(self.new_player(None))

    def form_pairs(self) -> None:
        """Pairs for the season: 40% keep last season's partner, the rest are re-paired."""
        rng = self.rng
        for c in self.club_ids:
            members = self.roster[c]
            present = {p: True for p in members}
            pairs: list[tuple[str, str]] = []
            used: dict[str, bool] = {}
            for a, b in self.last_pairs.get(c, []):
                if a in present and b in present and rng.random() < 0.4:
                    pairs.append((a, b))
                    used[a] = used[b] = True
            free = [p for p in members if p not in used]
            rng.shuffle(free)
            for i in range(0, len(free) - 1, 2):
                pairs.append((free[i], free[i + 1]))
            self.pairs[c] = pairs
            self.last_pairs[c] = pairs

    def pair_skill(self, pair: tuple[str, str]) -> int:
        return self.players[pair[0]]["skill"] + self.players[pair[1]]["skill"]


# --------------------------------------------------------------------------------------------
# Truco: boards, matches, standings
# --------------------------------------------------------------------------------------------

def gen_games(rng: random.Random, first_wins: bool) -> list[tuple[int, int]]:
    """Games of one board from the first side's view, as (first, second) pontinhos."""
    if rng.random() < 0.55:
        seq = [first_wins, first_wins]
    else:
        lost = rng.randrange(2)
        seq = [first_wins if i != lost else not first_wins for i in range(2)] + [first_wins]
    return [(12, rng.choice(LOSER_POOL)) if w else (rng.choice(LOSER_POOL), 12) for w in seq]


def flip(games):
    return [(b, a) for a, b in games]


def board_winner_home(board: dict) -> bool:
    if board["games"] is None:
        return board["res"][0] > board["res"][1]
    return sum(1 for h, a in board["games"] if h > a) == 2


class Stage:
    def __init__(self, world: World, rng: random.Random, year: int, number: int,
                 status: str, date: dt.date, host: str, clubs_in: list[str], b_clubs: list[str]):
        self.world, self.rng = world, rng
        self.year, self.number, self.status, self.date = year, number, status, date
        self.host = host
        self.teams: dict[str, dict] = {}
        self.groups: list[tuple[str, list[str], list[dict]]] = []
        self.knockout: list[tuple[str, str, list[dict]]] = []   # (round, extra key line, matches)
        self.draws: dict[tuple[str, ...], list[str]] = {}
        self._pick_squads(clubs_in, b_clubs)

    # squads --------------------------------------------------------------------------------
    def _pick_squads(self, clubs_in: list[str], b_clubs: list[str]) -> None:
        rng, world = self.rng, self.world
        for c in clubs_in:
            cp = sorted(world.pairs[c], key=lambda p: -(world.pair_skill(p) + rng.randint(0, 60)))
            has_b = c in b_clubs
            sizes = [6 if rng.random() < 0.6 else 5 for _ in range(2 if has_b else 1)]
            while sum(sizes) > len(cp):
                sizes[sizes.index(max(sizes))] -= 1
            start = 0
            for i, size in enumerate(sizes):
                squad = [tuple(p) for p in cp[start:start + size]]
                start += size
                while rng.random() < 0.4:   # partners swapped for this stage
                    a, b = rng.sample(range(len(squad)), 2)
                    (p1, p2), (p3, p4) = squad[a], squad[b]
                    squad[a], squad[b] = (p1, p4), (p3, p2)
                tid = c if i == 0 else f"{c}-b"
                self.teams[tid] = {"club": c, "name": None if i == 0 else f"{world.clubs[c]['name']} B",
                                   "pairs": squad}
        self.team_ids = sorted(self.teams)

    def skill(self, tid: str, pair_no: int) -> int:
        return self.world.pair_skill(self.teams[tid]["pairs"][pair_no - 1])

    # matches -------------------------------------------------------------------------------
    def play(self, home: str, away: str, result_only_rate: float = 0.0) -> dict:
        rng = self.rng
        hsub = self._substitution(home)
        asub = self._substitution(away)
        boards = []
        for i in range(1, 6):
            hp = 6 if hsub == i else i
            ap = 6 if asub == i else i
            diff = self.skill(home, hp) - self.skill(away, ap)
            p = min(880, max(120, 500 + diff * 3))
            home_wins = rng.randrange(1000) < p
            board = {"hp": hp, "ap": ap, "games": gen_games(rng, home_wins), "res": None,
                     "ids": (hp != i or ap != i) and rng.random() < 0.1}
            if hp == i and ap == i and rng.random() < result_only_rate:
                board["res"] = (2, 1) if home_wins else (1, 2)
                board["games"] = None
            boards.append(board)
        return {"home": home, "away": away, "walkover": None, "boards": boards}

    def _substitution(self, tid: str) -> int | None:
        """With a sixth pair, it replaces one of the first five in about half the matches."""
        if len(self.teams[tid]["pairs"]) >= 6 and self.rng.random() < 0.5:
            return self.rng.randint(1, 5)
        return None

    def fixed(self, first: str, second: str, lines: list[list[tuple[int, int]]], home_first: bool) -> dict:
        """A match whose boards, from `first`'s view, are exactly `lines` (for engineered ties)."""
        home, away = (first, second) if home_first else (second, first)
        boards = [{"hp": i, "ap": i, "games": g if home_first else flip(g), "res": None, "ids": False}
                  for i, g in enumerate(lines, 1)]
        return {"home": home, "away": away, "walkover": None, "boards": boards}

    def tie_lines(self, first_wins: bool = True) -> list[list[tuple[int, int]]]:
        rng = self.rng
        wins = rng.choice([3, 3, 4, 5])
        if not first_wins:
            wins = 5 - wins
        won = rng.sample(range(5), wins)
        return [gen_games(rng, i in won) for i in range(5)]

    @staticmethod
    def winner(m: dict) -> str:
        if m["walkover"]:
            return m["away"] if m["walkover"] == m["home"] else m["home"]
        hb = sum(1 for b in m["boards"] if board_winner_home(b))
        return m["home"] if hb >= 3 else m["away"]

    # standings (rules.md, item 10.1) -------------------------------------------------------
    @staticmethod
    def stats(teams: list[str], matches: list[dict]) -> dict[str, dict]:
        st = {t: {"wins": 0, "points": 0, "ppb": 0, "pont": 0} for t in teams}
        for m in matches:
            h, a = m["home"], m["away"]
            if m["walkover"]:
                w = a if m["walkover"] == h else h
                # per board: (home won, pair points diff, pontinhos diff), from home's view
                per = [(w == h, 3 if w == h else -3, 24 if w == h else -24)] * 5
            else:
                per = []
                for b in m["boards"]:
                    hw = board_winner_home(b)
                    if b["games"] is None:
                        ppd = (2 - 1) if hw else (1 - 2)
                        pd = 0
                    else:
                        ng = len(b["games"])
                        pp = 3 if ng == 2 else 2
                        lp = 0 if ng == 2 else 1
                        ppd = (pp - lp) if hw else (lp - pp)
                        pd = sum(x - y for x, y in b["games"])
                    per.append((hw, ppd, pd))
            hb = sum(1 for x in per if x[0])
            for t, sign, boards_won in ((h, 1, hb), (a, -1, 5 - hb)):
                if t not in st:
                    continue
                s = st[t]
                s["points"] += boards_won
                s["wins"] += 1 if boards_won >= 3 else 0
                s["ppb"] += sign * sum(x[1] for x in per)
                s["pont"] += sign * sum(x[2] for x in per)
        return st

    def rank(self, teams: list[str], matches: list[dict]) -> list[str]:
        """Order teams with wins, points, head-to-head, balances, recorded draw, restarting from
        the first criterion inside every subgroup a criterion splits (FIDE C.07 4.2)."""
        st = self.stats(teams, matches)

        def h2h_blocks(group: list[str]) -> list[list[str]]:
            inside = {t: True for t in group}
            hs = self.stats(group, [m for m in matches if m["home"] in inside and m["away"] in inside])
            met = {}
            for m in matches:
                if m["home"] in inside and m["away"] in inside:
                    met[(m["home"], m["away"])] = met[(m["away"], m["home"])] = True
            unplayed = {t: sum(1 for o in group if o != t and (t, o) not in met) for t in group}
            if all(v == 0 for v in unplayed.values()):
                return partition(group, lambda t: (hs[t]["wins"], hs[t]["points"]))
            placed, rest = [], list(group)
            while len(rest) > 1:        # FIDE C.07 6.3
                top = [t for t in rest if all(hs[t]["wins"] > hs[o]["wins"] + unplayed[o]
                                              for o in rest if o != t)]
                if not top:
                    break
                placed.append([top[0]])
                rest.remove(top[0])
            return placed + [rest] if rest else placed

        def partition(group, key):
            values = sorted({key(t) for t in group}, reverse=True)
            return [[t for t in group if key(t) == v] for v in values]

        criteria = [
            lambda g: partition(g, lambda t: st[t]["wins"]),
            lambda g: partition(g, lambda t: st[t]["points"]),
            h2h_blocks,
            lambda g: partition(g, lambda t: st[t]["ppb"]),
            lambda g: partition(g, lambda t: st[t]["pont"]),
        ]

        def order(group: list[str]) -> list[str]:
            if len(group) == 1:
                return group
            for crit in criteria:
                blocks = crit(group)
                if len(blocks) > 1:
                    return [t for b in blocks for t in order(b)]
            key = tuple(sorted(group))
            if key not in self.draws:
                drawn = list(key)
                self.rng.shuffle(drawn)
                self.draws[key] = drawn
            return list(self.draws[key])

        return order(sorted(teams))

    # phases --------------------------------------------------------------------------------
    def group_phase(self, complete: bool, tie_rate: float) -> None:
        rng = self.rng
        order = list(self.team_ids)
        rng.shuffle(order)
        sizes = group_sizes(len(order))
        start = 0
        for gi, size in enumerate(sizes):
            gteams = order[start:start + size]
            start += size
            name = f"Grupo {group_letter(gi, len(sizes))}"
            matches = []
            tie = None
            if complete and size >= 4 and rng.random() < tie_rate:
                tie = rng.sample(gteams, 3)
                cycle = self.tie_lines()
                outsiders = {o: self.tie_lines(rng.random() < 0.5) for o in gteams if o not in tie}
            for h, a in round_robin(gteams):
                if tie and h in tie and a in tie:
                    i, j = tie.index(h), tie.index(a)
                    first, second = (h, a) if (i + 1) % 3 == j else (a, h)   # tie[0]>tie[1]>tie[2]>tie[0]
                    matches.append(self.fixed(first, second, cycle, first == h))
                elif tie and (h in tie) != (a in tie):
                    x, o = (h, a) if h in tie else (a, h)
                    matches.append(self.fixed(x, o, outsiders[o], x == h))
                elif not tie and rng.random() < 0.004:
                    m = {"home": h, "away": a, "walkover": rng.choice([h, a]), "boards": []}
                    matches.append(m)
                else:
                    matches.append(self.play(h, a))
            if not complete:
                n_keep = max(1, len(matches) - rng.randint(1, max(1, len(matches) // 2)))
                keep = sorted(rng.sample(range(len(matches)), n_keep))
                matches = [matches[k] for k in keep]
            self.groups.append((name, gteams, matches))

    def knockout_phase(self) -> None:
        # Qualifiers: all group winners, then all seconds, ... each level ordered across groups.
        ranked = [self.rank(gt, ms) for _, gt, ms in self.groups]
        all_matches = [m for _, _, ms in self.groups for m in ms]
        seeds: list[str] = []
        level = 0
        while len(seeds) < 8:
            at_level = [r[level] for r in ranked if len(r) > level]
            ordered = self.rank(at_level, all_matches)
            seeds.extend(ordered[:8 - len(seeds)])
            level += 1
        seed_no = {t: i for i, t in enumerate(seeds)}
        # Leave about a third of the draws unrecorded where they decide no qualification:
        # the site must then show shared places ("9º=") and `league check` warn about them.
        for key in sorted(self.draws):
            inside = sum(1 for t in key if t in seed_no)
            if inside in (0, len(key)) and self.rng.random() < 0.35:
                del self.draws[key]

        def duel(a: str, b: str) -> tuple[dict, str, str]:
            h, aw = (a, b) if seed_no[a] < seed_no[b] else (b, a)
            m = self.play(h, aw, result_only_rate=0.003)
            w = self.winner(m)
            return m, w, (aw if w == h else h)

        qf = [duel(seeds[0], seeds[7]), duel(seeds[3], seeds[4]),
              duel(seeds[1], seeds[6]), duel(seeds[2], seeds[5])]
        sf = [duel(qf[0][1], qf[1][1]), duel(qf[2][1], qf[3][1])]
        p58 = [duel(qf[0][2], qf[1][2]), duel(qf[2][2], qf[3][2])]
        p5 = duel(p58[0][1], p58[1][1])
        p7 = duel(p58[0][2], p58[1][2])
        p3 = duel(sf[0][2], sf[1][2])
        final = duel(sf[0][1], sf[1][1])
        self.knockout = [
            ("Quartas de final", "", [x[0] for x in qf]),
            ("Semifinal", "", [x[0] for x in sf]),
            ("Semifinal do 5º ao 8º", "places: [5, 8]", [x[0] for x in p58]),
            ("Disputa de 5º lugar", "for_place: 5", [p5[0]]),
            ("Disputa de 7º lugar", "for_place: 7", [p7[0]]),
            ("Disputa de 3º lugar", "for_place: 3", [p3[0]]),
            ("Final", "for_place: 1", [final[0]]),
        ]

    # output --------------------------------------------------------------------------------
    def render(self, city: str) -> str:
        out = [
            f"name: {q(ordinal(self.number) + ' Etapa')}",
            f"date: {self.date.isoformat()}",
            f"host: {self.host}",
            f"city: {q(city)}",
            f"status: {self.status}",
            "teams:",
        ]
        for tid in self.team_ids:
            t = self.teams[tid]
            out.append(f"  {tid}:")
            if t["name"]:
                out.append(f"    club: {t['club']}")
                out.append(f"    name: {q(t['name'])}")
            out.append("    pairs:")
            for a, b in t["pairs"]:
                out.append(f"      - [{a}, {b}]")
        if self.groups or self.knockout:
            out.append("phases:")
        if self.groups:
            out.append(f"  - name: {q('Fase de grupos')}")
            out.append("    groups:")
            for name, gteams, matches in self.groups:
                out.append(f"      {q(name)}:")
                out.append(f"        teams: [{', '.join(gteams)}]")
                if matches:
                    out.append("        matches:")
                    for m in matches:
                        self._render_match(out, m, " " * 10)
                else:
                    out.append("        matches: []")
        if self.knockout:
            out.append(f"  - name: {q('Fase final')}")
            out.append("    knockout:")
            for rname, extra, matches in self.knockout:
                out.append(f"      - round: {q(rname)}")
                if extra:
                    out.append(f"        {extra}")
                out.append("        matches:")
                for m in matches:
                    self._render_match(out, m, " " * 10)
        if self.draws:
            out.append("draws:")
            note = f"Sorteio na mesa da organização, {self.date.day:02d}/{self.date.month:02d}"
            for key in sorted(self.draws):
                out.append(f"  - teams: [{', '.join(key)}]")
                out.append(f"    order: [{', '.join(self.draws[key])}]")
                out.append(f"    note: {q(note)}")
        return "\n".join(out) + "\n"

    def _render_match(self, out: list[str], m: dict, ind: str) -> None:
        out.append(f"{ind}- home: {m['home']}")
        out.append(f"{ind}  away: {m['away']}")
        if m["walkover"]:
            out.append(f"{ind}  walkover: {m['walkover']}")
            return
        out.append(f"{ind}  boards:")
        for i, b in enumerate(m["boards"], 1):
            if b["games"] is None:
                score = f"{b['res'][0]}-{b['res'][1]}"
            else:
                score = " ".join(f"{h}-{a}" for h, a in b["games"])
            if b["hp"] == i and b["ap"] == i and not b["ids"]:
                out.append(f"{ind}    - {q(score)}")
            elif b["ids"]:
                hp = self.teams[m["home"]]["pairs"][b["hp"] - 1]
                ap = self.teams[m["away"]]["pairs"][b["ap"] - 1]
                out.append(f"{ind}    - {{home: [{hp[0]}, {hp[1]}], away: [{ap[0]}, {ap[1]}], "
                           f"score: {q(score)}}}")
            else:
                out.append(f"{ind}    - {{home: {b['hp']}, away: {b['ap']}, score: {q(score)}}}")


def group_sizes(n: int) -> list[int]:
    """Groups of 5 and 4 (sizes differ by at most one); 11 teams cannot: 6 + 5."""
    g = -(-n // 5)
    base, extra = divmod(n, g)
    sizes = [base + 1] * extra + [base] * (g - extra)
    if min(sizes) < 4:
        g = n // 4 if n // 4 >= 1 else 1
        base, extra = divmod(n, g)
        sizes = [base + 1] * extra + [base] * (g - extra)
    return sizes


def group_letter(i: int, n: int) -> str:
    if n <= 26:
        return chr(ord("A") + i)
    return str(i + 1)


def round_robin(teams: list[str]) -> list[tuple[str, str]]:
    """Circle method: rounds in order, home and away alternating."""
    ts = list(teams) + ([None] if len(teams) % 2 else [])
    n = len(ts)
    games = []
    for r in range(n - 1):
        for i in range(n // 2):
            a, b = ts[i], ts[n - 1 - i]
            if a is None or b is None:
                continue
            games.append((a, b) if (r + i) % 2 == 0 else (b, a))
        ts = [ts[0]] + [ts[-1]] + ts[1:-1]
    return games


# --------------------------------------------------------------------------------------------
# Quatrilho
# --------------------------------------------------------------------------------------------

def split_chips(rng: random.Random, total: int, n: int, busted: list[bool]) -> list[int]:
    """Divide `total` chips among n players with integer weights; busted players end with 0."""
    weights = [0 if busted[i] else rng.randint(1, 100) for i in range(n)]
    if sum(weights) == 0:
        weights[rng.randrange(n)] = 1
    w = sum(weights)
    chips = [total * x // w for x in weights]
    rest = total - sum(chips)
    winners = [i for i in range(n) if weights[i]]
    chips[rng.choice(winners)] += rest
    return chips


def quatrilho(world: World, rng: random.Random, year: int, municipality: str, edition: int,
              date: dt.date) -> str:
    n = rng.randint(14, 20)
    pool = world.qpool
    truco_pool = [p for c in world.club_ids for p in world.roster[c]]
    chosen: list[str] = []
    taken: dict[str, bool] = {}
    while len(chosen) < n:
        p = rng.choice(truco_pool) if rng.random() < 0.15 else rng.choice(pool)
        if p not in taken:
            taken[p] = True
            chosen.append(p)
    out = [
        f"name: {q(f'{ordinal(edition, False)} Campeonato Aberto de Quatrilho de {municipality}')}",
        f"municipality: {q(municipality)}",
        f"date: {date.isoformat()}",
        "status: final",
        f"fee: {rng.choice(FEES)}",
        f"prizes: {PRIZES}",
        "players:",
    ]
    out += [f"  {i}: {p}" for i, p in enumerate(chosen, 1)]
    out.append("rounds:")
    n_tables = -(-n // 5)
    base, extra = divmod(n, n_tables)
    sizes = [base + 1] * extra + [base] * (n_tables - extra)
    for _ in range(4):
        numbers = list(range(1, n + 1))
        rng.shuffle(numbers)
        rebuys: dict[int, int] = {}
        commission: dict[int, int] = {}
        lines = ["  - tables:"]
        start = 0
        for t, size in enumerate(sizes, 1):
            seated = sorted(numbers[start:start + size])
            start += size
            rb = [p for p in seated if rng.random() < 0.12]
            for p in rb:
                rebuys[p] = 1
            paid = rng.choice([10, 20, 35, 50, 100]) if rng.random() < 0.05 else 0
            if paid:
                commission[t] = paid
            busted = [rng.random() < 0.07 for _ in seated]
            total = 100 * (len(seated) + len(rb)) + paid
            chips = split_chips(rng, total, len(seated), busted)
            cells = ", ".join(f"{p}: {c}" for p, c in zip(seated, chips))
            lines.append(f"      {t}: {{{cells}}}")
        if rebuys:
            lines.append("    rebuys: {" + ", ".join(f"{p}: 1" for p in sorted(rebuys)) + "}")
        if rng.random() < 0.08:
            p = rng.randint(1, n)
            reason = rng.choice(["Atraso (Art. 12)", "Atraso no reinício (Art. 12)",
                                 "Saiu da mesa sem comunicar (Art. 13)"])
            lines.append("    penalties:")
            lines.append(f"      - {{player: {p}, chips: 200, reason: {q(reason)}}}")
        if commission:
            lines.append("    commission_paid: {" +
                         ", ".join(f"{t}: {c}" for t, c in sorted(commission.items())) + "}")
        out += lines
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------------------------
# The archive
# --------------------------------------------------------------------------------------------

STAGE_MONTHS = [3, 4, 6, 7, 9, 10]


def generate(seasons: int, teams: int, championships: int, seed: int) -> dict[str, str]:
    """Every file of the archive: relative path -> text."""
    if seasons < 1:
        raise SystemExit("--seasons must be at least 1")
    if teams < 8:
        raise SystemExit("--teams must be at least 8 (the knockout has 8 teams)")
    if not 0 <= championships <= len(MUNICIPALITIES):
        raise SystemExit(f"--championships must be between 0 and {len(MUNICIPALITIES)}")
    rng = random.Random(seed)
    world = World(rng, teams, championships)
    files: dict[str, str] = {}
    editions: dict[str, int] = {}
    news: list[tuple[str, str]] = []
    years = list(range(LAST_YEAR + 1 - seasons, LAST_YEAR + 1))

    for si, year in enumerate(years):
        last = year == LAST_YEAR
        if si:
            world.turnover()
        world.form_pairs()
        season_lines = [f"title: {q(f'Temporada {year}')}"]
        if si == 0 and seasons >= 3:
            season_lines += ["truco:",
                             "  ranking_points: [25, 21, 17, 15, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]"]
        files[f"seasons/{year}/season.yaml"] = "\n".join(season_lines) + "\n"

        hosts_left = list(world.club_ids)
        for k in range(1, STAGES_PER_SEASON + 1):
            status = "final"
            if last and k == 5:
                status = "in_progress"
            elif last and k == 6:
                status = "scheduled"
            date = saturday_in(rng, year, STAGE_MONTHS[k - 1])
            nb = rng.randint(world.kmin, min(world.kmax, len(world.big_clubs)))
            b_clubs = sorted(rng.sample(world.big_clubs, nb))
            rest = [c for c in world.club_ids if c not in b_clubs]
            clubs_in = sorted(b_clubs + rng.sample(rest, teams - 2 * nb))
            host = rng.choice([c for c in clubs_in if c in hosts_left] or clubs_in)
            if host in hosts_left:
                hosts_left.remove(host)
            stage = Stage(world, rng, year, k, status, date, host, clubs_in, b_clubs)
            if status == "final":
                stage.group_phase(complete=True, tie_rate=0.06)
                stage.knockout_phase()
            elif status == "in_progress":
                stage.group_phase(complete=False, tie_rate=0.0)
            files[f"seasons/{year}/truco/etapa-{k}.yaml"] = stage.render(world.clubs[host]["city"])
            if last and status == "final":
                news.append((f"{(date + dt.timedelta(days=1)).isoformat()}-etapa-{k}",
                             "\n".join([
                                 "---",
                                 f"title: {q(f'Resultados da {ordinal(k)} Etapa do Interclubes {year}')}",
                                 f"season: {year}",
                                 f"stage: etapa-{k}",
                                 "---",
                                 f"A {ordinal(k)} Etapa foi disputada em {world.clubs[host]['city']} "
                                 f"no dia {date.day} de {MONTHS_PT[date.month - 1]}, "
                                 f"com {teams} equipes. Confira a classificação e os jogos.",
                                 "",
                             ])))
            if last and status == "scheduled":
                pub = date - dt.timedelta(days=20)
                news.append((f"{pub.isoformat()}-etapa-{k}-convocacao", "\n".join([
                    "---",
                    f"title: {q(f'Convocação para a {ordinal(k)} Etapa')}",
                    f"date: {pub.isoformat()}",
                    f"season: {year}",
                    f"stage: etapa-{k}",
                    "---",
                    f"A {ordinal(k)} Etapa será em {world.clubs[host]['city']}, no dia "
                    f"{date.day} de {MONTHS_PT[date.month - 1]}. As equipes já estão inscritas.",
                    "",
                ])))

        months = sorted(rng.sample(range(2, 12), min(championships, 10)))
        for ci, muni in enumerate(sorted(rng.sample(MUNICIPALITIES, championships))):
            editions[muni] = editions.get(muni, 0) + 1
            month = months[ci % len(months)]
            date = saturday_in(rng, year, month, weekday=6)
            cid = slugify(muni)
            files[f"seasons/{year}/quatrilho/{cid}.yaml"] = quatrilho(
                world, rng, year, muni, editions[muni], date)
            if last and ci == 0:
                news.append((f"{(date + dt.timedelta(days=2)).isoformat()}-quatrilho-{cid}", "\n".join([
                    "---",
                    f"title: {q(f'Quatrilho: campeões de {muni}')}",
                    f"season: {year}",
                    f"championship: {cid}",
                    "---",
                    f"Saiu a classificação do campeonato de {muni}. Os quatro primeiros estão "
                    "classificados para o **Estadual**.",
                    "",
                ])))

    files["league.yaml"] = "\n".join([
        f"# Synthetic archive: bench/synth.py --seasons {seasons} --teams {teams} "
        f"--championships {championships} --seed {seed}",
        f"name: {q('Federação Paranaense de Truco')}",
        "short_name: FPRT",
        "base_url: https://example.org/",
        "locale: pt_BR",
        "",
    ])
    files["clubs.yaml"] = "".join(
        f"{c}: {{name: {q(world.clubs[c]['name'])}, city: {q(world.clubs[c]['city'])}}}\n"
        for c in world.club_ids)
    plines = []
    for pid in sorted(world.players):
        p = world.players[pid]
        club = f", club: {p['club']}" if p["club"] else ""
        plines.append(f"{pid}: {{name: {q(p['name'])}{club}}}\n")
    files["players.yaml"] = "".join(plines)
    files["pages/regulamento.md"] = "\n".join([
        "---",
        f"title: {q('Regulamento do Interclubes')}",
        "order: 1",
        "---",
        "O Campeonato Interclubes de Truco tem **6 etapas** por temporada.",
        "",
        "- Cada confronto é jogado em 5 jogos (item 9.1).",
        "- Vitória por 5x0, 4x1 ou 3x2.",
        "- Desempate: vitórias, pontos, confronto direto, saldos e sorteio (item 10.1).",
        "",
    ])
    files["pages/sobre.md"] = "\n".join([
        "---",
        f"title: {q('Sobre a federação')}",
        "order: 2",
        "---",
        f"A federação reúne {len(world.club_ids)} clubes filiados. Este acervo é sintético.",
        "",
    ])
    for stem, text in news:
        files[f"news/{stem}.md"] = text
    return files


def write_tree(files: dict[str, str], out: str) -> int:
    if os.path.isdir(out) and os.listdir(out):
        if not os.path.isfile(os.path.join(out, "league.yaml")):
            raise SystemExit(f"{out} is not empty and holds no league.yaml: refusing to write there")
        for name in ("seasons", "pages", "news"):
            shutil.rmtree(os.path.join(out, name), ignore_errors=True)
    total = 0
    for rel in sorted(files):
        path = os.path.join(out, *rel.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        data = files[rel].encode("utf-8")
        with open(path, "wb") as f:
            f.write(data)
        total += len(data)
    return total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seasons", type=int, default=20, help="number of seasons, the last is 2026")
    ap.add_argument("--teams", type=int, default=40, help="teams per Truco stage (>= 8)")
    ap.add_argument("--championships", type=int, default=6, help="Quatrilho championships per season")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True, help="content directory to write")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    files = generate(args.seasons, args.teams, args.championships, args.seed)
    size = write_tree(files, args.out)
    print(f"synth: {len(files)} files, {size} bytes in {args.out} "
          f"({time.perf_counter() - t0:.2f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
