"""Placeholder until the templates land: renders no pages."""


def render_site(results, templates=None):
    return {}
