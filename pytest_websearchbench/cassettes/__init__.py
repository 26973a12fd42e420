"""Cassettes: vcrpy configuration and matching, secret filtering, atomic files, recorded latency."""
