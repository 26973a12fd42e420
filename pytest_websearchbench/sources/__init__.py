"""Where a suite comes from, and the suite loaded from there: a folder or a file (``resolve``), a bundled suite's
name, a suite file without a manifest (``files``), an ``hf://`` file at a revision (``hub``) pinned by ``wsb.lock``
(``lock``); ``load`` hands ``run/`` a family and its loaded suite."""
