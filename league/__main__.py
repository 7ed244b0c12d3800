"""Lets `python -m league` work like the `league` command."""
from league.cli import run

run()
