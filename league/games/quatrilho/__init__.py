"""Quatrilho championships: reading, classification, views, seat draw."""
