"""Turning results into files: pages (Jinja2), charts, feeds, search, the JSON/CSV API, the writer."""
