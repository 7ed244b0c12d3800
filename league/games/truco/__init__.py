"""Truco interclub: scoring rules, stage standings, annual ranking."""
