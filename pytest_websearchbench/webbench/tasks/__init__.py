"""Tasks: building a task from a template and world (its reference routes and controls), Harbor packages
and digests, the sample generator."""
