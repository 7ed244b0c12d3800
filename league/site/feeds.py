"""Feeds for readers and calendars: an Atom feed of news and published results (feed.xml) and an
iCalendar file of stage and championship dates (calendario.ics).

Both are deterministic: every date comes from the content (a news post's date, a stage's or
championship's date), never from the clock, so two builds of the same content are byte-identical.
Titles and descriptions are in the build's language (league/i18n.py).
"""
from __future__ import annotations

import datetime as dt
from typing import Any
from urllib.parse import urlparse

from league import i18n
from league.i18n import _

TZ = "-03:00"  # content dates are calendar days in Brasília time


# xml.sax.saxutils's escape and quoteattr, written out: importing that module pulls in urllib.request,
# http.client and email (~9 ms of every build's start); tests/test_feeds.py checks they write the same
def xml_escape(data: str) -> str:
    return data.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(data: str) -> str:
    data = xml_escape(data).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in data:
        return f'"{data}"'
    if "'" not in data:
        return f"'{data}'"
    return '"' + data.replace('"', "&quot;") + '"'


def _abs(site, url: str) -> str:
    """Absolute URL of a site path (`site.url(...)`), from league.base_url's origin."""
    u = urlparse(site.league.base_url)
    if u.scheme and u.netloc:
        return f"{u.scheme}://{u.netloc}{url}"
    return url


def _stamp(d: dt.date) -> str:
    return f"{d.isoformat()}T00:00:00{TZ}"


def _championships(results) -> list:
    return [res for sr in results.seasons for res in getattr(sr, "championships", ()) or ()]


def _entries(results, site) -> list[dict[str, Any]]:
    """The feed's entries, newest first: news posts, the results of final stages and of championships."""
    out = _news_entries(site) + _stage_entries(results, site) + _championship_entries(results, site)
    out.sort(key=lambda e: (e["date"], e["id"]), reverse=True)
    return out


def _news_entries(site) -> list[dict[str, Any]]:
    out = []
    for n in site.league.news:
        if n.date is None:
            continue
        url = _abs(site, site.url("noticias", n.slug))
        out.append({"id": url, "url": url, "title": n.title, "date": n.date, "summary": n.summary,
                    "html": n.html, "kind": _("Notícia")})
    return out


def _stage_entries(results, site) -> list[dict[str, Any]]:
    out = []
    for sr in results.seasons:
        for res in sr.stages:
            st = res.stage
            if not st.is_final:
                continue
            url = _abs(site, site.stage_url(st))
            out.append({"id": url, "url": url, "title": _("Resultado: %(stage)s — %(season)s") % {
                        "stage": st.name, "season": sr.season.title},
                        "date": st.date, "summary": _stage_summary(res), "html": None, "kind": "Truco"})
    return out


def _stage_summary(res) -> str | None:
    """A final stage's first three teams, in a sentence (None when it has no classification)."""
    st = res.stage
    top = ", ".join(f"{i18n.ordinal(p.position)} {st.teams[p.key].name}" for p in res.classification[:3])
    if not top:
        return None
    if st.city:
        return _("Classificação final da %(stage)s em %(city)s: %(top)s.") % {
            "stage": st.name, "city": st.city, "top": top}
    return _("Classificação final da %(stage)s: %(top)s.") % {"stage": st.name, "top": top}


def _championship_entries(results, site) -> list[dict[str, Any]]:
    out = []
    for res in _championships(results):
        ch = res.championship
        if not ch.is_final:
            continue
        url = _abs(site, site.url(ch.season, "quatrilho", ch.id))
        out.append({"id": url, "url": url, "title": _("Resultado: %(championship)s") % {"championship": ch.name},
                    "date": ch.date, "summary": _champions_summary(res, site), "html": None, "kind": "Quatrilho"})
    return out


def _champions_summary(res, site) -> str | None:
    """A final championship's champions, in a sentence (None when it names none)."""
    ch = res.championship
    names = ", ".join(site.player_name(ln.player) for ln in getattr(res, "champions", [])[:3])
    if not names:
        return None
    if getattr(ch, "municipality", None):
        return _("Campeonato de Quatrilho de %(municipality)s: campeões %(names)s.") % {
            "municipality": ch.municipality, "names": names}
    return _("Campeonato de Quatrilho: campeões %(names)s.") % {"names": names}


def atom(results, site) -> str:
    league = site.league
    entries = _entries(results, site)
    home = _abs(site, site.url())
    updated = max((e["date"] for e in entries), default=None) or max(
        (st.date for sr in results.seasons for st in sr.season.stages), default=dt.date(2000, 1, 1))
    lines = ['<?xml version="1.0" encoding="utf-8"?>',
             f'<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="{i18n.html_lang()}">',
             f"  <title>{xml_escape(_('%(league)s: notícias e resultados') % {'league': league.name})}</title>",
             f"  <id>{xml_escape(home)}</id>",
             f'  <link rel="self" type="application/atom+xml" href={quoteattr(_abs(site, site.root + "feed.xml"))}/>',
             f'  <link rel="alternate" type="text/html" href={quoteattr(home)}/>',
             f"  <updated>{_stamp(updated)}</updated>",
             f"  <author><name>{xml_escape(league.name)}</name></author>",
             "  <generator>league</generator>"]
    for e in entries:
        lines += ["  <entry>",
                  f"    <title>{xml_escape(e['title'])}</title>",
                  f"    <id>{xml_escape(e['id'])}</id>",
                  f'    <link rel="alternate" type="text/html" href={quoteattr(e["url"])}/>',
                  f"    <updated>{_stamp(e['date'])}</updated>",
                  f"    <published>{_stamp(e['date'])}</published>",
                  f'    <category term={quoteattr(e["kind"])}/>']
        if e["summary"]:
            lines.append(f"    <summary>{xml_escape(e['summary'])}</summary>")
        if e["html"]:
            lines.append(f'    <content type="html" xml:base={quoteattr(e["url"])}>{xml_escape(e["html"])}</content>')
        lines.append("  </entry>")
    lines.append("</feed>")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ iCalendar (RFC 5545)

def _ical_text(s: str) -> str:
    return s.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def _fold(line: str) -> list[str]:
    """Lines of at most 75 octets; continuation lines start with one space (RFC 5545 3.1)."""
    if len(line) <= 18 or len(line.encode("utf-8")) <= 75:   # most lines: nothing to fold
        return [line]
    out, cur, size = [], "", 0
    for ch in line:
        n = len(ch.encode("utf-8"))
        if size + n > (75 if not out else 74):
            out.append(cur)
            cur, size = "", 0
        cur += ch
        size += n
    out.append(cur)
    return [out[0]] + [" " + x for x in out[1:]]


def calendar(results, site) -> str:
    league = site.league
    host = urlparse(league.base_url).netloc or "league"
    events = sorted(_stage_events(results, site) + _championship_events(results, site), key=lambda e: (e[0], e[1]))
    stamp = _calendar_stamp(events, league)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:-//league//Calendario da federacao//{i18n.html_lang().upper()}",
             "CALSCALE:GREGORIAN", "METHOD:PUBLISH", f"X-WR-CALNAME:{_ical_text(league.name)}",
             "X-WR-TIMEZONE:America/Sao_Paulo"]
    for date, uid, summary, where, url, desc, status in events:
        lines += ["BEGIN:VEVENT", f"UID:{uid}@{host}", f"DTSTAMP:{stamp:%Y%m%d}T000000Z",
                  f"DTSTART;VALUE=DATE:{date:%Y%m%d}", f"DTEND;VALUE=DATE:{date + dt.timedelta(days=1):%Y%m%d}",
                  f"SUMMARY:{_ical_text(summary)}"]
        if where:
            lines.append(f"LOCATION:{_ical_text(where)}")
        lines += [f"DESCRIPTION:{_ical_text(desc)}", f"URL:{url}", "TRANSP:TRANSPARENT", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return "".join(f + "\r\n" for line in lines for f in _fold(line))


# an event: (date, uid, summary, location, url, description, status)

def _stage_events(results, site) -> list[tuple]:
    events = []
    for sr in results.seasons:
        for st in sr.season.stages:
            desc = _("Truco interclubes, %(season)s. Situação: %(status)s.") % {
                "season": sr.season.title, "status": _status(st.status)}
            events.append((st.date, f"{st.season}-truco-{st.id}",
                           _("Truco: %(stage)s (%(season)s)") % {"stage": st.name, "season": sr.season.title},
                           st.city, _abs(site, site.stage_url(st)), desc, st.status))
    return events


def _championship_events(results, site) -> list[tuple]:
    events = []
    for res in _championships(results):
        ch = res.championship
        desc = _("Campeonato de Quatrilho. Situação: %(status)s.") % {"status": _status(ch.status, "quatrilho")}
        events.append((ch.date, f"{ch.season}-quatrilho-{ch.id}", _("Quatrilho: %(championship)s") % {
                       "championship": ch.name},
                       getattr(ch, "municipality", None), _abs(site, site.url(ch.season, "quatrilho", ch.id)),
                       desc, ch.status))
    return events


def _calendar_stamp(events: list[tuple], league) -> dt.date:
    """DTSTAMP: when this calendar's information was last true — the newest date of something that already
    happened (a played stage or championship, a news post); never the build's clock."""
    past = [e[0] for e in events if e[6] != "scheduled"] + [n.date for n in league.news if n.date]
    return max(past, default=min((e[0] for e in events), default=dt.date(2000, 1, 1)))


def _status(s: str, kind: str = "truco") -> str:
    """A stage's status word (encerrada), or a championship's (encerrado)."""
    from league.site.views import STATUS, STATUS_M
    return str((STATUS_M if kind == "quatrilho" else STATUS).get(s, s))


def feed_files(results, site) -> dict[str, str]:
    """{path: text} of the feeds, for render_site to add to the site."""
    return {"feed.xml": atom(results, site), "calendario.ics": calendar(results, site)}
