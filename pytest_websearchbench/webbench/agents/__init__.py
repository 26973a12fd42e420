"""Who works a task: the agent catalog, the model and program agents, one episode from world to evidence."""
