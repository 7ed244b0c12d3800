"""league: publishes the standings and rankings of Brazilian card-game federations as a static site."""

__version__ = "0.1.0"
