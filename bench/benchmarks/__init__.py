"""asv benchmark suites of numflow; ``python bench/run.py`` runs them without asv (see bench/run.py)."""
