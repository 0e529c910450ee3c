# What a restored interpreter runs in the worker (static/worker.js): the prepared app of the
# language the loading screen chose is handed to the visitor, its document as already written.
from panel.io.pyodide import write_doc

from webapp.startup import welcome

welcome(globals().pop("kostka_language")) or await write_doc()
