# The build's check of a restored snapshot, after welcome.py: every screen's objects were made
# before the snapshot was taken (webapp/startup.py, make_screens); a roll in each system with the
# visitor's app, then another language; the number of rolls logged is the result.
from webapp.startup import visitor
from webapp.state.forms import SYSTEMS

if set(visitor._views) != set(SYSTEMS) or visitor.view_of("fate")._fight is None:
    raise RuntimeError(f"the snapshot's app has not made every screen ahead: {sorted(visitor._views)}")

for system in SYSTEMS:
    visitor.state.system = system
    visitor.view_of(system).roll()
visitor.lang.value = "cs"
len(visitor.state.rolls.log.entries)
