"""Test helpers around the package's vendor emulator (``pytest_websearchbench.emulate``): fixtures and providers."""
