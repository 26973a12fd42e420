"""Grading from server-side evidence: sealed contracts, tolerances, the verifier (WebScore)."""
