"""Which files of content/ are read, and what is said about the others: a hidden file is a warning, not silence;
a news post naming a stage, championship or season the content does not have is a warning at its line. (Two
files with one id are errors: tests/bad_input/cases.py.) Through the real command line, as the bad-input corpus."""
from __future__ import annotations

import shutil

from tests.bad_input.cases import NEWS, STAGE
from tests.bad_input.harness import copy_base, run_build

STAGES = "seasons/2026/truco"


def build(tmp_path, edit=None, out=None):
    content = tmp_path / "content" if (tmp_path / "content").is_dir() else copy_base(tmp_path)
    if edit is not None:
        edit(content)
    res = run_build(content, out or tmp_path / "site")
    assert res.error is None, res.error
    return res


def warnings_about(res, path: str) -> list[tuple]:
    return [d for d in res.diagnostics("aviso") if d[0] == path]


def test_hidden_stage_file_is_a_warning_and_not_read(tmp_path):
    res = build(tmp_path, lambda c: shutil.copy(c / STAGE, c / STAGES / ".etapa-2.yaml"))
    assert res.exit_code == 0, res.output
    assert warnings_about(res, f"content/{STAGES}/.etapa-2.yaml") == [
        (f"content/{STAGES}/.etapa-2.yaml", 0, 0, 'arquivo oculto ignorado: ".etapa-2.yaml" começa com ponto e não é lido')]
    assert 'sugestão: para publicá-lo, renomeie-o para "etapa-2.yaml"; senão, apague-o' in res.output
    assert not (tmp_path / "site" / "2026" / "truco" / ".etapa-2").exists()
    assert not (tmp_path / "site" / "2026" / "truco" / "etapa-2").exists()


def test_hidden_page_is_a_warning_not_an_invalid_name(tmp_path):
    # before: read, then "nome de arquivo inválido" (exit 1); an editor's lock or backup file is not content
    res = build(tmp_path, lambda c: shutil.copy(c / "pages" / "sobre.md", c / "pages" / ".rascunho.md"))
    assert res.exit_code == 0, res.output
    assert [d[3] for d in warnings_about(res, "content/pages/.rascunho.md")] == [
        'arquivo oculto ignorado: ".rascunho.md" começa com ponto e não é lido']


def test_hidden_news_lock_file_of_an_editor_is_a_warning(tmp_path):
    # Emacs keeps a dangling link .#name while a file is edited: before, "link simbólico quebrado" (exit 1)
    res = build(tmp_path, lambda c: (c / "news" / ".#2026-03-16-etapa-1.md").symlink_to("usuario@maquina.123"))
    assert res.exit_code == 0, res.output
    assert len(warnings_about(res, "content/news/.#2026-03-16-etapa-1.md")) == 1


def test_hidden_season_folder_is_a_warning(tmp_path):
    res = build(tmp_path, lambda c: shutil.copytree(c / "seasons" / "2026", c / "seasons" / ".2027"))
    assert res.exit_code == 0, res.output
    assert [d[3] for d in warnings_about(res, "content/seasons/.2027")] == [
        'pasta oculta ignorada: ".2027" começa com ponto e não é lida']
    assert not (tmp_path / "site" / ".2027").exists()


def test_other_files_beside_championships_are_a_warning(tmp_path):
    res = build(tmp_path, lambda c: (c / "seasons" / "2026" / "quatrilho" / "notas.txt").write_text("x\n"))
    assert res.exit_code == 0, res.output
    assert [d[3] for d in warnings_about(res, "content/seasons/2026/quatrilho/notas.txt")] == [
        "arquivo ignorado: só arquivos .yaml são lidos aqui"]


def test_ordinary_hidden_files_stay_silent(tmp_path):
    # what a system or git leaves everywhere is not a content file: no warning (--strict would fail on it)
    def edit(c):
        for folder in (c / STAGES, c / "pages", c / "news", c / "seasons"):
            (folder / ".DS_Store").write_bytes(b"\0\0\0\1Bud1")
            (folder / ".gitkeep").write_text("")
    res = build(tmp_path, edit)
    assert res.exit_code == 0, res.output
    assert not [d for d in res.diagnostics("aviso") if "/." in d[0]]


def _point_news_at(stage: str):
    def edit(c):
        path = c / NEWS
        path.write_text(path.read_text(encoding="utf-8").replace("stage: etapa-1", f"stage: {stage}"),
                        encoding="utf-8")
    return edit


def test_news_pointing_at_an_unknown_stage_is_a_warning_at_its_line(tmp_path):
    res = build(tmp_path, _point_news_at("etapa-l"))
    assert res.exit_code == 0, res.output
    assert warnings_about(res, f"content/{NEWS}") == [
        (f"content/{NEWS}", 4, 8, 'stage: etapa desconhecida "etapa-l" na temporada 2026; a notícia é publicada '
                                  "sem esse link")]
    assert 'sugestão: você quis dizer "etapa-1"?' in res.output


def test_news_unknown_season_and_championship_are_warnings(tmp_path):
    def edit(c):
        path = c / NEWS
        text = path.read_text(encoding="utf-8").replace('season: "2026"', 'season: "2062"')
        path.write_text(text.replace("stage: etapa-1", "championship: xapeco"), encoding="utf-8")
    res = build(tmp_path, edit)
    assert res.exit_code == 0, res.output
    assert [d[1:] for d in warnings_about(res, f"content/{NEWS}")] == [
        (3, 9, 'season: temporada desconhecida "2062"; a notícia é publicada sem esse link'),
        (4, 15, 'championship: campeonato desconhecido "xapeco"; a notícia é publicada sem esse link')]


def test_news_link_checked_again_when_the_pages_come_from_the_cache(tmp_path):
    # the pages are cached by their own bytes; a stage renamed afterwards must still be noticed
    first = build(tmp_path)
    assert first.exit_code == 0 and not warnings_about(first, f"content/{NEWS}")
    content = tmp_path / "content"
    (content / STAGE).rename(content / STAGES / "etapa-01.yaml")
    res = build(tmp_path)
    assert res.exit_code == 0, res.output
    assert [d[1:] for d in warnings_about(res, f"content/{NEWS}")] == [
        (4, 8, 'stage: etapa desconhecida "etapa-1" na temporada 2026; a notícia é publicada sem esse link')]
    assert 'sugestão: você quis dizer "etapa-01"?' in res.output


# ----------------------------------------------------------------------------------- links out of content/

SECRET = b"SEGREDO_DO_CI=abc123-nao-pode-aparecer\n"


def _link(content, rel: str, target) -> None:
    path = content / rel
    if path.is_symlink() or path.is_file():
        path.unlink()
    path.symlink_to(target)


def test_link_to_an_env_file_never_puts_its_bytes_in_a_message(tmp_path):
    # before: 'valor inválido: recebido "SEGREDO_DO_CI=abc123-nao-pode-a…" (texto)', i.e. into the CI log
    (tmp_path / ".env").write_bytes(SECRET)
    res = build(tmp_path, lambda c: _link(c, STAGE, tmp_path / ".env"))
    assert res.exit_code == 1, res.output
    assert res.diagnostics() == [
        (f"content/{STAGE}", 0, 0, "link simbólico para fora da pasta de conteúdo: não é lido nem publicado")]
    assert "SEGREDO" not in res.output and "abc123" not in res.output
    assert str(tmp_path / ".env") not in res.output   # the link is named, not where it leads


def test_link_out_is_never_published(tmp_path):
    # before: a valid page outside content/ was published as if it were content
    (tmp_path / "fora.md").write_text("---\ntitle: De fora\n---\nTexto de fora da pasta.\n", encoding="utf-8")
    out = tmp_path / "site"
    res = build(tmp_path, lambda c: _link(c, "pages/fora.md", "../../fora.md"), out=out)
    assert res.exit_code == 1, res.output
    assert [d[:1] + d[3:] for d in res.diagnostics()] == [
        ("content/pages/fora.md", "link simbólico para fora da pasta de conteúdo: não é lido nem publicado")]
    assert not (out / "fora").exists()


def test_folder_linked_out_is_one_error_naming_the_folder(tmp_path):
    def edit(c):
        outside = tmp_path / "outras-etapas"
        outside.mkdir()
        for name in ("etapa-7.yaml", "etapa-8.yaml"):
            (outside / name).write_bytes(SECRET)
        _link(c, f"{STAGES}/mais", outside)          # a folder beside the stages
        shutil.move(str(c / "news"), str(tmp_path / "news"))
        _link(c, "news", tmp_path / "news")           # a whole folder of the content
    res = build(tmp_path, edit)
    assert res.exit_code == 1, res.output
    assert [d[0] for d in res.diagnostics()] == ["content/news", f"content/{STAGES}/mais"]
    assert "SEGREDO" not in res.output


def test_links_inside_content_stay_fine(tmp_path):
    def edit(c):
        _link(c, "pages/quem-somos.md", "sobre.md")
        (c / "comum").mkdir()
        shutil.move(str(c / "news"), str(c / "comum" / "news"))
        _link(c, "news", "comum/news")
    out = tmp_path / "site"
    res = build(tmp_path, edit, out=out)
    assert res.exit_code == 0, res.output
    assert (out / "quem-somos" / "index.html").is_file()
    assert (out / "noticias" / "2026-03-16-etapa-1" / "index.html").is_file()


def test_content_digests_do_not_read_through_a_link_out(tmp_path):
    from league.engine.incremental import file_digests
    content = copy_base(tmp_path)
    (tmp_path / "grande").write_bytes(SECRET)
    _link(content, "pages/grande.md", tmp_path / "grande")
    got = file_digests(content, "content", links_out=False)
    assert got["content/pages/grande.md"] == "?link"
    assert got["content/pages/sobre.md"] != "?link"
    assert file_digests(content, "content")["content/pages/grande.md"] not in ("?link", "?")   # templates: followed
