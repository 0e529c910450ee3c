"""Sharing on screen: a roll's link (copy button, selectable text, QR code), an opened link with its
verdict, the session code with its help text, and the numbering report.

Nothing that came from a link, a stored value or a name typed by someone is
ever put into the page as markup: every such text goes through
:func:`html.escape`, dice are drawn by :mod:`webapp.words.dice` from integers, and
the QR code is the SVG ``segno`` made from our own link.
"""

from __future__ import annotations

from html import escape
from typing import Any

import panel as pn
import param

from engine import InputError, links

from ..i18n import N_, Translator, error_text
from ..qr import qr_svg
from ..state.app import AppState
from ..state.forms import SYSTEM_TITLES
from ..state.links import MAX_SEEN, Opened, ShareModel, check_link, entry_link
from ..state.log import LogEntry
from ..words.dice import dice_html
from ..words.log import entry_texts
from ..words.numbering import look_alikes_text
from ..words.result import check_ability_text
from ..words.rolls import dice_error_text
from .common import Binder, TextInput, alert_html, attempt, button, html_pane, is_shown, select, set_shown, wrap_row
from .component import Component
from .result import roll_name

__all__ = ["CopyButton", "LinkPanel", "SessionPanel", "SharePanel", "link_entry"]

#: What a mismatch found by :func:`engine.links.verify` means, in words.
MISMATCH_LABELS = {
    "digest": N_("the inputs, the name or the seed"),
    "claim.dice": N_("the dice"),
    "claim.outcome": N_("the outcome"),
    "claim.rounds": N_("the number of rounds"),
    "claim.total": N_("the total"),
    "reveal": N_("the reveal code"),
    "sealed": N_("the sealed link you have"),
}

HELP_TEXT = N_(
    "Session code: the game master picks a short code for the evening and everyone types it here once. "
    "Each roll then gets a running number per character, and its dice come from the code and the number "
    "through a cryptographic hash, so nobody can choose a lucky seed. Share each roll's link with the game "
    "master: a missing or repeated number in the list of shared links shows a roll that was skipped or made again."
)


class CopyButton(Component):
    """A button that puts ``text`` on the clipboard (falls back to selecting a hidden text field).

    The inline module imports nothing, so it works offline and in the browser
    build. ``copies`` counts the taps that reached the clipboard.
    """

    text = param.String(default="")
    label = param.String(default="Copy")
    done = param.String(default="Copied")
    copies = param.Integer(default=0)

    _esm = """
export function render({ model, el }) {
  const btn = document.createElement("button");
  btn.type = "button";
  btn.className = "bk-btn bk-btn-primary";
  btn.style.minHeight = "48px";
  btn.style.minWidth = "140px";
  btn.style.fontSize = "16px";
  btn.textContent = model.label;
  btn.setAttribute("data-testid", "copy-link");
  const fallback = (text) => {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    el.appendChild(area);
    area.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    el.removeChild(area);
    return ok;
  };
  const done = () => {
    model.copies = model.copies + 1;
    btn.textContent = model.done;
    setTimeout(() => { btn.textContent = model.label; }, 2000);
  };
  btn.addEventListener("click", () => {
    const text = model.text;
    if (!text) return;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, () => { if (fallback(text)) done(); });
    } else if (fallback(text)) {
      done();
    }
  });
  model.on("label", () => { btn.textContent = model.label; });
  model.on("text", () => { btn.disabled = !model.text; });
  btn.disabled = !model.text;
  el.appendChild(btn);
}
"""


class PagePing(Component):
    """Tells Python, a moment after the page is drawn, that it is there (``pings`` counts up).

    In the browser build, what Python changes while the page is still being
    linked to it can be lost; an answer to an event from the page always
    arrives, so the link panel draws itself again on these pings. Once it has
    drawn again after the last ping, the panel puts an empty marker
    ``[data-testid=pinged]`` on the page: a tap after that lands on the buttons
    that stay.
    """

    pings = param.Integer(default=0)

    _esm = """
export function render({ model, el }) {
  el.style.display = "none";
  [50, 700].forEach((wait) => setTimeout(() => { model.pings = model.pings + 1; }, wait));
}
"""


def link_entry(link: links.Link, roll: Any) -> LogEntry:
    """A log entry for what a link shows (not added to any log), so it reads like one."""
    contest = link.system in ("gurps-quick", "gurps-regular")
    dice = link.system == "dice"
    return LogEntry(
        number=0,
        time="",
        system="gurps" if contest else link.system,
        character=link.name,
        ability=link.check.text if dice else link.label,
        check=link.check,
        seed=link.seed or 0,
        roll=roll,
        secret=link.secret,
        revealed=roll is not None,
        kind="contest" if contest else ("dice" if dice else "roll"),
        session_code=link.session_code,
        session_number=link.number,
    )


def _texts(tr: Translator, entry: LogEntry) -> tuple[str, str]:
    return entry_texts(tr, entry)


def _session_text(tr: Translator, code: str | None, number: int | None) -> str:
    if not code:
        return ""
    return tr(N_("Session {code}, roll no. {n}"), code=code, n=number)


class SharePanel(pn.viewable.Viewer):
    """Beside a system's roll: the link of its latest roll and of the check on its form.

    Each screen has its own panel: ``system`` is the screen's system and
    ``kinds`` the log entries it shares (``"roll"``, ``"contest"``), so the
    GURPS screen never shows the link of a One Ring roll, and a contest's link
    sits beside the contest.
    """

    def __init__(
        self,
        state: AppState,
        share: ShareModel,
        binder: Binder,
        base_url: Any = None,
        *,
        system: str = "one-ring",
        kinds: tuple[str, ...] = ("roll", "contest"),
    ) -> None:
        super().__init__()
        self.state = state
        self.share = share
        self.system = system
        self.kinds = kinds
        self.binder = binder
        self.tr = tr = binder.tr
        self.base_url = base_url or (lambda: "")
        self.entry: LogEntry | None = None
        self.url = ""
        self.title = html_pane("")
        self.link_text = html_pane("")
        self.qr = pn.pane.HTML("", width=340, margin=(2, 5))
        self.copy = CopyButton(height=52, width=160, margin=(2, 5))
        binder.on_lang(lambda: self.copy.param.update(label=tr(N_("Copy the link")), done=tr(N_("Copied"))))
        self.check_button = button("", width=240)
        binder.text(self.check_button, "name", N_("Link to this check"))
        self.check_button.on_click(lambda e: self.show_check())
        # The QR code folds away until asked for (drawing one is the slowest part of a roll's panel).
        self.qr_open = False
        self.qr_button = button("", width=200)
        self.qr_button.on_click(lambda e: self.toggle_qr())
        binder.on_lang(self._qr_label)
        self.message = html_pane("")
        state.rolls.log.param.watch(self._log_changed, "entries")
        # a check link on screen follows the form (free dice have no form of checks)
        if system in state.desks:
            self.desk.param.watch(lambda *_: self._redraw() if self._mode.startswith("check") else None, "check")
        self._mode = ""
        # The Copy and QR buttons are on the page from the start, hidden until there is a link: made
        # on a first roll, they took most of its time; shown by ``visible``, the page laid out
        # everything again. The QR code comes and goes as a child.
        set_shown(self.copy, False)
        set_shown(self.qr_button, False)
        self.buttons = wrap_row(
            self.copy, self.qr_button, *([self.check_button] if "roll" in kinds else []), align="center"
        )
        self._layout = pn.Column(
            self.title,
            self.buttons,
            self.link_text,
            self.message,
            sizing_mode="stretch_width",
        )
        binder.on_lang(self._redraw)

    @property
    def desk(self) -> Any:
        return self.state.desks[self.system]

    def shows(self, part: Any) -> bool:
        """Whether ``part`` (a button or the QR code) is on the page now."""
        return (part in self.buttons.objects and is_shown(part)) or part in self._layout.objects

    def _show_parts(self) -> None:
        linked = bool(self.url)
        set_shown(self.copy, linked)
        set_shown(self.qr_button, linked)
        qr = [self.qr] if self.qr_open and self.qr.object else []
        parts = [self.title, self.buttons, self.link_text, self.message, *qr]
        if self._layout.objects != parts:
            self._layout.objects = parts

    # -- what is shown ------------------------------------------------------------------------------
    def _log_changed(self, *_: Any) -> None:
        entries = self.state.rolls.log.entries
        latest = next((e for e in reversed(entries) if e.kind in self.kinds and e.system == self.system), None)
        if latest is None:
            self.entry, self._mode = None, ""
        elif latest is not self.entry or self._mode == "roll":
            self.entry, self._mode = latest, "roll"
        self._redraw()

    def show_check(self) -> None:
        """Show the link of the prepared check now on the form."""
        check = getattr(self.desk, "check", None)
        if check is None:
            self._mode = "check-error"
        else:
            self._mode = "check"
        self._redraw()

    def toggle_qr(self) -> None:
        """Show the link's QR code (and keep showing the next links' codes), or fold it away."""
        self.qr_open = not self.qr_open
        self._qr_label()
        self._redraw()

    def _qr_label(self) -> None:
        self.qr_button.name = self.tr(N_("Hide the QR code") if self.qr_open else N_("Show the QR code"))

    def _draw_qr(self) -> None:
        if not (self.qr_open and self.url):
            self.qr.object = ""
            return
        try:
            self.qr.object = f'<div data-testid="share-qr" style="line-height:0">{qr_svg(self.url)}</div>'
        except InputError:
            self.qr.object = ""

    def _set_url(self, payload: str) -> None:
        self.url = links.link_url(self.base_url(), payload)
        self.copy.text = self.url
        self.link_text.object = f'<div class="note" style="word-break:break-all;user-select:all" data-testid="share-link">{escape(self.url)}</div>'
        self._draw_qr()

    def _clear(self) -> None:
        self.url = ""
        self.copy.text = ""
        self.link_text.object = ""
        self.qr.object = ""

    def _redraw(self, *_: Any) -> None:
        self._draw()
        self._show_parts()  # (a secret roll is revealed under it in the result panel)

    def _draw(self) -> None:
        tr = self.tr
        self.message.object = ""
        if self._mode in ("check", "check-error"):
            desk = self.desk
            label = getattr(desk, "ability", "") if self.system == "one-ring" else ""
            if self.system == "gurps":
                label = desk.ability_name()  # the skill's name, or Will, Per, Dodge, Parry, Block
            try:
                self._set_url(check_link(desk.check, name=desk.character.name_text, label=label))
            except (InputError, AttributeError):
                self._mode = "check-error"
            else:
                self._mode = "check"
                self.title.object = f'<div class="card-title">{escape(tr(N_("Link to this check")))}</div>'
                self.message.object = f'<div class="note">{escape(tr(N_("Whoever opens this link gets the same check with a Roll button.")))}</div>'
                return
        if self._mode == "check-error":
            self._clear()
            self.title.object = ""
            self.message.object = alert_html(tr(N_("Correct the marked fields to see the odds.")))
            return
        entry = self.entry
        if entry is None:
            self._clear()
            self.title.object = ""
            return
        try:
            share = entry_link(entry)
        except InputError:
            self._clear()
            self.title.object = ""
            return
        self.title.object = f'<div class="card-title">{escape(tr(N_("Share this roll")))}</div>'
        if share.kind == "secret" and not share.reveal:
            self._set_url(share.link)  # (the GURPS screen has its own Reveal button)
            text = escape(tr(N_("Sealed link: it shows the check but not the result until you reveal the roll.")))
            self.message.object = f'<div class="note" data-testid="share-note">{text}</div>'
        elif share.kind == "secret":
            self._set_url(share.revealed)
            self.message.object = (
                f'<div class="note" data-testid="share-note">{escape(tr(N_("Revealed. Reveal code for those who hold the sealed link:")))} '
                f'<b data-testid="reveal-code" style="user-select:all">{escape(share.reveal)}</b></div>'
            )
        else:
            self._set_url(share.link)
            session = _session_text(tr, entry.session_code, entry.session_number)
            if session:
                self.message.object = f'<div class="note" data-testid="share-note">{escape(session)}</div>'

    def __panel__(self) -> pn.viewable.Viewable:
        return self._layout


BOX = "border:3px solid var(--k-accent, #0b5cad);border-radius:8px;padding:6px 10px"


class LinkPanel(pn.viewable.Viewer):
    """At the top of the page: an opened link, its verdict and what it shows (or why it cannot be read)."""

    def __init__(self, state: AppState, share: ShareModel, binder: Binder) -> None:
        super().__init__()
        self.state = state
        self.share = share
        self.binder = binder
        self.tr = binder.tr
        self.body = html_pane("")
        self.rolled = html_pane("")
        self.reveal_error = html_pane("")
        self._rolled_entry: LogEntry | None = None
        self._make_widgets()
        # The panes are on the page from the start (empty); the buttons are made afresh each time
        # they are shown: in the browser build, models first sent while the page was still being
        # linked can be lost, and only new models are sent in full.
        self.buttons = wrap_row(align="flex-end", margin=0)
        self._layout = pn.Column(
            self.body, self.buttons, self.reveal_error, self.rolled, sizing_mode="stretch_width", margin=0
        )
        self.ping = PagePing(height=0, width=0, margin=0)
        self.pinged = html_pane("", margin=0)
        self.ping.param.watch(self._pinged, "pings")
        share.param.watch(self._show, "opened")
        binder.on_lang(self._show)

    def _make_widgets(self) -> None:
        tr = self.tr
        typed = getattr(self, "_typed_code", "")
        self.reveal_code = TextInput(
            name=tr(N_("Reveal code")),
            value=typed,
            value_input=typed,
            width=220,
            height=70,
            max_length=links.MAX_LINK_TEXT,
        )
        # What is in the field now: each key comes as value_input, a commit (Enter, leaving the
        # field) as value, and a tap on Open may come before the commit of a corrected code.
        self._typed_code = typed
        self.reveal_code.param.watch(self._code_typed, ["value", "value_input"])
        self.reveal_button = button(tr(N_("Open")), width=160)
        self.reveal_button.on_click(lambda e: self.reveal())
        self.roll_button = button(tr(N_("Roll")), kind="primary", width=180, height=56)
        self.roll_button.on_click(lambda e: self.roll())
        self.close_button = button(tr(N_("Close")), width=160)
        self.close_button.on_click(lambda e: self.share.close())

    def _pinged(self, event: Any) -> None:
        self.redraw()
        if event.new >= 2:  # the page's last ping (see PagePing)
            self.pinged.object = '<span data-testid="pinged"></span>'

    def redraw(self) -> None:
        """Send the panel to the page again (what changed while the page was being linked may not have
        arrived); with no link opened there is nothing to send."""
        if self.share.opened is None:
            return
        self._make_widgets()
        self.body.param.trigger("object")
        self.rolled.param.trigger("object")
        self._show()

    def shows(self, part: Any) -> bool:
        """Whether ``part`` (a button or field) is on the page now."""
        return part in self.buttons.objects

    def _code_typed(self, event: Any) -> None:
        self._typed_code = event.new or ""

    def reveal(self) -> None:
        attempt(
            lambda: self.share.reveal(self._typed_code),
            self.reveal_error,
            self._error,
        )

    def _roll_name(self, link: links.Link | None) -> str:
        """The opened check's Roll button says what it rolls ("Roll Awareness"), as the screens' do."""
        what = ""
        if link is not None and link.kind is links.Kind.CHECK:
            what = check_ability_text(self.tr, link.system, link.label)
        return roll_name(self.tr, what) if what else self.tr(N_("Roll"))

    def roll(self) -> None:
        """Roll the prepared check of the opened link (numbered when a session code is set)."""
        opened = self.share.opened
        if opened is None or opened.link is None or opened.link.kind is not links.Kind.CHECK:
            return
        link = opened.link
        try:
            if link.system in ("gurps-quick", "gurps-regular"):
                entry = self.state.rolls.contest(link.check, character=link.name, ability=link.label, opponent="number")
            else:
                entry = self.state.rolls.roll(link.check, character=link.name, ability=link.label)
        except InputError as error:
            self.rolled.object = alert_html(error_text(self.tr, error))
            return
        self._rolled_entry = entry
        self._show_rolled()

    def _show_rolled(self) -> None:
        entry = self._rolled_entry
        if entry is None:
            self.rolled.object = ""
            return
        inputs, result = _texts(self.tr, entry)
        self.rolled.object = (
            f'<div data-testid="link-roll-result">{dice_html(self.tr, entry.roll)}'
            f'<div class="outcome" data-testid="link-roll-outcome">{escape(result)}</div></div>'
        )

    def _error(self, error: InputError) -> str:
        tr = self.tr
        if error.field.startswith("reveal"):
            return tr(N_("This reveal code does not open this secret roll."))
        if error.field == "link.check.dice" and (error.params or {}).get("what"):
            return tr(N_("The dice in this link cannot be rolled: {reason}"), reason=dice_error_text(tr, error))
        if error.field == "link.version" and error.code == "choice":
            return tr(N_("This link was made by a newer version of the app: reload the page to read it."))
        if error.field.startswith("link"):
            return tr(N_("This link could not be read: it is cut short, altered or not a Kostka link."))
        return error_text(tr, error)

    def _verdict_html(self, opened: Opened) -> str:
        tr = self.tr
        status = opened.status
        kind = opened.link.kind if opened.link is not None else None
        if status == "unreadable":
            message = escape(self._error(opened.error))
            return (
                f'<div class="outcome bad" role="alert" data-testid="verdict" data-status="unreadable">{message}</div>'
            )
        if status == "altered":
            what = ", ".join(tr(MISMATCH_LABELS.get(m, m)) for m in opened.verdict.mismatches)
            text = tr(N_("This link was altered; these do not match: {what}."), what=what)
            return f'<div class="outcome bad" role="alert" data-testid="verdict" data-status="altered">{escape(text)}</div>'
        if status == "sealed":
            text = tr(N_("Secret roll, sealed: the result is hidden until the game master gives the reveal code."))
            return f'<div class="outcome" data-testid="verdict" data-status="sealed">{escape(text)}</div>'
        if status == "revealed":
            text = tr(
                N_(
                    "This is a revealed secret roll: it shows that these dice follow from its seed. Only the game"
                    " master's sealed link, opened here, shows the seed was fixed before the roll."
                )
            )
            return (
                f'<div class="outcome" role="status" data-testid="verdict" data-status="revealed">{escape(text)}</div>'
            )
        if kind is links.Kind.CHECK:
            text = tr(N_("A prepared check: roll it here."))
        elif kind is links.Kind.REVEALED:
            text = tr(
                N_("This revealed secret roll matches the sealed link you have: its seed was fixed before the roll.")
            )
        else:
            text = tr(N_("This roll follows from this link."))
        return f'<div class="outcome good" data-testid="verdict" data-status="verified">{escape(text)}</div>'

    def _show(self, *_: Any) -> None:
        tr = self.tr
        opened = self.share.opened
        if opened is None:
            self.buttons.objects = []
            self.body.object = ""
            self._rolled_entry = None
            self.rolled.object = ""
            self.reveal_error.object = ""
            return
        link = opened.link
        sealed = opened.status == "sealed"
        can_roll = link is not None and link.kind is links.Kind.CHECK and opened.status == "verified"
        self.reveal_code.name = tr(N_("Reveal code"))
        for widget, label in ((self.reveal_button, N_("Open")), (self.close_button, N_("Close"))):
            widget.name = tr(label)
        self.roll_button.name = self._roll_name(link)
        buttons = ([self.reveal_code, self.reveal_button] if sealed else []) + ([self.roll_button] if can_roll else [])
        self.buttons.objects = [*buttons, self.close_button]
        if opened.status != "sealed":
            self.reveal_error.object = ""
        self._show_rolled()
        title = f'<div class="card-title">{escape(tr(N_("Shared link")))}</div>'
        verdict = self._verdict_html(opened)
        if link is None:
            self.body.object = f'<div data-testid="shared-link" style="{BOX}">{title}{verdict}</div>'
            return
        entry = link_entry(link, opened.roll)
        who = link.name or tr(N_("Unnamed character"))
        system = SYSTEM_TITLES.get(entry.system, N_("Free dice"))
        inputs, result = _texts(tr, entry)
        session = _session_text(tr, link.session_code, link.number)
        parts = [
            title,
            verdict,
            f'<div class="readout" data-testid="link-character">{escape(who)}</div>',
            f'<div class="muted" data-testid="link-inputs">{escape(tr(system))}: {escape(inputs)}</div>',
        ]
        if session:
            parts.append(f'<div class="note" data-testid="link-session">{escape(session)}</div>')
        if link.system == "fate" and link.version < links.LINK_VERSION:
            parts.append(
                '<div class="note" data-testid="link-reading">'
                + escape(
                    tr(
                        N_(
                            "Made when a result equal to the skill still succeeded: it is read that way, as it was rolled."
                        )
                    )
                )
                + "</div>"
            )
        if opened.status == "altered":  # what it claims is no result: never drawn as one
            note = tr(N_("Its dice and result are not shown: they are not what this link rolls."))
            parts.append(f'<div class="note" data-testid="link-not-shown">{escape(note)}</div>')
        elif opened.roll is not None:
            parts.append(f'<div data-testid="link-dice">{dice_html(tr, opened.roll)}</div>')
            parts.append(f'<div class="outcome" data-testid="link-outcome">{escape(result)}</div>')
        self.body.object = f'<div data-testid="shared-link" style="{BOX}">{"".join(parts)}</div>'

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Column(self.ping, self.pinged, self._layout, sizing_mode="stretch_width", margin=0)


class SessionPanel(pn.viewable.Viewer):
    """The session code field, its help text, and the numbering of the rolls seen (gaps, repeats)."""

    def __init__(self, state: AppState, share: ShareModel, binder: Binder) -> None:
        super().__init__()
        self.state = state
        self.share = share
        self.binder = binder
        self.tr = tr = binder.tr
        self.code = TextInput(value=share.session.code, width=240, height=70, max_length=links.MAX_CODE_LENGTH * 2)
        self.error: InputError | None = None
        self.code_error = html_pane("")
        self.code.param.watch(self._typed, "value")
        share.session.param.watch(self._code_changed, "code")
        self.help = html_pane("", width=360)  # beside the field, or under it on a phone
        binder.on_lang(
            lambda: setattr(
                self.help, "object", f'<div class="note" data-testid="session-help">{escape(tr(HELP_TEXT))}</div>'
            )
        )
        binder.on_lang(self._label)
        self.report = html_pane("")
        state.rolls.log.param.watch(self._own_rolls, "entries")
        share.param.watch(self._report, "seen")
        # the game master's batch of players' links, and the end of a session
        self.paste = pn.widgets.TextAreaInput(height=120, width=420, max_length=MAX_SEEN * (links.MAX_LINK_TEXT + 2))
        binder.text(self.paste, "name", N_("Players' links, one per line"))
        self.add_button = button("", width=200)
        binder.text(self.add_button, "name", N_("Add these links"))
        self.add_button.on_click(lambda e: self.add_links())
        self.paste_message = html_pane("")
        self.forget_code = select(width=220)
        binder.text(self.forget_code, "name", N_("Finished session"))
        self.forget_button = button("", width=220)
        binder.text(self.forget_button, "name", N_("Clear its numbering"))
        self.forget_button.on_click(lambda e: self.forget())
        self.forget_row = pn.Row(margin=0)
        self._layout = pn.Column(
            wrap_row(
                pn.Column(self.code, self.code_error, margin=0, width=250), self.help, sizing_mode="stretch_width"
            ),
            self.report,
            wrap_row(self.paste, self.add_button, align="flex-end"),
            self.paste_message,
            self.forget_row,
            sizing_mode="stretch_width",
        )
        binder.on_lang(self._report)

    def _own_rolls(self, event: Any) -> None:
        """This device's session rolls join the numbering kept in the browser (once each)."""
        for entry in event.new if event is not None else ():
            if entry.kind not in ("roll", "contest", "dice"):
                continue
            try:
                if getattr(entry, "session_code", None):
                    self.share.remember(entry_link(entry).link, again=False)
                elif getattr(entry, "secret", False):
                    self.share.keep_sealed(entry_link(entry).link)  # a revealed link of it is checked against it
            except InputError:
                continue
        self._report()

    def add_links(self) -> None:
        tr = self.tr
        added, bad = self.share.add_links(self.paste.value_input or self.paste.value or "")
        parts = [tr.ngettext("{n} session link added.", "{n} session links added.", added)]
        if bad:
            parts.append(tr.ngettext("{n} line is not a session link.", "{n} lines are not session links.", bad))
        css = "field-error" if bad else "note"
        self.paste_message.object = f'<div class="{css}" data-testid="paste-message">{escape(" ".join(parts))}</div>'
        if not bad:
            self.paste.value = ""

    def forget(self) -> None:
        code = self.forget_code.value
        if code:
            self.share.forget(code)
            self.paste_message.object = ""

    def _label(self) -> None:
        label = self.tr(N_("Session code"))
        message = ""
        if self.error is not None:
            if self.error.code == "range":
                message = self.tr(N_("This session code is too long."))
            else:
                message = self.tr(N_("A session code cannot contain control characters."))
        # The label stays as it is while the code is typed (a new label redraws the field and throws the
        # user out of it); the reason is written under the field.
        if self.code.name != label:
            self.code.name = label
        css = ["invalid"] if message else []
        if self.code.css_classes != css:
            self.code.css_classes = css
        self.code_error.object = alert_html(message) if message else ""

    def _typed(self, event: Any) -> None:
        try:
            self.share.session.set_code(event.new)
            self.error = None
        except InputError as error:
            self.error = error
        self._label()

    def _code_changed(self, event: Any) -> None:
        if self.code.value.strip() != event.new:
            self.code.value = event.new

    def _report(self, *_: Any) -> None:
        tr = self.tr
        try:
            groups = self.share.gaps(self.state.rolls.log.entries)
        except InputError:
            groups = []
        codes = self.share.codes()
        self.forget_code.options = codes
        if codes and self.forget_code.value not in codes:
            self.forget_code.value = codes[-1]
        forget = [self.forget_code, self.forget_button] if codes else []
        if self.forget_row.objects != forget:
            self.forget_row.objects = forget
        if not groups:
            self.report.object = ""
            return
        again = self.share.times_opened()
        rows = []
        for group in groups:
            who = group.name or tr(N_("Unnamed character"))
            numbers = tr(N_("numbers {first}–{last}"), first=group.numbers[0], last=group.numbers[-1])
            problems = []
            if group.missing:
                problems.append(tr(N_("missing: {numbers}"), numbers=", ".join(map(str, group.missing))))
            for number in group.duplicates:
                problems.append(tr(N_("no. {number} twice: rolled again"), number=number))
            if group.look_alikes:
                problems.append(look_alikes_text(tr, group.name, group.look_alikes))
            character = links.name_key(group.name)
            for number in group.numbers:
                times = again.get((group.session_code, character, number), 1)
                if times == 2 and number not in group.duplicates:
                    problems.append(tr(N_("no. {number} twice: the same roll opened again"), number=number))
                elif times > 2 and number not in group.duplicates:
                    problems.append(
                        tr.ngettext(
                            "no. {number} opened {n} time: the same roll",
                            "no. {number} opened {n} times: the same roll",
                            times,
                            number=number,
                        )
                    )
            status = "; ".join(problems) if problems else tr(N_("no gaps"))
            css = "field-error" if problems else "note"
            rows.append(
                f'<li class="{css}">{escape(group.session_code)} · {escape(who)}: {escape(numbers)} — {escape(status)}</li>'
            )
        self.report.object = (
            f'<div data-testid="numbering"><div class="card-title">{escape(tr(N_("Numbering of session rolls")))}</div>'
            f"<ul>{''.join(rows)}</ul></div>"
        )

    def __panel__(self) -> pn.viewable.Viewable:
        return self._layout
