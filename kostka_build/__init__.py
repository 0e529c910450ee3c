"""Kostka's static site builder (``python build.py``): the app in the visitor's browser under
Pyodide, with every file it needs inside ``site/``.

The modules, in the order a build runs them (:func:`kostka_build.assemble.build`):

- :mod:`~kostka_build.config` — the pins (Pyodide, Panel, Bokeh and every wheel), the paths, the
  site's layout and its Content-Security-Policy; constants only;
- :mod:`~kostka_build.fetch` — the ingredients, into the git-ignored ``.cache/``: npm ``pyodide``,
  Pyodide's binary wheels (checked against its lock), pure wheels, the build tools, the two
  sdist-built ones (fetched at once with our wheel and ``panel convert``:
  :func:`kostka_build.assemble.gather`);
- :mod:`~kostka_build.wheels` — our own wheels, trimming, bytecode, the site's ``pyodide-lock.json``;
- :mod:`~kostka_build.convert` — ``panel convert`` and the rewriting of its page;
- :mod:`~kostka_build.snapshot` — the interpreter snapshot the worker restores;
- :mod:`~kostka_build.assemble` — the site put together: worker, service worker, static files;
- :mod:`~kostka_build.verify` — the checks on the result (no other host, nothing missing);
- :mod:`~kostka_build.serve` — ``build.py --serve``'s server;
- :mod:`~kostka_build.internals` — every place the build relies on Panel's, Bokeh's or Pyodide's
  private internals (patches, regular expressions over their output, private names), so that a
  version bump is checked in one place (``tests/test_build_internals.py``);
- :mod:`~kostka_build.cli` — the command line.

The programs the build runs under Pyodide in Node (``programs/``) are files of their own.
"""
