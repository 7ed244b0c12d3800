"""The report of `league diff`: the changes of every table (league.cli.diff.changes), as text for the terminal
or as Markdown for a pull request's comment."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from league.cli.diff.changes import Change, TableDiff

STATES = {"new": " (nova)", "removed": " (removida)"}


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
        state = STATES.get(d.state, "")
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
        out += _md_section(d)
    n = sum(c.count for d in r.diffs for c in d.changes)
    out.append(f"{n} mudança(s) em {len(r.diffs)} tabela(s). Gerado por `league diff`.")
    return "\n".join(out) + "\n"


def _md_section(d: TableDiff) -> list[str]:
    """One table's changes: under its title in bold, or folded in <details> for a detail table."""
    state = STATES.get(d.state, "")
    body = _md_body(d)
    if d.table.detail:
        n = sum(c.count for c in d.changes)
        return [f"<details><summary>{_md(d.table.title)}{state} — {n} mudança(s)</summary>", ""] + body + \
               ["</details>", ""]
    return [f"**{_md(d.table.title)}**{state}", ""] + body + ([] if body else [""])


def _md_body(d: TableDiff) -> list[str]:
    """The note, a row for each entry's change (before, after, what), then the lines that stand for many."""
    body = []
    if d.note:
        body += [f"_{_md(d.note)}_", ""]
    rows = [c for c in d.changes if c.count == 1]
    if rows:
        body += ["| | antes | depois | mudança |", "|---|---|---|---|"]
        body += [_md_row(c) for c in rows]
        body.append("")
    body += [f"_{_md(c.line)}_\n" for c in d.changes if c.count != 1]
    return body


def _md_row(c: Change) -> str:
    after = "**" + c.after + "**" if c.before != c.after else c.after
    return f"| {_md(c.label)} | {c.before} | {after} | {_md(c.what)} |"
