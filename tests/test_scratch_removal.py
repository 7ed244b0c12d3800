"""The search scratch folder is deleted by `rm -rf` beside the build (league.site.search._remove), and by
shutil.rmtree where there is no `rm`: either way nothing of it is left, whatever it holds."""
from __future__ import annotations

import os
import shutil

import pytest

from league.site import search


def _tree(root):
    """A scratch folder as pagefind leaves it: stubs in nested folders, the index beside them, a read-only
    file and a link to a file outside (the link goes, the file it points at stays)."""
    outside = root.parent / "outside.txt"
    outside.write_text("fica", encoding="utf-8")
    for rel in ("site/duplas/a-b/index.html", "site/jogadores/a/index.html", "pagefind/fragment/pt_1.pf_fragment"):
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x", encoding="utf-8")
    locked = root / "pagefind" / "locked"
    locked.write_text("x", encoding="utf-8")
    locked.chmod(0o444)
    if hasattr(os, "symlink"):
        (root / "site" / "link").symlink_to(outside)
    return outside


@pytest.mark.parametrize("rm", ["found", "missing"])
def test_the_scratch_folder_goes_entirely_with_or_without_rm(tmp_path, monkeypatch, rm):
    scratch = tmp_path / "league-search-x"
    outside = _tree(scratch)
    if rm == "missing":
        monkeypatch.setattr(search.shutil, "which", lambda name: None)
    elif shutil.which("rm") is None or os.name != "posix":
        pytest.skip("no rm on this machine")
    else:   # rm alone must do it: the fallback does nothing here
        monkeypatch.setattr(search.shutil, "rmtree", lambda *a, **k: None)
    search._remove(str(scratch))
    assert not scratch.exists()
    assert outside.read_text(encoding="utf-8") == "fica"   # a link inside is deleted, not followed


def test_a_folder_already_gone_is_no_error(tmp_path):
    search._remove(str(tmp_path / "never-made"))
    assert list(tmp_path.iterdir()) == []
