"""The result where the finger is: one panel for every roll of every screen, and the one-tap roll button.

:class:`ResultPanel` follows the roll log, so a One Ring, GURPS or Fate & Doom
roll, a contest, a fight step and the free dice all land in the same place:
the dice drawn as dice (a short roll that ends), the outcome in large words
and colour, the margin or degree, the chance the check had, the last three
rolls before it and, one tap away, the roll's link and a large QR code. A
landscape tablet keeps it beside the sheet; portrait and phone screens show it
over the lower part of the screen, folded to its outcome line by a tap on it
and opened again by the next roll. The outcome line is the page's
``role="status"`` region: it keeps the latest outcome until the next roll.

:class:`RollButton` is the button of a one-tap roll: its accessible name says
what it rolls ("Roll Awareness"), it shows itself pressed from the moment the
finger is down until the roll has come back, and it ignores further taps in
between (a double tap never makes two numbered rolls).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any, ClassVar, NamedTuple

import panel as pn
import param

from engine import InputError, links

from ..i18n import N_, Translator, percent
from ..qr import qr_svg
from ..state.links import entry_link
from ..words.result import ability_text, chance_of, dice_of, next_odds, outcome_of
from .charts import OUTCOME_COLOURS
from .common import Binder
from .component import Component
from .taps import TapAnswered, with_taps

__all__ = [
    "BUTTON_CSS",
    "ResultBox",
    "ResultPanel",
    "RollActions",
    "RollButton",
    "big_roll_button",
    "name_big_roll",
    "roll_name",
]


def roll_name(tr: Translator, ability: str) -> str:
    """The accessible name of a one-tap roll button: "Roll Awareness" (``ability`` already translated)."""
    return tr(N_("Roll {ability}"), ability=ability)


#: The look of a one-tap roll button (also the play view's rows): a finger's size, pressed at once.
BUTTON_CSS = """
:host { display: block; }
.k-btn { width: 100%; height: 100%; min-width: 44px; min-height: 44px; box-sizing: border-box; padding: 0 10px;
  font: inherit; font-size: 18px; border-radius: 6px; cursor: pointer; touch-action: manipulation;
  background: var(--k-surface, #f2f4f6); color: var(--k-fg, #14171a); border: 1px solid var(--k-border, #6b7781);
  transition: transform 60ms ease-out; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.k-btn.primary { background: var(--k-accent, #0b5cad); color: var(--k-on-accent, #fff); border-color: var(--k-accent, #0b5cad);
  font-weight: 700; }
.k-btn:hover { filter: brightness(0.95); }
.k-btn:focus-visible { outline: 3px solid var(--k-accent, #0b5cad); outline-offset: 2px; }
.k-btn:active, .k-btn.k-pressed { transform: scale(0.94); box-shadow: inset 0 0 0 3px var(--k-accent, #0b5cad); }
.k-btn.primary:active, .k-btn.primary.k-pressed { box-shadow: inset 0 0 0 3px var(--k-on-accent, #fff); }
.k-btn:disabled { opacity: 0.5; cursor: default; transform: none; }
@media (prefers-reduced-motion: reduce) { .k-btn { transition: none; } }
/* a row of the play view (webapp/views/play.py): the ability's name from the left, its rating at the right end */
.k-play-row .k-btn { display: flex; align-items: center; gap: 4px; font-size: 14px; padding: 0 6px; }
.k-name { flex: 1 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; text-align: left; }
.k-value { flex: 0 0 auto; font-weight: 700; }
"""


class RollButton(Component):
    """A button for one roll: pressed at once, deaf to more taps until its roll has come back.

    ``label`` is what the button shows (the big *Roll*, or ⚄ beside a skill) and
    ``description`` its accessible name when the label alone does not say what
    it rolls. A tap counts in ``clicks``; Python answers each one in ``ack``
    (whatever the roll's fate), and until then the button stays pressed and
    further taps are dropped. Keyboard: a real ``<button>``, so Enter and Space
    roll too. The ``on_click`` / ``clicks`` / ``name`` / ``disabled`` of a Panel
    button are kept, so code written for one works with this.
    """

    label = param.String(default="")
    description = param.String(default="", doc="The accessible name (and tooltip); '' to use the label")
    button_type = param.Selector(default="default", objects=["default", "primary"])
    disabled = param.Boolean(default=False)
    clicks = param.Integer(default=0)
    ack = param.Integer(default=0, doc="The last tap Python has answered")

    _priority_changes: ClassVar[list[str]] = ["clicks"]

    _esm = with_taps("""
export function render({ model, el }) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "k-btn";
  el.append(b);
  answeredTaps(model, { send: () => { model.clicks = model.clicks + 1; } }).bind(b, "roll");
  const show = () => {
    b.textContent = model.label;
    if (model.description) {
      b.setAttribute("aria-label", model.description);
      b.title = model.description;
    } else {
      b.removeAttribute("aria-label");
      b.removeAttribute("title");
    }
    b.disabled = model.disabled;
    b.classList.toggle("primary", model.button_type === "primary");
  };
  for (const name of ["label", "description", "disabled", "button_type"]) model.on(name, show);
  show();
}
""")

    _stylesheets: ClassVar[list[str]] = [BUTTON_CSS]

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self._callbacks: list[Callable[[Any], Any]] = []
        self.param.watch(self._clicked, "clicks")

    def on_click(self, callback: Callable[[Any], Any]) -> None:
        self._callbacks.append(callback)

    def _clicked(self, event: Any) -> None:
        try:
            for callback in self._callbacks:
                callback(event)
        finally:
            self.ack = self.clicks


def big_roll_button(**kw: Any) -> RollButton:
    """A screen's big *Roll* button: it rolls the check set up above it and says which ("Roll Awareness").

    Its screen names it with :func:`name_big_roll` whenever the ability chosen or the language changes.
    """
    kw.setdefault("margin", (5, 10))
    return RollButton(button_type="primary", width=260, height=56, css_classes=["k-big-roll"], **kw)


def name_big_roll(button: RollButton, tr: Translator, ability: str) -> None:
    """Show ``button`` as the roll of ``ability`` (already translated): "Roll Awareness".

    Its accessible name adds what sets it apart from the ⚄ beside that ability, which rolls it
    as well: "Roll Awareness with the chosen options" (the shown words first, as a voice control
    user says them).
    """
    label = roll_name(tr, ability)
    description = tr(N_("Roll {ability} with the chosen options"), ability=ability)
    if (button.label, button.description) != (label, description):
        button.param.update(label=label, description=description)


def roll_button(label: str = "⚄", *, kind: str = "default", width: int = 52, height: int = 48, **kw: Any) -> RollButton:
    """A :class:`RollButton` sized for a finger (the ⚄ beside an ability by default)."""
    kw.setdefault("margin", (22, 4, 0, 4))
    return RollButton(label=label, button_type=kind, width=width, height=height, **kw)


class ResultBox(TapAnswered):
    """The panel drawn in the browser. ``roll`` is the roll shown, all its parts in one value (so that
    they reach the page in one message and are drawn in one frame): ``dice`` and ``recent`` (markup
    made here from numbers and escaped text), the ``status`` line (the page's live region), ``share``
    (link and QR, '' when closed), ``can_share``, ``shown`` (whether there is a roll to show: a small
    screen hides the panel before) and ``seq``, which counts the rolls shown: each new one opens the
    panel and plays the dice's short roll.

    A tap on the panel folds it to its status line (``folded``); *Share* counts ``share_taps``.
    Under the roll, ``note`` and the ``actions`` its screen offers: a tap on one is sent as ``tap``
    and answered in ``ack`` (:class:`~webapp.views.taps.TapAnswered`).
    """

    roll = param.Dict(default={"seq": 0}, doc="The roll shown: its parts (see the class)")
    odds = param.String(default="", doc="The chart of the check being set up on the screen ('' for none)")
    share_label = param.String(default="Share")
    log_label = param.String(default="", doc="The button to the full roll log ('' hides it)")
    close_label = param.String(default="Close")
    folded = param.Boolean(default=False)
    share_taps = param.Integer(default=0)
    note = param.String(default="", doc="Its screen's words on the shown roll (modifiers used, favour left), as text")
    actions = param.List(default=[], doc="What can be done with the shown roll: [{key, label, disabled}]")

    _esm = with_taps("""
export function render({ model, el }) {
  // an element of the panel: its tag, its classes and the name tests find it by
  const part = (tag, className, testid = "") => {
    const element = document.createElement(tag);
    element.className = className;
    if (testid) element.dataset.testid = testid;
    if (tag === "button") element.type = "button";
    return element;
  };
  const box = part("section", "k-result", "result-panel");
  const dice = part("div", "k-result-body k-dice", "result-dice");
  const recent = part("div", "k-result-body");
  const status = part("div", "k-status", "roll-status");
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  const actions = part("div", "k-result-actions");
  const share = part("button", "k-share-btn", "result-share");
  const toLog = part("button", "k-share-btn", "result-log");
  actions.append(share, toLog);
  const shared = part("div", "k-shared");
  // what its screen says of the shown roll, and what can be done with it (spend success icons, reveal)
  const more = part("div", "k-result-body k-more", "result-more");
  const note = part("div", "k-note", "result-note");
  const choices = part("div", "k-choices");
  more.append(note, choices);
  const taps = answeredTaps(model);
  const drawActions = () => {
    note.textContent = model.note;
    const buttons = (model.actions || []).map((action) => {
      const b = part("button", "k-share-btn");
      b.textContent = action.label;
      b.disabled = !!action.disabled;
      taps.bind(b, action.key);
      taps.look(b, action.key);
      return b;
    });
    choices.replaceChildren(...buttons);
    more.hidden = !model.note && !buttons.length;
  };
  const odds = part("div", "k-odds-box");
  box.append(status, dice, more, actions, shared, odds, recent);
  el.append(box);
  const drawOdds = () => { odds.innerHTML = model.odds; };
  const drawShare = () => {
    const roll = model.roll;
    shared.innerHTML = roll.share || "";
    share.textContent = roll.share ? model.close_label : model.share_label;
    share.setAttribute("aria-expanded", roll.share ? "true" : "false");
    share.hidden = !roll.can_share;
    toLog.textContent = model.log_label;
    toLog.hidden = !model.log_label;
    box.classList.toggle("sharing", !!roll.share);
  };
  const drawBox = () => {
    box.classList.toggle("shown", !!model.roll.shown);
    box.classList.toggle("folded", model.folded);
  };
  const running = () => box.getAnimations({subtree: true}).filter((a) => a.playState === "running");
  // off once the last of the roll's animations has ended (the outcome's pop ends before the dice's roll)
  box.addEventListener("animationend", () => { if (!running().length) box.classList.remove("rolled"); });
  // Each part of the roll is drawn again only when it changed, and a new roll's dice and outcome
  // always (the same dice as the roll before too): new elements, which start the class's one short
  // roll (no layout forced to restart it), and a status written anew, which a screen reader says
  // again. The panel opens with them (its folded state follows in the next message).
  let drawn = {};
  const drawRoll = () => {
    const roll = model.roll;
    const fresh = drawn.seq !== undefined && roll.seq !== drawn.seq;
    if (fresh || roll.status !== drawn.status) status.innerHTML = roll.status || "";
    if (fresh || roll.dice !== drawn.dice) dice.innerHTML = roll.dice || "";
    if (roll.recent !== drawn.recent) recent.innerHTML = roll.recent || "";
    if (roll.share !== drawn.share || roll.can_share !== drawn.can_share) drawShare();
    if (fresh) {
      // shown before the page takes in the changes that follow the roll (static/loader.js)
      el.dispatchEvent(new CustomEvent("kostka-show-first", {bubbles: true, composed: true}));
      box.classList.remove("folded");
      if (box.classList.contains("rolled")) for (const a of running()) a.currentTime = 0;  // dice drawn as before
      else box.classList.add("rolled");
    }
    box.classList.toggle("shown", !!roll.shown);
    drawn = roll;
  };
  box.addEventListener("click", (event) => {
    if (event.composedPath().some((node) => node.tagName === "A" || node.tagName === "BUTTON")) return;
    model.folded = !model.folded;
  });
  share.addEventListener("click", () => { model.share_taps = model.share_taps + 1; });
  // The full log is its own card further down the page: one tap brings it into view.
  const findLog = (root) => {
    const found = root.querySelector("[data-testid=log]");
    if (found) return found;
    for (const node of root.querySelectorAll("*")) {
      if (node.shadowRoot) {
        const inner = findLog(node.shadowRoot);
        if (inner) return inner;
      }
    }
    return null;
  };
  toLog.addEventListener("click", () => {
    const log = findLog(document);
    if (!log) return;
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    log.scrollIntoView({behavior: still ? "auto" : "smooth", block: "start"});
    if (narrow.matches) model.folded = true;
  });
  // On a small screen a tap anywhere else on the page folds the panel too (and still does what it taps).
  const narrow = window.matchMedia("(max-width: 999px)");
  const outside = (event) => {
    if (narrow.matches && model.shown && !model.folded && !event.composedPath().includes(box)) model.folded = true;
  };
  document.addEventListener("pointerdown", outside, true);
  model.on("roll", drawRoll);
  model.on("odds", drawOdds);
  model.on(["share_label", "log_label", "close_label"], drawShare);
  model.on("folded", drawBox);
  model.on(["note", "actions"], drawActions);
  for (const draw of [drawRoll, drawOdds, drawShare, drawBox, drawActions]) draw();
}
""")

    _stylesheets: ClassVar[list[str]] = [
        """
:host { position: static; }
.k-result { box-sizing: border-box; background: var(--k-bg, #fff); color: var(--k-fg, #14171a);
  border: 2px solid var(--k-border, #6b7781); font-size: 16px; overflow-y: auto; overscroll-behavior: contain;
  z-index: 1000; cursor: pointer; -webkit-tap-highlight-color: transparent; }
/* Landscape tablet and wider: the roll panel beside the sheet, always in view. */
@media (min-width: 1000px) {
  .k-result { position: fixed; top: 0; right: 0; bottom: 0; width: 340px; border-width: 0 0 0 2px;
    padding: 12px 14px; cursor: default; }
}
/* Portrait and phone: over the lower part of the screen once there is a roll; a tap folds it. */
@media (max-width: 999px) {
  .k-result { position: fixed; left: 0; right: 0; bottom: 0; max-height: 52vh; padding: 10px 14px 12px;
    border-width: 2px 0 0 0; border-radius: 14px 14px 0 0; box-shadow: 0 -4px 18px rgba(0, 0, 0, 0.25); display: none; }
  .k-result.shown { display: block; }
  .k-result.folded .k-result-body, .k-result.folded .k-shared, .k-result.folded .k-result-actions,
  .k-result.folded .k-detail { display: none; }
}
.k-status { display: flex; flex-wrap: wrap; align-items: baseline; gap: 2px 10px; }
.k-outcome { font-size: 28px; font-weight: 800; line-height: 1.15; }
.k-outcome.good { color: var(--k-good, #1b7a3a); }
.k-outcome.bad { color: var(--k-bad, #b3261e); }
.k-chance { font-size: 18px; font-weight: 600; }
.k-detail { font-size: 16px; flex-basis: 100%; }
.k-who { color: var(--k-muted, #4a5560); font-size: 15px; flex-basis: 100%; }
.k-hint { color: var(--k-muted, #4a5560); }
.k-result-actions { display: flex; gap: 8px; margin: 6px 0; }
.k-share-btn { min-height: 44px; min-width: 120px; padding: 0 14px; font: inherit; font-size: 16px; border-radius: 6px;
  background: var(--k-surface, #f2f4f6); color: var(--k-fg, #14171a); border: 1px solid var(--k-border, #6b7781);
  cursor: pointer; touch-action: manipulation; }
.k-share-btn:focus-visible { outline: 3px solid var(--k-accent, #0b5cad); outline-offset: 2px; }
.k-share-btn:active { transform: scale(0.96); }
.k-share-btn[hidden] { display: none; }
.k-shared:empty { display: none; }
.k-more[hidden] { display: none; }
.k-note { font-size: 15px; margin: 4px 0; }
.k-note:empty { display: none; }
.k-choices { display: flex; flex-wrap: wrap; gap: 6px; margin: 4px 0; }
.k-choices .k-share-btn { min-width: 0; }
.k-share-btn:disabled { opacity: 0.5; cursor: default; }
.k-share-btn.k-pressed { box-shadow: inset 0 0 0 3px var(--k-accent, #0b5cad); }
.k-shared .k-qr { background: #fff; padding: 10px; border-radius: 8px; line-height: 0; max-width: 100%; }
.k-shared .k-qr svg { width: 100%; height: auto; max-width: 420px; display: block; margin: 0 auto; }
.k-shared .k-link { word-break: break-all; user-select: all; font-size: 14px; margin: 6px 0; }
/* The check being set up: its chances as one bar, worst to best, with the numbers under it. */
.k-odds-box:empty { display: none; }
.k-odds { margin-top: 8px; border-top: 1px solid var(--k-border, #6b7781); padding-top: 6px; }
.k-odds-title { font-size: 15px; }
.k-odds-title b { font-size: 17px; }
.k-bar { display: flex; height: 16px; border-radius: 4px; overflow: hidden; margin: 4px 0;
  background: var(--k-surface, #f2f4f6); border: 1px solid var(--k-border, #6b7781); }
.k-seg { height: 100%; transition: width 120ms ease-out; }
.k-sw { display: inline-block; width: 12px; height: 12px; border-radius: 2px; margin-right: 4px; vertical-align: -1px; }
.k-legend { display: flex; flex-wrap: wrap; gap: 2px 12px; font-size: 14px; }
@media (prefers-reduced-motion: reduce) { .k-seg { transition: none; } }
/* Folded on a small screen: the bar and its title stay, over the fields being changed. */
@media (max-width: 999px) { .k-result.folded .k-legend { display: none; } }
.k-recent { margin-top: 10px; border-top: 1px solid var(--k-border, #6b7781); padding-top: 6px; }
.k-recent-title { font-weight: 700; font-size: 15px; }
.k-recent-row { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 8px; font-size: 15px; margin: 4px 0; }
.k-recent-row svg.die { width: 28px; height: 28px; }
.k-recent-row .good { color: var(--k-good, #1b7a3a); font-weight: 700; }
.k-recent-row .bad { color: var(--k-bad, #b3261e); font-weight: 700; }
.dice-row { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 6px 0; }
.dice-caption { min-width: 5em; color: var(--k-muted, #4a5560); font-size: 0.95em; }
/* The dice's roll: once, short, and never under reduced motion (no animation is left running). */
@keyframes k-tumble {
  0% { transform: rotate(-200deg) scale(0.6); opacity: 0.2; }
  70% { transform: rotate(12deg) scale(1.06); opacity: 1; }
  100% { transform: none; }
}
.k-result.rolled .k-dice svg.die { animation: k-tumble 420ms ease-out 1 both; }
.k-result.rolled .k-outcome { animation: k-pop 300ms ease-out 1 both; }
@keyframes k-pop { 0% { transform: scale(0.85); opacity: 0.3; } 100% { transform: none; opacity: 1; } }
@media (prefers-reduced-motion: reduce) {
  .k-result.rolled .k-dice svg.die, .k-result.rolled .k-outcome { animation: none; }
}
"""
    ]


class RollActions(NamedTuple):
    """What a screen says of the roll shown in the result panel, and what can be done with it there."""

    note: str  #: a line of text ('' for none): the modifiers used, the favour left…
    actions: Sequence[tuple[str, str, bool]] = ()  #: (key, label, disabled) of each button
    act: Callable[[str], Any] | None = None  #: called with the key of the button tapped


class ResultPanel(pn.viewable.Viewer):
    """The latest roll of the session, wherever it was rolled, where the player looks (see the module)."""

    def __init__(
        self,
        state: Any,
        binder: Binder,
        *,
        base_url: Callable[[], str] = lambda: "",
        live: Callable[[], bool] = lambda: True,
        checking: Callable[[], str | None] | None = None,
    ) -> None:
        super().__init__()
        self.state = state
        self.binder = binder
        self.tr = binder.tr
        self.base_url = base_url
        self.live = live
        #: The system whose check the screen sets up now (None: a screen without one, as a fight)
        self.checking = checking or (lambda: state.system)
        self.entry: Any = None
        self.sharing = False
        self.box = ResultBox(margin=0, height=0, sizing_mode="stretch_width")
        self.box.param.watch(self._share_tapped, "share_taps")
        self.box.on_tap(self._action_tapped)
        self._offers: list[Callable[[Any], RollActions | None]] = []
        self._act: Callable[[str], Any] | None = None  # what a tap on an action under the roll does
        state.rolls.log.param.watch(self._log_changed, "entries")
        binder.on_lang(self._draw)
        for desk in state.desks.values():
            desk.param.watch(self.show_odds, ["odds", "check"])
        state.param.watch(self.show_odds, "system")
        binder.on_lang(self.show_odds)  # (draws it now)

    # -- following the log ----------------------------------------------------------------------------------
    def _log_changed(self, event: Any) -> None:
        old, new = event.old or [], event.new or []
        latest = new[-1] if new else None
        if latest is None:
            self.entry, self.sharing = None, False
            self._draw()
        elif latest is not self.entry:
            # one roll added now (not a log read back from storage): show it, open, with its dice rolling
            added = (not old or new[-2:-1] == old[-1:]) and latest not in old
            if added and self.live():
                self.entry, self.sharing = latest, False
                self._draw(new=True)
                self.box.folded = False
                return
            if self.entry is not None and self.entry not in new:  # an undone step: show what is latest now
                self.entry = latest
        self._draw()

    @property
    def recent(self) -> list[Any]:
        """The three rolls before the one shown, newest first."""
        entries = self.state.rolls.log.entries
        if self.entry is None or self.entry not in entries:
            return []
        i = entries.index(self.entry)
        return list(reversed(entries[max(0, i - 3) : i]))

    # -- drawing ------------------------------------------------------------------------------------------
    def _draw(self, *_: Any, new: bool = False) -> None:
        """Draw the roll shown (``new``: a roll just made, whose dice roll and which opens the panel)."""
        tr, entry = self.tr, self.entry
        seq = self.box.roll.get("seq", 0) + new
        count = len(self.state.rolls.log.entries)
        labels = dict(
            share_label=tr(N_("Share")),
            close_label=tr(N_("Close")),
            log_label=tr.ngettext("Roll log: {n} roll", "Roll log: {n} rolls", count) if count else "",
        )
        if entry is None:
            hint = escape(tr(N_("Tap a roll: its dice and outcome show here.")))
            self.box.param.update(
                roll=dict(status=f'<span class="k-hint">{hint}</span>', shown=False, seq=seq), **labels
            )
            self._more(None)
            return
        outcome, css, detail = outcome_of(tr, entry)
        chance = chance_of(tr, entry)
        who = " — ".join(part for part in (entry.character, ability_text(tr, entry)) if part)
        status = (
            (f'<span class="k-who">{escape(who)}</span>' if who else "")
            + f'<span class="k-outcome {css}" data-testid="result-outcome">{escape(outcome)}</span>'
            + (f'<span class="k-chance" data-testid="result-chance">{escape(chance)}</span>' if chance else "")
            + (f'<span class="k-detail">{escape(detail)}</span>' if detail else "")
        )
        roll = dict(
            status=status,
            dice=dice_of(tr, entry),
            recent=self._recent_html(),
            share=self._share_html() if self.sharing else "",
            can_share=entry.kind in ("roll", "contest"),
            shown=True,
            seq=seq,
        )
        self.box.param.update(roll=roll, **labels)
        self._more(entry)

    def offer(self, actions: Callable[[Any], RollActions | None]) -> None:
        """Let a screen speak of the roll shown and offer what can be done with it: ``actions(entry)``
        says it (a :class:`RollActions`), or returns None for a roll that is not its own."""
        self._offers.append(actions)

    def refresh(self) -> None:
        """Draw the shown roll again (its screen's words on it have changed)."""
        self._draw()

    def _more(self, entry: Any) -> None:
        """Its screen's words under the roll shown, what it offers there, and *Reveal* for a secret roll."""
        found = None if entry is None else next((a for a in (o(entry) for o in self._offers) if a is not None), None)
        actions = list(found.actions) if found else []
        if entry is not None and entry.hidden and entry.kind in ("roll", "contest"):
            actions.append(("reveal", self.tr(N_("Reveal")), False))
        act = found.act if found else None

        def acted(key: str) -> None:
            if key == "reveal" and entry is not None:
                self.state.reveal(entry)
            elif act is not None and key in {k for k, _label, off in actions if not off}:
                act(key)

        self._act = acted
        self.box.param.update(
            note=found.note if found else "",
            actions=[{"key": k, "label": label, "disabled": off} for k, label, off in actions],
        )

    def _action_tapped(self, key: str) -> None:
        if self._act is not None:
            self._act(key)

    def press(self, key: str) -> None:
        """Tap the shown roll's action ``key`` (as the browser does)."""
        self.box.press(key)

    def _recent_html(self) -> str:
        tr = self.tr
        rows = []
        for entry in self.recent:
            outcome, css, _detail = outcome_of(tr, entry)
            what = " — ".join(part for part in (entry.character, ability_text(tr, entry)) if part)
            rows.append(
                '<div class="k-recent-row" data-testid="recent-roll">'
                f"{dice_of(tr, entry)}"
                f'<span class="{css}">{escape(outcome)}</span>'
                + (f'<span class="muted">{escape(what)}</span>' if what else "")
                + "</div>"
            )
        if not rows:
            return ""
        return f'<div class="k-recent"><div class="k-recent-title">{escape(tr(N_("Recent rolls")))}</div>{"".join(rows)}</div>'

    def show_odds(self, *_: Any) -> None:
        """Chart the check being set up on the screen, as its inputs change."""
        html = self._odds_html()
        if self.box.odds != html:
            self.box.odds = html

    def _odds_html(self) -> str:
        tr, system = self.tr, self.checking()
        found = next_odds(tr, system, self.state.desks[system]) if system in self.state.desks else None
        if found is None:
            return ""
        what, p_success, parts = found
        title = tr(N_("Next roll: {what}"), what=what)
        chance = tr(N_("{p} chance of success"), p=percent(p_success))
        shown = [(key, label, p) for key, label, p in parts if p > 0]
        summary = ", ".join(f"{label} {percent(p)}" for _key, label, p in shown)
        bar = "".join(
            f'<span class="k-seg {key}" style="width:{float(p) * 100:.3f}%;background:{OUTCOME_COLOURS[key]}"></span>'
            for key, _label, p in shown
        )
        legend = "".join(
            f'<span><i class="k-sw" style="background:{OUTCOME_COLOURS[key]}"></i>{escape(label)} {percent(p)}</span>'
            for key, label, p in shown
        )
        return (
            '<div class="k-odds" data-testid="next-odds">'
            f'<div class="k-odds-title">{escape(title)} · <b data-testid="next-chance">{escape(chance)}</b></div>'
            f'<div class="k-bar" role="img" aria-label="{escape(summary)}">{bar}</div>'
            f'<div class="k-legend">{legend}</div></div>'
        )

    # -- sharing -----------------------------------------------------------------------------------------------
    def _share_tapped(self, *_: Any) -> None:
        self.sharing = not self.sharing and self.entry is not None
        self._draw()

    def _share_html(self) -> str:
        tr, entry = self.tr, self.entry
        try:
            share = entry_link(entry)
        except InputError:
            return ""
        url = links.link_url(self.base_url(), share.link)
        try:
            qr = f'<div class="k-qr" data-testid="result-qr">{qr_svg(url, scale=8)}</div>'
        except InputError:
            qr = ""
        hint = escape(tr(N_("Show this code across the table, or give out the link.")))
        return f'<div class="note">{hint}</div>{qr}<div class="k-link" data-testid="result-link">{escape(url)}</div>'

    def __panel__(self) -> pn.viewable.Viewable:
        return self.box
