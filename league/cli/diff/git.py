"""The content folder as it was at a git revision, for `league diff`: git itself materialises it
(`git archive`)."""
from __future__ import annotations

import io
import subprocess
import tarfile
from pathlib import Path
from typing import Optional


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
    root = _toplevel(content if content.is_dir() else content.parent)
    sha, short = _commit(rev, root)
    try:
        rel = content.relative_to(root).as_posix()
    except ValueError as exc:
        raise GitError(f"{content} está fora do repositório {root}") from exc
    whole = rel in ("", ".")
    arch = _git(["archive", "--format=tar", sha] + ([] if whole else ["--", rel]), root)
    if arch.returncode != 0:
        msg = arch.stderr.decode(errors="replace").strip()
        if "did not match" in msg or "pathspec" in msg:
            return None, short, f"{rel}/ não existia em {rev}"
        raise GitError(f"git archive falhou: {msg}")
    with tarfile.open(fileobj=io.BytesIO(arch.stdout)) as tar:
        tar.extractall(dest, filter="data")
    old = dest if whole else dest / rel
    if not old.is_dir():
        return None, short, f"{rel}/ não existia em {rev}"
    return old, short, None


def _toplevel(where: Path) -> Path:
    """The root of the git repository `where` is in."""
    top = _git(["rev-parse", "--show-toplevel"], where)
    if top.returncode != 0:
        raise GitError(f"{where} não está num repositório git")
    return Path(top.stdout.decode().strip()).resolve()


def _commit(rev: str, root: Path) -> tuple[str, str]:
    """The commit REV names: its hash, and its short hash."""
    commit = _git(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], root)
    if commit.returncode != 0:
        raise GitError(f"revisão \"{rev}\" não encontrada no repositório (ex.: HEAD, main, origin/main, HEAD~1)")
    sha = commit.stdout.decode().strip()
    return sha, _git(["rev-parse", "--short", sha], root).stdout.decode().strip() or sha[:7]
