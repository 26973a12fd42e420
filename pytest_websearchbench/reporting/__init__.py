"""Reporting: the item records, the terminal summary, the JSON results, the baseline, statistics."""
