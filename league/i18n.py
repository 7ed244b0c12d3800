"""The site's interface language: gettext catalogs and Babel's formats for the locale set in league.yaml.

`locale: pt_BR` (the default) or `locale: en` selects the language of every interface text (headings,
table headers, notes, status words, tie-break sentences, chart and feed titles) and the format of dates,
numbers and money. Content (names, notes, Markdown pages) is never translated; the JSON/CSV API and the
CLI's messages are not either.

Catalogs: `league/locale/<locale>/LC_MESSAGES/messages.po`, extracted from the templates and the Python
code into `league/locale/messages.pot` (`make translations`). The msgids are the Portuguese text (the
site's default language), so pt_BR's catalog repeats them; it exists for the plural rule, which Babel's
CLDR data gives three forms for Portuguese: its header is fixed to `nplurals=2; plural=(n > 1);` (0 and 1
singular). The .po files are compiled in memory at first use (Babel's read_po → write_mo; a build keeps them
compiled in its cache, see use_cache): no binary is
committed and the same .po always gives the same translations.

Python code marks its text with `_`/`ngettext`/`pgettext` (translated for the build's locale when called)
or, for module-level tables, `L_` (a lazy string translated each time it is shown). The build's locale is
a module-level setting: `using(locale)` around a build (league.engine.build.render_files), `activate(locale)`
in a worker process that renders pages on its own. Templates get the catalog through Jinja2's i18n
extension (`install(env)`, newstyle gettext: `{{ _("…") }}`, `{% trans %}…{% endtrans %}`,
`{{ ngettext("%(num)s jogo", "%(num)s jogos", n) }}`), installed as Jinja2 documents it
(`install_gettext_translations(catalog, newstyle=True)`); a call with string literals only is translated once,
when the template is compiled (ConstantText, at the end of this file). Jinja2's public API only.

Adding a language `xx`: add "xx" to LOCALES (and, for league.yaml, to schema.LeagueFile.locale), run
`.venv/bin/pybabel init -D messages -i league/locale/messages.pot -d league/locale -l xx`, translate
every msgstr (tests/test_i18n.py checks none is left empty or fuzzy), then `make translations`.
"""
from __future__ import annotations

import contextlib
import datetime as dt
import functools
import io
import unicodedata
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any, Iterator, Optional, Sequence

from babel import Locale
from babel.dates import format_date, format_skeleton
from babel.lists import format_list
from babel.numbers import format_currency, format_decimal
from babel.support import LazyProxy, Translations

DOMAIN = "messages"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DEFAULT_LOCALE = "pt_BR"
# locale → (HTML lang, Open Graph og:locale)
LOCALES = {"pt_BR": ("pt-BR", "pt_BR"), "en": ("en", "en_US")}
# Plural-Forms headers that Babel's CLDR data gets wrong for gettext (see the module docstring)
PLURAL_FORMS = {"pt_BR": "nplurals=2; plural=(n > 1);"}
CURRENCY = "BRL"

_locale = DEFAULT_LOCALE


def po_path(locale: str) -> Path:
    return LOCALE_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


# the build cache (league.engine.cache.Cache) where a build keeps each catalog compiled (use_cache), or None
_catalogs = None


def catalog_key(locale: str, data: bytes) -> str:
    """The build cache key of a locale's compiled catalog: its .po's bytes and Babel's version."""
    import hashlib
    import babel
    return hashlib.sha256(b"\0".join([b"catalog", locale.encode(), babel.__version__.encode(), data])).hexdigest()


def use_cache(cache) -> None:
    """Keep the compiled catalogs in `cache` (a league.engine.cache.Cache; None: compile them every time): compiling a .po
    with Babel takes ~0.02 s of every build, reading the compiled one back ~1 ms."""
    global _catalogs
    _catalogs = cache


def compile_po(data: bytes, locale: str) -> bytes:
    """The .mo bytes of a .po file's bytes (fuzzy entries left out)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    catalog = read_po(io.BytesIO(data), locale=locale, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


@functools.lru_cache(maxsize=None)
def translations(locale: str) -> Translations:
    """The locale's catalog, compiled in memory from its .po (fuzzy entries left out) — or read back compiled from
    the build cache (use_cache), under the .po's bytes and Babel's version, with the compiled bytes' sha256 checked
    (an entry that does not match is compiled again and replaced)."""
    if locale not in LOCALES:
        raise ValueError(f"idioma não suportado: {locale!r} (use {', '.join(LOCALES)})")
    import hashlib
    data = po_path(locale).read_bytes()
    cache, key = _catalogs, None
    if cache is not None:
        key = catalog_key(locale, data)
        got = cache.get(key, (bytes, str))
        if got is not None and hashlib.sha256(got[0]).hexdigest() == got[1]:
            try:
                return Translations(io.BytesIO(got[0]), domain=DOMAIN)
            except Exception:  # noqa: BLE001 - not a catalog Python can read: compiled again, below
                pass
        if got is not None:
            cache.warnings.append(f"entrada corrompida ignorada no cache: catálogo {locale} compilado ({key})")
    mo = compile_po(data, locale)
    if cache is not None:
        cache.put(key, (mo, hashlib.sha256(mo).hexdigest()))
    return Translations(io.BytesIO(mo), domain=DOMAIN)


@functools.lru_cache(maxsize=None)
def _babel_locale(locale: str) -> Locale:
    return Locale.parse(locale)


# ---------------------------------------------------------------- the build's locale

def activate(locale: str) -> None:
    """Sets the locale of every later `_`, format and lazy string in this process."""
    global _locale
    translations(locale)  # fail early on an unknown locale or a broken catalog
    _locale = locale


def current() -> str:
    return _locale


@contextlib.contextmanager
def using(locale: str) -> Iterator[None]:
    """`with using("en"): …` renders in English and restores the previous locale afterwards."""
    before = _locale
    activate(locale)
    try:
        yield
    finally:
        activate(before)


def html_lang(locale: Optional[str] = None) -> str:
    return LOCALES[locale or _locale][0]


# ---------------------------------------------------------------- gettext for Python code

def gettext(message: str) -> str:
    return translations(_locale).ugettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translations(_locale).ungettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return translations(_locale).upgettext(context, message)


_ = gettext


def lazy_gettext(message: str) -> LazyProxy:
    """A string translated each time it is used, for module-level tables (STATUS, NAMES…)."""
    return LazyProxy(gettext, message, enable_cache=False)


L_ = lazy_gettext


def plural(n: int, singular: str, plural_: str) -> str:
    """ngettext with the number in front: plural(2, "%(num)s jogo", "%(num)s jogos") → "2 jogos"."""
    return ngettext(singular, plural_, n) % {"num": n}


# ---------------------------------------------------------------- formats (Babel, for the build's locale)

def date_long(d: Optional[dt.date]) -> str:
    """14 de março de 2026 / March 14, 2026."""
    return format_date(d, "long", locale=_babel_locale(_locale)) if d else ""


def date_short(d: Optional[dt.date]) -> str:
    """14/03/2026 / 3/14/2026."""
    return format_skeleton("yMd", d, locale=_babel_locale(_locale)) if d else ""


def number(v: Any) -> str:
    """1.234 / 1,234 for whole numbers; two decimals otherwise (6,50 / 6.50); other values as text."""
    if isinstance(v, bool) or not isinstance(v, (int, float, Decimal)):
        return str(v)
    d = Decimal(str(v)) if isinstance(v, float) else Decimal(v)
    if d == d.to_integral_value():
        return format_decimal(int(d), format="#,##0", locale=_babel_locale(_locale))
    return format_decimal(d, format="#,##0.00", locale=_babel_locale(_locale))


def decimal(v: Any) -> str:
    """As many decimals as the value has (2,5 / 2.5): percentages of a prize table."""
    return format_decimal(Decimal(v).normalize(), locale=_babel_locale(_locale))


def signed(v: Any) -> str:
    """+12 / −3 (a true minus sign) / 0; "?" for a missing value."""
    if v is None:
        return "?"
    if isinstance(v, bool) or not isinstance(v, (int, float, Decimal)):
        return str(v).replace("-", "−")
    if v > 0:
        return "+" + number(v)
    if v < 0:
        return "−" + number(-v)
    return number(v)


def money(v: Any) -> str:
    """R$ 1.234,56 (no-break space) / R$1,234.56, rounded half up to the cent."""
    q = Decimal(v).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return format_currency(q, CURRENCY, locale=_babel_locale(_locale))


_ORDINAL = {  # CLDR ordinal category → the catalog's pattern (English: 1st, 2nd, 3rd, 4th)
    "zero": lambda: pgettext("ordinal zero", "%(n)sº"),
    "one": lambda: pgettext("ordinal one", "%(n)sº"),
    "two": lambda: pgettext("ordinal two", "%(n)sº"),
    "few": lambda: pgettext("ordinal few", "%(n)sº"),
    "many": lambda: pgettext("ordinal many", "%(n)sº"),
    "other": lambda: pgettext("ordinal other", "%(n)sº"),
}


def ordinal(n: int) -> str:
    """1º / 1st: Babel's ordinal category for the number, the catalog's pattern for the category."""
    return _ORDINAL[_babel_locale(_locale).ordinal_form(n)]() % {"n": n}


def position(n: int, tied: bool = False) -> str:
    """A place in a classification: 3º, or 3º= when shared."""
    return ordinal(n) + ("=" if tied else "")


_JOINED: dict = {}


def join(items: Sequence[str]) -> str:
    """"a", "a e b", "a, b e c" / "a and b", "a, b, and c" (remembered: a pair's name is asked for often)."""
    key = (_locale, tuple([str(i) for i in items]))
    try:
        return _JOINED[key]
    except KeyError:
        out = _JOINED[key] = format_list(list(key[1]), locale=_babel_locale(_locale)) if key[1] else ""
        return out


def _memo(fn):
    """Remember a format per (locale, type, value): a site formats the same few numbers, places and dates
    hundreds of thousands of times, and Babel takes microseconds each."""
    cache: dict = {}

    def wrapper(v, *args):
        try:
            key = (_locale, type(v), v, args)
            return cache[key]
        except KeyError:
            out = cache[key] = fn(v, *args)
            return out
        except TypeError:  # unhashable value
            return fn(v, *args)
    wrapper.__doc__ = fn.__doc__
    wrapper.__wrapped__ = fn
    return wrapper


def _memo_exact(fn):
    """_memo keyed by the value's text: 0 and -0, or 2.5 and 2.50, equal as numbers, may be written
    differently (money, decimal)."""
    cache: dict = {}

    def wrapper(v):
        key = (_locale, type(v), str(v))
        try:
            return cache[key]
        except KeyError:
            out = cache[key] = fn(v)
            return out
    wrapper.__doc__ = fn.__doc__
    wrapper.__wrapped__ = fn
    return wrapper


date_long, date_short, number, signed, ordinal, position = (
    _memo(date_long), _memo(date_short), _memo(number), _memo(signed), _memo(ordinal), _memo(position))
money, decimal = _memo_exact(money), _memo_exact(decimal)


# ---------------------------------------------------------------- Jinja2

FILTERS = {"date_br": date_long, "date_short": date_short, "num": number, "signed": signed, "money": money,
           "pos": position, "ordinal": ordinal, "decimal": decimal, "join_and": join}


def install(env, locale: Optional[str] = None) -> None:
    """Jinja2's i18n extension with the locale's catalog (newstyle gettext, whitespace trimmed; constant text
    translated at compile time by ConstantText), the format filters, and `lang`/`og_locale` for base.html.
    Called before `env` loads any template. A locale given here becomes the build's one
    (the filters and the Python-side text follow it); by default the build's locale is kept."""
    if locale:
        activate(locale)
    locale = _locale
    env.add_extension("jinja2.ext.i18n")
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_translations(translations(locale), newstyle=True)
    env.filters.update(_constant_filters(translations(locale)))
    env.add_extension(_constant_text_extension())
    env.filters.update(FILTERS)
    env.globals.update(lang=LOCALES[locale][0], og_locale=LOCALES[locale][1], locale=locale)


# ---------------------------------------------------------------- Jinja2: constant text translated once

# The catalog of an environment is fixed, so `{{ _("Pos.") }}`, `gettext("…")` or `pgettext("abbreviation: wins",
# "V")` with nothing but string literals give the same text on every page. ConstantText, a Jinja2 extension
# (its public filter_stream hook), rewrites each such call, as a template is read, into a filter of the literal:
# `("Pos."|_league_gettext)`. Jinja2 evaluates a filter of constants that asks for no context when it compiles
# the template, so the compiled template holds the translated text. The filters give what the newstyle gettext
# and pgettext installed by install_gettext_translations give for such a call (tests/test_i18n_constant_text.py
# renders with and without the extension). Rendering the 5-season synthetic archive (3,370 pages) takes ~20 %
# less CPU with it (~5.0 s instead of ~6.3 s, one process). Templates keep the ordinary gettext syntax, so
# `make translations` extracts them as before. Left to the installed gettext, at render time: calls with
# variables (`_("%(n)s pts", n=…)`, `{% trans x=… %}`), calls in a template that binds or passes on one of the
# names, and the render context overriding them (league never does).

_CONSTANT_FILTERS = {"_": "_league_gettext", "gettext": "_league_gettext", "pgettext": "_league_pgettext"}
# the tokens after which `name(` is a call in an expression (not a filter, test, attribute, macro or call block)
_EXPRESSION_BEFORE = {"variable_begin", "lparen", "lbracket", "lbrace", "comma", "colon", "assign", "add", "sub",
                      "mul", "div", "floordiv", "mod", "pow", "tilde", "eq", "ne", "lt", "lteq", "gt", "gteq"}
_KEYWORDS_BEFORE = {"if", "elif", "else", "and", "or", "not", "in"}


def _constant_filters(catalog: Translations) -> dict:
    """The filters ConstantText writes: Jinja2's newstyle gettext and pgettext (jinja2.ext), without variables."""
    from jinja2 import pass_eval_context
    from markupsafe import Markup

    @pass_eval_context
    def gettext_filter(eval_ctx, message):
        text = catalog.ugettext(message)
        return (Markup(text) if eval_ctx.autoescape else text) % {}

    @pass_eval_context
    def pgettext_filter(eval_ctx, message, context):
        text = catalog.upgettext(context, message)
        return (Markup(text) if eval_ctx.autoescape else text) % {"context": context}

    return {"_league_gettext": gettext_filter, "_league_pgettext": pgettext_filter}


def _constant_calls(tokens: list) -> Optional[list]:
    """Where in `tokens` (a template's) the gettext calls with string literals only are: [(start, end, name)];
    None if the template uses one of the names otherwise (binds it, passes it on…): its calls are left as they are."""
    calls = []
    for i, tok in enumerate(tokens):
        if tok.type != "name" or tok.value not in _CONSTANT_FILTERS:
            continue
        before = tokens[i - 1] if i else None
        if before is not None and before.type == "dot":
            continue  # an attribute: `x._`
        if _not_a_call(tokens, i, before):
            return None
        end = _literal_call_end(tokens, i) if _in_expression(before) else None
        if end is not None:
            calls.append((i, end, tok.value))
    return calls


def _not_a_call(tokens: list, i: int, before) -> bool:
    """Whether the name at i is used otherwise than called (bound, passed on) or names a macro."""
    return (i + 1 >= len(tokens) or tokens[i + 1].type != "lparen"
            or (before is not None and before.type == "name" and before.value == "macro"))


def _in_expression(before) -> bool:
    """Whether `name(` after the token `before` is a call in an expression (see _EXPRESSION_BEFORE)."""
    return before is not None and (before.type in _EXPRESSION_BEFORE
                                   or (before.type == "name" and before.value in _KEYWORDS_BEFORE))


def _literal_call_end(tokens: list, i: int) -> Optional[int]:
    """The end of the call at i if its arguments are string literals only: name ( "a" ), or
    pgettext ( "c" , "a" ); None otherwise."""
    strings = 2 if tokens[i].value == "pgettext" else 1
    end = i + 2 + 2 * strings
    shape = ["string", "comma"] * strings
    shape[-1] = "rparen"
    return end if [t.type for t in tokens[i + 2:end]] == shape else None


def _rewrite(tokens: list, calls: list) -> list:
    """`_("x")` → `("x"|_league_gettext)`, `pgettext("c", "x")` → `("x"|_league_pgettext("c"))`."""
    from jinja2.lexer import Token
    out, at = [], 0
    for start, end, name in calls:
        out += tokens[at:start]
        line = tokens[start].lineno
        strings = tokens[start + 2:end:2]
        out += [Token(line, "lparen", "("), strings[-1], Token(line, "pipe", "|"),
                Token(line, "name", _CONSTANT_FILTERS[name])]
        if len(strings) == 2:
            out += [Token(line, "lparen", "("), strings[0], Token(line, "rparen", ")")]
        out.append(Token(line, "rparen", ")"))
        at = end
    return out + tokens[at:]


@functools.lru_cache(maxsize=None)
def _constant_text_extension():
    from jinja2.ext import Extension

    class ConstantText(Extension):
        """Constant gettext calls rewritten into filters that Jinja2 evaluates at compile time (see above)."""

        def filter_stream(self, stream):
            tokens = list(stream)
            calls = _constant_calls(tokens)
            return iter(_rewrite(tokens, calls) if calls else tokens)

    return ConstantText


def collation_key(text: str) -> tuple[str, str]:
    """Alphabetical order as a Brazilian reader expects a list of names: accents and case ignored ("Fábio"
    before "Francisco", "Cláudia" before "Cleber", "álvaro" before "Bruno"), then the text itself, so that
    names equal but for accents or case keep one order."""
    letters = unicodedata.normalize("NFKD", text)
    return "".join(c for c in letters if not unicodedata.combining(c)).casefold(), text
