"""What every reader of a content file uses — the loader's own steps, the Truco and Quatrilho file readers
(games/truco/reading.py, games/quatrilho/reading.py), the pages (content/pages.py): the content folder, the
diagnostics, the files of a folder, and the checks and messages they share. Also the symbolic links that
lead out of the content folder: such a file is never read."""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Optional

from league.content.diagnostics import Diagnostics, SourceMark, did_you_mean

SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")

# each kind of file as messages name it (one, several) and the suffixes read
KINDS = {"stage": ("a etapa", "etapas", (".yaml", ".yml")),
         "championship": ("o campeonato", "campeonatos", (".yaml", ".yml")),
         "page": ("a página", "páginas", (".md",)), "news": ("a notícia", "notícias", (".md",))}


class ContentReader:
    """The content folder as its readers see it: paths as messages write them (rel), YAML read with marks
    (yaml), every problem collected in `diags`."""

    def __init__(self, content: Path, digests: Optional[dict] = None):
        self.content = Path(content)
        self.prefix = self.content.name or "content"
        self.diags = Diagnostics()
        self.links = ContentLinks(self.content)
        # `prefix/relative path` → sha256 of the file's bytes, as the build read them before loading (its no-op
        # check and its record use the same): the stage and championship files' cache keys are made from these
        # instead of reading and hashing every file again. A file loaded (not from the cache) is cached only when
        # the bytes it was loaded from are the ones its key says (self.read: what each file was loaded from)
        self.digests = digests
        self.read: dict = {}
        self.keyed: dict = {}   # rel → the sha256 its cache key was made from (load_tasks.task_key)
        # clubs.yaml / players.yaml that could not be read: references to them are not reported one by one
        self.unreadable: set[str] = set()

    def rel(self, path: Path) -> str:
        return f"{self.prefix}/{path.relative_to(self.content).as_posix()}"

    def yaml(self, path: Path) -> Any:
        if self.blocked(path):
            return None   # (a link out of the content folder, reported by ContentLinks.check: never read)
        from league.content.yamlio import load_yaml   # (PyYAML: imported when a file is first read, see league.content.marked)
        rel = self.rel(path)   # the bytes' digest only for a file with a cache key made before (task_key)
        return load_yaml(path, rel, self.diags, digests=self.read if rel in self.keyed else None)

    def blocked(self, path: Path) -> bool:
        """Whether a path resolves outside the content folder (through a link: see ContentLinks)."""
        return self.links.blocked(path)

    def files_in(self, folder: Path, kind: str) -> list[Path]:
        return files_in(self, folder, kind)

    def reported(self, path: Path) -> bool:
        """Whether an error about this file (unreadable, invalid YAML) was already reported."""
        rel = self.rel(path)
        return any(d.mark.path == rel and d.level == "error" for d in self.diags.items)

    def unknown(self, mark: SourceMark, what: str, value: Any, known, extra: str = "") -> None:
        if (what.startswith("clube") and "clubs" in self.unreadable) or \
                (what.startswith("jogador") and "players" in self.unreadable):
            return  # clubs.yaml / players.yaml itself is broken and reported: every reference would be noise
        hint = did_you_mean(value, known)
        word = "desconhecida" if what.startswith("equipe") else "desconhecido"
        self.diags.error(mark, f"{what} {word} \"{value}\"{extra}", hint, code="unknown-id")

    def check_slug(self, value: Any, mark: SourceMark, what: str) -> bool:
        if isinstance(value, str) and SLUG.match(value):
            return True
        from league.content.validate import describe, slugify
        self.diags.error(mark, f"{what} inválido: recebido {describe(value)}; esperado letras minúsculas sem acento, "
                         f"números e hífens", f"use \"{slugify(str(value))}\"", code="slug")
        return False


def files_in(reader: ContentReader, folder: Path, kind: str) -> list[Path]:
    """The files of one kind in its folder, sorted by name. A hidden one (".etapa-1.yaml") is not read
    but said (a warning); so is a file of another type beside stages or championships. Two files that
    claim one id (etapa-1.yaml and etapa-1.yml: the id is the name without the suffix) are an error
    naming both; the first is read, the other not (it would take the first one's page and ranking
    column)."""
    what, several, suffixes = KINDS[kind]
    out: list[Path] = []
    ids: dict[str, Path] = {}
    if reader.blocked(folder):
        return out
    for f in sorted(folder.iterdir()):
        if reader.blocked(f):
            continue   # a link out of the content folder: reported (ContentLinks.check), never read
        if not _to_read(reader, f, kind, suffixes):
            continue
        first = ids.get(f.stem)
        if first is not None:
            reader.diags.error(SourceMark(reader.rel(f)), f"{what} \"{f.stem}\" está em dois arquivos: "
                               f"{reader.rel(first)} e {reader.rel(f)} (o id é o nome do arquivo, sem a extensão)",
                               f"apague um dos dois, ou renomeie um deles se são {several} diferentes",
                               code="duplicate-id")
            continue
        ids[f.stem] = f
        out.append(f)
    return out


def _to_read(reader: ContentReader, f: Path, kind: str, suffixes: tuple) -> bool:
    """Whether a file of the folder is one to read: not hidden, and of the kind's type. A hidden file of that
    type is said (a warning), and so is, beside stages or championships, a file of another type."""
    if f.name.startswith("."):
        if f.suffix in suffixes:
            shown = f.name.lstrip(".#")
            reader.diags.warning(SourceMark(reader.rel(f)), f"arquivo oculto ignorado: \"{f.name}\" começa com "
                                 "ponto e não é lido", f"para publicá-lo, renomeie-o para \"{shown}\"; senão, "
                                 "apague-o", code="hidden")
        return False
    if f.suffix not in suffixes:
        if kind in ("stage", "championship") and f.is_file():
            reader.diags.warning(SourceMark(reader.rel(f)), "arquivo ignorado: só arquivos .yaml são lidos aqui")
        return False
    return True


class ContentLinks:
    """Symbolic links under the content folder. One whose target resolves outside it is an error (check), and
    a path that leads out through one is never read (blocked)."""

    def __init__(self, content: Path):
        self.content = content
        self.root_real: Optional[str] = None   # the content folder, resolved
        self.has_links = True   # (until check() finds none: then nothing can lead out)

    def check(self, reader: ContentReader) -> None:
        """Every symbolic link under the content folder (files or folders, hidden folders not entered) whose
        target resolves outside it is an error naming the link — never its target, never a byte of it: such a
        file is not content (a link to an env file would put its first characters into a message, i.e. into
        CI logs; a link to any file would publish it). Links that stay inside are fine."""
        self.root_real = os.path.realpath(self.content)
        self.has_links = False
        stack = [str(self.content)]
        while stack:
            for entry in _entries(stack.pop()):
                if entry.is_symlink():
                    self.has_links = True
                    if not self.inside(os.path.realpath(entry.path)):
                        _link_outside(reader, entry.path)
                elif entry.is_dir(follow_symlinks=False) and not entry.name.startswith("."):
                    stack.append(entry.path)

    def inside(self, real: str) -> bool:
        root = self.root_real
        return real == root or real.startswith(root if root.endswith(os.sep) else root + os.sep)

    def blocked(self, path: Path) -> bool:
        """Whether a path resolves outside the content folder (through a link: see check)."""
        if not self.has_links:
            return False   # no link anywhere under content/: nothing can lead out
        if self.root_real is None:
            self.root_real = os.path.realpath(self.content)
        return not self.inside(os.path.realpath(path))


def _entries(folder: str) -> list:
    """A folder's entries by name; none when it cannot be read (that is reported where it is read)."""
    try:
        with os.scandir(folder) as entries:
            return sorted(entries, key=lambda e: e.name)
    except OSError:
        return []


def _link_outside(reader: ContentReader, path: str) -> None:
    reader.diags.error(SourceMark(reader.rel(Path(path))), "link simbólico para fora da pasta de conteúdo: não é "
                       "lido nem publicado", f"ponha aqui uma cópia do arquivo (ou da pasta) em vez do link, ou "
                       f"aponte o link para algo dentro de {reader.prefix}/", code="link-outside")
