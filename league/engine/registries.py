"""clubs.yaml and players.yaml → id → Club and id → Player: from the cache when both files (and league's
code) are unchanged, otherwise read and checked. Every stage file refers to them: its cache key includes
their digest (RegistryFiles.deps_digest)."""
from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Optional

from league.content.diagnostics import Diagnostic, SourceMark
from league.content.marked import MDict
from league.engine.lazy import S, validate
from league.models import Club, Player

if TYPE_CHECKING:
    from league.engine.content_reader import ContentReader
    from league.engine.loader import Loader

# what the cache entry must hold (league.engine.shapes.fits): one that does not is corrupted, and made again
REGISTRY_ENTRY = ({str: Club}, {str: Player}, [Diagnostic])
NAMES = ("clubs.yaml", "players.yaml")


def load_registries(loader: Loader) -> tuple[dict, dict]:
    """clubs.yaml and players.yaml (id → Club, id → Player): from the cache when the bytes of both (and
    league's code) are unchanged, with the warnings they produced; otherwise loaded, and cached (see
    loader.deferred) when the content has no errors."""
    key = loader.registry.key(loader.cache)
    if key is not None:
        hit = loader.cache.get(key, REGISTRY_ENTRY)
        if hit is not None:
            clubs, players, diags = hit
            loader.diags.extend(diags)
            return clubs, players
    before = len(loader.diags.items)
    clubs = load_clubs(loader)
    players = load_players(loader, clubs)
    new = loader.diags.items[before:]
    if key is not None and not any(d.level == "error" for d in new):
        loader.deferred.append((key, (clubs, players, list(new))))
    return clubs, players


def load_clubs(loader: Loader) -> dict:
    return {cid: Club(cid, m.name, m.city, mark, m.short_name) for cid, mark, m, _ in _registry(
        loader, "clubs.yaml", "clubs", "id do clube → {name, city}", S.Club, "clube", "escreva {name: …, city: …}")}


def load_players(loader: Loader, clubs: dict) -> dict:
    out = {}
    for pid, mark, m, val in _registry(loader, "players.yaml", "players", "id do jogador → {name, club}",
                                       S.Player, "jogador", "escreva {name: …}"):
        if m.club and m.club not in clubs:
            loader.unknown(val.vmark("club") if isinstance(val, MDict) else mark, "clube", m.club, clubs)
        out[pid] = Player(pid, m.name, m.club, mark)
    return out


def _registry(loader: Loader, name: str, kind: str, shape: str, model, what: str, hint: str):
    """The id → entry mapping of clubs.yaml or players.yaml: (id, key mark, validated model, raw value)
    for every well-formed entry; problems reported. An unreadable file is reported once."""
    raw = _registry_file(loader, name, kind, shape)
    if raw is None:
        return
    rel = loader.rel(loader.content / name)
    for key, val in raw.items():
        if not loader.check_slug(key, raw.kmark(key), f"id de {what}"):
            continue
        if val is None:
            loader.diags.error(raw.kmark(key), f"o {what} \"{key}\" não tem dados", hint)
            continue
        entry = validate(model, val, rel, loader.diags, f"o {what} {key}")
        if entry:
            yield key, raw.kmark(key), entry, val


def _registry_file(loader: Loader, name: str, kind: str, shape: str) -> Optional[MDict]:
    """clubs.yaml or players.yaml as read, or None: missing, or not a map (then `kind` is unreadable: the
    references to it are not reported one by one)."""
    path = loader.content / name
    rel = loader.rel(path)
    if not path.exists():
        loader.diags.error(SourceMark(rel), f"arquivo {name} não encontrado")
        return None
    raw = loader.yaml(path)
    if raw is None or not isinstance(raw, MDict):
        if raw is not None or not any(d.mark.path == rel for d in loader.diags.items):
            loader.diags.error(getattr(raw, "mark", SourceMark(rel, 1, 1)), f"{name} deve ser um mapa: {shape}")
        loader.unreadable.add(kind)
        return None
    return raw


class RegistryFiles:
    """The bytes of clubs.yaml and players.yaml (read once, None: unreadable), and the digests made of them."""

    def __init__(self, reader: ContentReader):
        # a weak reference: the loader holds this object, and a cycle between them would keep a build's
        # loader — and through its callbacks the build and its results — alive until a full collection
        # (tests/test_incremental.py: league serve rebuilds in one process)
        self.reader = weakref.proxy(reader)
        self._bytes: Optional[list[Optional[bytes]]] = None
        self._deps: Optional[str] = None

    def bytes(self) -> list[Optional[bytes]]:
        if self._bytes is None:
            self._bytes = [self._read(name) for name in NAMES]
        return self._bytes

    def _read(self, name: str) -> Optional[bytes]:
        path = self.reader.content / name
        try:
            return None if self.reader.blocked(path) else path.read_bytes()
        except OSError:
            return None

    def key(self, cache) -> Optional[str]:
        """Cache key of clubs.yaml + players.yaml, or None (no cache, or a file missing or not a regular file)."""
        if cache is None:
            return None
        parts = []
        for name, data in zip(NAMES, self.bytes()):
            if data is None or not (self.reader.content / name).is_file():
                return None
            parts += [self.reader.rel(self.reader.content / name), data]
        from league.engine.cache import code_version, digest
        return digest("registry", code_version(), *parts)

    def deps_digest(self) -> str:
        """What every stage file depends on besides itself: the clubs and players it references."""
        if self._deps is None:
            from league.engine.cache import code_version, digest
            self._deps = digest(code_version(), *(b"" if data is None else data for data in self.bytes()))
        return self._deps
