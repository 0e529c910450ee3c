# The build's check of a restored snapshot, after welcome.py: a roll in each system with the
# visitor's app, then another language; the number of rolls logged is the result.
from webapp.startup import visitor
from webapp.state.forms import SYSTEMS

for system in SYSTEMS:
    visitor.state.system = system
    visitor.view_of(system).roll()
visitor.lang.value = "cs"
len(visitor.state.rolls.log.entries)
