"""Repository-level pytest configuration.

Suites under ``suites/`` may be collected from other root directories (``--suite NAME``
finds the bundled ones here), so this file stays free of ``pytest_plugins``: the
project's own tests load ``pytester`` through ``addopts`` in ``pyproject.toml``.
"""

# the benchmark scripts and a local virtual environment are not test modules
collect_ignore = ["benchmarks", ".venv"]
