"""What changes between two revisions' tables (league.cli.diff.tables): for each table, every entry whose place
or numbers changed, as a Portuguese line a reviewer can paste into a pull request ("APTRU: 3º → 2º no ranking
de clubes (+4 pts)")."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Optional

from league.cli.diff.tables import Entry, Table

STATUS = {"scheduled": "agendada", "in_progress": "em andamento", "final": "encerrada"}
SHIFTS_SHOWN = 3                 # more entries that only moved than this: one summary line for them


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


def _values_text(table: Table, old: Optional[Entry], new: Entry) -> str:
    """What changed in an entry's numbers: the main points as a delta, the others (only for an entry that was
    there before) as before → after."""
    parts = []
    for i, (metric, label) in enumerate(table.metrics):
        a = old.values.get(metric) if old else None
        b = new.values.get(metric)
        if old is not None and a == b:
            continue
        if i == 0:
            parts.append(_points_change(a, b, label))
        elif old is not None:
            parts.append(_value_change(metric, label, a, b))
    return ", ".join(parts)


def _points_change(a: Any, b: Any, label: str) -> str:
    """"+4 pts", "−1 pt"; "? → 5 pts" when there is no difference to take."""
    d = _delta(a, b)
    if label == "pts" and d in (1, -1):
        label = "pt"
    return f"{_signed(d)} {label}" if d is not None else f"{_num(a)} → {_num(b)} {label}"


def _value_change(metric: str, label: str, a: Any, b: Any) -> str:
    """"saldo de pontinhos +41 → +39", "prêmio R$ 100,00 → R$ 150,00", "vitórias 3 → 4"."""
    if metric.endswith("balance"):
        shown = _signed
    elif metric == "prize":
        shown = _money
    else:
        shown = _num
    return f"{label} {shown(a)} → {shown(b)}"


def compare(old: list[Table], new: list[Table]) -> list[TableDiff]:
    """Table by table, in the new order (removed tables at the end): every entry whose place or numbers changed."""
    old_by = {t.key: t for t in old}
    new_keys = {t.key for t in new}
    out: list[TableDiff] = []
    for t in new:
        d = _table_diff(old_by.get(t.key), t)
        if d is not None:
            out.append(d)
    out += [TableDiff(o, "removed", []) for o in old if o.key not in new_keys]
    return out


def _table_diff(o: Optional[Table], t: Table) -> Optional[TableDiff]:
    """What changed in one table (None: nothing): a new one, a list, or a ranking."""
    if o is None:
        changes = [_entering(t, e) if t.ranked else _joining(t, e) for e in t.entries.values()]
        return TableDiff(t, "new", changes, _status_note(None, t))
    if not t.ranked:
        return _list_diff(o, t)
    return _ranking_diff(o, t)


def _list_diff(o: Table, t: Table) -> Optional[TableDiff]:
    """A list whose order is no ranking (state qualifiers): who joins it, who leaves it."""
    changes = [_joining(t, e) for e in t.entries.values() if e.key not in o.entries]
    changes += [Change(e.label, "✓", "—", "", f"{e.label}: sai {_from(t.where)}")
                for e in o.entries.values() if e.key not in t.entries]
    return TableDiff(t, "changed", changes) if changes else None


def _ranking_diff(o: Table, t: Table) -> Optional[TableDiff]:
    """A ranking: who enters it, moves in it or changes numbers, and who leaves it, in order of place; in a
    detail table, the entries that only moved (same numbers) apart (see _with_shifts)."""
    changes, shifted = _entries_diff(o, t)
    changes += [_leaving(o, t, prev) for prev in _in_order(o) if prev.key not in t.entries]
    changes = _with_shifts(changes, shifted, o, t)
    note = _status_note(o, t)
    return TableDiff(t, "changed", changes, note) if changes or note else None


def _entries_diff(o: Table, t: Table) -> tuple[list[Change], list[Entry]]:
    """The changes of the entries of a ranking, and (in a detail table) the entries that only moved."""
    changes, shifted = [], []
    for e in _in_order(t):
        prev = o.entries.get(e.key)
        if prev is None:
            changes.append(_entering(t, e))
        elif prev.position == e.position and prev.tied == e.tied and prev.values == e.values:
            continue
        elif t.detail and prev.values == e.values:
            shifted.append(e)
        else:
            changes.append(_moved(t, prev, e))
    return changes, shifted


def _in_order(t: Table) -> list[Entry]:
    return sorted(t.entries.values(), key=lambda e: (e.position, e.label))


def _moved(t: Table, prev: Entry, e: Entry) -> Change:
    what = _values_text(t, prev, e)
    moved = prev.position != e.position or prev.tied != e.tied
    place = f"{_pos(prev)} → {_pos(e)}" if moved else _pos(e)
    return Change(e.label, _pos(prev), _pos(e), what, f"{e.label}: {place} {t.where}" + (f" ({what})" if what else ""))


def _leaving(o: Table, t: Table, prev: Entry) -> Change:
    pts = _entry_points(o, prev)
    return Change(prev.label, _pos(prev), "—", "",
                  f"{prev.label}: sai {_from(t.where)} (era {_pos(prev)}" + (f", {pts})" if pts else ")"))


def _with_shifts(changes: list[Change], shifted: list[Entry], o: Table, t: Table) -> list[Change]:
    """The changes in order of the place they end at, with the entries that only moved: a line each among
    them, or, more than SHIFTS_SHOWN, one line at the end that stands for them all."""
    if len(shifted) > SHIFTS_SHOWN:
        return _merge(changes, []) + [Change("", "", "", "", f"e mais {len(shifted)} que só mudaram de posição, "
                                             f"com os mesmos números ({_pos_range(shifted)})", count=len(shifted))]
    return _merge(changes, [Change(e.label, _pos(o.entries[e.key]), _pos(e), "",
                                   f"{e.label}: {_pos(o.entries[e.key])} → {_pos(e)} {t.where}") for e in shifted])


def _joining(t: Table, e: Entry) -> Change:
    return Change(e.label, "—", "✓", "", f"{e.label}: entra {t.where}")


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
