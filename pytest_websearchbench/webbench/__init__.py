"""WebBench: correlated SaaS work through a browser, graded from server-side evidence (DESIGN § 2.3).

- ``world``: deterministic worlds, two of them (workplace, deskops): tables, rows, task templates,
  the solver that reads the expected answer back out of the database;
- ``webapps``: the world's server-rendered web apps on 127.0.0.1;
- ``browsing``: the agent's only surface (the text browser, headless Chromium);
- ``grading``: sealed contracts and the executable verifier (WebScore);
- ``tasks``: building a task (reference routes and controls included), Harbor packages, the generator;
- ``agents``: who works a task, and one episode from world to evidence;
- ``family``: the benchmark family the plugin runs.
"""
