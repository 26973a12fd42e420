"""WebBench: correlated SaaS work through a browser, graded from server-side evidence (DESIGN § 2.3).

One module per job:

- ``vocab``, ``schema``, ``world``: the deterministic ``workplace`` world (family, template, seed → SQLite bytes);
- ``templates``, ``solver``: task templates that plant a chain into a world, and the solver that reads
  the expected answer back out of the database;
- ``render``, ``apps``, ``forms``, ``server``: the world's server-rendered web apps on 127.0.0.1;
- ``pageparse``, ``browser``: the agent's only surface (navigate, click, fill, select, press, scroll, back, read);
- ``contract``, ``tolerance``, ``verifier``: sealed contracts and the executable verifier (WebScore);
- ``scripts``, ``agents``, ``episode``: reference routes, controls, and one episode from world to evidence;
- ``harbor``, ``generate``: Harbor task packages, their digests, and the sample-suite generator.
"""
