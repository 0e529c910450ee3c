# Making the snapshot, after the page's code up to writing the document (its app is English): an
# app for each other language, every screen's Python objects made in each app, then every document
# serialised (webapp/startup.py), and the heap frozen (webapp/heap.py).
import os

from panel.io.pyodide import _doc_json, init_doc

from webapp.heap import freeze
from webapp.i18n import LANGUAGES
from webapp.startup import make_screens, prepared_languages, write_prepared

for language in LANGUAGES:  # an app for each, in a document of its own, as the page's code makes it
    if language not in prepared_languages():
        init_doc()
        os.environ["KOSTKA_LANG"] = language
        serve()  # webapp/app.py
os.environ.pop("KOSTKA_LANG", None)
make_screens()
write_prepared(_doc_json)  # the last change to the documents
freeze()
