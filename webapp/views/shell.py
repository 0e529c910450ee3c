"""The page: header (system, a menu of language, theme and characters), characters, the screen, the roll log.

It also wires the outside world: the URL (every field is in the query
string), the browser's local storage (characters, language, theme) and JSON
import/export.
"""

from __future__ import annotations

import datetime as _dt
import io
from html import escape
from typing import Any
from urllib.parse import urlencode

import panel as pn

from engine import InputError
from engine.documents import parse_json
from engine.links import LINK_KEY

from ..address import read_address
from ..gcs_import import gcs_error_text, gcs_message, import_gcs, is_gcs
from ..i18n import LANGUAGES, N_, Translator, normalise_language
from ..links_model import (
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
from ..messages import address_problem_text, document_error_text, storage_messages
from ..models import (
    GURPS_DEFENCES,
    GURPS_LABELS,
    GURPS_ROLLS,
    MAX_KEPT_ROLLS,
    OR_LABELS,
    SYSTEM_TITLES,
    AppState,
    LogEntry,
)
from ..storage import BrowserStore
from ..stored import read_stored
from .common import Binder, alert_html, button, html_pane, select
from .dice import DiceCard, dice_entry_texts
from .fate import describe_fate_roll
from .fight import FateScreens, fight_entry_texts
from .gurps import GurpsView, describe_gurps_roll
from .one_ring import OneRingView, describe_one_ring_roll
from .result import ResultPanel
from .share import LinkPanel, SessionPanel, SharePanel

__all__ = ["KostkaApp", "entry_texts", "log_rows"]

KEY_LANG = "kostka.lang"
KEY_THEME = "kostka.theme"
KEY_CHARACTERS = "kostka.characters"
KEY_CHARACTERS_BAD = "kostka.characters.unreadable"
KEY_SESSION = "kostka.session"
KEY_LOG = "kostka.log"
KEY_BACKUP = "kostka.backup."  # + a time stamp: unreadable stored data kept aside
#: GURPS rolls off the sheet whose log name is a label to translate (Will, Per, Dodge, Parry, Block).
GURPS_SHEET_ROLLS = frozenset(GURPS_LABELS[k] for k in (*GURPS_ROLLS, *GURPS_DEFENCES))


def _inputs_text(tr: Translator, entry: LogEntry) -> str:
    if entry.kind == "fight":
        return fight_entry_texts(tr, entry)[0]
    if entry.kind == "dice":
        return dice_entry_texts(tr, entry)[0]
    check = entry.check
    if entry.system == "one-ring":
        parts = [
            tr(OR_LABELS.get(entry.ability, entry.ability)),
            tr(N_("rating {r}"), r=check.rating),
            tr(N_("TN {tn}"), tn=check.tn),
        ]
        if check.bonus_dice:
            parts.append(tr(N_("bonus dice {n}"), n=check.bonus_dice))
        mode = str(check.feat_mode)
        if mode == "favoured":
            parts.append(tr(N_("Favoured")))
        elif mode == "ill_favoured":
            parts.append(tr(N_("Ill-favoured")))
        if check.weary:
            parts.append(tr(N_("Weary")))
        if check.miserable:
            parts.append(tr(N_("Miserable")))
        return ", ".join(parts)
    if entry.kind == "contest":
        kind = tr(N_("Quick contest")) if check.system == "gurps-quick" else tr(N_("Regular contest"))
        return f"{kind}: {entry.ability} {check.a} — {check.b}"
    if entry.system == "gurps":
        ability = tr(entry.ability) if entry.ability in GURPS_SHEET_ROLLS else entry.ability
        parts = [ability or tr(N_("Skill")), tr(N_("skill {s}"), s=check.skill)]
        if check.modifiers:
            parts.append(tr(N_("modifiers {mods}"), mods=" ".join(f"{m:+d}" for m in check.modifiers)))
        parts.append(tr(N_("effective {e}"), e=check.effective_skill))
        if check.defence:
            parts.append(tr(N_("Defence roll")))
        if entry.secret:
            parts.append(tr(N_("Secret GM roll")))
        return ", ".join(parts)
    parts = [tr(N_("skill {s}"), s=check.skill), tr(N_("difficulty {d:+d}"), d=check.difficulty)]
    if check.favour_spent:
        parts.append(tr(N_("favour spent {n}"), n=check.favour_spent))
    if check.ties_succeed:
        parts.append(tr(N_("ties succeed")))
    return ", ".join(parts)


def _result_text(tr: Translator, entry: LogEntry) -> str:
    if entry.hidden:
        return tr(N_("hidden"))
    if entry.kind == "fight":
        return fight_entry_texts(tr, entry)[1]
    if entry.kind == "dice":
        return dice_entry_texts(tr, entry)[1]
    roll = entry.roll
    if entry.kind == "contest":
        if roll.winner is None:
            return tr(N_("Nobody wins"))
        return tr(N_("You win")) if roll.winner == "a" else tr(N_("Opponent wins"))
    if entry.system == "one-ring":
        outcome, detail = describe_one_ring_roll(tr, roll)
    elif entry.system == "gurps":
        outcome, detail = describe_gurps_roll(tr, roll)
    else:
        outcome, detail = describe_fate_roll(tr, roll)
    return f"{outcome}. {detail}"


def _has_link(part: str) -> bool:
    """Whether a fragment or query string (``#…`` / ``?…``) carries an ``r=`` parameter."""
    return any(item.split("=", 1)[0] == LINK_KEY for item in part[1:].split("&"))


def entry_texts(tr: Translator, entry: LogEntry) -> tuple[str, str]:
    """(inputs, result) of a log entry as plain text, as the log shows them (no result: '')."""
    return _inputs_text(tr, entry), (_result_text(tr, entry) if entry.roll is not None or entry.hidden else "")


def log_rows(tr: Translator, entries: list[LogEntry]) -> list[tuple[str, str, str, str]]:
    """(time, character, inputs, result) for each entry, newest first, as plain text."""
    rows = []
    for entry in reversed(entries):
        who = entry.character or "—"
        if entry.session_code:
            who += " · " + tr(N_("Session {code}, roll no. {n}"), code=entry.session_code, n=entry.session_number)
        rows.append(
            (
                entry.time[11:],
                who,
                f"{tr(SYSTEM_TITLES.get(entry.system, N_('Free dice')))}: {_inputs_text(tr, entry)}",
                _result_text(tr, entry),
            )
        )
    return rows


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


class KostkaApp(pn.viewable.Viewer):
    """The whole page for one browser session."""

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.state = AppState()
        self.tr = Translator()
        self.binder = binder = Binder(self.tr)
        tr = self.tr
        self._url_applied = False
        self._stored_loaded = False
        self._reading_store = False
        self._address_problems: list[InputError] = []
        self._address_notes: list[tuple[str, dict[str, Any]]] = []
        self._storage_messages: list[str] = []
        self._query: dict[str, Any] = {}
        self._written = ""
        self._watching_location = False
        self._doc_ready = False  # the page is drawn and linked: changes reach the browser
        self._pending_store = False
        self._opened_address = ""

        self.store = BrowserStore(
            keys=[KEY_LANG, KEY_THEME, KEY_CHARACTERS, KEY_CHARACTERS_BAD, KEY_SESSION, KEY_LOG, NUMBERING_KEY],
            height=0,
            width=0,
            margin=0,
        )
        self.share = ShareModel(session=self.state.rolls.session)
        self.share.param.watch(lambda *_: self._save_numbering(), "seen")
        self.share.session.param.watch(lambda *_: self._save_session(), ["code", "numbers"])
        self.store.param.watch(self._stored, ["values", "loaded"])

        # -- header ------------------------------------------------------------------------
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
        self.system = pn.widgets.RadioButtonGroup(
            value=self.state.system, height=52, sizing_mode="stretch_width", min_width=320, max_width=560
        )
        binder.options(self.system, SYSTEM_TITLES)
        self.system.link(self.state, value="system", bidirectional=True)
        self.lang = pn.widgets.RadioButtonGroup(
            options={v: k for k, v in LANGUAGES.items()}, value="en", height=48, width=300
        )
        self.lang.link(self.tr, value="lang", bidirectional=True)
        self.tr.param.watch(self._lang_changed, "lang")
        self.theme = pn.widgets.Toggle(value=False, height=48, width=150)
        binder.text(self.theme, "name", N_("Dark theme"))
        self.theme.param.watch(self._theme_changed, "value")
        # Language, theme and the characters' administration wait in a menu: the first screen is play.
        self.menu_toggle = pn.widgets.Toggle(value=False, height=48, width=150, css_classes=["k-menu-toggle"])
        binder.text(self.menu_toggle, "name", N_("☰ Menu"))
        self.menu_toggle.param.watch(self._menu_toggled, "value")
        header = pn.FlexBox(
            title,
            self.system,
            self.menu_toggle,
            flex_wrap="wrap",
            align_items="center",
            sizing_mode="stretch_width",
        )

        # -- characters ------------------------------------------------------------------------
        self.character = select(width=260)
        binder.text(self.character, "name", N_("Character"))
        self.character.param.watch(self._character_chosen, "value")
        new = button("", width=170)
        binder.text(new, "name", N_("New character"))
        new.on_click(lambda e: self.roster.add())
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
        self.address_message = html_pane("")
        binder.on_lang(self._draw_notes)
        self.menu = pn.Column(
            pn.FlexBox(self.lang, self.theme, flex_wrap="wrap", align_items="center"),
            pn.FlexBox(
                new,
                delete,
                self.export_chars,
                pn.Column(import_label, self.import_chars, margin=0),
                flex_wrap="wrap",
                align_items="flex-end",
            ),
            css_classes=["k-menu"],
            sizing_mode="stretch_width",
        )
        chars_bar = pn.Column(
            self.character,
            pn.Row(self.delete_note, self.undo_delete),
            self.import_message,
            self.storage_message,
            self.address_message,
            sizing_mode="stretch_width",
        )
        for roster in self.state.rosters.values():
            roster.param.watch(self._roster_changed, ["characters", "current"])
        self.state.monsters.param.watch(lambda *_: self._save_characters(), ["characters", "current"])

        # -- screens --------------------------------------------------------------------------
        self._views: dict[str, pn.viewable.Viewer] = {}
        self.screen = pn.Column(sizing_mode="stretch_width")
        self.state.param.watch(self._system_changed, "system")

        # -- log ----------------------------------------------------------------------------------
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
        log = pn.Column(
            log_title,
            pn.Row(clear, self.export_log, self.clear_note, self.undo_clear),
            self.log_table,
            sizing_mode="stretch_width",
        )

        # -- share links ------------------------------------------------------------------------
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
            )
        }
        self.session_panel = SessionPanel(self.state, self.share, binder)
        self._system_changed()

        self.dice_card = DiceCard(self.state, binder)
        self.result_panel = ResultPanel(
            self.state, binder, base_url=self._base_url, live=lambda: self._stored_loaded or not self._doc_ready
        )
        self._layout = pn.Column(
            self.store,
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
            cls = {"one-ring": OneRingView, "gurps": GurpsView, "fate": FateScreens}[system]
            self._views[system] = cls(self.state, self.binder)
        return self._views[system]

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
        self.screen.objects = self.view_with_share(self.state.system)
        self._character_options()
        self._update_url()

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
        """The page is drawn and linked to Python (``document_ready``): apply the address and storage.

        Under the Pyodide worker, changes made before this point would never
        reach the page, so nothing that alters the screen happens earlier.
        """
        if self._doc_ready:
            return
        self._doc_ready = True
        self.apply_url()
        self.link_panel.redraw()  # a link opened while the page was being drawn
        if self._pending_store:
            self._stored()

    def _stored(self, *_: Any) -> None:
        if not self.store.loaded:
            return
        if not self._doc_ready:
            self._pending_store = True
            return
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
        read = read_stored(self.state, self.share.session, dict(values), stamp, KEY_CHARACTERS, KEY_SESSION, KEY_LOG)
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
        text = self.state.characters_json()
        if self.store.values.get(KEY_CHARACTERS) != text:
            self.store.values = {**self.store.values, KEY_CHARACTERS: text}

    def _save_log(self) -> None:
        if not self._stored_loaded:
            return  # never overwrite what the browser holds before reading it
        text = self.state.rolls.log.to_storage()
        if self.store.values.get(KEY_LOG, "") != text:
            self.store.values = {**self.store.values, KEY_LOG: text}

    # -- delete and clear, with undo ---------------------------------------------------------------
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

        The address is read from its raw text by :func:`webapp.address.read_address`, never through
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
        text = next((part for part in (fragment, search) if _has_link(part)), "")
        if text and text != self._opened_address:
            self._opened_address = text
            self.share.open(text)

    def _link_closed(self, event: Any) -> None:
        """A closed link leaves the address, so a reload does not open it again."""
        if event.new is not None:
            return
        location = pn.state.location
        if location is not None and _has_link(location.hash or ""):
            location.hash = ""

    def _update_url(self) -> None:
        if not self._url_applied:
            return
        location = pn.state.location
        if location is None:
            return
        query = {"lang": self.tr.lang, **self.state.url_state()}
        search = "?" + urlencode(query)
        if location.search != search:
            self._written = search
            location.search = search

    def __panel__(self) -> pn.viewable.Viewable:
        return self._layout
