"""Web search for coding agents (DESIGN §2.1): tickets, needles, the judge, the agent and its model."""
