"""The page: header (system, a menu of language, theme and characters), characters, the screen, the roll log.

It also wires the outside world: the URL (every field is in the query
string), the browser's local storage (characters, language, theme) and JSON
import/export.
"""

from __future__ import annotations

import datetime as _dt
import io
from collections.abc import Mapping
from html import escape
from typing import Any
from urllib.parse import urlencode

import panel as pn

from engine import InputError
from engine.documents import parse_json
from engine.links import LINK_KEY

from ..i18n import LANGUAGES, N_, Translator, normalise_language
from ..state.address import MAX_WRITTEN, read_address
from ..state.app import AppState
from ..state.forms import SYSTEM_TITLES
from ..state.gcs import import_gcs, is_gcs
from ..state.links import (
    MAX_SEEN,
    NUMBERING_KEY,
    ShareModel,
    export_characters,
    export_log,
    import_characters,
    keep_aside,
    numbering_json,
    read_numbering,
)
from ..state.log import MAX_KEPT_ROLLS
from ..state.stored import (
    KEY_CHARACTERS,
    KEY_CHARACTERS_BAD,
    KEY_DRAFTS,
    KEY_LANG,
    KEY_LOG,
    KEY_SESSION,
    KEY_THEME,
    read_stored,
)
from ..state.tabs import merge_from_tab
from ..words.gcs import gcs_error_text, gcs_message
from ..words.log import log_rows
from ..words.messages import address_problem_text, document_error_text, storage_messages
from .common import (
    Binder,
    ScreenPlace,
    ScreenPlaces,
    after_this_change,
    alert_html,
    button,
    choice,
    complete,
    complete_once_drawn,
    first_screen_first,
    hold_back,
    html_pane,
    models_frozen,
    select,
    wrap_row,
)
from .dice import DiceCard
from .fate import FateView
from .fight import FightView
from .gurps import GurpsView
from .one_ring import OneRingView
from .result import ResultPanel
from .share import LinkPanel, SessionPanel, SharePanel
from .still import StillPage
from .storage import BrowserStore

__all__ = ["FateScreens", "KostkaApp", "has_link", "quiet_location"]

#: What the page says when the address leaves part of the screen out (:meth:`AppState.address_state`).
ADDRESS_CUT = {
    "skills": N_(
        "The page's address carries the screen up to {n} characters, so this sheet's skills are left out of it:"
        " a copied address opens without them. Export characters saves the whole sheet."
    ),
    "sheet": N_(
        "The page's address carries the screen up to {n} characters, so this sheet is left out of it:"
        " a copied address opens without it. Export characters saves the whole sheet."
    ),
}


def has_link(part: str) -> bool:
    """Whether a fragment or query string (``#…`` / ``?…``) carries an ``r=`` parameter."""
    return any(item.split("=", 1)[0] == LINK_KEY for item in part[1:].split("&"))


def quiet_location(location: Any) -> None:
    """Stop Panel's location from parsing every change of the address for parameters synced to it
    (``Location._update_synced`` runs ``query_params``: int(), float(), json.loads and
    ast.literal_eval on every value, unbounded). The app syncs nothing and reads the address itself."""
    if getattr(location, "_synced", None):
        return
    for watchers in location.param.watchers.values():
        for watcher in list(watchers.get("value", [])):
            if (
                getattr(watcher.fn, "__func__", None) is type(location)._update_synced
                and watcher.fn.__self__ is location
            ):
                location.param.unwatch(watcher)


class FateScreens(pn.viewable.Viewer):
    """Fate & Doom: the skill check and the fight screen, one at a time."""

    def __init__(self, app: Any, binder: Binder) -> None:
        super().__init__()
        self.app = app
        self.binder = binder
        self.switch = choice(value="check", height=48, width=360, margin=(5, 10))
        binder.options(self.switch, {"check": N_("Skill check"), "fight": N_("Fight")})
        self.check_view = FateView(app, binder)
        self._fight: FightView | None = None
        self.share_slot = pn.Column(sizing_mode="stretch_width", margin=0)  # the skill check's share panel
        self.check_place = ScreenPlace(self.check_view, self.share_slot)
        self.fight_place: ScreenPlace | None = None  # made when the fight is first opened
        self.body = ScreenPlaces(self.check_place, sizing_mode="stretch_width")
        self.switch.param.watch(self._switched, "value")
        self._layout = pn.Column(self.switch, self.body, sizing_mode="stretch_width")

    @property
    def fight_view(self) -> FightView:
        if self._fight is None:
            self._fight = FightView(self.app, self.binder)
        return self._fight

    def __getattr__(self, name: str) -> Any:
        # The skill check's parts (roll_button, chart, result…) stay reachable as before.
        check = self.__dict__.get("check_view")
        if check is None or name.startswith("_"):
            raise AttributeError(name)
        return getattr(check, name)

    def shown(self) -> None:
        """The screen is shown: the fight's Python objects are made on the worker's next turn, once
        the switch has gone to the page (Python alone, nothing drawn), so that *Fight* tapped at once
        only makes and sends the fight's models."""
        if self._fight is None:
            after_this_change(lambda: self.fight_view)

    def prepare(self) -> bool:
        """Make the fight screen, hidden, before it is asked for (the app calls this once the page has
        been still for a moment): opening it then only shows it. Whether anything was made."""
        return self._draw_fight_hidden()

    @property
    def first_screen(self) -> tuple[tuple[pn.Column, int], ...]:
        """What the skill check's first screen shows at once: its own (:meth:`FateView.first_screen`);
        the share panel can follow."""
        return (*self.check_view.first_screen, (self.share_slot, 0))

    def _new_fight_place(self) -> ScreenPlace:
        return ScreenPlace(self.fight_view, visible=False)

    def _place_fight(self, shown: bool, first_screen: bool = False) -> None:
        """Put the fight screen in the page beside the skill check, shown or hidden; with
        ``first_screen``, only its first screen (:func:`~webapp.views.common.hold_back`)."""
        if shown:  # made on the tap: its first screen goes to the page first
            first_screen_first(self.fight_view, self._fight_shown)
        elif first_screen:
            hold_back(self.fight_view)
        place = self._new_fight_place()
        place.visible = shown
        self.fight_place = place
        self.body.objects = [self.check_place, place]

    def place_first_screens(self) -> None:
        """Put the fight's first screen in the page, hidden (with the app's first screens,
        :meth:`KostkaApp.place_first_screens`)."""
        if self.fight_place is None:
            self._place_fight(shown=False, first_screen=True)

    def prepare_objects(self, in_the_page: bool = False) -> bool:
        """Make, one step at a time while another screen is shown, the fight screen's Python objects,
        then, once Fate & Doom's screen is in the page (``in_the_page``, hidden), draw the fight in
        it, hidden (or the rest of it, its first screen drawn at start): opening the fight then only
        shows it. Whether anything was made."""
        if self._fight is None:
            self.fight_view  # noqa: B018 (made on first use)
            return True
        if not in_the_page:
            return False
        return self._draw_fight_hidden()

    def _draw_fight_hidden(self) -> bool:
        """Draw the fight in the page, hidden, in one step: whole, or, its first screen drawn at start,
        the next part of the rest. Whether anything was drawn."""
        if self.fight_place is None:
            self._place_fight(shown=False)
            return True
        return complete(self.fight_view, one_part=True)

    def _switched(self, event: Any) -> None:
        """Show the skill check or the fight. Once opened, both stay in the page, the one not shown
        hidden, as a system's screen does: going back and forth sends only their visibility."""
        fight = event.new == "fight"
        self.check_place.visible = not fight
        if self.fight_place is None:
            if fight:
                self._place_fight(shown=True)
            return
        self.fight_place.visible = fight
        if fight:  # its first screen drawn at start, and not the rest yet: the rest once it is shown
            complete_once_drawn(self.fight_view, self._fight_shown)

    def _fight_shown(self) -> bool:
        return self.switch.value == "fight"

    def __panel__(self) -> pn.viewable.Viewable:
        return self._layout


#: Each system's screen, in the order of the system switch.
SCREENS: dict[str, Any] = {"one-ring": OneRingView, "gurps": GurpsView, "fate": FateScreens}


class KostkaApp(pn.viewable.Viewer):
    """The whole page for one browser session.

    **Start-up**, in this order (each step happens once):

    1. ``KostkaApp()`` builds the page from the app's defaults: the state, the browser store, the
       header and its menu, the characters bar, the screen, the log, the share panels, the free dice
       card and the result panel, in that order. Nothing
       from outside is read, and nothing is written to the browser or to the address yet.
    2. :meth:`page_ready`: the page is drawn and linked to Python (Bokeh's ``document_ready``),
       so that what changes from now on reaches it. In the static site it comes earlier, as the
       worker hands over the visit while the page is being drawn (:meth:`visit`): the changes
       are sent at once, in one patch, which the page takes in once it has drawn the document.
       In order:

       a. :meth:`apply_url` reads the address: a share link in it is opened, and its system,
          fields and roll inputs are applied; from then on the screen is written back to the
          address. While the address is not known yet (the browser build learns it after the
          first render) this step waits for the location to report it.
       b. The link panel is drawn again (a link opened while the page was being drawn).
       c. If the browser's storage has already answered, step 3 follows at once.
    3. :meth:`_read_store`, once the storage has answered (``BrowserStore.loaded``) and the page
       is drawn: the address first, if step 2a could not apply it; the language (unless the
       address names one) and the theme; the characters, the session code and the roll log
       (what cannot be read is kept aside and said); the numbering of session links; the
       address's character again, now beside the stored ones (it never replaces one); then
       everything is saved back, and ``store.ready`` tells the loading screen the page is ready.
       From then on every change is saved.

    Under ``panel serve``, :func:`webapp.app.main` applies the address before the first render,
    so that the right screen is drawn at once; step 2a then finds it applied already.
    """

    # -- how far the start-up has come: each flag is set once, by the step named, and stays set ------
    #: Step 2: the page is drawn and linked (or holds what changes until it is), so changes reach the browser.
    _doc_ready = False
    #: Step 2a (or the first part of step 3): the address was applied; the screen is written to it from now on.
    _url_applied = False
    #: Step 3 is over: nothing is saved before it, so nothing stored is written over before it was read.
    _stored_loaded = False
    #: Step 3 is running: the copies aside it writes back to the store report as an answer of the store too.
    _reading_store = False
    #: The location's ``search`` and ``href`` are watched (from the first :meth:`apply_url` that finds a
    #: location: in the browser build the address reaches Python only after the first render).
    _watching_location = False

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.state = AppState()
        self.tr = Translator()
        self.binder = Binder(self.tr)
        #: What the address said and what this page has done with it, so nothing is done twice: the
        #: query as last applied, the search this page last wrote (its own rewrite is not applied
        #: again), and the share link last opened from the address (a link opens once).
        self._query: dict[str, Any] = {}
        self._written = ""
        self._opened_address = ""
        #: The notes drawn under the characters bar (in the language on screen).
        self._address_problems: list[InputError] = []
        self._address_notes: list[tuple[str, dict[str, Any]]] = []
        #: What the address last written leaves out of the screen ("", "skills" or "sheet").
        self._address_cut = ""
        self._storage_messages: list[str] = []

        self._build_store()
        self._views: dict[str, pn.viewable.Viewer] = {}  # each system's screen, built when first shown
        # Built first, so that a roll's outcome is the first change sent to the page (its watchers
        # run before the share panels' and the log's).
        self.result_panel = ResultPanel(
            self.state,
            self.binder,
            base_url=self._base_url,
            live=lambda: self._stored_loaded or not self._doc_ready,
            checking=self._checking,
        )
        header = self._build_header()
        chars_bar = self._build_characters_bar()
        self._build_screen()
        log = self._build_log()
        self._build_share_panels()
        self._system_changed()
        self.dice_card = DiceCard(self.state, self.binder, self.share_panels[("dice", "dice")])
        self._layout = pn.Column(
            self.store,
            self.still,
            self.result_panel,
            header,
            self.menu,
            self.link_panel,
            chars_bar,
            pn.layout.Divider(),
            self.screen,
            self.dice_card,
            pn.layout.Divider(),
            self.session_panel,
            log,
            sizing_mode="stretch_width",
            css_classes=["k-main"],
            styles={"max-width": "1280px", "margin": "0 auto"},
        )
        self._watch_outside()

    # -- the page, built once (start-up step 1) ---------------------------------------------------
    def _build_store(self) -> None:
        """The browser store and the share model, each saved to the store as it changes."""
        self.store = BrowserStore(
            keys=[
                KEY_LANG,
                KEY_THEME,
                KEY_CHARACTERS,
                KEY_DRAFTS,
                KEY_CHARACTERS_BAD,
                KEY_SESSION,
                KEY_LOG,
                NUMBERING_KEY,
            ],
            height=0,
            width=0,
            margin=0,
        )
        self.share = ShareModel(session=self.state.rolls.session)
        self.share.param.watch(lambda *_: self._save_numbering(), "seen")
        self.share.session.param.watch(lambda *_: self._save_session(), ["code", "numbers"])
        self.store.param.watch(self._stored, ["values", "loaded"])
        self.store.param.watch(self._other_tab, "outside")
        self.store.param.watch(self._storage_refused, "failed")
        self.still = StillPage(height=0, width=0, margin=0)
        self.still.on_still(self._still_step)

    def _build_header(self) -> pn.viewable.Viewable:
        """Title, system, language and theme."""
        binder, tr = self.binder, self.tr
        title = html_pane("")
        binder.on_lang(
            lambda: setattr(
                title,
                "object",
                (
                    f'<div style="font-size:26px;font-weight:800">Kostka</div>'
                    f'<div class="muted">{escape(tr(N_("Dice, odds and rolls for the tabletop")))}</div>'
                ),
            )
        )
        self.system = choice(
            value=self.state.system, height=52, sizing_mode="stretch_width", min_width=320, max_width=480
        )
        binder.options(self.system, SYSTEM_TITLES)
        self.system.link(self.state, value="system", bidirectional=True)
        self.lang = choice(options={v: k for k, v in LANGUAGES.items()}, value="en", height=48, width=300)
        self.lang.link(self.tr, value="lang", bidirectional=True)
        self.tr.param.watch(self._lang_changed, "lang")
        self.theme = pn.widgets.Toggle(value=False, height=48, width=150)
        binder.text(self.theme, "name", N_("Dark theme"))
        self.theme.param.watch(self._theme_changed, "value")
        # Language, theme and the characters' administration wait in a menu: the first screen is play.
        self.menu_toggle = pn.widgets.Toggle(value=False, height=48, width=120, css_classes=["k-menu-toggle"])
        binder.text(self.menu_toggle, "name", N_("☰ Menu"))
        self.menu_toggle.param.watch(self._menu_toggled, "value")
        return pn.FlexBox(
            title,
            self.system,
            self.menu_toggle,
            flex_wrap="wrap",
            align_items="center",
            sizing_mode="stretch_width",
        )

    def _build_characters_bar(self) -> pn.viewable.Viewable:
        """Character choice, new, delete (with undo), export, import and the page's notes."""
        binder, tr = self.binder, self.tr
        self.character = select(width=260)
        binder.text(self.character, "name", N_("Character"))
        self.character.param.watch(self._character_chosen, "value")
        new = button("", width=170)
        binder.text(new, "name", N_("New character"))
        new.on_click(lambda e: self._new_character())
        delete = button("", width=170)
        binder.text(delete, "name", N_("Delete character"))
        delete.on_click(lambda e: self._delete_character())
        self.undo_delete = button("", width=230, visible=False)
        binder.text(self.undo_delete, "name", N_("Bring the character back"))
        self.undo_delete.on_click(lambda e: self._undo_delete())
        self.delete_note = html_pane("")
        self._undo_roster: Any = None
        self.export_chars = pn.widgets.FileDownload(
            callback=self._characters_file,
            filename="kostka-characters.json",
            button_type="default",
            height=48,
            width=200,
            embed=False,
        )
        binder.text(self.export_chars, "label", N_("Export characters"))
        self.import_chars = pn.widgets.FileInput(accept=".json,application/json,.gcs", height=48, width=260)
        self.import_chars.param.watch(self._import, ["value", "filename"])  # an empty file comes as a name, no value
        import_label = html_pane("", width=200)
        binder.on_lang(
            lambda: setattr(
                import_label,
                "object",
                f'<div class="muted">{escape(tr(N_("Import characters (JSON or GCS file)")))}</div>',
            )
        )
        self.import_message = html_pane("")
        self.storage_message = html_pane("")
        self.bring_back = button("", width=260, visible=False)
        binder.text(self.bring_back, "name", N_("Bring back the other tab's characters"))
        self.bring_back.on_click(lambda e: self._bring_back())
        self._tab_backup = ""  # the characters another tab stored where this one's were kept
        self.address_message = html_pane("")
        binder.on_lang(self._draw_notes)
        self.menu = pn.Column(
            wrap_row(self.lang, self.theme, align="center"),
            wrap_row(
                new, delete, self.export_chars, pn.Column(import_label, self.import_chars, margin=0), align="flex-end"
            ),
            css_classes=["k-menu"],
            sizing_mode="stretch_width",
        )
        chars_bar = pn.Column(
            self.character,
            pn.Row(self.delete_note, self.undo_delete),
            self.import_message,
            self.storage_message,
            self.bring_back,
            self.address_message,
            sizing_mode="stretch_width",
        )
        for roster in self.state.rosters.values():
            roster.param.watch(self._roster_changed, ["characters", "current"])
        self.state.monsters.param.watch(lambda *_: self._save_characters(), ["characters", "current"])
        return chars_bar

    def _build_screen(self) -> None:
        """The place of the system's screen (each screen is built the first time it is shown)."""
        self.screen = ScreenPlaces(sizing_mode="stretch_width")
        #: Each system's place in the screen, made when the system is first shown (see _system_changed).
        self._screens: dict[str, ScreenPlace] = {}
        self.state.param.watch(self._system_changed, "system")

    def _build_log(self) -> pn.viewable.Viewable:
        """The roll log: clear (with undo), export, the table."""
        binder, tr = self.binder, self.tr
        log_title = html_pane("")
        binder.on_lang(
            lambda: setattr(log_title, "object", f'<div class="card-title">{escape(tr(N_("Roll log")))}</div>')
        )
        self.log_table = html_pane("")
        clear = button("", width=160)
        binder.text(clear, "name", N_("Clear the log"))
        clear.on_click(lambda e: self._clear_log())
        self.undo_clear = button("", width=200, visible=False)
        binder.text(self.undo_clear, "name", N_("Bring the log back"))
        self.undo_clear.on_click(lambda e: self._undo_clear())
        self.clear_note = html_pane("")
        self.export_log = pn.widgets.FileDownload(
            callback=self._log_file,
            filename="kostka-log.json",
            button_type="default",
            height=48,
            width=200,
            embed=False,
        )
        binder.text(self.export_log, "label", N_("Export the log"))
        self.state.rolls.log.param.watch(self._show_log, ["entries", "dropped"])
        self.state.rolls.log.param.watch(lambda *_: self._save_log(), ["entries", "dropped"])
        binder.on_lang(self._show_log)
        return pn.Column(
            log_title,
            pn.Row(clear, self.export_log, self.clear_note, self.undo_clear),
            self.log_table,
            sizing_mode="stretch_width",
        )

    def _build_share_panels(self) -> None:
        """The opened-link panel, each screen's share panels and the session panel."""
        binder = self.binder
        self.link_panel = LinkPanel(self.state, self.share, binder)
        #: Each screen's own share panels: (system, kind of roll) -> panel, placed beside the screen's roll.
        self.share_panels = {
            (system, kind): SharePanel(
                self.state, self.share, binder, base_url=self._base_url, system=system, kinds=kinds
            )
            for system, kind, kinds in (
                ("one-ring", "roll", ("roll",)),
                ("gurps", "roll", ("roll",)),
                ("gurps", "contest", ("contest",)),
                ("fate", "roll", ("roll",)),
                ("dice", "dice", ("dice",)),  # the free dice card's own
            )
        }
        self.session_panel = SessionPanel(self.state, self.share, binder)

    def _watch_outside(self) -> None:
        """The fields written to the address as they change; the location watched for a link pasted
        over the address; a closed link taken out of the address."""
        self._watch_inputs()
        if pn.state.location is not None:  # a link pasted over the address, or an address known late
            quiet_location(pn.state.location)
            pn.state.location.param.watch(
                lambda *_: self.open_address_link() if self._doc_ready else None, ["hash", "search"]
            )
        self.share.param.watch(self._link_closed, "opened")

    # -- system and characters ------------------------------------------------------------------
    @property
    def roster(self) -> Any:
        return self.state.rosters[self.state.system]

    def view_of(self, system: str) -> Any:
        """The screen of ``system``, built the first time it is shown (a faster start)."""
        if system not in self._views:
            view = self._views[system] = SCREENS[system](self.state, self.binder)
            if isinstance(view, FateScreens):  # the fight screen sets up no check of its own
                view.switch.param.watch(lambda *_: self.result_panel.show_odds(), "value")
            # what the screen says under its rolls in the result panel, and what they offer there
            speaker = view.check_view if isinstance(view, FateScreens) else view
            self.result_panel.offer(speaker.roll_actions)
            speaker.param.watch(lambda *_: self.result_panel.refresh(), "roll_words")
        return self._views[system]

    def make_screens(self) -> None:
        """Make every screen's Python objects now, drawing none, and give the state's objects their
        own parameters (:meth:`~webapp.state.app.AppState.own_parameters`): the static site's
        interpreter snapshot holds them (:func:`webapp.startup.make_screens`), so that a screen
        shown for the first time, or made ahead in a still moment, is only drawn in the page, and
        the start reads the address and storage without copying parameters."""
        for system in SCREENS:
            view = self.view_of(system)
            if isinstance(view, FateScreens):
                view.fight_view  # noqa: B018 (made on first use)
        self.state.own_parameters()

    def place_first_screens(self) -> None:
        """Draw each screen not shown, hidden, with only its first screen (and Fate & Doom's fight's):
        the static site's snapshot writes them into the page's first document
        (:func:`webapp.startup.make_screens`), so that a first switch to a system, or *Fight* tapped
        at once, only shows what the page has, and the rest follows once it is on screen
        (:func:`~webapp.views.common.complete_once_drawn`), or in a still moment, hidden."""
        with models_frozen(pn.state.curdoc):
            for system in SCREENS:
                view = self.view_of(system)
                if system not in self._screens:
                    place = self._new_place(system)
                    hold_back(view)
                    place.visible = False
                    self._screens[system] = place
                if isinstance(view, FateScreens):
                    view.place_first_screens()
            self.screen.objects = list(self._screens.values())

    def _checking(self) -> str | None:
        """The system whose check the screen sets up now (None on the fight screen)."""
        view = self._views.get(self.state.system)
        if isinstance(view, FateScreens) and view.switch.value == "fight":
            return None
        return self.state.system

    @property
    def share_panel(self) -> SharePanel:
        """The share panel of the rolls of the screen shown now."""
        return self.share_panels[(self.state.system, "roll")]

    def view_with_share(self, system: str) -> list[Any]:
        """The screen of ``system`` with its share panels in the places it keeps for them (else under it)."""
        view = self.view_of(system)
        slot = getattr(view, "share_slot", None)
        panel = self.share_panels[(system, "roll")]
        contest_slot = getattr(view, "contest_share_slot", None)
        if contest_slot is not None and not contest_slot.objects:
            contest_slot.objects = [self.share_panels[(system, "contest")]]
        if slot is None:
            return [view, panel]
        if not slot.objects:
            slot.objects = [panel]
        return [view]

    def _system_changed(self, *_: Any) -> None:
        """Show the screen of the system chosen. A screen once drawn stays in the page, hidden while
        another is shown, so that coming back to it sends nothing but its visibility; the screen
        shown may make what it opens next in Python (its ``shown()``: Fate & Doom's fight)."""
        system = self.state.system
        if system not in self._screens:
            self._place(system)
        elif self._stored_loaded:  # a first screen drawn at start: the rest once it is on screen
            complete_once_drawn(self._views[system], lambda: self.state.system == system)
        else:  # the screen of the address or storage, drawn whole before the page is shown
            complete(self._views[system])
        for shown, place in self._screens.items():
            place.visible = shown == system
        getattr(self._views.get(system), "shown", lambda: None)()
        self._character_options()
        self._update_url()
        self.still.wake()

    def _new_place(self, system: str) -> ScreenPlace:
        return ScreenPlace(*self.view_with_share(system))

    def _place(self, system: str, shown: bool = True) -> None:
        """Put ``system``'s screen in the page, shown or hidden. Shown on a tap (start-up over), its
        first screen goes to the page first and the rest after it (its ``first_screen_first``)."""
        place = self._new_place(system)
        if shown and self._stored_loaded:
            first_screen_first(self.view_of(system), lambda: self.state.system == system)
        place.visible = shown
        # A screen placed before the start-up is over is not kept (Panel's server applies the
        # address before drawing the page; the site's loading screen covers it until the stored
        # data is read): the screen of the address or storage replaces it.
        kept = self._screens if self._stored_loaded else {}
        self._screens = {**kept, system: place}
        self.screen.objects = list(self._screens.values())

    def _still_step(self) -> bool:
        """In a still moment, once start-up is over: one step of :meth:`_prepare_step` for the screen
        shown. Whether anything may be left to do."""
        return not self._stored_loaded or self._prepare_step(self.state.system)

    def _prepare_step(self, system: str) -> bool:
        """Make one thing the player may ask for next, the nearest first; whether there was one.

        1. What the screen shown may open: Fate & Doom's fight, hidden in the page
           (:meth:`FateScreens.prepare`).
        2. For each other system, the next in the system switch first: its screen's Python
           objects (which the static site's snapshot holds already: :meth:`make_screens`), then the
           screen drawn in the page, hidden. A first switch to it then only shows it, as a switch
           back does. A screen whose first screen was drawn at start gets the rest one part per
           step.
        3. The same two steps for the fight, while Fate & Doom's skill check is not shown
           (:meth:`FateScreens.prepare_objects`), drawn in Fate & Doom's hidden screen.

        A tap landing in a step waits for it: the worker making a screen's models, then the page
        building its views (a hidden screen is laid out when first shown, on its own:
        :class:`~webapp.views.common.ScreenPlace`). ``benchmarks/bench_table.py`` measures the
        page's longest task meanwhile.
        """
        if getattr(self.view_of(system), "prepare", lambda: False)():
            return True
        order = list(SCREENS)
        at = order.index(system)
        for other in order[at + 1 :] + order[:at]:
            if other not in self._views:
                self.view_of(other)
                return True
            if other not in self._screens:
                self._place(other, shown=False)
                return True
            if complete(self._views[other], one_part=True):  # its first screen drawn at start: the rest
                return True
        return any(
            getattr(view, "prepare_objects", lambda **_: False)(in_the_page=other in self._screens)
            for other, view in self._views.items()
        )

    def _character_options(self) -> None:
        names = self.roster.names()
        options = {}
        for i, name in enumerate(names):
            label = name or self.tr(N_("Character {n}"), n=i + 1)
            while label in options:
                label += " ·"
            options[label] = i
        self.character.options = options
        self.character.value = self.roster.current

    def _character_chosen(self, event: Any) -> None:
        if isinstance(event.new, int) and event.new != self.roster.current:
            self.roster.select(event.new)

    def _roster_changed(self, *_: Any) -> None:
        self._character_options()
        self._save_characters()

    # -- storage ----------------------------------------------------------------------------------
    def page_ready(self, *_: Any) -> None:
        """Start-up step 2: the page is drawn and linked to Python (``document_ready``), or the static
        site's worker has the visit (:meth:`visit`): apply the address, draw the link panel again
        and, if the storage has answered already, read it.

        Nothing that alters the screen happens earlier: changes made before the page is linked
        reach it only while the document holds them (the static site's worker: :meth:`visit`).
        """
        if self._doc_ready:
            return
        self._doc_ready = True
        self.still.watch(pn.state.curdoc)  # the first still moment may make a step
        self.apply_url()
        self.link_panel.redraw()  # a link opened while the page was being drawn
        if self.store.loaded:  # the storage answered while the page was being drawn
            self._stored()

    def visit(self, stored: Mapping[str, Any]) -> None:
        """Start-up steps 2 and 3 at once, as the static site's worker hands over the visit while
        the page draws the document (:func:`webapp.startup.take_visit`; the address is in the
        location already): ``stored``, the browser's texts, becomes the storage's answer (only the
        store's keys are read), and the page counts as linked: every change made now waits in the
        held document, and the worker sends them all in one patch, which the page takes in as soon
        as it has drawn the document. ``document_ready`` then finds it done."""
        values = {key: text if isinstance(text := stored.get(key), str) else "" for key in self.store.keys}
        self.store.param.update(values=values, loaded=True)
        self.page_ready()

    def _stored(self, *_: Any) -> None:
        """The store reported (its values or that it has loaded): start-up step 3 once the page is drawn."""
        if not self.store.loaded or not self._doc_ready:
            return  # step 2 reads it once the page is drawn
        if self._stored_loaded:
            if not self.store.ready:
                self.store.ready = True
            return
        if self._reading_store:
            return  # the copies aside written back below report here too
        self._reading_store = True
        try:
            self._read_store()
        finally:
            self._reading_store = False

    def _read_store(self) -> None:
        """Start-up step 3 (see the class): the stored language, theme, characters, session, log and
        numbering, beside what the address said; then everything saved back and the page ready."""
        values = self.store.values
        if not self._url_applied:  # the page is drawn, so the address is known by now
            self.apply_url()
        lang = values.get(KEY_LANG, "")
        if lang and "lang" not in self._query:
            self.tr.lang = normalise_language(lang)
        if values.get(KEY_THEME) == "dark":
            self.theme.value = True
        # Never wipe unreadable data silently: keep a copy aside, say so, load what can be read.
        stamp = _dt.datetime.now().strftime("%Y%m%dT%H%M%S")
        read = read_stored(
            self.state, self.share.session, dict(values), stamp, KEY_CHARACTERS, KEY_SESSION, KEY_LOG, KEY_DRAFTS
        )
        if read.values != values:  # the copies aside reach the browser before anything is saved over them
            self.store.values = {**self.store.values, **{k: v for k, v in read.values.items() if values.get(k) != v}}
        self._stored_loaded = True
        self._storage_messages = storage_messages(read, KEY_CHARACTERS, KEY_SESSION, KEY_LOG)
        self._draw_notes()
        self._load_numbering(values, stamp)
        if self._url_applied:
            self._show_address_notes(None, self.state.apply_url(self._query, keep_stored=True))
        self._character_options()
        self._save_characters()
        self._save_log()
        self.store.ready = True
        self.still.wake()

    def _other_tab(self, event: Any) -> None:
        """Another tab wrote to the storage: merge what it wrote (:mod:`webapp.state.tabs`), save the
        merged state, then let the store write again (``merged``)."""
        report = event.new if isinstance(event.new, dict) else {}
        seq, base, theirs = report.get("seq"), report.get("base"), report.get("theirs")
        if not isinstance(seq, int) or not isinstance(base, dict) or not isinstance(theirs, dict):
            return
        theirs = {k: v for k, v in theirs.items() if k in self.store.keys and isinstance(v, str)}
        base = {k: v if isinstance(v, str) else "" for k, v in base.items()}
        if not self._stored_loaded:  # not read yet: the start reads what is there now
            self.store.param.update(values={**self.store.values, **theirs}, merged=seq)
            return
        stamp = _dt.datetime.now().strftime("%Y%m%dT%H%M%S")
        merge = merge_from_tab(self.state, self.share, base, theirs, dict(self.store.values), stamp)
        if KEY_CHARACTERS in merge.kept_aside:
            self._tab_backup = theirs[KEY_CHARACTERS]
            self.bring_back.visible = True
        if merge.kept_aside:
            self._storage_messages.append(
                N_(
                    "Another tab changed the same characters or data at the same time: this tab's values were "
                    "kept, and the other tab's were kept aside as a backup."
                )
            )
            self._draw_notes()
        if merge.values:
            self.store.values = {**self.store.values, **merge.values}
        self._save_characters()
        self._save_log()
        self._save_session()
        self._save_numbering()
        self.store.merged = seq

    def _bring_back(self) -> None:
        """Add the characters another tab kept where this tab's won (:meth:`_other_tab`): each one
        that differs comes back beside this tab's, under its name and a number ("Vera (2)")."""
        text, self._tab_backup = self._tab_backup, ""
        self.bring_back.visible = False
        if not text:
            return
        try:
            count = self.state.load_characters(text, merge=True)
        except InputError as error:
            self.import_message.object = alert_html(document_error_text(self.tr, error))
            return
        words = self.tr(N_("Brought back from the other tab: {n}"), n=count)  # a label and its number
        self.import_message.object = (
            f'<div class="readout" role="status" data-testid="import-message">{escape(words)}</div>'
        )

    def _storage_refused(self, event: Any) -> None:
        """The browser refused to store something (its storage is full or turned off): say so; the
        data stays on the page (Export keeps it)."""
        message = N_(
            "The browser's storage is full or turned off: the latest changes are not saved in it. "
            "Export the characters and the log to keep them."
        )
        had = message in self._storage_messages
        if event.new and not had:
            self._storage_messages.append(message)
        elif not event.new and had:
            self._storage_messages.remove(message)
        else:
            return
        self._draw_notes()

    def _load_numbering(self, values: dict[str, str], stamp: str) -> None:
        """The session links kept from earlier (before those of this visit); unreadable: kept aside, said."""
        text = values.get(NUMBERING_KEY, "")
        if not text:
            self._save_numbering()
            return
        try:
            stored = read_numbering(text)
        except InputError:
            self.store.values = keep_aside(dict(self.store.values), NUMBERING_KEY, stamp)
            self._storage_messages.append(
                N_("The stored numbering of session rolls could not be read; a copy was kept aside.")
            )
            self._draw_notes()
            return
        self.share.seen = [*stored, *self.share.seen][-MAX_SEEN:]

    def _save_numbering(self) -> None:
        if not self._stored_loaded:
            return  # never overwrite what the browser holds before reading it
        text = numbering_json(self.share.seen) if self.share.seen else ""
        if self.store.values.get(NUMBERING_KEY, "") != text:
            self.store.values = {**self.store.values, NUMBERING_KEY: text}

    def _save_session(self) -> None:
        if not self._stored_loaded:
            return  # never overwrite what the browser holds before reading it
        text = self.share.session.to_json()
        if self.store.values.get(KEY_SESSION) != text:
            self.store.values = {**self.store.values, KEY_SESSION: text}

    def _base_url(self) -> str:
        """The app's own address (no query, no fragment): the base of share links."""
        location = pn.state.location
        if location is None or not location.href:
            return ""
        return location.href.split("#", 1)[0].split("?", 1)[0]

    def _save_characters(self) -> None:
        if not self._stored_loaded:
            return  # never overwrite what the browser holds before reading it
        text, drafts = self.state.storage_texts()
        if self.store.values.get(KEY_CHARACTERS) != text or self.store.values.get(KEY_DRAFTS, "") != drafts:
            self.store.values = {**self.store.values, KEY_CHARACTERS: text, KEY_DRAFTS: drafts}

    def _save_log(self) -> None:
        if not self._stored_loaded:
            return  # never overwrite what the browser holds before reading it
        text = self.state.rolls.log.to_storage()
        if self.store.values.get(KEY_LOG, "") != text:
            self.store.values = {**self.store.values, KEY_LOG: text}

    # -- delete and clear, with undo ---------------------------------------------------------------
    def _new_character(self) -> None:
        try:
            self.roster.add()
        except InputError as error:  # the roster is full: said where a deletion is said
            text = escape(
                self.tr(N_("A system keeps at most {high} characters: delete one to add another."), **error.params)
            )
            self.delete_note.object = f'<div class="field-error" role="alert" data-testid="delete-note">{text}</div>'

    def _delete_character(self) -> None:
        roster = self.roster
        index = roster.current
        name = roster.names()[index] if index < len(roster.characters) else ""
        roster.remove()
        self._undo_roster = roster
        shown = name or self.tr(N_("Character {n}"), n=index + 1)
        text = escape(self.tr(N_("Deleted: {name}."), name=shown))
        self.delete_note.object = f'<div class="readout" role="status" data-testid="delete-note">{text}</div>'
        self.undo_delete.visible = True

    def _undo_delete(self) -> None:
        if self._undo_roster is not None:
            self._undo_roster.undo_remove()
        self._undo_roster = None
        self.delete_note.object = ""
        self.undo_delete.visible = False

    def _clear_log(self) -> None:
        log = self.state.rolls.log
        if not log.entries:
            return
        log.clear()
        self.clear_note.object = f'<div class="readout" role="status" data-testid="clear-note">{escape(self.tr(N_("The log was cleared.")))}</div>'
        self.undo_clear.visible = True

    def _undo_clear(self) -> None:
        self.state.rolls.log.undo_clear()
        self.clear_note.object = ""
        self.undo_clear.visible = False

    def _lang_changed(self, *_: Any) -> None:
        if self._stored_loaded and self.store.values.get(KEY_LANG) != self.tr.lang:
            self.store.values = {**self.store.values, KEY_LANG: self.tr.lang}
        self._character_options()
        self._update_url()

    def _menu_toggled(self, event: Any) -> None:
        self.menu.css_classes = ["k-menu", "open"] if event.new else ["k-menu"]

    def _theme_changed(self, event: Any) -> None:
        theme = "dark" if event.new else "light"
        self.store.theme = theme
        if self._stored_loaded:
            self.store.values = {**self.store.values, KEY_THEME: theme}

    # -- files ------------------------------------------------------------------------------------
    def _characters_file(self) -> io.StringIO:
        return io.StringIO(export_characters(self.state))

    def _log_file(self) -> io.StringIO:
        return io.StringIO(export_log(self.state.rolls.log.entries))

    def _import(self, *events: Any) -> None:
        data = self.import_chars.value
        if data is not None and "value" not in {e.name for e in events}:
            return  # the name of a file whose content was (or is about to be) imported
        if data is None:
            if self.import_chars.filename:
                self.import_message.object = alert_html(
                    document_error_text(self.tr, InputError("document", "format", "is empty", kind="empty"))
                )
            return
        try:
            if is_gcs(self.import_chars.filename, data):
                self._import_gcs(bytes(data))
                return
            count = import_characters(self.state, bytes(data))
            text = self.tr(N_("Imported characters: {n}"), n=count)  # a label and its number: right for every count
            self.import_message.object = (
                f'<div class="readout" role="status" data-testid="import-message">{escape(text)}</div>'
            )
        except InputError as error:
            try:
                parsed = parse_json(bytes(data))
            except InputError:
                parsed = None
            self.import_message.object = alert_html(document_error_text(self.tr, error, parsed))

    def _import_gcs(self, data: bytes) -> None:
        try:
            count, skipped = import_gcs(self.state, data)
        except InputError as error:
            self.import_message.object = alert_html(gcs_error_text(self.tr, error))
            return
        self.state.system = "gurps"  # the imported sheet on screen
        self.import_message.object = (
            f'<div class="readout" data-testid="import-message">{escape(gcs_message(self.tr, count, skipped))}</div>'
        )

    # -- log ---------------------------------------------------------------------------------------
    def _show_log(self, *_: Any) -> None:
        tr = self.tr
        log = self.state.rolls.log
        rows = log_rows(tr, log.entries)
        dropped = ""
        if log.dropped:
            dropped = (
                '<div class="note" data-testid="log-dropped">'
                + escape(
                    tr(
                        N_("Older rolls dropped to keep the log short: {n} (it keeps the last {max})."),
                        n=log.dropped,
                        max=MAX_KEPT_ROLLS,
                    )
                )
                + "</div>"
            )
        if not rows:
            self.log_table.object = f'<div class="muted" data-testid="log">{escape(tr(N_("No rolls yet.")))}</div>'
            return
        head = "".join(f"<th>{escape(tr(h))}</th>" for h in (N_("Time"), N_("Character"), N_("Inputs"), N_("Result")))
        body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows)
        self.log_table.object = (
            dropped
            + f'<table class="log" data-testid="log"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
        )

    # -- URL ---------------------------------------------------------------------------------------
    def _watch_inputs(self) -> None:
        state = self.state
        for desk in state.desks.values():
            inputs = [
                p
                for p in desk.param
                if p
                not in (
                    "name",
                    "errors",
                    "check",
                    "odds",
                    "tn_odds",
                    "last",
                    "picked",
                    "effective",
                    "p_any",
                    "contest_odds",
                    "last_contest",
                    "check_error",
                    "by_favour",
                )
            ]
            desk.param.watch(lambda *e: self._update_url(), inputs)
            char = desk.character
            char.param.watch(lambda *e: self._update_url(), [p for p in char.param if p not in ("name", "errors")])

    def apply_url(self) -> None:
        """Restore the screen from the page's query string (called once the page has loaded).

        The address is read from its raw text by :func:`webapp.state.address.read_address`, never through
        Panel's ``query_params`` (which turns values into numbers and parses JSON without bounds).
        """
        location = pn.state.location
        if location is not None and not self._watching_location:
            # In the browser build the address reaches Python only after the first render.
            self._watching_location = True
            quiet_location(location)
            location.param.watch(lambda *_: self.apply_url() if self._doc_ready else None, ["search", "href"])
        if location is not None and not (location.href or location.search):
            return  # the address is not known yet
        self.open_address_link()
        search = (location.search or "") if location is not None else ""
        address = read_address(search)
        query = address.query
        if self._url_applied and (query == self._query or search == self._written):
            return  # already applied before the first render, or our own rewrite of the address
        self._query = query
        if "lang" in self._query:
            self.tr.lang = normalise_language(self._query["lang"])
        notes = self.state.apply_url(self._query, keep_stored=self._stored_loaded)
        self._url_applied = True
        self._show_address_notes(address.problems, notes)
        self._update_url()

    def _show_address_notes(self, problems: Any, notes: list[tuple[str, dict[str, Any]]]) -> None:
        """Say what could not be read from the address (``problems``; None: as last said) and what
        was done with its character."""
        if problems is not None:
            self._address_problems = list(problems)
        self._address_notes = list(notes)
        self._draw_notes()

    def _draw_notes(self) -> None:
        """The address's and storage's messages, in the language on screen."""
        tr = self.tr
        parts = [
            f'<div class="field-error" role="alert" data-testid="address-message">{escape(address_problem_text(tr, p))}</div>'
            for p in self._address_problems
        ]
        parts += [
            f'<div class="readout" role="status" data-testid="address-note">{escape(tr(m, **p))}</div>'
            for m, p in self._address_notes
        ]
        if self._address_cut:
            said = ADDRESS_CUT[self._address_cut]
            parts.append(
                f'<div class="readout" role="status" data-testid="address-size">{escape(tr(said, n=MAX_WRITTEN))}</div>'
            )
        self.address_message.object = "".join(parts)
        self.storage_message.object = "".join(
            f'<div class="field-error" role="alert" data-testid="storage-message">{escape(tr(m))}</div>'
            for m in self._storage_messages
        )

    def open_address_link(self) -> None:
        """Open the share link in the page's address (``#r=…`` or ``?r=…``), once per link."""
        location = pn.state.location
        if location is None:
            return
        fragment, search = location.hash or "", location.search or ""
        text = next((part for part in (fragment, search) if has_link(part)), "")
        if text and text != self._opened_address:
            self._opened_address = text
            self.share.open(text)

    def _link_closed(self, event: Any) -> None:
        """A closed link leaves the address, so a reload does not open it again."""
        if event.new is not None:
            return
        location = pn.state.location
        if location is not None and has_link(location.hash or ""):
            location.hash = ""

    def _update_url(self) -> None:
        if not self._url_applied:
            return
        screen, cut = self.state.address_state()
        if cut != self._address_cut:
            self._address_cut = cut
            self._draw_notes()
        location = pn.state.location
        if location is None:
            return
        search = "?" + urlencode({"lang": self.tr.lang, **screen})
        if location.search != search:
            self._written = search
            location.search = search

    def __panel__(self) -> pn.viewable.Viewable:
        return self._layout
