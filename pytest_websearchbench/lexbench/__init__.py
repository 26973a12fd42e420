"""LexBench-Web-Search: search-result quality against frozen graded pools (DESIGN §2.2)."""
