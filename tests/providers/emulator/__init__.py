"""A loopback emulator of every built-in provider's HTTP API, with faults on demand (test support)."""

from emulator.server import Emulator, Fault

__all__ = ["Emulator", "Fault"]
