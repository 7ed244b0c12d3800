"""`league diff REV`: what changes in every standings table, stage classification and annual ranking between
git revision REV and the working tree, in Portuguese lines a reviewer can paste into a pull request
("APTRU: 3º → 2º no ranking de clubes (+4 pts)"), as text or Markdown.

git itself materialises the content at REV (`git archive`); both sides go through league.build.check, and
the tables compared are the ones of the public JSON API (league/site/api.py), so the diff speaks about exactly
what the site publishes."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, Optional

import click

from league.content.diagnostics import LeagueError

STATUS = {"scheduled": "agendada", "in_progress": "em andamento", "final": "encerrada"}


# ---------------------------------------------------------------------------------------------- tables

@dataclass
class Entry:
    key: str
    label: str
    position: int
    tied: bool
    values: dict[str, Any]           # metric → value, in the order of Table.metrics


@dataclass
class Table:
    key: tuple                       # identity across revisions
    title: str                       # section heading: "Temporada 2026 — ranking de clubes"
    where: str                       # in a line: "no ranking de clubes"
    metrics: tuple                   # ((metric, label), …); the first is the main points, shown as a delta
    entries: dict[str, Entry] = field(default_factory=dict)
    status: Optional[str] = None     # a stage's or championship's status
    status_label: str = ""           # "1ª Etapa"
    detail: bool = False             # group standings and pair tables: folded in Markdown
    ranked: bool = True              # False: a list whose order is not a ranking (state qualifiers)


def _pos(e: Entry) -> str:
    return f"{e.position}º" + (" (empate)" if e.tied else "")


def _num(v: Any) -> str:
    if v is None:
        return "?"
    if isinstance(v, Decimal):
        v = int(v) if v == v.to_integral_value() else float(v)
    if isinstance(v, float):
        if v == int(v):
            return str(int(v))
        return f"{v:.2f}".replace(".", ",")
    return str(v)


def _money(v: Any) -> str:
    if not isinstance(v, (int, float, Decimal)):
        return "?"
    q = Decimal(str(v)).quantize(Decimal("0.01"))
    return "R$ " + f"{q:,.2f}".replace(",", " ").replace(".", ",").replace(" ", ".")


def _signed(v: Any) -> str:
    s = _num(v)
    if isinstance(v, (int, float, Decimal)) and not isinstance(v, bool):
        if v > 0:
            return "+" + s
        if v < 0:
            return "−" + s.lstrip("-")
    return s


def _delta(old: Any, new: Any) -> Optional[Any]:
    if isinstance(old, (int, float)) and isinstance(new, (int, float)) and not isinstance(old, bool):
        d = Decimal(str(new)) - Decimal(str(old))
        return int(d) if d == d.to_integral_value() else float(d)
    return None


def _names(league) -> tuple[dict, dict]:
    clubs = {k: c.name for k, c in league.clubs.items()}
    players = {k: p.name for k, p in league.players.items()}
    return clubs, players


def _pair_label(players: list[str], names: dict) -> str:
    return " + ".join(names.get(p, p) for p in players)


def snapshot(results) -> list[Table]:
    """Every table the site publishes, as comparable entries, in the order a reader meets them."""
    from league.site.api import quatrilho_api_files, ranking_json, stage_json
    clubs, players = _names(results.league)
    tables: list[Table] = []
    for sr in results.seasons:
        year = sr.season.year
        rk = ranking_json(sr)
        t = Table(("ranking", year, "clubs"), f"Temporada {year} — ranking de clubes", "no ranking de clubes",
                  (("points", "pts"),))
        for e in rk["clubs"]:
            t.entries[e["club"]] = Entry(e["club"], clubs.get(e["club"], e["club"]), e["position"], e["tied"],
                                         {"points": e["points"]})
        tables.append(t)
        t = Table(("ranking", year, "pairs"), f"Temporada {year} — ranking de duplas", "no ranking de duplas",
                  (("points", "pts"),))
        for e in rk["pairs"]:
            key = "--".join(e["players"])
            t.entries[key] = Entry(key, _pair_label(e["players"], players), e["position"], e["tied"],
                                   {"points": e["points"]})
        tables.append(t)
        for res in sr.stages:
            st = res.stage
            sj = stage_json(res)
            teams = {tid: team.name for tid, team in st.teams.items()}
            of = f"da {st.name}" if "etapa" in st.name.lower() else f"da etapa {st.name}"
            t = Table(("stage", year, st.id, "classification"), f"{st.name} ({year}) — classificação",
                      f"na classificação {of}", (("ranking_points", "pts"),), status=st.status,
                      status_label=f"{st.name} ({year})")
            for e in sj["classification"]:
                t.entries[e["team"]] = Entry(e["team"], teams.get(e["team"], e["team"]), e["position"], e["tied"],
                                             {"ranking_points": e["ranking_points"]})
            tables.append(t)
            group_phases = {g.phase for g in res.groups}
            for g, gj in zip(res.groups, sj["groups"]):
                name = f"{g.name} ({g.phase})" if len(group_phases) > 1 else g.name
                t = Table(("stage", year, st.id, "group", g.phase, g.name), f"{st.name} ({year}) — {name}",
                          f"no {name} {of}" if name.lower().startswith("grupo") else f"em {name} {of}",
                          (("points", "pts"), ("wins", "vitórias"), ("pair_points_balance", "saldo de duplas"),
                           ("pontinhos_balance", "saldo de pontinhos")), detail=True)
                for e in gj["standings"]:
                    t.entries[e["team"]] = Entry(e["team"], teams.get(e["team"], e["team"]), e["position"], e["tied"],
                                                 {k: e[k] for k, _ in t.metrics})
                tables.append(t)
            t = Table(("stage", year, st.id, "pairs"), f"{st.name} ({year}) — duplas",
                      f"na classificação de duplas {of}",
                      (("ranking_points", "pts"), ("points", "pontos de dupla"), ("wins", "vitórias"),
                       ("pair_points_balance", "saldo de duplas"), ("pontinhos_balance", "saldo de pontinhos")),
                      detail=True)
            for e in sj["pairs"]:
                key = "--".join(e["players"])
                t.entries[key] = Entry(key, _pair_label(e["players"], players), e["position"], e["tied"],
                                       {k: e[k] for k, _ in t.metrics})
            tables.append(t)
        if getattr(sr, "championships", None):   # the season's Quatrilho files only (not every CSV of the site)
            tables += _quatrilho_tables(sr, quatrilho_api_files(sr), players)
    return tables


def _quatrilho_tables(sr, api: dict, players: dict) -> list[Table]:
    """Championship classifications and state qualifiers, read from the JSON API (outputs.md)."""
    year = sr.season.year
    out = []
    for res in sr.championships:
        ch = getattr(res, "championship", res)  # a championship result, or the championship itself
        text = api.get(f"api/{year}/quatrilho/{ch.id}.json")
        if not text:
            continue
        data = json.loads(text)
        name = getattr(ch, "name", ch.id)
        where = f"no {name}" if "campeonato" in name.lower() else f"no campeonato {name}"
        t = Table(("championship", year, ch.id), f"{name} ({year}) — classificação", where,
                  (("net", "pts"), ("prize", "prêmio")), status=data.get("status"),
                  status_label=f"{name} ({year})")
        for e in data.get("classification", []):
            key = e.get("player")
            t.entries[key] = Entry(key, players.get(key, key), e["position"], e.get("tied", False),
                                   {"net": e.get("net"), "prize": e.get("prize")})
        out.append(t)
    text = api.get(f"api/{year}/quatrilho/qualifiers.json")
    if text:
        t = Table(("qualifiers", year), f"Temporada {year} — classificados ao estadual do Quatrilho",
                  "nos classificados ao estadual", (), ranked=False)
        names = {getattr(r, "championship", r).id: getattr(getattr(r, "championship", r), "name", "")
                 for r in sr.championships}
        for e in json.loads(text).get("qualifiers", []):
            key = e["player"]
            label = f"{players.get(key, key)} ({e['position']}º, {names.get(e['championship']) or e['championship']})"
            t.entries[key] = Entry(key, label, e["position"], False, {})
        out.append(t)
    return out


# ---------------------------------------------------------------------------------------------- comparison

@dataclass
class Change:
    label: str
    before: str                      # "3º" / "—"
    after: str
    what: str                        # "+4 pts, saldo de pontinhos +41 → +39"
    line: str                        # the full Portuguese sentence
    count: int = 1                   # entries this line stands for (a summary of pure shifts stands for many)


@dataclass
class TableDiff:
    table: Table
    state: str                       # "changed" | "new" | "removed"
    changes: list[Change]
    note: Optional[str] = None       # e.g. the stage status changed


def _values_text(table: Table, old: Optional[Entry], new: Entry) -> str:
    parts = []
    for i, (metric, label) in enumerate(table.metrics):
        a = old.values.get(metric) if old else None
        b = new.values.get(metric)
        if old is not None and a == b:
            continue
        if i == 0:
            d = _delta(a, b)
            if label == "pts" and d in (1, -1):
                label = "pt"
            parts.append(f"{_signed(d)} {label}" if d is not None else f"{_num(a)} → {_num(b)} {label}")
        elif old is None:
            continue
        elif metric.endswith("balance"):
            parts.append(f"{label} {_signed(a)} → {_signed(b)}")
        elif metric == "prize":
            parts.append(f"{label} {_money(a)} → {_money(b)}")
        else:
            parts.append(f"{label} {_num(a)} → {_num(b)}")
    return ", ".join(parts)


def compare(old: list[Table], new: list[Table]) -> list[TableDiff]:
    """Table by table, in the new order (removed tables at the end): every entry whose place or numbers changed."""
    old_by = {t.key: t for t in old}
    new_keys = {t.key for t in new}
    out: list[TableDiff] = []
    for t in new:
        o = old_by.get(t.key)
        if o is None:
            changes = [_entering(t, e) if t.ranked else Change(e.label, "—", "✓", "", f"{e.label}: entra {t.where}")
                       for e in t.entries.values()]
            out.append(TableDiff(t, "new", changes, _status_note(None, t)))
            continue
        if not t.ranked:
            changes = [Change(e.label, "—", "✓", "", f"{e.label}: entra {t.where}")
                       for e in t.entries.values() if e.key not in o.entries]
            changes += [Change(e.label, "✓", "—", "", f"{e.label}: sai {_from(t.where)}")
                        for e in o.entries.values() if e.key not in t.entries]
            if changes:
                out.append(TableDiff(t, "changed", changes))
            continue
        changes, shifted = [], []
        for e in sorted(t.entries.values(), key=lambda e: (e.position, e.label)):
            prev = o.entries.get(e.key)
            if prev is None:
                changes.append(_entering(t, e))
                continue
            if prev.position == e.position and prev.tied == e.tied and prev.values == e.values:
                continue
            if t.detail and prev.values == e.values:
                shifted.append(e)
                continue
            what = _values_text(t, prev, e)
            moved = prev.position != e.position or prev.tied != e.tied
            place = f"{_pos(prev)} → {_pos(e)}" if moved else _pos(e)
            changes.append(Change(e.label, _pos(prev), _pos(e), what,
                                  f"{e.label}: {place} {t.where}" + (f" ({what})" if what else "")))
        for prev in sorted(o.entries.values(), key=lambda e: (e.position, e.label)):
            if prev.key not in t.entries:
                pts = _entry_points(o, prev)
                changes.append(Change(prev.label, _pos(prev), "—", "",
                                      f"{prev.label}: sai {_from(t.where)} (era {_pos(prev)}" +
                                      (f", {pts})" if pts else ")")))
        if len(shifted) > 3:
            out_shift = [Change("", "", "", "", f"e mais {len(shifted)} que só mudaram de posição, com os mesmos "
                                f"números ({_pos_range(shifted)})", count=len(shifted))]
        else:
            out_shift = [Change(e.label, _pos(o.entries[e.key]), _pos(e), "",
                                f"{e.label}: {_pos(o.entries[e.key])} → {_pos(e)} {t.where}") for e in shifted]
        changes = _merge(changes, out_shift if len(shifted) <= 3 else []) + (out_shift if len(shifted) > 3 else [])
        note = _status_note(o, t)
        if changes or note:
            out.append(TableDiff(t, "changed", changes, note))
    for o in old:
        if o.key not in new_keys:
            out.append(TableDiff(o, "removed", []))
    return out


def _from(where: str) -> str:
    """"no ranking de clubes" → "do ranking de clubes" (leaving a table)."""
    first, _, rest = where.partition(" ")
    return {"no": "do", "na": "da", "nos": "dos", "nas": "das", "em": "de"}.get(first, first) + " " + rest


def _entering(t: Table, e: Entry) -> Change:
    pts = _entry_points(t, e)
    return Change(e.label, "—", _pos(e), pts, f"{e.label}: entra {t.where} em {_pos(e)}" + (f", com {pts}" if pts else ""))


def _pos_range(entries: list[Entry]) -> str:
    lo = min(e.position for e in entries)
    hi = max(e.position for e in entries)
    return f"entre o {lo}º e o {hi}º lugar"


def _merge(changes: list[Change], shifted: list[Change]) -> list[Change]:
    """Shift lines back among the others, in order of the place they end at."""
    def place(c: Change) -> int:
        digits = "".join(ch for ch in c.after.split("º")[0] if ch.isdigit())
        return int(digits) if digits else 10 ** 6
    return sorted(changes + shifted, key=place)


def _entry_points(t: Table, e: Entry) -> str:
    if not t.metrics:
        return ""
    metric, label = t.metrics[0]
    return f"{_num(e.values.get(metric))} {label}"


def _status_note(old: Optional[Table], new: Table) -> Optional[str]:
    if new.status is None:
        return None
    if old is None:
        return f"{new.status_label}: {STATUS.get(new.status, new.status)}"
    if old.status != new.status:
        return f"{new.status_label}: {STATUS.get(old.status, old.status)} → {STATUS.get(new.status, new.status)}"
    return None


# ---------------------------------------------------------------------------------------------- output

@dataclass
class DiffResult:
    rev: str                         # as given
    commit: str                      # short hash
    content: str                     # content path, as shown
    diffs: list[TableDiff]
    old_problem: Optional[str] = None  # why REV could not be compared (then everything is new)


def _head(r: DiffResult) -> str:
    rev = r.rev if r.rev == r.commit else f"{r.rev} ({r.commit})"
    return f"{rev} → árvore de trabalho, {r.content}/"


def format_text(r: DiffResult) -> str:
    lines = [f"Classificações: {_head(r)}"]
    if r.old_problem:
        lines.append(f"atenção: {r.old_problem}; tudo aparece como novo.")
    if not r.diffs:
        lines.append("Nenhuma mudança em tabelas, classificações ou rankings.")
        return "\n".join(lines) + "\n"
    for d in r.diffs:
        lines.append("")
        state = {"new": " (nova)", "removed": " (removida)"}.get(d.state, "")
        lines.append(d.table.title + state)
        if d.note:
            lines.append(f"  {d.note}")
        lines += [f"  {c.line}" for c in d.changes]
    n = sum(c.count for d in r.diffs for c in d.changes)
    lines += ["", f"{n} mudança(s) em {len(r.diffs)} tabela(s)."]
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def format_markdown(r: DiffResult) -> str:
    rev = f"`{r.rev}`" if r.rev == r.commit else f"`{r.rev}` (`{r.commit}`)"
    out = [f"### Classificações: {rev} → esta versão", ""]
    if r.old_problem:
        out += [f"> **Atenção:** {_md(r.old_problem)}; tudo aparece como novo.", ""]
    if not r.diffs:
        out.append("Nenhuma mudança em tabelas, classificações ou rankings.")
        return "\n".join(out) + "\n"
    for d in r.diffs:
        state = {"new": " (nova)", "removed": " (removida)"}.get(d.state, "")
        body = []
        if d.note:
            body += [f"_{_md(d.note)}_", ""]
        rows = [c for c in d.changes if c.count == 1]
        if rows:
            body += ["| | antes | depois | mudança |", "|---|---|---|---|"]
            body += [f"| {_md(c.label)} | {c.before} | {'**' + c.after + '**' if c.before != c.after else c.after} "
                     f"| {_md(c.what)} |" for c in rows]
            body.append("")
        body += [f"_{_md(c.line)}_\n" for c in d.changes if c.count != 1]
        n = sum(c.count for c in d.changes)
        if d.table.detail:
            out += [f"<details><summary>{_md(d.table.title)}{state} — {n} mudança(s)</summary>", ""] + body + \
                   ["</details>", ""]
        else:
            out += [f"**{_md(d.table.title)}**{state}", ""] + body
            if not body:
                out.append("")
    n = sum(c.count for d in r.diffs for c in d.changes)
    out.append(f"{n} mudança(s) em {len(r.diffs)} tabela(s). Gerado por `league diff`.")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------- git

class GitError(Exception):
    """git could not give the content at REV (not a repository, unknown revision, git missing)."""


def _git(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except FileNotFoundError as exc:
        raise GitError("o programa git não foi encontrado; instale o git") from exc


def materialise(rev: str, content: Path, dest: Path) -> tuple[Optional[Path], str, Optional[str]]:
    """Extracts the content folder as it was at REV under dest/ (git archive). Returns (the folder or None,
    short commit hash, why there is no folder)."""
    content = content.resolve()
    where = content if content.is_dir() else content.parent
    top = _git(["rev-parse", "--show-toplevel"], where)
    if top.returncode != 0:
        raise GitError(f"{where} não está num repositório git")
    root = Path(top.stdout.decode().strip()).resolve()
    commit = _git(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], root)
    if commit.returncode != 0:
        raise GitError(f"revisão \"{rev}\" não encontrada no repositório (ex.: HEAD, main, origin/main, HEAD~1)")
    sha = commit.stdout.decode().strip()
    short = _git(["rev-parse", "--short", sha], root).stdout.decode().strip() or sha[:7]
    try:
        rel = content.relative_to(root).as_posix()
    except ValueError as exc:
        raise GitError(f"{content} está fora do repositório {root}") from exc
    args = ["archive", "--format=tar", sha] + ([] if rel in ("", ".") else ["--", rel])
    arch = _git(args, root)
    if arch.returncode != 0:
        msg = arch.stderr.decode(errors="replace").strip()
        if "did not match" in msg or "pathspec" in msg:
            return None, short, f"{rel}/ não existia em {rev}"
        raise GitError(f"git archive falhou: {msg}")
    with tarfile.open(fileobj=io.BytesIO(arch.stdout)) as tar:
        tar.extractall(dest, filter="data")
    old = dest / rel if rel not in ("", ".") else dest
    if not old.is_dir():
        return None, short, f"{rel}/ não existia em {rev}"
    return old, short, None


def diff(rev: str, content: Path, shown: Optional[str] = None) -> DiffResult:
    """Compares the content at REV with the working tree. Raises LeagueError if the working tree has errors,
    GitError if git cannot give REV."""
    from league.engine.build import check
    from league.engine.cache import default_dir
    new = check(content)  # the working tree first: its errors are what the editor must fix
    with tempfile.TemporaryDirectory(prefix="league-diff-") as tmp:
        old_dir, short, problem = materialise(rev, content, Path(tmp))
        old_tables: list[Table] = []
        if old_dir is not None:
            try:   # with the working tree's cache: its entries are keyed by what they are made of (bytes, the
                # path inside the content folder, the files they refer to…), so every file REV has as it is
                # now is read from there, not parsed again (the content folder is extracted under its own name)
                old_tables = snapshot(check(old_dir, cache_dir=default_dir(content)).results)
            except LeagueError as exc:
                n = sum(1 for d in exc.diagnostics if d.level == "error")
                problem = f"o conteúdo em {rev} tem {n} erro(s) e não pôde ser calculado"
    return DiffResult(rev, short, shown or os.path.normpath(str(content)), compare(old_tables, snapshot(new.results)),
                      problem)


@click.command("diff")
@click.argument("rev", metavar="REV")
@click.option("--content", default="content", type=click.Path(file_okay=False, path_type=Path), show_default=True)
@click.option("--format", "fmt", default="text", type=click.Choice(["text", "markdown"]), show_default=True,
              help="markdown: para colar num comentário de pull request.")
def diff_cmd(rev: str, content: Path, fmt: str) -> None:
    """Mostra como mudam as tabelas, classificações e rankings entre a revisão REV do git e os arquivos atuais."""
    try:
        result = diff(rev, content)
    except LeagueError as exc:
        for d in exc.diagnostics:
            click.echo(d.format_text(), err=True)
        n = sum(1 for d in exc.diagnostics if d.level == "error")
        click.echo(f"{n} erro(s) no conteúdo atual: corrija-os (league check) antes de comparar.", err=True)
        sys.exit(1)
    except GitError as exc:
        click.echo(f"erro: {exc}", err=True)
        sys.exit(2)
    click.echo(format_markdown(result) if fmt == "markdown" else format_text(result), nl=False)
