"""The conventions of the `league` command (issue 37): -h beside --help on every command, -q (only errors) and -v
(more detail) before or after the command, `serve --host --open`, help and click's own messages in Portuguese,
and click's shell completion under _LEAGUE_COMPLETE."""
from __future__ import annotations

import os
import re
import shutil
import types
import urllib.request
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import league.cli
from league.cli import clickpt, main
from league.cli.serve import only_here
from league.cli.serve.server import browsable
from tests.util import boards_for, squad, write_content

ROOT = Path(__file__).resolve().parent.parent


def run(*args, **kw):
    return CliRunner().invoke(main, [str(a) for a in args], prog_name="league", **kw)


def command_paths(group: click.Group = main, prefix: tuple = ()) -> list[tuple[str, ...]]:
    """Every command and group of `league`, the lazily imported ones too: ("build",), ("new", "site"), …"""
    ctx = click.Context(group)
    paths = [prefix]
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        if isinstance(cmd, click.Group):
            paths += command_paths(cmd, (*prefix, name))
        else:
            paths.append((*prefix, name))
    return paths


def test_every_command_is_reached():
    assert sorted(command_paths()) == sorted([(), ("build",), ("check",), ("diff",), ("draw",), ("import",),
                                              ("import", "stage"), ("new",), ("new", "championship"),
                                              ("new", "site"), ("new", "stage"), ("schema",), ("serve",),
                                              ("sumulas",)])


@pytest.mark.parametrize("path", command_paths(), ids=lambda p: " ".join(p) or "league")
def test_h_and_help_on_every_command_in_portuguese(path):
    short, long = run(*path, "-h"), run(*path, "--help")
    assert short.exit_code == 0 and short.output == long.output
    text = short.output
    assert text.startswith(f"Uso: {' '.join(('league', *path))} [OPÇÕES]")
    assert "\nOpções:\n" in text and "  -h, --help " in text and "Mostra esta mensagem e sai." in text
    assert "  -q, --quiet " in text and "Só mostra os erros." in text and "  -v, --verbose " in text
    # nothing of click's English, nor its English metavars
    for english in ("Usage", "Options", "Commands", "Show this message", "default", "required", "TEXT",
                    "INTEGER", "PATH", "FILE", "DIRECTORY", "OPTIONS", "COMMAND", "SEASON", "ROUND", "CHAMPIONSHIP"):
        assert not re.search(rf"\b{re.escape(english)}\b", text), (path, english)


@pytest.mark.parametrize("path", [p for p in command_paths() if p], ids=" ".join)
def test_every_option_and_command_says_what_it_does(path):
    ctx = click.Context(main)
    cmd = main
    for name in path:
        cmd = cmd.get_command(ctx, name)
    assert cmd.help, path
    for param in cmd.params:
        if isinstance(param, click.Option):
            assert param.help, (path, param.name)


def test_the_whole_help_of_a_command():
    assert run("new", "stage", "-h").output == (
        "Uso: league new stage [OPÇÕES] TEMPORADA ID\n"
        "\n"
        "  Etapa do Truco: content/seasons/TEMPORADA/truco/ID.yaml.\n"
        "\n"
        "Opções:\n"
        "  --content PASTA  Pasta de conteúdo.  [padrão: content]\n"
        "  -q, --quiet      Só mostra os erros.\n"
        "  -v, --verbose    Mostra mais detalhes: de onde o league lê e onde escreve, o\n"
        "                   que calculou.\n"
        "  -h, --help       Mostra esta mensagem e sai.\n")


@pytest.mark.parametrize("args, command, message", [
    (["chek"], "league", "erro: o comando 'chek' não existe. Você quis dizer 'check'?"),
    (["build", "--nope"], "league build", "erro: a opção '--nope' não existe. Você quis dizer '--force'?"),
    (["build", "--zzz"], "league build", "erro: a opção '--zzz' não existe."),
    (["build", "--contnet", "x"], "league build",
     "erro: a opção '--contnet' não existe. Você quis dizer '--content'?"),
    (["check", "--format", "xml"], "league check",
     "erro: valor inválido para '--format': 'xml' não é um destes: 'text', 'github', 'json'."),
    (["serve", "--port", "x"], "league serve", "erro: valor inválido para '--port': 'x' não é um número válido."),
    (["serve", "--port", "70000"], "league serve",
     "erro: valor inválido para '--port': 70000 não está no intervalo 0<=x<=65535."),
    (["new", "site"], "league new site", "erro: falta o argumento 'PASTA'."),
    (["build", "extra"], "league build", "erro: argumento a mais, inesperado (extra)"),
])
def test_usage_errors_in_portuguese(args, command, message):
    res = run(*args)
    assert res.exit_code == 2
    assert res.output.splitlines() == [res.output.splitlines()[0], f"Use '{command} --help' para ver a ajuda.", "",
                                       message]
    assert res.output.startswith(f"Uso: {command} [OPÇÕES]")


def test_an_option_without_its_value():
    res = run("build", "--out")
    assert (res.exit_code, res.output) == (2, "erro: a opção '--out' precisa de um valor.\n")


def test_a_group_without_its_command_shows_its_help():
    res = run("new")
    assert res.exit_code == 2
    assert res.output.startswith("Uso: league new [OPÇÕES] COMANDO [ARGS]...\n") and "\nComandos:\n" in res.output


def test_version():
    assert run("--version").output == run("-V").output == f"league, versão {league.__version__}\n"


def _click_texts() -> set:
    """Every text click marks for translation (its modules, less Windows' console and the test runner)."""
    from babel.messages.extract import extract_from_dir
    found = set()
    for name, _line, msg, _comments, _ctx in extract_from_dir(
            os.path.dirname(click.__file__), method_map=[("**.py", "python")],
            keywords={"_": None, "ngettext": (1, 2)}):
        if not name.startswith(("_winconsole", "testing")):
            found.add(msg)
    return found


def test_every_text_click_marks_is_in_portuguese_and_every_translation_is_still_clicks():
    texts = _click_texts()
    ours = set(clickpt.TEXT) | set(clickpt.PLURAL)
    assert texts - ours == set(), "texto novo do click: traduza-o em league/cli/clickpt.py"
    # "required": click translates it as a variable (`_(extra["required"])`), which no extractor sees
    assert ours - texts == {"required"}, "o click não usa mais estes textos: tire-os de league/cli/clickpt.py"
    for english, portuguese in clickpt.TEXT.items():   # the same placeholders, none lost
        assert set(re.findall(r"\{(\w+)", portuguese)) <= set(re.findall(r"\{(\w+)", english)), english
    for (s, p), (ps, pp) in clickpt.PLURAL.items():
        assert set(re.findall(r"\{(\w+)", ps + pp)) <= set(re.findall(r"\{(\w+)", s + p)), s


def test_plural_follows_pt_br():
    # pt_BR: 0 and 1 are singular (n > 1 is plural)
    s, p = "Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."
    assert clickpt.translate_plural(s, p, 1) == "a opção {name!r} precisa de um valor."
    assert clickpt.translate_plural(s, p, 2) == "a opção {name!r} precisa de {nargs} valores."
    assert clickpt.translate("Texto que o click ainda não tem") == "Texto que o click ainda não tem"


# ---------------------------------------------------------------- -q and -v

@pytest.fixture
def content(tmp_path):
    """Two clubs, one stage in progress: `league check` warns that its standings are provisional."""
    stage = f"""\
        name: 1ª Etapa
        date: 2026-03-14
        status: in_progress
        teams: {{aa: {squad("aa")}, bb: {squad("bb")}}}
        phases:
          - name: Grupos
            groups:
              A:
                teams: [aa, bb]
                matches:
                  - home: aa
                    away: bb
                    boards: {boards_for(3)}
        """
    return write_content(tmp_path / "src", {"etapa-1": stage}, clubs=["aa", "bb"])


WARNING = "etapa \"1ª Etapa\" em andamento: a classificação é provisória e não vale pontos de ranking"


def test_check_says_warnings_and_the_summary_but_not_with_q(content):
    res = run("check", "--content", content)
    assert res.exit_code == 0 and WARNING in res.output
    assert res.output.splitlines()[-1] == "conteúdo válido (1 aviso(s))."
    for args in (["-q", "check", "--content", content], ["check", "-q", "--content", content],
                 ["check", "--content", content, "--quiet"]):
        res = run(*args)
        assert (res.exit_code, res.output) == (0, ""), args


def test_q_still_shows_every_error(content):
    (content / "seasons" / "2026" / "truco" / "etapa-2.yaml").write_text("name: 2ª Etapa\ndate: 2026-13-01\n",
                                                                         encoding="utf-8")
    normal, quiet = run("check", "--content", content), run("-q", "check", "--content", content)
    assert normal.exit_code == quiet.exit_code == 1
    assert WARNING not in quiet.output
    errors = [ln for ln in normal.output.splitlines() if ": erro:" in ln]
    assert errors and all(ln in quiet.output.splitlines() for ln in errors)
    assert quiet.output.splitlines()[-1] == normal.output.splitlines()[-1] == f"{len(errors)} erro(s)."


def test_q_leaves_the_machine_formats_whole(content):
    """--format github/json is what the workflow reads: -q takes nothing from it."""
    assert run("-q", "check", "--content", content, "--format", "json").output == \
        run("check", "--content", content, "--format", "json").output


def test_build_and_new_say_nothing_with_q(content, tmp_path):
    assert run("build", "-q", "--content", content, "--out", tmp_path / "site", "--no-search").output == ""
    assert (tmp_path / "site" / "index.html").is_file()
    assert run("-q", "new", "stage", "2026", "etapa-2", "--content", content).output == ""
    assert (content / "seasons" / "2026" / "truco" / "etapa-2.yaml").is_file()
    assert run("-q", "new", "site", tmp_path / "novo").output == ""
    assert run("schema", "-q", "--out", tmp_path / "schemas").output == ""


def test_v_says_where_league_reads_and_writes_and_what_it_computed(content, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)   # no templates/ here: the package's
    monkeypatch.delenv("LEAGUE_CACHE_DIR", raising=False)
    res = run("build", "-v", "--content", content, "--out", tmp_path / "site", "--no-search")
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[:5] == [
        f"league {league.__version__} (Python {__import__('sys').version.split()[0]})",
        f"conteúdo: {content.resolve()}",
        f"cache: {content.resolve().parent / '.league-cache'}",
        f"templates do pacote: {(ROOT / 'league' / 'templates').resolve()}",
        f"site: {(tmp_path / 'site').resolve()}",
    ]
    # one stage, in progress: nobody in the annual ranking yet (only a final stage awards ranking points,
    # docs/regras.md, Truco 12.1)
    assert "temporada 2026: 1 etapa(s) de Truco, 0 campeonato(s) de Quatrilho, 0 clube(s) e 0 dupla(s) no " \
           "ranking" in lines
    assert "0 página(s) mantida(s) do build anterior, sem mudança" in lines
    again = run("-v", "build", "--content", content, "--out", tmp_path / "site", "--no-search")
    assert "nada mudou desde o último build (conteúdo, templates, opções): nada foi calculado de novo" in \
        again.output.splitlines()


def test_v_names_a_sites_own_templates(content, tmp_path, monkeypatch):
    shutil.copytree(ROOT / "league" / "templates", tmp_path / "templates")
    monkeypatch.chdir(tmp_path)
    res = run("-v", "build", "--content", content, "--out", tmp_path / "site", "--no-search")
    assert f"templates da pasta do site: {(tmp_path / 'templates').resolve()}" in res.output.splitlines()
    res = run("-v", "build", "--content", content, "--out", tmp_path / "site2", "--no-search",
              "--templates", ROOT / "league" / "templates")
    assert f"templates de --templates: {(ROOT / 'league' / 'templates').resolve()}" in res.output.splitlines()


def test_v_new_site_lists_the_files_it_wrote(tmp_path):
    lines = run("new", "site", "-v", tmp_path / "fprt", "--season", "2026").output.splitlines()
    written = [Path(ln.removeprefix("escrito ")).relative_to(tmp_path / "fprt").as_posix()
               for ln in lines if ln.startswith("escrito ")]
    assert written == [
        ".gitignore", "content/league.yaml", "content/clubs.yaml", "content/players.yaml",
        "content/seasons/2026/season.yaml", "content/seasons/2026/truco/etapa-1.yaml",
        "schemas/league.schema.json", "schemas/clubs.schema.json", "schemas/players.schema.json",
        "schemas/season.schema.json", "schemas/stage.schema.json", "schemas/championship.schema.json",
        "schemas/page.schema.json", ".vscode/settings.json"]
    assert run("new", "site", tmp_path / "outro").output.count("escrito ") == 0   # without -v: two lines


def test_v_check_reads_no_templates(content):
    lines = run("check", "-v", "--content", content).output.splitlines()
    assert lines[1:3] == [f"conteúdo: {content.resolve()}", f"cache: {content.resolve().parent / '.league-cache'}"]
    assert not any(ln.startswith(("templates", "site:")) for ln in lines)


def test_q_and_v_together_is_a_usage_error(content):
    res = run("-q", "check", "-v", "--content", content)
    assert res.exit_code == 2
    assert res.output.splitlines()[-1] == "erro: -q (só erros) e -v (mais detalhes) não combinam: use um dos dois"


# ---------------------------------------------------------------- serve --host --open

def _serve(monkeypatch, content, out, *args):
    """`league serve …` in this process: Ctrl+C comes instead of the first sleep, after a request to the site."""
    opened = []
    monkeypatch.setattr("webbrowser.open", opened.append)
    served = {}

    def sleep(_seconds):
        url = opened[0] if opened else re.search(r"em (http://\S+/) —", served["say"]()).group(1)
        with urllib.request.urlopen(url, timeout=10) as r:
            served["status"] = r.status
        raise KeyboardInterrupt

    monkeypatch.setattr(league.cli.serve, "time", types.SimpleNamespace(sleep=sleep))
    runner = CliRunner()
    with runner.isolation() as (out_stream, err_stream, *_):
        served["say"] = lambda: err_stream.getvalue().decode()
        try:
            main.main([*map(str, args), "--port", "0", "--content", str(content), "--out", str(out)],
                      prog_name="league", standalone_mode=False)
        finally:
            text = err_stream.getvalue().decode()
    return opened, served, text


def test_serve_open_opens_the_site_in_the_browser(content, tmp_path, monkeypatch):
    opened, served, text = _serve(monkeypatch, content, tmp_path / "site", "serve", "--open")
    assert len(opened) == 1 and re.fullmatch(r"http://127\.0\.0\.1:\d+/", opened[0])
    assert served["status"] == 200
    assert f"servindo {tmp_path / 'site'}/ em {opened[0]} — observando" in text
    assert text.splitlines()[-1] == "parando."
    assert "GET / HTTP/1.1" not in text   # a line per request only with -v


def test_serve_host_listens_there_and_v_logs_each_request(content, tmp_path, monkeypatch):
    opened, served, text = _serve(monkeypatch, content, tmp_path / "site", "serve", "-v", "--host", "127.0.0.2",
                                  "--open")
    assert re.fullmatch(r"http://127\.0\.0\.2:\d+/", opened[0]) and served["status"] == 200
    assert re.search(r'^127\.0\.0\.\d+ "GET / HTTP/1\.1" 200 -$', text, re.M)
    assert f"conteúdo: {content.resolve()}" in text.splitlines()   # where it reads, as build -v says
    assert "atenção" not in text   # 127.0.0.2 is this machine only


def test_serve_q_says_nothing_but_errors(content, tmp_path, monkeypatch):
    opened, served, text = _serve(monkeypatch, content, tmp_path / "site", "-q", "serve", "--open")
    assert served["status"] == 200 and text == ""


@pytest.mark.parametrize("host, url_host, here", [
    ("127.0.0.1", "127.0.0.1", True), ("localhost", "localhost", True), ("::1", "[::1]", True),
    ("0.0.0.0", "127.0.0.1", False), ("::", "[::1]", False), ("192.168.0.10", "192.168.0.10", False),
    ("meu-pc.local", "meu-pc.local", False),
])
def test_the_address_to_open_and_the_warning_for_other_devices(host, url_host, here):
    assert browsable(host) == url_host
    assert only_here(host) is here


# ---------------------------------------------------------------- shell completion

COMPLETE = {"complete_var": "_LEAGUE_COMPLETE"}


def test_bash_completion_script_and_answers():
    script = run(env={"_LEAGUE_COMPLETE": "bash_source"}, **COMPLETE)
    assert script.exit_code == 0
    assert "complete -o nosort -F _league_completion league" in script.output
    assert "_LEAGUE_COMPLETE=bash_complete" in script.output
    words = run(env={"_LEAGUE_COMPLETE": "bash_complete", "COMP_WORDS": "league ne", "COMP_CWORD": "1"},
                **COMPLETE)
    assert words.output == "plain,new\n"
    words = run(env={"_LEAGUE_COMPLETE": "bash_complete", "COMP_WORDS": "league new s", "COMP_CWORD": "2"},
                **COMPLETE)
    assert words.output.splitlines() == ["plain,site", "plain,stage"]
    words = run(env={"_LEAGUE_COMPLETE": "bash_complete", "COMP_WORDS": "league serve --ho", "COMP_CWORD": "2"},
                **COMPLETE)
    assert words.output == "plain,--host\n"


def test_the_console_command_answers_to_league_complete(monkeypatch):
    """`python -m league` and the `league` script alike: the variable is _LEAGUE_COMPLETE, not one made from
    the program's name."""
    seen = {}
    monkeypatch.setattr(league.cli, "main", lambda **kw: seen.update(kw))
    league.cli.run()
    assert seen == {"complete_var": "_LEAGUE_COMPLETE"}
