"""What a build cache entry may hold, and what its reader expects of it: the only classes an entry may rebuild
(ALLOWED, league/engine/codec.py), and the shapes a value read back is checked against (`fits`) before it is
used — one that does not fit is a corrupted entry (league/engine/cache.py)."""
from __future__ import annotations

from typing import Any

# the only classes a cache entry may rebuild: tag → (module, class name). Each is a dataclass (rebuilt as
# cls(*fields)) or a NamedTuple (cls._make(fields)), with nothing but its fields.
ALLOWED: dict[str, tuple[str, str]] = {
    "SourceMark": ("league.content.diagnostics", "SourceMark"),
    "Diagnostic": ("league.content.diagnostics", "Diagnostic"),
    "TrucoConfig": ("league.models", "TrucoConfig"),
    "QuatrilhoConfig": ("league.models", "QuatrilhoConfig"),
    "Club": ("league.models", "Club"),
    "Player": ("league.models", "Player"),
    "Board": ("league.models", "Board"),
    "Match": ("league.models", "Match"),
    "Team": ("league.models", "Team"),
    "Group": ("league.models", "Group"),
    "Round": ("league.models", "Round"),
    "Phase": ("league.models", "Phase"),
    "DrawRecord": ("league.models", "DrawRecord"),
    "Override": ("league.models", "Override"),
    "Disqualified": ("league.models", "Disqualified"),
    "Stage": ("league.models", "Stage"),
    "Page": ("league.content.documents", "Page"),
    "Registration": ("league.games.quatrilho.championship", "Registration"),
    "Table": ("league.games.quatrilho.championship", "Table"),
    "Penalty": ("league.games.quatrilho.championship", "Penalty"),
    "Adjustment": ("league.games.quatrilho.championship", "Adjustment"),
    "Disqualification": ("league.games.quatrilho.championship", "Disqualification"),
    "QRound": ("league.games.quatrilho.championship", "QRound"),
    "Championship": ("league.games.quatrilho.championship", "Championship"),
    "Cell": ("league.games.quatrilho.championship", "Cell"),
    "Line": ("league.games.quatrilho.championship", "Line"),
    "ChampionshipResult": ("league.games.quatrilho.championship", "ChampionshipResult"),
    "Award": ("league.games.quatrilho.rules", "Award"),
    "Place": ("league.games.truco.ranking", "Place"),
    "GroupTable": ("league.games.truco.ranking", "GroupTable"),
    "StageResult": ("league.games.truco.ranking", "StageResult"),
    "AnnualEntry": ("league.games.truco.ranking", "AnnualEntry"),
    "Row": ("league.standings.core", "Row"),
    "Boundary": ("league.standings.core", "Boundary"),
    "Ranked": ("league.standings.core", "Ranked"),
}


def allowed_class(tag: str) -> type:
    """The allowed class of `tag`, imported from the module ALLOWED names for it."""
    from importlib import import_module
    module, name = ALLOWED[tag]
    return getattr(import_module(module), name)


class Opt:
    """A shape for `fits`: None or `shape`."""

    def __init__(self, shape):
        self.shape = shape


class Lazy:
    """A shape for `fits`: an instance of the allowed class of this tag (imported only when a value is checked)."""

    def __init__(self, tag: str):
        assert tag in ALLOWED, tag
        self.tag = tag


class Check:
    """A shape for `fits`: a value for which `test(value)` is true (`many(values)`: whether they all are, at once)."""

    def __init__(self, test, many=None):
        self.test = test
        self.many = many


class Keys:
    """A shape for `fits`: a dict with exactly the keys of `required` (and any of `optional`), each value of its
    key's shape."""

    def __init__(self, required: dict, optional: dict | None = None):
        self.required = required
        self.optional = optional or {}


def safe_rel(path: Any) -> bool:
    """Whether `path` is a relative path inside the folder it is joined to (a path in the build's record or
    the search index, that a build writes or deletes under out/): a str of names separated by "/", none
    empty (an absolute path, "//", a trailing "/"), "." or "..", with no backslash or NUL."""
    return type(path) is str and _safe(f"/{path}/")


def safe_rels(paths) -> bool:
    """Whether every one of `paths` is (safe_rel), checked at once: a build's record lists ~30,000."""
    paths = list(paths)
    return not paths or (_STR.issuperset(map(type, paths)) and _safe("/" + "/".join(paths) + "/"))


def _safe(names: str) -> bool:
    """Whether "/name/name/.../" holds no empty name, no "." or "..", no backslash, no NUL (the paths it is
    made of are separated by one "/": a bad name anywhere is a bad name of one of them)."""
    return ("//" not in names and "\\" not in names and "\x00" not in names
            and ("/." not in names or ("/./" not in names and "/../" not in names)))


_STR = frozenset({str})
RelPath = Check(safe_rel, safe_rels)
Phase_ = Lazy("Phase")
_CHECKERS: dict = {}   # id(shape) → (shape, its checker): shapes are constants of the modules that read the cache


def fits(value: Any, shape: Any) -> bool:
    """Whether a value read from the cache has the shape its reader goes on to use. `shape`: a type or Lazy(tag)
    (an instance of exactly that class: what the codec reads back is), Opt(shape), Check(test), Keys(...),
    [shape] (a list of them), (shape,) (a tuple of them, any length), (shape, shape, ...) (a tuple of that
    many), {key shape: value shape} (a dict of them), or `object` (anything)."""
    got = _CHECKERS.get(id(shape))
    if got is None or got[0] is not shape:
        got = _CHECKERS[id(shape)] = (shape, _all(shape))
    return got[1]([value])


# The checks below each test a list of values at once: a record's ~10,000 pages are checked a column at a
# time (their keys, their first items, ...), by type where that is enough: mostly in C.

def _all(shape):
    """The check of a list of values: whether every one has `shape` (the first kind of _KINDS it is)."""
    if shape is object:
        return _anything
    for is_kind, check_of in _KINDS:
        if is_kind(shape):
            return check_of(shape)
    raise TypeError(f"forma desconhecida: {shape!r}")


def _anything(items) -> bool:
    return True


def _types(shape) -> frozenset:
    """The one class a type or Lazy(tag) shape stands for (a frozenset, for issuperset)."""
    return frozenset({shape if isinstance(shape, type) else allowed_class(shape.tag)})


def _all_of_class(shape):
    types = _types(shape)
    return lambda items: types.issuperset(map(type, items))


def _all_optional(shape: Opt):
    if isinstance(shape.shape, (type, Lazy)):
        types = _types(shape.shape) | {type(None)}
        return lambda items: types.issuperset(map(type, items))
    inner = _all(shape.shape)
    return lambda items: inner([x for x in items if x is not None])


def _all_checked(shape: Check):
    test, many = shape.test, shape.many
    return many if many is not None else (lambda items: all(map(test, items)))


def _all_keys(shape: Keys):
    req = {k: _all(s) for k, s in shape.required.items()}
    opt = {k: _all(s) for k, s in shape.optional.items()}

    def keys(v):
        if type(v) is not dict:
            return False
        for k, check in req.items():
            if k not in v or not check([v[k]]):
                return False
        n = len(req)
        for k, check in opt.items():
            if k in v:
                if not check([v[k]]):
                    return False
                n += 1
        return len(v) == n
    return lambda items: all(map(keys, items))


def _all_items(shape):
    """[shape] or (shape,): a list, or a tuple of any length, of values of one shape."""
    from itertools import chain
    of = frozenset({type(shape)})
    inner = _all(shape[0])
    return lambda items: of.issuperset(map(type, items)) and inner(list(chain.from_iterable(items)))


def _all_dict(shape: dict):
    from itertools import chain
    ((ks, vs),) = shape.items()
    keys, values = _all(ks), _all(vs)
    return lambda items: (_DICT.issuperset(map(type, items)) and keys(list(chain.from_iterable(items)))
                          and values(list(chain.from_iterable(map(dict.values, items)))))


def _all_tuple(shape: tuple):
    """(shape, shape, ...): a tuple of that many values, each of its own shape (checked a column at a time)."""
    from operator import itemgetter
    columns = [(itemgetter(i), _all(s)) for i, s in enumerate(shape)]
    n = frozenset({len(shape)})
    return lambda items: (_TUPLE.issuperset(map(type, items)) and n.issuperset(map(len, items))
                          and all(check(list(map(column, items))) for column, check in columns))


# each kind of shape, in the order they are told apart ((shape,) is a tuple of any length, not of one item)
_KINDS = (
    (lambda s: isinstance(s, (type, Lazy)), _all_of_class),
    (lambda s: isinstance(s, Opt), _all_optional),
    (lambda s: isinstance(s, Check), _all_checked),
    (lambda s: isinstance(s, Keys), _all_keys),
    (lambda s: isinstance(s, list) or (isinstance(s, tuple) and len(s) == 1), _all_items),
    (lambda s: isinstance(s, dict), _all_dict),
    (lambda s: isinstance(s, tuple), _all_tuple),
)
_DICT, _TUPLE = frozenset({dict}), frozenset({tuple})
