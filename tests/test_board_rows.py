"""The board rows of the pair and player pages are written by league/site/boards.py, not by a Jinja2 loop
(the site's most numerous HTML): each row must be exactly what the template wrote before, escaped as Jinja2's
autoescape escapes (markupsafe), whatever the names hold."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import jinja2
import pytest
from markupsafe import escape

from league.site.boards import PairBoard, _board_rows, _row_html

# the loop the pair and player pages had, cell for cell
ROW = jinja2.Environment(autoescape=True).from_string(
    '<tr><th scope="row">{% if opponent_url %}<a href="{{ opponent_url }}">{{ opponent }}</a>{% else %}'
    '{{ opponent }}{% endif %} <small class="club">{{ team }}</small></th><td class="{{ cls }}">{{ points }}</td>'
    '<td class="games">{{ scores }}</td>{% if partner %}<td><a href="{{ mate_url }}">{{ mate }}</a></td>{% endif %}'
    '<td><a href="{{ url }}">{{ match }}</a></td></tr>')

HOSTILE = 'D\'Ávila & "Filhos" <script>alert(1)</script>'


class Site:
    """What _board_rows asks of league.site.views.Site."""

    def __init__(self, boards):
        self._boards = boards

    def stage_url(self, st):
        return "/2026/truco/etapa-<1>/"

    def boards(self, st):
        return self._boards

    def pair_name(self, pair):
        return f"{HOSTILE} + {pair[1]}"

    def pair_url(self, pair):
        return f"/duplas/{pair[0]}&{pair[1]}/"


def test_a_row_is_what_the_template_wrote_with_and_without_a_partner():
    mine, theirs = ("ana", "bia"), ("caio", "davi")
    boards = {mine: [
        PairBoard("jogo-a-b", "Grupo <A>", "a", "b", theirs, "12-7 9-12 12-10", (2, 1), True, (3, 2)),
        PairBoard("jogo-a-c", "Final", "a", "c", None, "W.O.", (0, 2), False, (1, 4)),
    ]}
    st = SimpleNamespace(path="etapa.yaml",
                         teams={"b": SimpleNamespace(name=HOSTILE), "c": SimpleNamespace(name="C&C")})
    site = Site(boards)
    rows = _board_rows(site, st, mine)
    mate = ("Zé <o> \"parceiro\"", "/jogadores/ze&1/")
    for b, cells in zip(boards[mine], rows):
        values = dict(
            opponent=site.pair_name(b.opponent) if b.opponent else "—",
            opponent_url=site.pair_url(b.opponent) if b.opponent else None,
            team=st.teams[b.opponent_team].name, cls="total win" if b.won else "total",
            points=f"{b.points[0]}–{b.points[1]}", scores=b.games, url=f"{site.stage_url(st)}#{b.anchor}",
            match=f"{b.where}: {b.match_points[0]}x{b.match_points[1]}", mate=mate[0], mate_url=mate[1])
        assert _row_html(cells) == ROW.render(values, partner=False)
        cell = f'<td><a href="{escape(mate[1])}">{escape(mate[0])}</a></td>'   # (as player_games makes it)
        assert _row_html(cells, cell) == ROW.render(values, partner=True)
    assert "<script>" not in "".join(_row_html(c) for c in rows)


ROOT = Path(__file__).resolve().parent.parent


def test_rows_made_before_forking_are_those_the_pages_list_and_change_nothing():
    """SitePlan.make_shared (called before rendering is shared out among processes) makes the board rows of
    exactly the pairs whose pair or player pages are to be rendered, and a page rendered afterwards is the
    page rendered without it."""
    if not (ROOT / "content" / "league.yaml").exists():
        pytest.skip("no demo content")
    from league.engine.build import check
    from league.i18n import using
    from league.site.render import plan_site, render_page
    results = check(ROOT / "content", cache_dir=False).results
    with using(results.league.locale):
        plan = plan_site(results)
        site = plan.common["site"]
        player = next(j for j in plan.jobs if j.template == "player.html"
                      and len(site.player_pairs.get(j.path.split("/")[1], ())) > 1)   # a player with 2+ partners
        pairs = site.player_pairs[player.path.split("/")[1]]
        plan.make_shared([player.path, "index.html"])   # the home page lists no boards
        made = set(site.__dict__["_board_rows"])
        assert made == {(res.stage.path, pair) for pair in pairs for _sr, res, _p in site.pair_hist[pair]}
        page = render_page(plan, player)
        fresh = plan_site(results)
        assert render_page(fresh, next(j for j in fresh.jobs if j.path == player.path)) == page
        assert set(fresh.common["site"].__dict__["_board_rows"]) == made   # what the page itself asks for
