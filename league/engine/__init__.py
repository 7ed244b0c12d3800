"""The build: loading with cache and workers, computing, incremental keys, parallel rendering."""
