#!/usr/bin/env python3
"""Writes the demo content of the 2026 Truco interclub season under content/ (a development aid:
the committed content files are the product, this script only records how they were designed).

The design is data at the top of this file: clubs and players, the squads of every stage and how
they change, the group draw, the result of every match (boards won by the home team), and the
scenarios the demo must show (`scenario_checks`; the worked examples it writes as YAML comments
are in the `notes_etapa_*` functions). Pages and news under content/pages and content/news are
written by hand and are not touched.
For each stage the script draws the details that the design leaves open (which boards each side
won, 2x0 or 2x1, the pontinhos of every game, when a sixth pair plays) from a seeded RNG, and keeps
the first draw for which tools/demo/check_demo.py finds: the intended group orders, the scenario
conditions, no tie left for a draw except the recorded one, and no "fragile" tie. Same input, same
files: the RNG seeds are fixed strings.

Usage:  python tools/demo/make_demo.py [--content content]
"""
from __future__ import annotations

import argparse
import datetime
import pathlib
import random
import re
import sys
import unicodedata

import yaml

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import check_demo as ck  # noqa: E402

# --------------------------------------------------------------------------- clubs and players

CLUBS = [  # id, name, city
    ("barigui", "Truco Clube Barigui", "Curitiba"),
    ("pe-vermelho", "Associação Pé Vermelho", "Londrina"),
    ("querencia", "CTG Querência Maringá", "Maringá"),
    ("princesa", "Clube Princesa dos Campos", "Ponta Grossa"),
    ("oeste", "Associação Oeste de Truco", "Cascavel"),
    ("tropeiros", "CTG Tropeiros do Guairacá", "Guarapuava"),
    ("siqueirense", "Grêmio Siqueirense", "Siqueira Campos"),
    ("tres-fronteiras", "Clube Três Fronteiras", "Foz do Iguaçu"),
    ("campestre-toledo", "Clube Campestre Toledo", "Toledo"),
    ("cidade-alta", "Associação Cidade Alta", "Apucarana"),
    ("beira-rio", "Sociedade Beira-Rio", "União da Vitória"),
    ("mouraoense", "Truco Clube Mourãoense", "Campo Mourão"),
    ("heranca-gaucha", "CTG Herança Gaúcha", "Pato Branco"),
    ("astra", "ASTRA Arapongas", "Arapongas"),
]
CLUB_NAME = {c: n for c, n, _ in CLUBS}
# Short names for the worked examples in comments.
SHORT = {
    "barigui": "Barigui", "barigui-b": "Barigui B", "pe-vermelho": "Pé Vermelho",
    "pe-vermelho-b": "Pé Vermelho B", "querencia": "Querência", "princesa": "Princesa",
    "oeste": "Oeste", "tropeiros": "Tropeiros", "siqueirense": "Siqueirense",
    "tres-fronteiras": "Três Fronteiras", "campestre-toledo": "Campestre", "cidade-alta": "Cidade Alta",
    "beira-rio": "Beira-Rio", "mouraoense": "Mourãoense", "heranca-gaucha": "Herança Gaúcha",
    "astra": "ASTRA",
}

# Fictional players, in squad order (consecutive names are a pair); names after the last pair
# of a club's teams are its reserves. Drawn once from lists of common Brazilian first names and
# surnames frequent in each region of Paraná, then frozen here.
ROSTERS = {
    "barigui": ["Neiva Ritter", "Claudinei Moraes", "Ari Marcondes", "Geraldo Sikora",
                "Edemar Kowalski", "Cleber Zielinski", "Fábio Schneider", "Hélio Andrade",
                "Moacir Pereira", "Benedito Sobczak", "Leandro Chornobai", "Aparecido Padilha",
                # Barigui B
                "Rosana Hrycyk", "Solange Kravetz", "Juarez Pinheiro", "Paulo Rosa",
                "Arno Zimmermann", "Márcio Camargo", "Valdecir Vieira", "Jandir Dombrowski",
                "Adão Pacheco", "Luciano Gadens", "Eliane Costa", "Valmir Taques",
                # reserves
                "Luiz Zielinski", "Dalmir Lopes"],
    "pe-vermelho": ["Francisco Nunes", "Arlindo Fonseca", "Gilberto Ramos", "Adriana Dias",
                    "Maicon Bianchi", "Ildo Cavalcante", "Sadi Teixeira", "Neusa Sanches",
                    "Gustavo Garcia", "Tiago Toledo", "Vilmar Ramos", "Edson Paiva",
                    # Pé Vermelho B
                    "Reinaldo Marçal", "Gilmar Moreira", "Benedito Teixeira", "Reginaldo Mazur",
                    "Marcelo Dias", "Darci Castro", "Márcio Paiva", "Rodrigo Castro",
                    "Vitor Pimenta", "Ivone Zielinski",
                    "Onofre Moraes"],
    "querencia": ["Matheus Ribeiro", "Teodoro Moraes", "Emerson Pereira", "Roberto Ferreira",
                  "Francisco Lima", "Sidnei Marcondes", "Loreni Moreira", "Jair Ferreira",
                  "Lírio Cavalcante", "Douglas Mello", "Moacir Kuhn", "Claudemir Martinelli",
                  "Lourdes Sanches"],
    "princesa": ["Arno Guimarães", "Dirceu Lustosa", "Simone Mazur", "Ernani Ritter",
                 "Vilmar Campos", "Leandro Chaves", "Arlindo Lustosa", "Adelar Bueno",
                 "Denise Martins", "Fernando Pietrowski", "Nilson Nowak", "Luiz Pinheiro",
                 "Vitor Okamoto"],
    "oeste": ["Vilmar Trevisan", "Fábio Becker", "Laércio Franceschi", "Reginaldo Fontana",
              "Renato Zanella", "Mauro Kuhn", "Cleber Fontana", "Elaine Stein",
              "Nilson Becker", "Moacir Lazzari", "Alceu Pasqualotto", "Paulo Lima",
              "Aline Pasqualotto"],
    "tropeiros": ["Jorge Guimarães", "Edemar Prestes", "Nilson Cardoso", "Luiz Kowalski",
                  "João Camargo", "Gustavo Pacheco", "Nelson Pietrowski", "Júlio Taques",
                  "Sérgio Martins", "Henrique Campos", "Emerson Chornobai", "Ademir Barbosa",
                  "Wagner Nowak"],
    "siqueirense": ["Carlos Cavalcante", "Edson Moreira", "Airton Paiva", "Amauri Tessaro",
                    "Wagner Tanaka", "Neiva Marçal", "Marcos Rodrigues", "Solange Bianchi",
                    "Márcia Costa", "Osmar Fagundes", "Eliane Freitas", "Reginaldo Ribeiro"],
    "tres-fronteiras": ["Wilson Mattei", "Neusa Rauber", "Denise Gehlen", "Maicon Gabardo",
                        "Claudinei Schneider", "Cláudia Lunkes", "Darci Bordin", "Loreni Andreatta",
                        "Sérgio Bortolini", "Cristiane Souza", "Onofre Rauber", "Vilmar Schneider",
                        "Ernani Bordin"],
    "campestre-toledo": ["Flávio Kich", "Amarildo Martinelli", "Reinaldo Mattei", "Eliseu Folle",
                         "Dirceu Kremer", "Luiz Weber", "Adão Marcon", "Elias Fontana",
                         "Claudemir Pizzatto", "Aldo Bertoldi",
                         "Vitor Bordin"],
    "cidade-alta": ["Douglas Cavalcante", "Roberto Cardoso", "Sandra Tanaka", "Anselmo Cardoso",
                    "Germano Moraes", "Valdecir Yamada", "Lauri Almeida", "Sidnei Castro",
                    "Ildo Ferreira", "Gilberto Tanaka", "Eliseu Oliveira", "Hélio Botelho",
                    "Carlos Rezende"],
    "beira-rio": ["Ari Wisniewski", "Renato Martins", "Jair Batista", "Olívio Andrade",
                  "Valdecir Chaves", "Altair Boiko", "Rosana Pietrowski", "Júlio Pacheco",
                  "Dorival Kravchuk", "Ernani Lopes",
                  "Celso Fagundes"],
    "mouraoense": ["Marcelo Cardoso", "Benedito Ramos", "Pedro Rezende", "Osmar Toledo",
                   "Alceu Martinelli", "Fernando Batista", "Gustavo Fonseca", "Neusa Ribeiro",
                   "Germano Bianchi", "Marli Marçal",
                   "Dirceu Sanches"],
    "heranca-gaucha": ["Beatriz Zimmermann", "Flávio Pasqualotto", "Dirceu Spanholi",
                       "Onofre Hoffmann", "Ildo Pasqualotto", "Leonir Gabardo", "Celso Bertoldi",
                       "Neusa Perin", "Adriana Andreatta", "Aparecido Trevisan", "Alceu Zanatta",
                       "Maicon Marcon"],
    "astra": ["Vanderlei Botelho", "Leonardo Freitas", "Nelson Assunção", "Rubens Kich",
              "Celso Hrycyk", "Cleber Teixeira", "Ildo Vilela", "Simone Freitas",
              "Fabiana Fagundes", "Laércio Machado",
              "Loreni Almeida"],
}


def slug(text: str) -> str:
    s = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", s).strip("-")


ROSTER_IDS = {c: [slug(n) for n in names] for c, names in ROSTERS.items()}

# team id -> (club, display name or None, first roster index, number of pairs)
TEAMS = {
    "barigui": ("barigui", None, 0, 6),
    "barigui-b": ("barigui", "Barigui B", 12, 6),
    "pe-vermelho": ("pe-vermelho", None, 0, 6),
    "pe-vermelho-b": ("pe-vermelho", "Pé Vermelho B", 12, 5),
    "querencia": ("querencia", None, 0, 6),
    "princesa": ("princesa", None, 0, 6),
    "oeste": ("oeste", None, 0, 6),
    "tropeiros": ("tropeiros", None, 0, 6),
    "siqueirense": ("siqueirense", None, 0, 6),
    "tres-fronteiras": ("tres-fronteiras", None, 0, 6),
    "campestre-toledo": ("campestre-toledo", None, 0, 5),
    "cidade-alta": ("cidade-alta", None, 0, 6),
    "beira-rio": ("beira-rio", None, 0, 5),
    "mouraoense": ("mouraoense", None, 0, 5),
    "heranca-gaucha": ("heranca-gaucha", None, 0, 6),
    "astra": ("astra", None, 0, 5),
}
TEAM_ORDER = list(TEAMS)


def base_squads():
    out = {}
    for t, (club, _, start, n) in TEAMS.items():
        ids = ROSTER_IDS[club]
        out[t] = [[ids[start + 2 * i], ids[start + 2 * i + 1]] for i in range(n)]
    return out


# Squad changes, applied cumulatively stage after stage. Pair and position numbers are 1-based.
SQUAD_CHANGES = {
    "etapa-2": [
        ("swap_partners", "barigui", 2, 3),               # the two pairs swap partners
        ("replace", "princesa", 5, 2, "vitor-okamoto"),    # Fernando Pietrowski absent
        ("replace", "pe-vermelho-b", 5, 2, "onofre-moraes"),
        ("move", "tres-fronteiras", 6, 1),                 # pair 6 now opens on board 1
    ],
    "etapa-3": [
        ("exchange", "barigui", 6, "barigui-b", 1),        # B's first pair moves up, and back
        ("move", "oeste", 2, 1),
        ("replace", "querencia", 3, 2, "lourdes-sanches"),
        ("drop", "querencia", 6),
        ("drop", "heranca-gaucha", 4),
        ("replace", "princesa", 5, 2, "fernando-pietrowski"),
    ],
    "etapa-4": [
        ("restore", "querencia", "etapa-2"),
        ("restore", "heranca-gaucha", "etapa-2"),
        ("swap_partners", "tropeiros", 4, 5),
        ("replace", "mouraoense", 2, 2, "dirceu-sanches"),
        ("replace", "campestre-toledo", 1, 2, "vitor-bordin"),
    ],
    "etapa-5": [
        ("swap_partners", "barigui", 2, 3),
        ("drop", "siqueirense", 6),
        ("replace", "astra", 3, 1, "loreni-almeida"),
    ],
    "etapa-6": [
        ("replace", "oeste", 6, 2, "aline-pasqualotto"),
        ("replace", "tropeiros", 3, 1, "wagner-nowak"),
        ("restore", "siqueirense", "etapa-4"),
    ],
}


def stage_squads():
    squads = {"etapa-1": base_squads()}
    prev = squads["etapa-1"]
    for sid in ["etapa-2", "etapa-3", "etapa-4", "etapa-5", "etapa-6"]:
        cur = {t: [list(p) for p in ps] for t, ps in prev.items()}
        for op in SQUAD_CHANGES.get(sid, []):
            kind, team = op[0], op[1]
            sq = cur[team]
            if kind == "swap_partners":
                i, j = op[2] - 1, op[3] - 1
                sq[i][1], sq[j][1] = sq[j][1], sq[i][1]
            elif kind == "replace":
                sq[op[2] - 1][op[3] - 1] = op[4]
            elif kind == "move":
                p = sq.pop(op[2] - 1)
                sq.insert(op[3] - 1, p)
            elif kind == "exchange":
                other = cur[op[3]]
                sq[op[2] - 1], other[op[4] - 1] = other[op[4] - 1], sq[op[2] - 1]
            elif kind == "drop":
                sq.pop(op[2] - 1)
            elif kind == "restore":
                cur[team] = [list(p) for p in squads[op[2]][team]]
            else:
                raise ValueError(op)
        squads[sid] = cur
        prev = cur
    return squads


# --------------------------------------------------------------------------- the season design
# Group matches: (home, away, boards won by home) or (home, away, "wo:<absent team>").
# Knockout rounds: (round name, extra keys, [(home, away, boards won by home)]).
# Quarter-finals are 1A x 2B, 1B x 2A, 1C x 2D, 1D x 2C; semifinals W(1A2B) x W(1C2D) and
# W(1B2A) x W(1D2C); the 5-8 bracket pairs the losers the same way.

STAGES = [
    dict(
        id="etapa-1", name="1ª Etapa", date=datetime.date(2026, 3, 14), host="barigui",
        city="Curitiba", status="final",
        groups=[
            ("Grupo A", ["barigui", "siqueirense", "beira-rio", "astra"],
             [("barigui", "astra", 4), ("siqueirense", "beira-rio", 3),
              ("barigui", "beira-rio", 3), ("astra", "siqueirense", 1),
              ("barigui", "siqueirense", 4), ("beira-rio", "astra", 3)],
             ["barigui", "siqueirense", "beira-rio", "astra"]),
            ("Grupo B", ["tropeiros", "pe-vermelho", "cidade-alta", "barigui-b"],
             [("pe-vermelho", "barigui-b", 4), ("tropeiros", "cidade-alta", 2),
              ("pe-vermelho", "cidade-alta", 3), ("barigui-b", "tropeiros", 1),
              ("tropeiros", "pe-vermelho", 3), ("cidade-alta", "barigui-b", 2)],
             ["tropeiros", "pe-vermelho", "cidade-alta", "barigui-b"]),
            ("Grupo C", ["querencia", "tres-fronteiras", "mouraoense", "pe-vermelho-b"],
             [("querencia", "pe-vermelho-b", 4), ("tres-fronteiras", "mouraoense", 3),
              ("mouraoense", "querencia", 3), ("pe-vermelho-b", "tres-fronteiras", 1),
              ("querencia", "tres-fronteiras", 3), ("mouraoense", "pe-vermelho-b", 4)],
             ["querencia", "tres-fronteiras", "mouraoense", "pe-vermelho-b"]),
            ("Grupo D", ["oeste", "princesa", "campestre-toledo", "heranca-gaucha"],
             [("oeste", "heranca-gaucha", 4), ("princesa", "campestre-toledo", 4),
              ("oeste", "campestre-toledo", 3), ("heranca-gaucha", "princesa", 0),
              ("oeste", "princesa", 3), ("campestre-toledo", "heranca-gaucha", 3)],
             ["oeste", "princesa", "campestre-toledo", "heranca-gaucha"]),
        ],
        knockout=[
            ("Quartas de final", {}, [("barigui", "pe-vermelho", 3), ("tropeiros", "siqueirense", 2),
                                      ("querencia", "princesa", 1), ("oeste", "tres-fronteiras", 3)]),
            ("Semifinal", {}, [("barigui", "princesa", 2), ("oeste", "siqueirense", 4)]),
            ("Semifinal do 5º ao 8º", {"places": [5, 8]},
             [("pe-vermelho", "querencia", 2), ("tropeiros", "tres-fronteiras", 4)]),
            ("Disputa de 5º lugar", {"for_place": 5}, [("tropeiros", "querencia", 3)]),
            ("Disputa de 7º lugar", {"for_place": 7}, [("pe-vermelho", "tres-fronteiras", 3)]),
            ("Disputa de 3º lugar", {"for_place": 3}, [("barigui", "siqueirense", 4)]),
            ("Final", {"for_place": 1}, [("oeste", "princesa", 3)]),
        ],
    ),
    dict(
        id="etapa-2", name="2ª Etapa", date=datetime.date(2026, 5, 16), host="pe-vermelho",
        city="Londrina", status="final",
        groups=[
            ("Grupo A", ["cidade-alta", "oeste", "heranca-gaucha", "barigui-b"],
             [("oeste", "barigui-b", 4), ("cidade-alta", "heranca-gaucha", 4),
              ("oeste", "heranca-gaucha", 3), ("barigui-b", "cidade-alta", 3),
              ("cidade-alta", "oeste", 3), ("heranca-gaucha", "barigui-b", 3)],
             ["cidade-alta", "oeste", "heranca-gaucha", "barigui-b"]),
            ("Grupo B", ["mouraoense", "princesa", "astra", "pe-vermelho-b"],
             [("princesa", "astra", 4), ("mouraoense", "pe-vermelho-b", 3),
              ("princesa", "pe-vermelho-b", 5), ("astra", "mouraoense", 1),
              ("mouraoense", "princesa", 3), ("pe-vermelho-b", "astra", 1)],
             ["mouraoense", "princesa", "astra", "pe-vermelho-b"]),
            ("Grupo C", ["tropeiros", "barigui", "campestre-toledo", "beira-rio"],
             [("barigui", "beira-rio", "wo:beira-rio"), ("tropeiros", "campestre-toledo", 3),
              ("barigui", "campestre-toledo", 4), ("beira-rio", "tropeiros", 1),
              ("tropeiros", "barigui", 3), ("campestre-toledo", "beira-rio", 3)],
             ["tropeiros", "barigui", "campestre-toledo", "beira-rio"]),
            ("Grupo D", ["pe-vermelho", "querencia", "siqueirense", "tres-fronteiras"],
             [("pe-vermelho", "querencia", 4), ("siqueirense", "tres-fronteiras", 4),
              ("pe-vermelho", "tres-fronteiras", 3), ("querencia", "siqueirense", 3),
              ("siqueirense", "pe-vermelho", 3), ("tres-fronteiras", "querencia", 0)],
             ["pe-vermelho", "siqueirense", "querencia", "tres-fronteiras"]),
        ],
        knockout=[
            ("Quartas de final", {}, [("cidade-alta", "princesa", 2), ("mouraoense", "oeste", 1),
                                      ("tropeiros", "siqueirense", 3), ("pe-vermelho", "barigui", 2)]),
            ("Semifinal", {}, [("tropeiros", "princesa", 3), ("oeste", "barigui", 2)]),
            ("Semifinal do 5º ao 8º", {"places": [5, 8]},
             [("cidade-alta", "siqueirense", 2), ("pe-vermelho", "mouraoense", 4)]),
            ("Disputa de 5º lugar", {"for_place": 5}, [("pe-vermelho", "siqueirense", 3)]),
            ("Disputa de 7º lugar", {"for_place": 7}, [("cidade-alta", "mouraoense", 3)]),
            ("Disputa de 3º lugar", {"for_place": 3}, [("princesa", "oeste", 3)]),
            ("Final", {"for_place": 1}, [("tropeiros", "barigui", 1)]),
        ],
    ),
    dict(
        id="etapa-3", name="3ª Etapa", date=datetime.date(2026, 6, 20), host="querencia",
        city="Maringá", status="final",
        groups=[
            ("Grupo A", ["princesa", "querencia", "beira-rio", "pe-vermelho-b"],
             [("princesa", "pe-vermelho-b", 4), ("querencia", "beira-rio", 3),
              ("princesa", "beira-rio", 4), ("pe-vermelho-b", "querencia", 1),
              ("princesa", "querencia", 3), ("beira-rio", "pe-vermelho-b", 3)],
             ["princesa", "querencia", "beira-rio", "pe-vermelho-b"]),
            ("Grupo B", ["cidade-alta", "barigui", "mouraoense", "astra"],
             [("barigui", "astra", 4), ("cidade-alta", "mouraoense", 2),
              ("barigui", "mouraoense", 3), ("astra", "cidade-alta", 1),
              ("cidade-alta", "barigui", 3), ("mouraoense", "astra", 2)],
             ["cidade-alta", "barigui", "mouraoense", "astra"]),
            ("Grupo C", ["oeste", "siqueirense", "tres-fronteiras", "barigui-b"],
             [("oeste", "barigui-b", 2), ("siqueirense", "tres-fronteiras", 3),
              ("oeste", "tres-fronteiras", 4), ("barigui-b", "siqueirense", 1),
              ("oeste", "siqueirense", 3), ("tres-fronteiras", "barigui-b", 3)],
             ["oeste", "siqueirense", "tres-fronteiras", "barigui-b"]),
            ("Grupo D", ["tropeiros", "pe-vermelho", "campestre-toledo", "heranca-gaucha"],
             [("tropeiros", "heranca-gaucha", 4), ("pe-vermelho", "campestre-toledo", 2),
              ("tropeiros", "campestre-toledo", 3), ("heranca-gaucha", "pe-vermelho", 2),
              ("pe-vermelho", "tropeiros", 3), ("campestre-toledo", "heranca-gaucha", 2)],
             ["tropeiros", "pe-vermelho", "campestre-toledo", "heranca-gaucha"]),
        ],
        knockout=[
            ("Quartas de final", {}, [("princesa", "barigui", 2), ("cidade-alta", "querencia", 3),
                                      ("oeste", "pe-vermelho", 4), ("tropeiros", "siqueirense", 3)]),
            ("Semifinal", {}, [("oeste", "barigui", 3), ("cidade-alta", "tropeiros", 3)]),
            ("Disputa de 3º lugar", {"for_place": 3}, [("tropeiros", "barigui", 4)]),
            ("Final", {"for_place": 1}, [("oeste", "cidade-alta", 2)]),
        ],
        # Siqueirense's four matches copy Querência's board results (in another board order), so
        # the two teams end the stage exactly equal in every criterion: only a draw separates them.
        clones=[("querencia", "siqueirense",
                 [(("querencia", "beira-rio"), ("siqueirense", "tres-fronteiras")),
                  (("pe-vermelho-b", "querencia"), ("barigui-b", "siqueirense")),
                  (("princesa", "querencia"), ("oeste", "siqueirense")),
                  (("cidade-alta", "querencia"), ("tropeiros", "siqueirense"))])],
        draws=[{"teams": ["querencia", "siqueirense"], "order": ["siqueirense", "querencia"],
                "note": "Sorteio na mesa da organização, 20/06"}],
    ),
    dict(
        id="etapa-4", name="4ª Etapa", date=datetime.date(2026, 8, 22), host="oeste",
        city="Cascavel", status="final",
        groups=[
            ("Grupo A", ["princesa", "tropeiros", "astra", "pe-vermelho-b"],
             [("princesa", "pe-vermelho-b", 4), ("tropeiros", "astra", 4),
              ("princesa", "astra", 3), ("pe-vermelho-b", "tropeiros", 0),
              ("princesa", "tropeiros", 3), ("astra", "pe-vermelho-b", 3)],
             ["princesa", "tropeiros", "astra", "pe-vermelho-b"]),
            ("Grupo B", ["cidade-alta", "barigui", "tres-fronteiras", "heranca-gaucha"],
             [("cidade-alta", "heranca-gaucha", 2), ("barigui", "tres-fronteiras", 3),
              ("cidade-alta", "tres-fronteiras", 4), ("heranca-gaucha", "barigui", 1),
              ("cidade-alta", "barigui", 3), ("tres-fronteiras", "heranca-gaucha", 3)],
             ["cidade-alta", "barigui", "tres-fronteiras", "heranca-gaucha"]),
            ("Grupo C", ["oeste", "mouraoense", "siqueirense", "beira-rio"],
             [("oeste", "beira-rio", 4), ("mouraoense", "siqueirense", 3),
              ("oeste", "siqueirense", 3), ("beira-rio", "mouraoense", 1),
              ("oeste", "mouraoense", 3), ("siqueirense", "beira-rio", 4)],
             ["oeste", "mouraoense", "siqueirense", "beira-rio"]),
            ("Grupo D", ["querencia", "pe-vermelho", "campestre-toledo", "barigui-b"],
             [("querencia", "barigui-b", 4), ("pe-vermelho", "campestre-toledo", 3),
              ("querencia", "campestre-toledo", 2), ("barigui-b", "pe-vermelho", 1),
              ("querencia", "pe-vermelho", 3), ("campestre-toledo", "barigui-b", 2)],
             ["querencia", "pe-vermelho", "campestre-toledo", "barigui-b"]),
        ],
        knockout=[
            ("Quartas de final", {}, [("princesa", "barigui", 3), ("cidade-alta", "tropeiros", 2),
                                      ("oeste", "pe-vermelho", 4), ("querencia", "mouraoense", 3)]),
            ("Semifinal", {}, [("princesa", "oeste", 3), ("tropeiros", "querencia", 4)]),
            ("Semifinal do 5º ao 8º", {"places": [5, 8]},
             [("barigui", "pe-vermelho", 3), ("cidade-alta", "mouraoense", 4)]),
            ("Disputa de 5º lugar", {"for_place": 5}, [("cidade-alta", "barigui", 3)]),
            ("Disputa de 7º lugar", {"for_place": 7}, [("pe-vermelho", "mouraoense", 2)]),
            ("Disputa de 3º lugar", {"for_place": 3}, [("oeste", "querencia", 3)]),
            ("Final", {"for_place": 1}, [("princesa", "tropeiros", 3)]),
        ],
        # Beira-Rio's pair 4 did not show for the board against Mourãoense (board walkover);
        # the 7th-place match sheet has two boards without pontinhos (result only).
        board_walkovers=[(("beira-rio", "mouraoense"), 4, "home")],
        result_only=[(("pe-vermelho", "mouraoense"), [2, 5])],
    ),
    dict(
        id="etapa-5", name="5ª Etapa", date=datetime.date(2026, 10, 3), host="princesa",
        city="Ponta Grossa", status="in_progress",
        groups=[
            ("Grupo A", ["oeste", "querencia", "astra", "barigui-b"],
             [("oeste", "barigui-b", 4), ("querencia", "astra", 3),
              ("oeste", "astra", 3), ("barigui-b", "querencia", 2),
              ("oeste", "querencia", 3)], None),
            ("Grupo B", ["princesa", "pe-vermelho", "beira-rio", "heranca-gaucha"],
             [("princesa", "heranca-gaucha", 4), ("pe-vermelho", "beira-rio", 3),
              ("princesa", "beira-rio", 5), ("heranca-gaucha", "pe-vermelho", 2)], None),
            ("Grupo C", ["tropeiros", "siqueirense", "mouraoense", "pe-vermelho-b"],
             [("tropeiros", "pe-vermelho-b", 4), ("siqueirense", "mouraoense", 2),
              ("tropeiros", "mouraoense", 3), ("pe-vermelho-b", "siqueirense", 1),
              ("mouraoense", "pe-vermelho-b", 3)], None),
            ("Grupo D", ["barigui", "cidade-alta", "tres-fronteiras", "campestre-toledo"],
             [("barigui", "campestre-toledo", 3), ("cidade-alta", "tres-fronteiras", 4),
              ("barigui", "tres-fronteiras", 2), ("campestre-toledo", "cidade-alta", 1)], None),
        ],
        knockout=[],
    ),
    dict(
        id="etapa-6", name="6ª Etapa", date=datetime.date(2026, 11, 21), host="tres-fronteiras",
        city="Foz do Iguaçu", status="scheduled", groups=[], knockout=[],
    ),
]

# --------------------------------------------------------------------------- drawing the details

LOSER_WEIGHTS = [2, 2, 3, 4, 5, 6, 7, 8, 9, 9, 8, 7]   # pontinhos of the loser of a game, 0..11


def _loser_pts(rng):
    return rng.choices(range(12), weights=LOSER_WEIGHTS)[0]


def random_board(rng, home_wins: bool):
    """Games of one board: list of (home, away) pontinhos."""
    two_nil = rng.random() < 0.5
    if two_nil:
        seq = [True, True]
    else:
        seq = [True, False, True] if rng.random() < 0.5 else [False, True, True]
    games = []
    for winner_is_match_winner in seq:
        home_game = winner_is_match_winner == home_wins
        lp = _loser_pts(rng)
        games.append((12, lp) if home_game else (lp, 12))
    return games


def new_match(rng, home, away, hb, squads):
    """A match with `hb` boards won by home: list of board dicts."""
    won = set(rng.sample(range(5), hb))
    boards = []
    for i in range(5):
        boards.append(dict(hp=i + 1, ap=i + 1, games=random_board(rng, i in won), form=None, wo=None))
    # a sixth pair sometimes plays instead of one of the five
    for side in ("hp", "ap"):
        team = home if side == "hp" else away
        if len(squads[team]) >= 6 and rng.random() < 0.4:
            k = rng.randrange(5)
            boards[k][side] = 6
    return dict(home=home, away=away, boards=boards, walkover=None)


def ensure_sixth_pair(rng, matches, squads):
    """Every sixth pair plays at least once in the stage (so every squad pair has a record)."""
    for team, sq in squads.items():
        if len(sq) < 6:
            continue
        mine = [m for m in matches if m["walkover"] is None and team in (m["home"], m["away"])]
        if not mine:
            continue
        side = lambda m: "hp" if m["home"] == team else "ap"  # noqa: E731
        if any(b[side(m)] == 6 for m in mine for b in m["boards"]):
            continue
        m = mine[rng.randrange(len(mine))]
        free = [b for b in m["boards"] if b["form"] is None]
        free[rng.randrange(len(free))][side(m)] = 6


def choose_forms(rng, matches):
    for m in matches:
        for i, b in enumerate(m["boards"]):
            if b["form"] is not None:
                continue
            if b["hp"] == i + 1 and b["ap"] == i + 1:
                b["form"] = "plain"
            else:
                b["form"] = "ids" if rng.random() < 0.35 else "num"


def clone_match(rng, src, dst, src_team, dst_team):
    """Copy src's board results seen from src_team into dst seen from dst_team, boards shuffled."""
    order = list(range(5))
    while order == list(range(5)):
        rng.shuffle(order)
    src_home = src["home"] == src_team
    dst_home = dst["home"] == dst_team
    for j, i in enumerate(order):
        games = src["boards"][i]["games"]
        mine = [(h, a) if src_home else (a, h) for h, a in games]       # (team, opponent)
        dst["boards"][j]["games"] = [(x, y) if dst_home else (y, x) for x, y in mine]


def board_to_data(b, i, squads, home, away):
    score = " ".join(f"{h}-{a}" for h, a in b["games"])
    if b["wo"]:
        return {"home": b["hp"], "away": b["ap"], "walkover": b["wo"]}
    if b["form"] == "result":
        hg = sum(1 for h, a in b["games"] if h == 12)
        return f"{hg}-{len(b['games']) - hg}"
    if b["form"] == "plain":
        return score
    if b["form"] == "num":
        return {"home": b["hp"], "away": b["ap"], "score": score}
    return {"home": list(squads[home][b["hp"] - 1]), "away": list(squads[away][b["ap"] - 1]),
            "score": score}


def match_to_data(m, squads):
    d = {"home": m["home"], "away": m["away"]}
    if m["walkover"]:
        d["walkover"] = m["walkover"]
    else:
        d["boards"] = [board_to_data(b, i, squads, m["home"], m["away"])
                       for i, b in enumerate(m["boards"])]
    return d


def stage_data(design, squads, matches):
    """The stage as yaml.safe_load would return it (without comments)."""
    d = {"name": design["name"], "date": design["date"], "host": design["host"],
         "city": design["city"], "status": design["status"], "teams": {}}
    for t in TEAM_ORDER:
        club, name, _, _ = TEAMS[t]
        entry = {}
        if club != t:
            entry["club"] = club
        if name:
            entry["name"] = name
        entry["pairs"] = [list(p) for p in squads[t]]
        d["teams"][t] = entry
    phases = []
    if design["groups"]:
        groups = {}
        for gname, teams, results, _ in design["groups"]:
            groups[gname] = {"teams": list(teams),
                             "matches": [match_to_data(matches[("g", h, a)], squads)
                                         for h, a, _ in results]}
        phases.append({"name": "Fase de grupos", "groups": groups})
    if design["knockout"]:
        rounds = []
        for rname, extra, ms in design["knockout"]:
            r = {"round": rname}
            r.update(extra)
            r["matches"] = [match_to_data(matches[(rname, h, a)], squads) for h, a, _ in ms]
            rounds.append(r)
        phases.append({"name": "Fase final", "knockout": rounds})
    d["phases"] = phases
    if design.get("draws"):
        d["draws"] = design["draws"]
    return d


def draw_stage(design, squads, attempt):
    rng = random.Random(f"{design['id']}:{attempt}")
    matches = {}
    for gname, teams, results, _ in design["groups"]:
        for h, a, hb in results:
            if isinstance(hb, str):
                absent = hb.split(":", 1)[1]
                matches[("g", h, a)] = dict(home=h, away=a, boards=[], walkover=absent)
            else:
                matches[("g", h, a)] = new_match(rng, h, a, hb, squads)
    for rname, _, ms in design["knockout"]:
        for h, a, hb in ms:
            matches[(rname, h, a)] = new_match(rng, h, a, hb, squads)
    for src_team, dst_team, pairs in design.get("clones", []):
        for (sh, sa), (dh, da) in pairs:
            src = next(m for m in matches.values() if (m["home"], m["away"]) == (sh, sa))
            dst = next(m for m in matches.values() if (m["home"], m["away"]) == (dh, da))
            clone_match(rng, src, dst, src_team, dst_team)
    for (h, a), board_no, side in design.get("board_walkovers", []):
        m = next(m for m in matches.values() if (m["home"], m["away"]) == (h, a))
        winner_home = side == "away"
        # make board `board_no` one the present side won, keeping the match result
        k = board_no - 1
        b = m["boards"][k]
        if (b["games"][-1][0] == 12) != winner_home:
            j = next(j for j, o in enumerate(m["boards"])
                     if j != k and (o["games"][-1][0] == 12) == winner_home)
            m["boards"][k]["games"], m["boards"][j]["games"] = m["boards"][j]["games"], b["games"]
        b = m["boards"][k]
        b["hp"] = b["ap"] = board_no
        b["wo"] = side
        b["games"] = [(12, 0), (12, 0)] if winner_home else [(0, 12), (0, 12)]
        b["form"] = "wo"
    for (h, a), board_nos in design.get("result_only", []):
        m = next(m for m in matches.values() if (m["home"], m["away"]) == (h, a))
        for n in board_nos:
            b = m["boards"][n - 1]
            b["hp"] = b["ap"] = n
            b["form"] = "result"
    ms = list(matches.values())
    ensure_sixth_pair(rng, ms, squads)
    choose_forms(rng, ms)
    return matches


# --------------------------------------------------------------------------- checks

def group_order(res, gname):
    return [t for t, *_ in res["groups"][gname][0]]


def decided(res, gname, team):
    return next(d for t, d, _, _ in res["groups"][gname][0] if t == team)


def expected_qf(design, res):
    pos = {g: group_order(res, g) for g, *_ in design["groups"]}
    return {(pos["Grupo A"][0], pos["Grupo B"][1]), (pos["Grupo B"][0], pos["Grupo A"][1]),
            (pos["Grupo C"][0], pos["Grupo D"][1]), (pos["Grupo D"][0], pos["Grupo C"][1])}


def scenario_checks(design, st, res):
    """Returns a list of failures (empty when the draw of details is acceptable)."""
    fails = []
    sid = design["id"]
    if design["status"] != "final":
        return fails
    for gname, _, _, expected in design["groups"]:
        if group_order(res, gname) != expected:
            fails.append(f"{gname} order {group_order(res, gname)}")
    qf = design["knockout"][0][2]
    if {(h, a) for h, a, _ in qf} != expected_qf(design, res):
        fails.append("quarter-final pairings")
    fails += res["problems"]
    fails += [f"fragile {f}" for f in res["fragile"]]
    cl = res["classification"]
    if sid == "etapa-1":
        rows = res["groups"]["Grupo C"][1]
        q, tf, mo = rows["querencia"], rows["tres-fronteiras"], rows["mouraoense"]
        if not (q["pair_points_balance"] > tf["pair_points_balance"] == mo["pair_points_balance"]):
            fails.append("e1 C: ppb shape")
        if not mo["pontinhos_balance"] > tf["pontinhos_balance"]:
            fails.append("e1 C: pontinhos shape")
        crow = cl["rows"]
        br, ca = crow["beira-rio"], crow["cidade-alta"]
        if br["pair_points_balance"] <= ca["pair_points_balance"]:
            fails.append("e1 thirds: Beira-Rio ahead on pair points")
        for b in cl["blocks"]:
            for t, d, _, _ in b[1]:
                if t == "beira-rio" and d != "pair_points_balance":
                    fails.append("e1 thirds decided_by")
    if sid == "etapa-3":
        if [cl["place"][t] for t in ("princesa", "siqueirense", "querencia", "pe-vermelho")] != [5, 6, 7, 8]:
            fails.append("e3 places 5-8")
        used = [u for b in cl["blocks"] for u in b[2]]
        if used != [frozenset({"querencia", "siqueirense"})]:
            fails.append(f"e3 draw use {used}")
    if sid == "etapa-2":
        if decided(res, "Grupo D", "pe-vermelho") != "head_to_head" or \
                decided(res, "Grupo D", "siqueirense") != "head_to_head":
            fails.append("e2 D decided_by")
    return fails


def search(design, squads, cfg, max_attempts=20000):
    for attempt in range(max_attempts):
        matches = draw_stage(design, squads, attempt)
        data = stage_data(design, squads, matches)
        st = ck.Stage(design["id"], data, cfg, design["id"])
        res = ck.compute_stage(st)
        fails = scenario_checks(design, st, res)
        if not fails:
            return attempt, matches, data, st, res
    raise SystemExit(f"{design['id']}: no acceptable draw in {max_attempts} attempts; last: {fails[:5]}")


# --------------------------------------------------------------------------- writing YAML

def yq(s):
    return '"' + s + '"'


def flow_list(xs):
    return "[" + ", ".join(str(x) for x in xs) + "]"


def board_line(b):
    if isinstance(b, str):
        return yq(b)
    parts = []
    for k in ("home", "away", "score", "walkover"):
        if k in b:
            v = b[k]
            if isinstance(v, list):
                v = flow_list(v)
            elif k == "score":
                v = yq(v)
            parts.append(f"{k}: {v}")
    return "{" + ", ".join(parts) + "}"


def comment(lines, indent):
    return [" " * indent + ("# " + ln if ln else "#") for ln in lines]


def write_match(out, m, indent, comments):
    pad = " " * indent
    out += comment(comments, indent)
    out.append(f"{pad}- home: {m['home']}")
    out.append(f"{pad}  away: {m['away']}")
    if "walkover" in m:
        out.append(f"{pad}  walkover: {m['walkover']}")
        return
    out.append(f"{pad}  boards:")
    for b in m["boards"]:
        out.append(f"{pad}    - {board_line(b)}")


def stage_text(design, data, notes):
    """notes: dict of place -> comment lines; places: 'top', ('group', name),
    ('match', home, away), ('phase', name), ('round', name), 'draws'."""
    out = comment(notes.get("top", []), 0)
    for k in ("name", "date", "host", "city", "status"):
        v = data[k]
        out.append(f"{k}: {v.isoformat() if hasattr(v, 'isoformat') else v}")
    out.append("teams:")
    for t, e in data["teams"].items():
        out.append(f"  {t}:")
        if "club" in e:
            out.append(f"    club: {e['club']}")
        if "name" in e:
            out.append(f"    name: {e['name']}")
        out.append("    pairs:")
        for p in e["pairs"]:
            out.append(f"      - {flow_list(p)}")
    if not data["phases"]:
        out += comment(notes.get(("phases",), []), 0)
        out.append("phases: []")
    else:
        out.append("phases:")
    for ph in data["phases"]:
        out += comment(notes.get(("phase", ph["name"]), []), 2)
        out.append(f"  - name: {ph['name']}")
        if "groups" in ph:
            out.append("    groups:")
            for gname, g in ph["groups"].items():
                out += comment(notes.get(("group", gname), []), 6)
                out.append(f"      {gname}:")
                out.append(f"        teams: {flow_list(g['teams'])}")
                out.append("        matches:")
                for m in g["matches"]:
                    write_match(out, m, 10, notes.get(("match", m["home"], m["away"]), []))
        if "knockout" in ph:
            out.append("    knockout:")
            for r in ph["knockout"]:
                out += comment(notes.get(("round", r["round"]), []), 6)
                out.append(f"      - round: {r['round']}")
                if "places" in r:
                    out.append(f"        places: {flow_list(r['places'])}")
                if "for_place" in r:
                    out.append(f"        for_place: {r['for_place']}")
                out.append("        matches:")
                for m in r["matches"]:
                    write_match(out, m, 10, notes.get(("match", m["home"], m["away"]), []))
    if data.get("draws"):
        out += comment(notes.get("draws", []), 0)
        out.append("draws:")
        for d in data["draws"]:
            out.append(f"  - teams: {flow_list(d['teams'])}")
            out.append(f"    order: {flow_list(d['order'])}")
            out.append(f"    note: {yq(d['note'])}")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- worked examples

def sgn(n):
    return f"{n:+d}"


def match_ppb(m, team):
    """Pair-point balance and pontinhos balance of `team` in match m (a check_demo Match)."""
    ppb = pt = 0
    for b in m.boards:
        hp, ap = b.pair_points()
        p = b.pontinhos()
        if m.home == team:
            ppb += hp - ap
            pt += p[0] - p[1]
        else:
            ppb += ap - hp
            pt += p[1] - p[0]
    return ppb, pt


def score_of(m, team):
    return (m.home_boards, m.away_boards) if m.home == team else (m.away_boards, m.home_boards)


def notes_etapa_1(st, res):
    n = {}
    n["top"] = ["Interclubes de Truco 2026 — 1ª Etapa, Curitiba (sede: Truco Clube Barigui).",
                "Grupos de 4 em turno único; quartas 1A x 2B, 1B x 2A, 1C x 2D, 1D x 2C."]
    gname, teams, ms = next(g for g in st.groups if g[0] == "Grupo C")
    rows = res["groups"]["Grupo C"][1]
    three = ["querencia", "tres-fronteiras", "mouraoense"]
    lines = [
        "Empate triplo decidido por critério posterior (itens 10.1, 10.2.1 e 10.3).",
        "Querência, Três Fronteiras e Mourãoense: 2 vitórias e 9 pontos cada.",
        "Todas fizeram 4x1 na Pé Vermelho B e, entre si, houve um ciclo de 3x2:",
        "Querência 3x2 Três Fronteiras, Três Fronteiras 3x2 Mourãoense, Mourãoense 3x2 Querência.",
        "1) Vitórias 2, 2, 2; pontos 9, 9, 9: empate.",
        "2) Confronto direto entre as três: 1 vitória e 3 + 2 = 5 pontos cada: empate.",
        "3) Saldo dos pontos das duplas (item 10.3: 2x0 vale 3x0, 2x1 vale 2x1; cada jogo",
        "   ganho por 2x0 soma +3, por 2x1 +1; perdido por 1x2 -1, por 0x2 -3), por confronto:",
    ]
    for t in three:
        parts = []
        for m in ms:
            if t in (m.home, m.away):
                opp = m.away if m.home == t else m.home
                parts.append(f"{sgn(match_ppb(m, t)[0])} ({SHORT[opp]})")
        lines.append(f"   {SHORT[t] + ':':<17}{'  '.join(parts)} = {sgn(rows[t]['pair_points_balance'])}")
    q, tf, mo = (rows[t] for t in three)
    lines += [
        f"   Querência é a 1ª. Três Fronteiras e Mourãoense seguem iguais ({sgn(tf['pair_points_balance'])}).",
        "4) Entre as duas que restam a contagem recomeça do 1º critério (item 10.2.1):",
        "   mesmas vitórias e pontos, e no confronto direto Três Fronteiras 3x2 Mourãoense.",
        "   Três Fronteiras 2ª (vai às quartas) e Mourãoense 3ª, embora a Mourãoense",
        f"   tenha mais saldo de pontinhos ({sgn(mo['pontinhos_balance'])} contra {sgn(tf['pontinhos_balance'])}),"
        " critério que vem depois.",
    ]
    n[("group", "Grupo C")] = lines
    # thirds and fourths
    cl = res["classification"]
    crow = cl["rows"]
    br, ca, ct, mo_ = crow["beira-rio"], crow["cidade-alta"], crow["campestre-toledo"], crow["mouraoense"]
    fourths = ["barigui-b", "astra", "pe-vermelho-b", "heranca-gaucha"]
    f = {t: crow[t] for t in fourths}
    last_two = sorted(["pe-vermelho-b", "heranca-gaucha"], key=lambda t: cl["place"][t])
    dec_last = next(d for b in cl["blocks"] for t, d, _, _ in b[1] if t == last_two[0])
    crit_word = {"pair_points_balance": "pelo saldo dos pontos das duplas",
                 "pontinhos_balance": "pelo saldo de pontinhos"}[dec_last]
    a, b = crow[last_two[0]], crow[last_two[1]]
    val = "pair_points_balance" if dec_last == "pair_points_balance" else "pontinhos_balance"
    n[("phase", "Fase final")] = [
        "Quem não foi às quartas (item 11): primeiro os 3ºs colocados (9º a 12º lugar),",
        "depois os 4ºs (13º a 16º), pelos critérios do item 10.1 sobre os confrontos da etapa.",
        "Terceiros: Mourãoense, 2 vitórias, 9º. Beira-Rio (Grupo A) e Cidade Alta (Grupo B):",
        "1 vitória e 7 pontos cada, e não se enfrentaram (o confronto direto não decide);",
        f"decide o saldo dos pontos das duplas: Beira-Rio {sgn(br['pair_points_balance'])},"
        f" Cidade Alta {sgn(ca['pair_points_balance'])}.",
        "Beira-Rio 10º, Cidade Alta 11º; Campestre (1 vitória, 6 pontos) 12º.",
        "Quartos: Barigui B (1 vitória) 13º, ASTRA (0 vitória, 4 pontos) 14º;",
        f"{SHORT[last_two[0]]} e {SHORT[last_two[1]]} (0 vitória e 3 pontos) separadas",
        f"{crit_word}: {sgn(a[val])} contra {sgn(b[val])}.",
    ]
    return n


def notes_etapa_2(st, res):
    n = {}
    n["top"] = ["Interclubes de Truco 2026 — 2ª Etapa, Londrina (sede: Associação Pé Vermelho)."]
    n[("group", "Grupo D")] = [
        "Empate triplo decidido pelo confronto direto (itens 10.1 e 10.2.1).",
        "Pé Vermelho, Siqueirense e Querência: 2 vitórias e 9 pontos cada, todas venceram",
        "a Três Fronteiras (Pé Vermelho 3x2, Siqueirense 4x1, Querência 5x0) e, entre si,",
        "ganharam uma cada: Pé Vermelho 4x1 Querência, Querência 3x2 Siqueirense,",
        "Siqueirense 3x2 Pé Vermelho.",
        "Confronto direto entre as três (1 vitória cada), pontos nesses três confrontos:",
        "  Pé Vermelho 4 + 2 = 6; Siqueirense 2 + 3 = 5; Querência 1 + 3 = 4.",
        "Classificação: Pé Vermelho 1º, Siqueirense 2º, Querência 3º (fora das quartas).",
    ]
    n[("match", "barigui", "beira-rio")] = [
        "W.O.: a Beira-Rio não se apresentou para a 1ª rodada (ônibus com pane na estrada).",
        "Vitória do Barigui por 5x0; cada jogo conta 2x0 e cada partida 12-0.",
    ]
    return n


def notes_etapa_3(st, res):
    n = {}
    n["top"] = ["Interclubes de Truco 2026 — 3ª Etapa, Maringá (sede: CTG Querência Maringá)."]
    n[("phase", "Fase final")] = [
        "Nesta etapa não houve semifinal do 5º ao 8º: os perdedores das quartas ficam",
        "do 5º ao 8º lugar pelos critérios do item 10.1 sobre todos os seus confrontos da etapa",
        "(ver o sorteio no fim do arquivo).",
    ]
    cl = res["classification"]
    crow = cl["rows"]
    L = ["princesa", "siqueirense", "querencia", "pe-vermelho"]
    lines = ["Sorteio (item 10.1, último critério). Perdedores das quartas, nos 4 confrontos da etapa:"]
    for t in L:
        r = crow[t]
        lines.append(f"  {SHORT[t] + ':':<13} {r['wins']} vitórias, {r['points']:>2} pontos, saldo das duplas "
                     f"{sgn(r['pair_points_balance'])}, saldo de pontinhos {sgn(r['pontinhos_balance'])}")
    sq, qu = crow["siqueirense"], crow["querencia"]
    lines += [
        "Princesa 5ª (3 vitórias); Pé Vermelho 8ª (9 pontos). Querência (Grupo A) e",
        "Siqueirense (Grupo C) não se enfrentaram e ficaram iguais em tudo: 2 vitórias,",
        f"11 pontos, saldo das duplas {sgn(sq['pair_points_balance'])} e saldo de pontinhos "
        f"{sgn(sq['pontinhos_balance'])}.",
        "Pelo sorteio, Siqueirense 6ª (4 pontos no ranking) e Querência 7ª (3 pontos).",
    ]
    n["draws"] = lines
    return n


def notes_etapa_4(st, res):
    n = {}
    n["top"] = ["Interclubes de Truco 2026 — 4ª Etapa, Cascavel (sede: Associação Oeste de Truco)."]
    n[("match", "beira-rio", "mouraoense")] = [
        "Mesa 4: a dupla 4 da Beira-Rio não se apresentou (W.O. no jogo, 2x0 para a Mourãoense)."]
    n[("match", "pe-vermelho", "mouraoense")] = [
        "Súmula com rasura (item 8.3): nas mesas 2 e 5 só o resultado foi confirmado,",
        "sem os pontinhos."]
    return n


def notes_etapa_5(st, res):
    n = {"top": ["Interclubes de Truco 2026 — 5ª Etapa, Ponta Grossa (sede: Clube Princesa dos Campos).",
                 "Em andamento: fase de grupos na 3ª rodada; os confrontos ainda não disputados",
                 "entram aqui quando as súmulas chegarem."]}
    for gname, teams, ms in st.groups:
        played = {frozenset((m.home, m.away)) for m in ms}
        todo = [f"{SHORT[a]} x {SHORT[b]}" for a, b in
                [(teams[0], teams[1]), (teams[2], teams[3]), (teams[0], teams[2]),
                 (teams[3], teams[1]), (teams[0], teams[3]), (teams[1], teams[2])]
                if frozenset((a, b)) not in played]
        n[("group", gname)] = ["A disputar: " + ", ".join(todo) + "."]
    return n


def notes_etapa_6(st, res):
    return {"top": ["Interclubes de Truco 2026 — 6ª Etapa, Foz do Iguaçu (sede: Clube Três Fronteiras).",
                    "Etapa agendada: equipes inscritas; o sorteio dos grupos é feito no dia."]}


NOTES = {"etapa-1": notes_etapa_1, "etapa-2": notes_etapa_2, "etapa-3": notes_etapa_3,
         "etapa-4": notes_etapa_4, "etapa-5": notes_etapa_5, "etapa-6": notes_etapa_6}


# --------------------------------------------------------------------------- other files

LEAGUE_YAML = """\
# A federação e as regras de cálculo. Os valores abaixo são os padrões
# (data-format.md); estão escritos por extenso para facilitar a edição.
name: Federação Paranaense de Truco
short_name: FPRT
base_url: https://example.org/
locale: pt_BR
truco:
  boards: 5                       # item 9.1: cinco jogos por confronto
  games_to_win: 2                 # melhor de três partidas (item 10.3)
  game_points: 12                 # partida de 12 pontinhos
  walkover_games: ["12-0", "12-0"]
  team_tiebreaks: [wins, points, head_to_head, pair_points_balance, pontinhos_balance, draw]
  pair_tiebreaks: [points, wins, head_to_head, pair_points_balance, pontinhos_balance, draw]
  ranking_points: [20, 16, 12, 8, 6, 4, 3, 2]   # item 12.1
quatrilho:
  stake: 100
  max_players: 20
  max_rebuys_per_round: 1
  champions: 5
  state_qualifiers: 4
  tiebreaks: [net, positive_rounds, points_won, best_round, draw]
"""

SEASON_YAML = "title: Interclubes de Truco 2026\n"


def clubs_text():
    out = ["# Clubes e associações filiados (fictícios)."]
    for cid, name, city in CLUBS:
        out.append(f"{cid}: {{name: {name}, city: {city}}}")
    return "\n".join(out) + "\n"


def players_text():
    out = ["# Jogadores, por clube (nomes fictícios)."]
    seen = set()
    for cid, name, city in CLUBS:
        out.append("")
        out.append(f"# {name} ({city})")
        for full in ROSTERS[cid]:
            pid = slug(full)
            assert pid not in seen, pid
            seen.add(pid)
            out.append(f"{pid}: {{name: {full}, club: {cid}}}")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- main

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--content", default=str(pathlib.Path(__file__).resolve().parents[2] / "content"))
    args = ap.parse_args(argv)
    root = pathlib.Path(args.content)
    (root / "seasons/2026/truco").mkdir(parents=True, exist_ok=True)
    (root / "league.yaml").write_text(LEAGUE_YAML, encoding="utf-8")
    (root / "clubs.yaml").write_text(clubs_text(), encoding="utf-8")
    (root / "players.yaml").write_text(players_text(), encoding="utf-8")
    (root / "seasons/2026/season.yaml").write_text(SEASON_YAML, encoding="utf-8")
    cfg = dict(ck.TRUCO_DEFAULTS)
    squads = stage_squads()
    for design in STAGES:
        sq = squads[design["id"]]
        if design["groups"]:
            attempt, matches, data, st, res = search(design, sq, cfg)
        else:
            attempt, matches, data, st, res = 0, {}, stage_data(design, sq, {}), None, None
        notes = NOTES[design["id"]](st, res)
        text = stage_text(design, data, notes)
        if yaml.safe_load(text) != data:
            raise SystemExit(f"{design['id']}: written YAML does not load back to the design")
        (root / f"seasons/2026/truco/{design['id']}.yaml").write_text(text, encoding="utf-8")
        print(f"{design['id']}: attempt {attempt}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
