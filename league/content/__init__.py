"""Reading what editors write: YAML with marks, the schema, validation, diagnostics, pages."""
