"""A stage's final places as a federation publishes them (a news post's top-8: "1º APTRU", "2. Trupuava",
"3º= Los Maikas"…) read into the `final_places:` of a stage file (data-format.md, history), each club name
matched to its id in clubs.yaml; and the stage file written from them. `league import stage` uses it.

Pure: text in, text out; every problem of the list reported at once with its line, the text received and a
suggestion (the closest club names)."""
from __future__ import annotations

import difflib
import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Optional, Union

from league.content.diagnostics import Diagnostics, SourceMark

# "1º APTRU", "1ª APTRU", "1° APTRU", "1o APTRU", "1. APTRU", "1) APTRU", "1 - APTRU", "1 – APTRU", "1: APTRU",
# "1º lugar: APTRU", "3º= Los Maikas", "3º = Los Maikas", "=3º Los Maikas", "- 1º APTRU" (a Markdown list)
_PLACE = re.compile(r"""^(?:[-*•]\s+)?(?P<pre>=\s*)?(?P<n>[0-9]{1,3})(?:\s*[ºª°]|o\b)?\.?\s*
                        (?:(?:lugar|colocad[oa])\b\s*)?(?P<post>=)?\s*[.):\-–—]?\s*(?P<eq>=)?\s*(?P<name>.*)$""",
                    re.VERBOSE | re.IGNORECASE)
_BULLET = re.compile(r"^[-*•]\s+")
_SECOND_TEAM = re.compile(r"^(?P<base>.+?)\s+(?P<tag>[b-h]|[2-9])$", re.IGNORECASE)


@dataclass(frozen=True)
class Listed:
    """One line of the list: its place (None when the list numbers none), whether it says the place is
    shared ("3º="), and the team's name as written."""

    line: int
    place: Optional[int]
    shared: bool
    text: str


@dataclass(frozen=True)
class SecondTeam:
    """Another team of a club than its own ("APTRU B"): written {club: aptru, name: APTRU B}."""

    club: str
    name: str


Entry = Union[str, SecondTeam]   # a club id (the club's team) or another team of a club


def normal(text: str) -> str:
    """A name as it is compared: no accents, no case, words of letters and digits ("Guará-Truco" → "guara truco")."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join(re.sub(r"[^0-9a-z]+", " ", plain.casefold()).split())


def read_list(text: str, where: str, diags: Diagnostics) -> list[Listed]:
    """The lines of a pasted list that name a team, in order; blank lines and titles ("Classificação:") are
    skipped. Either every line gives its place or none does (then the order is the place)."""
    lines = [x for no, raw in enumerate(text.splitlines(), 1) if (x := _listed(no, raw.strip())) is not None]
    if not lines:
        diags.error(SourceMark(where, 1, 1), "a lista está vazia",
                    "cole a classificação, uma equipe por linha: \"1º APTRU\", \"2º Trupuava\"…")
    unnumbered = [x for x in lines if x.place is None]
    if not unnumbered or len(unnumbered) == len(lines):
        return lines
    for x in unnumbered:
        diags.error(SourceMark(where, x.line, 1), f"\"{x.text}\" não começa com a colocação",
                    "escreva cada linha como \"1º APTRU\" (ou \"1. APTRU\", \"1 - APTRU\"), ou apague a linha")
    return []


def _listed(no: int, line: str) -> Optional[Listed]:
    """One line of the list, or None for a blank line or a title."""
    if not line or (line.endswith(":") and not line[0].isdigit()):
        return None
    m = _PLACE.match(line)
    if m and m.group("name").strip():
        shared = bool(m.group("pre") or m.group("post") or m.group("eq"))
        return Listed(no, int(m.group("n")), shared, m.group("name").strip())
    return Listed(no, None, False, _BULLET.sub("", line))


def group_places(lines: list[Listed], where: str, diags: Diagnostics) -> list[list[Listed]]:
    """The places in order, each the lines sharing it: the same number on consecutive lines is a shared place
    (the next place after k teams sharing place p is p + k, as the ranking counts them). # Truco 12.1"""
    if lines and lines[0].place is None:
        return [[x] for x in lines]
    places: list[list[Listed]] = []
    expected = 1
    for x in lines:
        if places and x.place == places[-1][0].place:
            places[-1].append(x)
            continue
        if places:
            expected = places[-1][0].place + len(places[-1])
        if x.place != expected:
            _out_of_order(x, expected, places, where, diags)
        places.append([x])
    _lonely_shared(places, where, diags)
    return places


def _lonely_shared(places: list[list[Listed]], where: str, diags: Diagnostics) -> None:
    """A place marked as shared ("3º=") that only one team holds."""
    for shared in places:
        if len(shared) == 1 and shared[0].shared:
            x = shared[0]
            diags.error(SourceMark(where, x.line, 1), f"o {x.place}º lugar está marcado como dividido (=), "
                        f"mas só \"{x.text}\" está nele", "escreva as equipes que dividem o lugar com o mesmo número, "
                        f"ex.: \"{x.place}º= {x.text}\" e \"{x.place}º= …\", ou tire o \"=\"")


def _out_of_order(x: Listed, expected: int, places: list, where: str, diags: Diagnostics) -> None:
    before = places[-1] if places else None
    why = f"depois de {len(before)} equipe(s) no {before[0].place}º lugar vem o {expected}º" if before else \
        "a lista começa no 1º lugar"
    diags.error(SourceMark(where, x.line, 1), f"colocação fora de ordem: {x.place}º \"{x.text}\"; esperado o "
                f"{expected}º lugar ({why})", "confira a lista publicada; um lugar dividido repete o número: "
                "\"3º= A\", \"3º= B\", e o seguinte é o 5º")


class ClubIndex:
    """The clubs of clubs.yaml by every name an editor may paste: the name, the short name and the id, compared
    without case or accents."""

    def __init__(self, clubs: dict[str, tuple[str, Optional[str]]]):
        self.clubs = clubs   # id → (name, short name)
        self.by_name: dict[str, set] = {}
        for cid, (name, short) in clubs.items():
            for written in (name, short, cid):
                if written:
                    self.by_name.setdefault(normal(written), set()).add(cid)

    def find(self, text: str) -> set:
        """The ids of the clubs this name may be."""
        return self.by_name.get(normal(text), set())

    def entry(self, text: str) -> tuple[Optional[Entry], Optional[str]]:
        """The entry of final_places a name stands for, or (None, why it is not one)."""
        found = self.find(text)
        if len(found) == 1:
            return next(iter(found)), None
        if len(found) > 1:
            return None, "é o nome de mais de um clube: " + ", ".join(sorted(found))
        m = _SECOND_TEAM.match(text.strip())
        if m and len(self.find(m.group("base"))) == 1:
            return SecondTeam(next(iter(self.find(m.group("base")))), text.strip()), None
        return None, None

    def suggest(self, text: str) -> str:
        close = _closest(normal(text), list(self.by_name))
        ids = list(dict.fromkeys(cid for key in close for cid in sorted(self.by_name[key])))
        named = [f"{self.clubs[cid][0]} ({cid})" for cid in ids]
        return ("você quis dizer " + " ou ".join(named) + "? " if named else "") + \
            "Corrija o nome na lista, ou acrescente o clube a clubs.yaml (ou o seu short_name)"


def _closest(word: str, names: list[str]) -> list[str]:
    """The names most like `word` (difflib's ratio at least 0.6), the best first, and only those nearly as
    close as the best (within 0.1): "Guara Trucco" suggests Guará Truco, not Só Truco too."""
    scored = []
    for name in names:
        m = difflib.SequenceMatcher(None, word, name)
        if m.real_quick_ratio() >= 0.6 and m.quick_ratio() >= 0.6 and m.ratio() >= 0.6:
            scored.append((-m.ratio(), name))
    scored.sort()
    return [name for r, name in scored[:3] if -r >= -scored[0][0] - 0.1]


def resolve(places: list[list[Listed]], index: ClubIndex, where: str, diags: Diagnostics) -> list[list[Entry]]:
    """Each place's entries (club ids or second teams), every name found once in clubs.yaml; unknown names,
    ambiguous ones and a team listed twice reported."""
    out: list[list[Entry]] = []
    seen: dict[str, int] = {}
    for shared in places:
        entries: list[Entry] = []
        for x in shared:
            entry, why = index.entry(x.text)
            mark = SourceMark(where, x.line, 1)
            if entry is None:
                diags.error(mark, f"clube \"{x.text}\" {why or 'não encontrado em clubs.yaml'}",
                            index.suggest(x.text), code="unknown-id")
                continue
            key = entry if isinstance(entry, str) else normal(entry.name)
            if key in seen:
                diags.error(mark, f"\"{x.text}\" aparece duas vezes na lista (linha {seen[key]})",
                            "cada equipe tem um só lugar")
                continue
            seen[key] = x.line
            entries.append(entry)
        out.append(entries)
    return out


def _yaml_text(text: str) -> str:
    """A YAML scalar for any text: plain when it reads back the same, else double-quoted (JSON's escapes)."""
    if re.fullmatch(r"[0-9A-Za-zÀ-ÿªº][0-9A-Za-zÀ-ÿªº .,/()'-]*", text) and not text.endswith(" ") and \
            text.lower() not in ("yes", "no", "true", "false", "null", "on", "off", "y", "n", "~") and \
            not re.fullmatch(r"[0-9.]+", text):
        return text
    return json.dumps(text, ensure_ascii=False)


def _entry_yaml(e: Entry) -> str:
    return e if isinstance(e, str) else f"{{club: {e.club}, name: {_yaml_text(e.name)}}}"


def stage_text(head: dict, places: list[list[Entry]], written: list[list[Listed]]) -> str:
    """The stage file: its head (name, date, city, host, source: those given), status final, and final_places
    one place a line, each with the names as the list wrote them in a comment."""
    out = []
    for key in ("name", "date", "city", "host"):
        if head.get(key):
            out.append(f"{key}: {head[key] if key in ('date', 'host') else _yaml_text(head[key])}\n")
    out.append("status: final\n")
    if head.get("source"):
        out.append(f"source: {_yaml_text(head['source'])}\n")
    out.append("final_places:".ljust(35) + " # classificação publicada; [a, b] = lugar dividido\n")
    position = 1
    for entries, lines in zip(places, written):
        item = _entry_yaml(entries[0]) if len(entries) == 1 else "[" + ", ".join(map(_entry_yaml, entries)) + "]"
        shown = ", ".join(x.text for x in lines)
        out.append(f"  - {item}".ljust(35) + f" # {position}º{'=' if len(lines) > 1 else ''} {shown}\n")
        position += len(lines)
    return "".join(out)
