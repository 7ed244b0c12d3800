"""How editors write a game's score, shared by the schema (the pattern an editor checks against) and the
Truco rules (which read it): home pontinhos, a separator, away pontinhos — "12-7", "12x7", "12X7" or "12×7"
(docs/formato.md). Digits are ASCII, up to 4, as game_points may be up to 1000."""
import re

GAME = r"[0-9]{1,4}[-xX×][0-9]{1,4}"
GAME_RE = re.compile(r"^([0-9]{1,4})[-xX×]([0-9]{1,4})$")
SPACED_RE = re.compile(r"[0-9]\s+[-xX×]|[-xX×]\s+[0-9]")   # "12 x 7": a separator with spaces around it
