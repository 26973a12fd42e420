"""The deterministic synthetic world: vocabulary, tables, row generation, task templates, the solver."""
