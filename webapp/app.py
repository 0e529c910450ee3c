"""Entry module for both ``panel serve webapp/app.py`` and the static build."""

import panel as pn

pn.extension()

pn.template.MaterialTemplate(title="Kostka", main=[pn.pane.Markdown("Kostka")]).servable()
