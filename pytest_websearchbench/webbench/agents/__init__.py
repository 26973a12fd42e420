"""Who works a task: reference routes and controls, the agent catalog, one episode from world to evidence."""
