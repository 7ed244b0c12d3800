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
a module-level setting: `using(locale)` around a build (league.build.render_files), `activate(locale)`
in a worker process that renders pages on its own. Templates get the catalog through Jinja2's i18n
extension (`install(env)`, newstyle gettext: `{{ _("…") }}`, `{% trans %}…{% endtrans %}`,
`{{ ngettext("%(num)s jogo", "%(num)s jogos", n) }}`), and `install` compiles them for that catalog: their
constant text is translated once, at compile time, not on every page (`speed_up`, at the end of this file,
with the other rendering shortcuts; none changes the output).

Adding a language `xx`: add "xx" to LOCALES (and, for league.yaml, to schema.LeagueFile.locale), run
`.venv/bin/pybabel init -D messages -i league/locale/messages.pot -d league/locale -l xx`, translate
every msgstr (tests/test_i18n.py checks none is left empty or fuzzy), then `make translations`.
"""
from __future__ import annotations

import contextlib
import datetime as dt
import functools
import io
import re
import types
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any, Iterator, Optional, Sequence

from babel import Locale
from babel.dates import format_date, format_skeleton
from babel.lists import format_list
from babel.numbers import format_currency, format_decimal
from babel.support import LazyProxy, Translations
from markupsafe import Markup, escape

try:
    from markupsafe import _escape_inner  # MarkupSafe ≥ 3: the escaping itself (C), without the Markup
except ImportError:  # pragma: no cover - older MarkupSafe
    def _escape_inner(s: str) -> str:
        return str(escape(s))

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


# the build cache (league.cache.Cache) where a build keeps each catalog compiled (use_cache), or None
_catalogs = None


def use_cache(cache) -> None:
    """Keep the compiled catalogs in `cache` (a league.cache.Cache; None: compile them every time): compiling a .po
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
        import babel
        from league.cache import digest
        key = digest("catalog", locale, babel.__version__, data)
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
    """Jinja2's i18n extension with the locale's catalog (newstyle gettext, whitespace trimmed), the
    format filters, and `lang`/`og_locale` for base.html. A locale given here becomes the build's one
    (the filters and the Python-side text follow it); by default the build's locale is kept."""
    if locale:
        activate(locale)
    locale = _locale
    env.add_extension("jinja2.ext.i18n")
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_translations(translations(locale), newstyle=True)
    speed_up(env, translations(locale))
    env.filters.update(FILTERS)
    env.globals.update(lang=LOCALES[locale][0], og_locale=LOCALES[locale][1], locale=locale)


# ---------------------------------------------------------------- Jinja2: the same output, faster

# A build renders thousands of pages with the same few templates, so what a template computes the same way
# on every page is done once, when it is compiled, and the commonest runtime steps take a shorter path.
# None of it changes a byte of the output (tests/test_render_speed_equivalence.py renders with and without):
#
# - interface text: the locale is fixed for an environment, so `{{ _("Pos.") }}`, `{% trans %}Grupos
#   {% endtrans %}` or `pgettext("abbreviation: wins", "V")` with constant arguments give the same Markup on
#   every page; it is computed at compile time by calling the installed gettext function itself, and the
#   compiled template holds the text. With variables (`_("%(points)s pts", points=…)`, `{% trans year=… %}`)
#   only the catalog lookup is done then, and the template computes what Jinja2's newstyle gettext does,
#   `Markup(translation) % {…}`, without its three nested calls (with a `%(key)s`-only translation, the usual
#   case, by `format_text`: each value escaped once, no Markup machinery). Templates keep the ordinary
#   gettext syntax, so `make translations` still extracts them;
# - `{{ value }}`: escaped by `escape_output`, markupsafe's escaping without a Markup object per value (a
#   str escaped in place), and the pieces of a line of output (text, values, text…) handed up to the page's
#   join as one string;
# - `site.url(…)`: a plain function or method called without Context.call's checks (`call_plain`);
# - `row.pos` on a dict: the key read in place, instead of a call that first fails an attribute lookup;
# - a page's context: the globals merged into it by dict.update, not key by key through a ChainMap;
# - a template, once loaded, is not checked against its file again (`auto_reload` off).

_GETTEXT_NAMES = ("_", "gettext", "pgettext", "ngettext", "npgettext")


def speed_up(env, catalog: Translations) -> None:
    """Compile `env`'s templates for `catalog` (installed with newstyle gettext) as described above."""
    from jinja2 import nodes, pass_context
    from jinja2.runtime import new_context

    installed = {name: env.globals.get(name) for name in _GETTEXT_NAMES}
    # the catalog lookups that the installed newstyle functions wrap (jinja2.ext's _install)
    lookups = {"gettext": getattr(catalog, "ugettext", None) or catalog.gettext,
               "pgettext": getattr(catalog, "pgettext", None)}
    base = env.code_generator_class
    base = getattr(base, "league_base", base)

    class CodeGenerator(base):
        league_base = base

        def visit_Template(self, node, frame=None):
            if all(self.environment.globals.get(n) is f for n, f in installed.items()):
                _fold_text(self.environment, self.name, node, installed, lookups)
            self.writeline("from league.i18n import call_plain as _league_call, escape_output as _escape_output, "
                           "_escape_inner as _league_escape")
            super().visit_Template(node, frame)

        def _output_child_pre(self, node, frame, finalize):
            if frame.eval_ctx.autoescape and not frame.eval_ctx.volatile:
                if finalize.src is not None:
                    self.write("_escape_output(" + finalize.src)  # where Jinja2 writes `escape(`
                elif isinstance(node, nodes.Filter) and node.name == _TEXT_FILTER:
                    self.write("(")  # format_text gives escaped text already
                else:  # escape_output, with its commonest case (a str) written in place
                    self.write("(_league_escape(_league_v) if type(_league_v := ")
            else:
                super()._output_child_pre(node, frame, finalize)

        def _output_child_post(self, node, frame, finalize):
            if (frame.eval_ctx.autoescape and not frame.eval_ctx.volatile and finalize.src is None
                    and not (isinstance(node, nodes.Filter) and node.name == _TEXT_FILTER)):
                self.write(") is str else _escape_output(_league_v))")
            else:
                super()._output_child_post(node, frame, finalize)

        def visit_Output(self, node, frame):
            if frame.buffer is not None or frame.require_output_check or len(node.nodes) < 2:
                return super().visit_Output(node, frame)
            # one `yield` per {{ … }} and text between them would pass each piece up through every
            # generator of the page (block, base template, child template): pieces go up joined instead
            finalize = self._make_finalize()
            body: list = []
            for child in node.nodes:  # constants folded as Jinja2's visit_Output folds them
                try:
                    if not (finalize.const or isinstance(child, nodes.TemplateData)):
                        raise nodes.Impossible()
                    const = self._output_child_to_const(child, frame, finalize)
                except (nodes.Impossible, Exception):
                    body.append(child)
                    continue
                if body and isinstance(body[-1], list):
                    body[-1].append(const)
                else:
                    body.append([const])
            if len(body) < 2:
                return super().visit_Output(node, frame)
            self.writeline("yield concat((")
            self.indent()
            for item in body:
                if isinstance(item, list):
                    self.writeline(self._output_const_repr(item) + ",")
                else:
                    self.newline(item)
                    self._output_child_pre(item, frame, finalize)
                    self.visit(item, frame)
                    self._output_child_post(item, frame, finalize)
                    self.write(",")
            self.outdent()
            self.writeline("))")

        def visit_Call(self, node, frame, forward_caller=False):
            if self.environment.is_async or self.environment.sandboxed or forward_caller:
                return super().visit_Call(node, frame, forward_caller=forward_caller)
            # context.call(f, …, _loop_vars=…) made cheaper for plain functions and methods (call_plain)
            self.write("_league_call(context, %s, %s, " % ("_loop_vars" if frame.loop_frame else "None",
                                                            "_block_vars" if frame.block_frame else "None"))
            self.visit(node.node, frame)
            self.signature(node, frame)
            self.write(")")

        def visit_Getattr(self, node, frame):
            if (node.ctx != "load" or self.environment.is_async or self.environment.sandboxed
                    or hasattr({}, node.attr)):
                return super().visit_Getattr(node, frame)
            # `row.pos`: Jinja2's environment.getattr tries an attribute first, which a dict does not have
            # (names such as `items` went above), then the key; a plain dict holding it answers at once
            self.write("(_league_o[%r] if type(_league_o := " % node.attr)
            self.visit(node.node, frame)
            self.write(") is dict and %r in _league_o else environment.getattr(_league_o, %r))"
                       % (node.attr, node.attr))

    env.code_generator_class = CodeGenerator

    template_base = getattr(env.template_class, "league_base", env.template_class)

    class Template(template_base):
        league_base = template_base

        def new_context(self, vars=None, shared=False, locals=None):
            # Jinja2 copies a template's globals, a ChainMap (its own over the environment's), key by key in
            # Python into every page's context; the same names and values merged here by dict.update
            maps = getattr(self.globals, "maps", None)
            if shared or maps is None:
                return super().new_context(vars, shared, locals)
            merged: dict = {}
            for m in reversed(maps):
                merged.update(m)
            return new_context(self.environment, self.name, self.blocks, vars, False, merged, locals)

    env.template_class = Template
    # context-taking, so never evaluated at compile time (where the output would be escaped once more)
    env.filters[_TEXT_FILTER], env.filters[_MARKUP_FILTER] = pass_context(format_text), pass_context(format_markup)
    if env.cache is not None:
        env.cache.clear()  # templates compiled for another catalog
    # a build makes its own environment (league serve, one per rebuild), and its templates do not change
    # while it renders: no stat() of the template files at every page, extends and include
    env.auto_reload = False


_PLAIN_CALLABLES = {types.FunctionType, types.MethodType, types.BuiltinFunctionType}


def call_plain(context, loop_vars, block_vars, f, *args, **kwargs):
    """`context.call(f, *args, **kwargs)` in a template (`site.url('clubes')`): a function, method or builtin
    that asks for no context (jinja2.pass_context and the like) is called at once, as Context.call would
    after its checks; anything else (macros, blocks, context functions) goes through Context.call."""
    if type(f) in _PLAIN_CALLABLES and not hasattr(f, "jinja_pass_arg"):
        try:
            return f(*args, **kwargs)
        except StopIteration:  # as Context.call
            return context.environment.undefined(
                "value was undefined because a callable raised a StopIteration exception")
    return context.call(f, *args, _loop_vars=loop_vars, _block_vars=block_vars, **kwargs)


def escape_output(s: Any) -> str:
    """markupsafe.escape(s) as a plain str. Only for `{{ … }}` output, which Jinja2 joins into a str anyway
    (never for a value a template keeps, whose Markup type matters)."""
    if type(s) is str:
        return _escape_inner(s)
    if type(s) is int:
        return str(s)  # digits and "-": nothing to escape
    return escape(s)


# a translation with variables whose only placeholders are `%(key)s` (and `%%`), the usual case, is written
# as a call of one of these filters (names no template uses): `{{ values|_league_text(text, keys) }}`
_TEXT_FILTER, _MARKUP_FILTER = "_league_text", "_league_markup"
_PLACEHOLDER = re.compile(r"%%|%\((\w+)\)s")


def format_text(context, values: dict, text: str, keys: tuple) -> str:
    """`Markup(text) % values` as a plain str, for `{{ … }}` output: each value escaped as Markup's `%`
    escapes it, in the order the text names them."""
    return text % {k: escape_output(values[k]) for k in keys}


def format_markup(context, values: dict, text: str, keys: tuple) -> Markup:
    """`Markup(text) % values`, for a value a template keeps (`{% set %}`, a macro argument)."""
    return Markup(text % {k: escape_output(values[k]) for k in keys})


def _fold_text(env, name, tree, installed: dict, lookups: dict) -> None:
    """Replace the gettext calls of a parsed template as described above (in place)."""
    from jinja2 import nodes
    from jinja2.runtime import new_context

    # a template that binds one of the names itself keeps its calls as they are
    bound = set()
    for n in tree.find_all((nodes.Name, nodes.Macro, nodes.Import, nodes.FromImport, nodes.EvalContextModifier)):
        if isinstance(n, nodes.EvalContextModifier):
            return  # {% autoescape %} blocks: escaping is not known at compile time
        if isinstance(n, nodes.Name):
            if n.ctx != "load":
                bound.add(n.name)
        elif isinstance(n, nodes.Macro):
            bound.add(n.name)
        elif isinstance(n, nodes.Import):
            bound.add(n.target)
        else:
            bound |= {x if isinstance(x, str) else x[1] for x in n.names}
    names = {n for n in _GETTEXT_NAMES if n not in bound}
    if "gettext" not in names:
        names.discard("_")  # `_` calls whatever `gettext` is
    if not names:
        return
    eval_ctx = nodes.EvalContext(env, name)
    context = new_context(env, name, {}, globals=env.make_globals(None))

    def fold(call, output: bool):
        if not (isinstance(call, nodes.Call) and isinstance(call.node, nodes.Name) and call.node.ctx == "load"
                and call.node.name in names and call.dyn_args is None and call.dyn_kwargs is None
                and all(isinstance(a, nodes.Const) for a in call.args)):
            return None
        fn, args = call.node.name, [a.value for a in call.args]
        if all(isinstance(k.value, nodes.Const) for k in call.kwargs):
            try:
                value = context.call(installed[fn], *args, **{k.key: k.value.value for k in call.kwargs})
            except Exception:
                return None  # left to fail (or not) at render time, as before
            return nodes.Const(value, lineno=call.lineno)
        # with variables: Markup(translation) % {…} (jinja2.ext._make_new_gettext, _make_new_pgettext)
        variables = {k.key: k.value for k in call.kwargs}
        if fn in ("_", "gettext") and len(args) == 1 and isinstance(args[0], str):
            text = lookups["gettext"](args[0])
        elif fn == "pgettext" and len(args) == 2 and all(isinstance(a, str) for a in args) and lookups["pgettext"]:
            text = lookups["pgettext"](*args)
            variables.setdefault("context", nodes.Const(args[0]))
        else:
            return None
        pairs = nodes.Dict([nodes.Pair(nodes.Const(k), v, lineno=call.lineno) for k, v in variables.items()],
                           lineno=call.lineno)
        if not eval_ctx.autoescape:
            return nodes.Mod(nodes.Const(text), pairs, lineno=call.lineno)
        if "%" not in _PLACEHOLDER.sub("", text):
            keys = tuple(dict.fromkeys(k for k in _PLACEHOLDER.findall(text) if k))
            output = output and env.finalize is None  # (a finalize would be handed escaped text)
            return nodes.Filter(pairs, _TEXT_FILTER if output else _MARKUP_FILTER,
                                [nodes.Const(text), nodes.Const(keys)], [], None, None, lineno=call.lineno)
        return nodes.Mod(nodes.Const(Markup(text)), pairs, lineno=call.lineno)

    def walk(node):
        for field in node.fields:
            value = getattr(node, field, None)
            items = value if isinstance(value, list) else [value]
            output = isinstance(node, nodes.Output) and field == "nodes"
            for i, item in enumerate(items):
                if not isinstance(item, nodes.Node):
                    continue
                new = fold(item, output)
                if new is None:
                    walk(item)
                    continue
                if not isinstance(new, nodes.Const):
                    walk(new)  # the variables' expressions
                if isinstance(value, list):
                    value[i] = new
                else:
                    setattr(node, field, new)
    walk(tree)
