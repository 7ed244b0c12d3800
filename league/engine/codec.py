"""The build cache's format: plain data, never code. A value is stored as marshal bytes of plain values only
(None, bool, int, float, str, bytes, and tuples, lists, dicts, sets and frozensets of them). A model object
(a Stage, a Place, a SourceMark...) is stored as a node `(..., tag, mask, *field values)` — Ellipsis first,
never a value of the content — and rebuilt, when read, by calling the class of the tag with those values:
only the classes in ALLOWED (league/engine/shapes.py), looked up by tag, never a name read from the bytes. A Decimal is `(..., "Decimal",
text)`, a date `(..., "date", ordinal)`. A tuple or list that holds nodes is a node too (`(..., "tuple", mask,
*items)`), a dict whose values hold some is `(..., "dict", {key: value})`, so that what holds none (a Row's
values, a pair, a record's pages) is used as marshal made it, without walking it again; `mask` has bit i set
when item i is a node, so that only those are visited.

Nothing in an entry is ever run: no pickle, no code object is written, the only things called while reading
are the allowed classes' constructors, and `loads` refuses any other tag (CodecError). The cache checks each
entry against a digest of its bytes before decoding it (league/engine/cache.py); a value that does not decode, or
that is not of the shape its reader expects (league.engine.shapes.fits), is a corrupted entry.

Objects shared inside one value (a StageResult's stage is the entry's stage) are written once and read back
shared, as marshal keeps identical objects once. A stage's phases (LazyPhases, below) are bytes of
their own inside the entry, decoded when first used."""
from __future__ import annotations

import marshal
from typing import Any, Optional

from league.engine.shapes import ALLOWED, Phase_, allowed_class, fits

E = ...   # the first item of a node
VERSION = marshal.version


class CodecError(ValueError):
    """Bytes that are not a value this codec wrote (unknown tag, wrong number of fields, not marshal...)."""


_PLAIN = frozenset({str, int, float, bool, type(None), bytes})
_BY_NAME = {v: k for k, v in ALLOWED.items()}   # (module, class name) → tag
_ENCODERS: dict = {}   # class → encoder(obj, enc) → node


class LazyPhases:
    """A stage's phases (its groups and rounds, their matches and boards) as the build cache keeps them: bytes
    apart from the rest of the stage (this module), and read back only when something asks for them. A rebuild
    reads every unchanged stage back from the cache, to rank the seasons and cross-link the pages, but renders
    few of their pages, and only a stage's own page, its teams' and its clubs' pages look at its matches: the
    phases are most of the time a stage takes to read back. A sequence like the tuple it stands for (iteration,
    len, indexing, ==). The bytes are covered by the digest of the cache entry they came in (league.engine.cache),
    checked when the entry is read; `loads` (the codec's) makes the tuple of them."""

    __slots__ = ("_value", "_data", "_loads")

    def __init__(self, data: Optional[bytes] = None, value: Optional[tuple] = None, loads=None):
        self._data = data
        self._value = value
        self._loads = loads

    def get(self) -> tuple:
        value = self._value
        if value is None:
            value = self._value = self._loads(self._data)
        return value

    def waiting(self) -> int:
        """The bytes still to read back: none once read, or when made in this process."""
        return len(self._data) if self._value is None and self._data is not None else 0

    def __reduce__(self):   # (to another process, through a pipe: the tuple itself)
        return LazyPhases, (None, self.get())

    def __iter__(self):
        return iter(self.get())

    def __len__(self) -> int:
        return len(self.get())

    def __getitem__(self, i):
        return self.get()[i]

    def __eq__(self, other) -> bool:
        if isinstance(other, LazyPhases):
            other = other.get()
        return self.get() == other

    def __hash__(self) -> int:
        return hash(self.get())

    def __repr__(self) -> str:
        return repr(self.get())


# ---------------------------------------------------------------- writing

def dumps(value: Any) -> bytes:
    """The bytes of `value`; TypeError for anything that is not plain data or an allowed object."""
    return marshal.dumps(encode(value), VERSION)


def encode(value: Any) -> Any:
    """`value` as plain data (see the module docstring)."""
    memo: dict = {}   # id(object) → its node: an object met twice is one node (marshal writes it once)

    def enc(v):
        t = type(v)
        if t in _PLAIN:
            return v
        if t is tuple or t is list:
            if _PLAIN.issuperset(map(type, v)):   # (in C: most are)
                return v
            node = _items(t.__name__, v, enc, True)
            return v if node is None else node
        if t is dict:
            if _PLAIN.issuperset(map(type, v.values())) and _PLAIN.issuperset(map(type, v)):
                return v
            out = None
            for k, x in v.items():
                if type(k) not in _PLAIN and (type(k) is not tuple or enc(k) is not k):
                    raise TypeError(f"o cache não guarda a chave {k!r} (só valores simples)")
                if type(x) not in _PLAIN:
                    y = enc(x)
                    if y is not x:
                        if out is None:
                            out = dict(v)
                        out[k] = y
            return v if out is None else (E, "dict", out)
        if t is frozenset or t is set:
            for x in v:
                if type(x) not in _PLAIN and (type(x) is not tuple or enc(x) is not x):
                    raise TypeError(f"o cache não guarda {x!r} num conjunto (só valores simples)")
            return v
        got = memo.get(id(v))
        if got is not None:
            return got
        encoder = _ENCODERS.get(t) or _encoder_of(t)
        node = memo[id(v)] = encoder(v, enc)
        return node
    try:
        return enc(value)
    finally:
        enc = None   # (enc refers to itself: a cycle, holding memo, until the collector's next pass)
        memo.clear()


def _items(tag: str, values, enc, container: bool = False):
    """The node (..., tag, mask, *encoded values) of an object's field values or a container's items; for a
    container, None when none of them is a node (then it is plain as it is)."""
    mask = 0
    out = None
    for i, x in enumerate(values):
        if type(x) in _PLAIN:
            continue
        y = enc(x)
        if y is not x:
            if out is None:
                out = list(values)
            out[i] = y
            if type(y) is tuple and y and y[0] is E:
                mask |= 1 << i
    if out is None:
        return None if container else (E, tag, 0, *values)
    return (E, tag, mask, *out)


def _encoder_of(cls):
    """The encoder of an allowed class (or Decimal, date, LazyPhases); TypeError for any other."""
    import dataclasses
    import datetime as dt
    from decimal import Decimal
    from operator import attrgetter
    if cls is Decimal:
        def encoder(v, enc):
            return (E, "Decimal", str(v))
    elif cls is dt.date:
        def encoder(v, enc):
            return (E, "date", v.toordinal())
    elif cls is LazyPhases:
        def encoder(v, enc):
            data = v._data if v._loads is _loads_phases else None
            return (E, "phases", dumps(v.get()) if data is None else data)
    else:
        tag = _BY_NAME.get((cls.__module__, cls.__qualname__))
        if tag is None:
            raise TypeError(f"o cache não guarda objetos {cls.__module__}.{cls.__qualname__}")
        if issubclass(cls, tuple):   # a NamedTuple
            def encoder(v, enc):
                return _items(tag, v, enc)
        else:
            names = [f.name for f in dataclasses.fields(cls)]
            if len(names) < 2 or not all(f.init for f in dataclasses.fields(cls)):
                raise TypeError(f"{cls.__qualname__}: o cache guarda dataclasses de 2 ou mais campos, todos no __init__")
            values = attrgetter(*names)

            def encoder(v, enc):
                return _items(tag, values(v), enc)
    _ENCODERS[cls] = encoder
    return encoder


# ---------------------------------------------------------------- reading

def loads(data: bytes) -> Any:
    """The value `dumps` made of these bytes; CodecError for anything else (never runs anything but the
    constructors of the allowed classes)."""
    try:
        tree = marshal.loads(data)
    except Exception as exc:  # noqa: BLE001 - EOFError, ValueError, TypeError: not our bytes
        raise CodecError(f"bytes ilegíveis ({exc})") from None
    return decode(tree)


# how each tag is read: (class or reader, number of items in its node, kind); the allowed classes are added
# as they are first met (_spec)
CLASS, NAMEDTUPLE, TUPLE, LIST, OTHER = range(5)
_SPECS: dict = {"tuple": (tuple, None, TUPLE), "list": (list, None, LIST)}
_BITS: dict = {}   # mask → the positions of its bits, for the masks of objects' fields


def decode(tree: Any) -> Any:
    """The value of a plain tree made by `encode`."""
    memo: dict = {}   # id(node) → its value: a node marshal read once for two places is one object
    specs = _SPECS
    new = tuple.__new__

    memo_get = memo.get
    bits = _BITS

    def dec(v):   # (v not in memo: the callers look there first)
        if type(v) is not tuple or len(v) < 3 or v[0] is not E:
            raise CodecError("nó malformado")
        tag = v[1]
        spec = specs.get(tag) if type(tag) is str else None
        cls, n, kind = spec or _spec(tag)
        if kind <= NAMEDTUPLE:
            if len(v) != n:
                raise CodecError(f"{tag}: {len(v) - 3} campos em vez de {n - 3}")
            mask = v[2]
            if mask:
                args = list(v[3:])
                for i in bits.get(mask) or _positions(mask, n - 3):
                    x = args[i]
                    got = memo_get(id(x))
                    args[i] = dec(x) if got is None else got
            else:
                args = v[3:]
            got = cls(*args) if kind == CLASS else new(cls, args)
        elif kind == OTHER:
            got = cls(v, sub)
        else:   # a tuple or list that holds nodes
            items = list(v[3:])
            for i in _positions(v[2], len(items)):
                x = items[i]
                got = memo_get(id(x))
                items[i] = dec(x) if got is None else got
            got = items if kind == LIST else tuple(items)
        memo[id(v)] = got
        return got

    def sub(v):
        got = memo_get(id(v))
        return dec(v) if got is None else got

    try:
        if type(tree) is tuple and tree and tree[0] is E:
            return dec(tree)
        return tree
    except CodecError:
        raise
    except Exception as exc:  # noqa: BLE001 - a constructor given the wrong values, a cycle...
        raise CodecError(f"valor malformado ({type(exc).__name__}: {exc})") from None
    finally:
        dec = sub = None   # (they refer to each other: a cycle, holding memo and the whole value, until the collector runs)
        memo.clear()


def _positions(mask, n: int):
    """The positions of the bits of `mask`, each below n (CodecError otherwise)."""
    got = _BITS.get(mask) if type(mask) is int else None
    if got is None:
        if type(mask) is not int or mask < 0 or mask >> n:
            raise CodecError("máscara malformada")
        if mask == (1 << n) - 1:
            return range(n)
        got = tuple(i for i in range(n) if mask >> i & 1)
        if n <= 16:
            _BITS[mask] = got
    return got


def _spec(tag):
    """(class or reader, node length, kind) of a tag: Decimal's, date's, phases', or an allowed class's
    (league.engine.shapes.allowed_class); CodecError for any other."""
    if type(tag) is not str or (tag not in ALLOWED and tag not in _READERS):
        raise CodecError(f"tipo desconhecido: {tag!r}"[:200])
    if tag in _READERS:
        spec = (_READERS[tag](), 3, OTHER)
    else:
        import dataclasses
        cls = allowed_class(tag)
        if issubclass(cls, tuple):   # a NamedTuple: built as cls._make does, without its Python frame
            spec = (cls, len(cls._fields) + 3, NAMEDTUPLE)
        else:
            spec = (cls, len(dataclasses.fields(cls)) + 3, CLASS)
    _SPECS[tag] = spec
    return spec


def _dict_reader():
    def reader(v, dec):
        if len(v) != 3 or type(v[2]) is not dict:
            raise CodecError("dict malformado")
        d = v[2]
        for k, x in d.items():   # (in place: marshal made this dict for this node alone)
            if type(x) is tuple and x and x[0] is E:
                d[k] = dec(x)
        return d
    return reader


def _decimal_reader():
    from decimal import Decimal

    def reader(v, dec):
        if len(v) != 3 or type(v[2]) is not str or len(v[2]) > 100:
            raise CodecError("Decimal malformado")
        return Decimal(v[2])
    return reader


def _date_reader():
    import datetime as dt

    def reader(v, dec):
        if len(v) != 3 or type(v[2]) is not int:
            raise CodecError("data malformada")
        return dt.date.fromordinal(v[2])
    return reader


def _phases_reader():

    def reader(v, dec):
        if len(v) != 3 or type(v[2]) is not bytes:
            raise CodecError("fases malformadas")
        return LazyPhases(v[2], loads=_loads_phases)
    return reader


def _loads_phases(data: bytes) -> tuple:
    """A stage's phases from their bytes (LazyPhases.get)."""
    value = loads(data)
    if not fits(value, (Phase_,)):
        raise CodecError("fases malformadas")
    return value


_READERS = {"dict": _dict_reader, "Decimal": _decimal_reader, "date": _date_reader, "phases": _phases_reader}
