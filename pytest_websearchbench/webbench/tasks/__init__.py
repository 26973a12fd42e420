"""Tasks: building a task from a template and world, Harbor packages and digests, the sample generator."""
