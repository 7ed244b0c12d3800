"""league.site.outdir.survey: one pass over a site folder against its manifest (is every recorded file there with
its size, which files were put there by hand), and the survey helper that does it while the content loads."""
import os

from league.site.outdir import MANIFEST, STAGING_IN_MOUNT, damaged, survey


def _site(tmp_path):
    out = tmp_path / "site"
    (out / "a" / "b").mkdir(parents=True)
    (out / "index.html").write_text("12345")        # 5 bytes
    (out / "a" / "b" / "index.html").write_text("123")   # 3 bytes
    (out / MANIFEST).write_text("{}")
    return out, {"index.html": 5, "a/b/index.html": 3}


def test_a_whole_site_has_nothing_by_hand(tmp_path):
    out, files = _site(tmp_path)
    assert survey(out, files) == (True, [])


def test_hand_put_files_are_found_at_any_depth_and_the_manifest_is_not_one(tmp_path):
    out, files = _site(tmp_path)
    (out / "a" / "b" / "logo.png").write_bytes(b"x")
    (out / "robots-extra.txt").write_text("y")
    got = survey(out, files)
    assert got.whole and sorted(got.unrecorded) == ["a/b/logo.png", "robots-extra.txt"]


def test_a_recorded_file_missing_or_of_another_size_makes_the_site_not_whole(tmp_path):
    # as damaged() says it, file by file
    out, files = _site(tmp_path)
    (out / "a" / "b" / "index.html").write_text("1234")   # 4 bytes, 3 recorded
    assert survey(out, files).whole is False and damaged(out, files) == ["a/b/index.html"]
    out2, files2 = _site(tmp_path / "two")
    (out2 / "index.html").unlink()
    assert survey(out2, files2).whole is False and damaged(out2, files2) == ["index.html"]


def test_links_to_folders_are_not_followed_and_staging_folders_are_skipped(tmp_path):
    out, files = _site(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "big.bin").write_bytes(b"z")
    os.symlink(elsewhere, out / "linked")
    (out / f"{STAGING_IN_MOUNT}123").mkdir()
    (out / f"{STAGING_IN_MOUNT}123" / "page.html").write_text("s")
    assert sorted(survey(out, files, (STAGING_IN_MOUNT,)).unrecorded) == []
    assert sorted(survey(out, files).unrecorded) == [f"{STAGING_IN_MOUNT}123/page.html"]


def test_the_survey_helper_gives_what_the_writer_would_find_itself(tmp_path):
    # the helper process reads the manifest and surveys out/; its answer carries the manifest's inputs and
    # file count, which the writer compares with its own before using it
    import json

    from league.engine.helpers import SurveyHelper
    out, files = _site(tmp_path)
    (out / MANIFEST).write_text(json.dumps({"generator": "league", "inputs": "abc", "files": files}))
    (out / "a" / "hand.txt").write_text("h")
    helper = SurveyHelper(out).start()
    if helper.process is None:   # one core, or no fork: nothing started, and join says so
        assert helper.join() is None
        return
    assert helper.join() == ("abc", 2, (True, ["a/hand.txt"]))
    assert helper.process is None and helper.join() is None
