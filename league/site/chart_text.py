"""How much room a chart's text takes, before any browser draws it (issue 36: "4ª Etap", labels cut off).

The SVG charts (league/site/charts.py) are drawn at build time, with no font at hand: their margins are
computed from an estimate of each text's width that is never smaller than the real one. Each character
is given the width, in ems, of the widest common sans-serif face the page's font list can fall back to
(DejaVu Sans, the default of many Linux phones and of headless Chromium; Arial, Roboto and Segoe UI are
narrower), rounded up: a text estimated to fit fits. tests/test_charts.py checks every <text> of every
chart against the viewBox with these widths; tests/browser/test_charts_phone.py checks it in Chromium.
"""
from __future__ import annotations

import functools

FONT_SIZE = 12     # the charts' font-size (px = user units)
ASCENT = 0.8       # ems above the baseline (capitals, accents below the top of "Ê" are within it)
DESCENT = 0.25     # ems below it (g, j, p, q, y)

_NARROW = 0.42     # i j l f t r I, punctuation, space (DejaVu Sans: 0.28–0.41)
_DIGIT = 0.66      # 0–9 (0.64)
_LOWER = 0.66      # other lower-case letters (a 0.61, n 0.63)
_UPPER = 0.82      # upper-case letters (A 0.68, O 0.79)
_WIDE = 1.02       # m, w, M, W, …, − and the rest (m 0.97, W 0.99)
_NARROW_CHARS = frozenset("ijlftrI.,:;!|'’()[] ")
_WIDE_CHARS = frozenset("mwMW…—−@%&")


@functools.cache   # (one entry per distinct character: the charts' texts are a few hundred thousand characters)
def char_em(c: str) -> float:
    """The estimated width of one character, in ems (never less than it takes in the fonts above)."""
    if c in "ºª":
        return 0.5    # (letters to str.isalpha: tested first)
    if c in _NARROW_CHARS:
        return _NARROW
    if c in _WIDE_CHARS:
        return _WIDE
    if c.isdigit():
        return _DIGIT
    if c.isalpha():
        return _UPPER if c.isupper() else _LOWER
    return _WIDE


BOLD = 1.15        # font-weight 600 is this much wider at most (DejaVu Sans Bold digits: 0.70 em)


def text_width(s: str, size: float = FONT_SIZE, bold: bool = False) -> float:
    """The estimated width of a text at `size` px (bold: font-weight 600), an upper bound of what a browser
    draws."""
    return sum(map(char_em, s)) * size * (BOLD if bold else 1)


def extent(x: float, y: float, s: str, anchor: str = "start", size: float = FONT_SIZE, bold: bool = False) -> tuple:
    """The box (left, top, right, bottom) a <text x y text-anchor> takes, estimated from above."""
    w = text_width(s, size, bold)
    left = x - (w / 2 if anchor == "middle" else w if anchor == "end" else 0)
    return left, y - ASCENT * size, left + w, y + DESCENT * size
