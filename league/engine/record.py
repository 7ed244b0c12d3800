"""What a build leaves in the cache for the next one into the same out/ folder: its stamp (a digest of every
input: the no-op check, `unchanged_stamp`) and its record (each page's key, charts and search stub's hash:
what a rebuild keeps as it is, `previous_record`). Both are trusted only for the site whose manifest names the
same inputs, and whose files are all there (league.site.writer: damaged)."""
from __future__ import annotations

from pathlib import Path

from league.content.diagnostics import Diagnostic, SourceMark
from league.engine.shapes import Keys, Opt, RelPath
from league.engine.incremental import KEY_STATE


def read_inputs(content: Path, templates: Path | None) -> tuple[dict, dict]:
    """Digests of every content file (`<content dir name>/relative/path` → sha256) and template file,
    read once per build, before anything is loaded: the no-op check, the pages' keys and the record
    all use these (a file edited while the build runs makes the next build run again)."""
    from league.engine.incremental import file_digests
    from league.site.paths import default_templates
    content = Path(content)
    return (file_digests(content, content.name or "content", links_out=False),
            file_digests(Path(templates) if templates else default_templates(), ""))


def inputs_id(inputs: tuple[dict, dict], flags) -> str:
    """The digest of a build's inputs that its site's manifest carries (league.site.writer.Manifest): content and
    template files by relative path and bytes, league's code, flags — no absolute path, so the same content
    builds the same site wherever it lies. A build's record is trusted only for the site whose manifest
    names the same inputs."""
    import hashlib
    from league.engine.cache import code_version
    h = hashlib.sha256(code_version().encode())
    h.update(repr(flags).encode())
    for files in inputs:
        for rel, d in sorted(files.items()):
            h.update(f"{rel}\0{d}\0".encode())
        h.update(b"\1")
    return h.hexdigest()


def _stamp(content: Path, templates: Path | None, flags, inputs: tuple[dict, dict] | None = None) -> str:
    """Hash of every input of a build: content and template files (path and bytes), league's code, flags."""
    import hashlib
    from league.engine.cache import code_version
    from league.site.paths import default_templates
    if inputs is None:
        inputs = read_inputs(content, templates)
    h = hashlib.sha256(code_version().encode())
    h.update(repr(flags).encode())
    h.update(str(Path(content).resolve()).encode() + b"\0")
    h.update(str((Path(templates) if templates else default_templates()).resolve()).encode() + b"\0")
    for files in inputs:
        for rel, d in files.items():
            h.update(f"{rel}\0{d}\0".encode())
        h.update(b"\1")
    return h.hexdigest()


# what a build records in the cache (write_record) and the next one reads back (league.engine.shapes.fits): the stamp
# (the no-op check), and the record, whose paths a rebuild keeps, deletes or writes under out/
STAMP = Keys({"stamp": str, "inputs": str, "diagnostics": [Diagnostic], "files": int, "pages": int})
RECORD = Keys({**STAMP.required, "pages": {str: (Opt(str), (RelPath,), Opt(str))}, "stub_code": str},
              {"key_state": Keys(KEY_STATE)})


def record_key(out: Path) -> str:
    from league.engine.cache import digest
    return digest("last-build", str(Path(out).resolve()))


def _stamp_key(out: Path) -> str:
    from league.engine.cache import digest
    return digest("last-build-stamp", str(Path(out).resolve()))


def cache_dir_of(content, cache_dir) -> Path:
    from league.engine.cache import default_dir
    return Path(cache_dir) if cache_dir else default_dir(content)


def build_cache(content, cache_dir):
    """The build cache of the build's own entries (its record and stamp, the stages' signatures, the search
    index), whose warnings are the build's (cache_warnings)."""
    from league.engine.cache import Cache
    cache = Cache(cache_dir_of(content, cache_dir))
    cache.warnings = _CACHE_WARNINGS
    return cache


# what the build's own entries were found to be — corrupted, or not written —: reported with the build's
# diagnostics (those of check() are already)
_CACHE_WARNINGS: list = []


def forget_cache_warnings() -> None:
    """A new build starts: the warnings of the previous one's entries are not its own."""
    del _CACHE_WARNINGS[:]


def cache_warnings(content, cache_dir) -> list[Diagnostic]:
    where = SourceMark(str(cache_dir_of(content, cache_dir)))
    return [Diagnostic(where, w, None, "warning", "cache") for w in dict.fromkeys(_CACHE_WARNINGS)]


def previous_record(content, out, cache_dir, writer) -> dict | None:
    """What the previous build into this same out/ folder recorded (page keys, API files), or None: also
    when a file it recorded is missing or changed size (deleted or edited by hand), so every page is made
    again and site/ repaired."""
    if writer.previous is None or writer.recorded is None or writer.damaged():
        return None
    rec = build_cache(content, cache_dir).get(record_key(out), RECORD)
    if not rec or "pages" not in rec or rec.get("inputs") != writer.recorded_inputs:
        return None   # the record is of another build than the one that wrote out/
    return rec


def unchanged_stamp(content, out, templates, cache_dir, flags, inputs) -> dict | None:
    """The previous build's stamp (its report: diagnostics, files, pages) when nothing the build reads has
    changed and out/ holds what it wrote, whole; else None."""
    cache = build_cache(content, cache_dir)
    rec = cache.get(_stamp_key(out), STAMP)
    if not rec or rec["stamp"] != _stamp(content, templates, flags, inputs):
        return None
    from league.site.writer import damaged, read_manifest
    manifest = read_manifest(out)
    if manifest is None or manifest.inputs != rec.get("inputs") or damaged(out, manifest.files):
        return None   # another build's site, or a file deleted or edited by hand: built again, repaired
    return rec


def prune_cache(content, cache_dir) -> int:
    """After a build (which read or wrote every entry it needs): what no build has used for a day goes
    (league.engine.cache.Cache.prune)."""
    try:   # housekeeping: never the reason a build that wrote its site fails
        return build_cache(content, cache_dir).prune()
    except Exception:  # noqa: BLE001
        return 0


def write_record(content, out, templates, cache_dir, flags, report, record: dict | None = None,
                 inputs: tuple[dict, dict] | None = None) -> None:
    """The build's stamp and record (`record`: its pages, stub code and key state), from its `report`."""
    cache = build_cache(content, cache_dir)
    small = {"stamp": _stamp(content, templates, flags, inputs), "inputs": inputs_id(inputs, flags),
             "diagnostics": [d for d in report.diagnostics if d.code != "cache"],   # (a no-op build repeats
             "files": report.files, "pages": report.pages}                          # these: not the cache's)
    cache.put(record_key(out), {**small, **(record or {})})
    cache.put(_stamp_key(out), small)


def keys_may_match(keys, previous) -> bool:
    """Whether any page's key can be the one the previous build recorded: every key starts with `base`
    (league.engine.incremental.page_base), so not when the previous record's differs — a template, league.yaml or
    league itself changed — and then every page is rendered again."""
    state = previous.get("key_state")
    if not isinstance(state, dict) or "base" not in state:
        return True
    return state["base"] == keys.base()


def keep_unchanged(plan, previous, writer) -> dict:
    """Drop from the plan every page whose key is the one the previous build recorded for the file still
    in out/ (with the chart files it showed): the writer keeps them as they are. Their recorded
    (key, charts, stub) is returned."""
    kept: dict = {}
    if not previous or plan.keys is None:
        return kept
    old_pages = previous.get("pages", {})
    todo = []
    for job in plan.jobs:
        path, key = job.path, job.key
        old = old_pages.get(path)
        if key is None or old is None or old[0] != key:
            todo.append(job)
            continue
        # trusted like the no-op check: site/'s manifest names this record's inputs and every file it
        # recorded is there with its size (previous_record)
        kept[path] = old
        writer.keep((path, *old[1]) if job.template is not None else old[1])
    plan.jobs[:] = todo
    return kept
