"""Pieces every screen uses: translated labels, validated text fields, touch-sized widgets."""

from __future__ import annotations

import asyncio
import sys
import weakref
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, nullcontext
from html import escape
from pathlib import Path
from typing import Any, ClassVar

import panel as pn
import param
from bokeh.models import Pane
from panel.io.document import freeze_doc, hold
from panel.io.state import set_curdoc

from engine import InputError
from engine.sheets import SHEETS
from engine.sheets import caps as _caps

from ..i18n import N_, Translator, error_text, percent
from ..state.forms import parse_int
from .component import Component, LockedChanges

__all__ = [
    "APP_CSS",
    "APP_CSS_FILE",
    "SHEET_VIEWS",
    "Binder",
    "ChartFold",
    "Fold",
    "ScreenPlace",
    "ScreenPlaces",
    "NumberInput",
    "PanePart",
    "PaneParts",
    "TextField",
    "after_drawn",
    "after_this_change",
    "button",
    "checkbox",
    "complete",
    "complete_once_drawn",
    "first_screen_first",
    "hold_back",
    "html_pane",
    "is_shown",
    "percent",
    "models_frozen",
    "secret_checkbox",
    "select",
    "set_shown",
    "view_switch",
    "wrap_row",
]

#: The two views of a sheet: play (one-tap rows) and edit (the whole form).
SHEET_VIEWS = {"play": N_("Play"), "edit": N_("Edit")}

#: Kostka's own stylesheet (``webapp/kostka.css``), applied inside every component: touch-sized
#: controls, readable type, colours from the page palette, the dice. The static site serves it under
#: the same name; there every component links this one file instead of carrying its own copy of the
#: text (which made the first page's document five times bigger).
APP_CSS_FILE = "kostka.css"
APP_CSS = (Path(__file__).resolve().parents[1] / APP_CSS_FILE).read_text(encoding="utf-8")


def models_frozen(doc: Any) -> AbstractContextManager:
    """While it lasts, Bokeh walks the document's models once, at the end, instead of each time a
    model is added (a root, a tooltip…). No document (plain Python): nothing to freeze."""
    return doc.models.freeze() if doc is not None else nullcontext()


@contextmanager
def models_joining(doc: Any, within: Any) -> Iterator[None]:
    """While it lasts, models may join ``doc`` inside the Panel object ``within`` (a column gaining
    parts) and nowhere else, and none may leave it: at the end only the models under ``within``'s
    are walked, and those new to the document added to it, where Bokeh would walk every model in it
    again (``models.recompute``: the larger part of a still moment's step). Inside another freeze,
    that one's whole walk follows as usual. No document: nothing to do.

    The private names used here are listed in ``kostka_build/internals.py``; the tests compare the
    document's models after each still moment's step with Bokeh's own whole walk."""
    if doc is None:
        yield
        return
    manager = doc.models
    manager._freeze_count += 1  # as models.freeze(), without the whole walk at its end
    try:
        yield
    finally:
        manager._freeze_count -= 1
        if manager._freeze_count == 0:
            known = manager._models
            for model, _ in list(within._models.values()):
                if model.document is not doc:
                    continue
                for joining in model.references():
                    if joining.id not in known:
                        known[joining.id] = joining
                        if joining.name is not None:
                            manager._models_by_name.add_value(joining.name, joining)
                        joining._attach_document(doc)
                        manager._new_models.add(joining)


#: Whether each change goes to the page as it is made: so in the browser's worker (Panel's
#: ``_link_docs_worker``); a Panel server's session may send a callback's changes together.
SENT_AS_MADE = sys.platform == "emscripten"


def after_this_change(step: Callable[[], None]) -> None:
    """Run ``step`` once what is being changed now has gone to the page: in the browser's worker,
    on the event loop's next turn, in the same document, so that the page draws the first change
    while Python makes the next. Elsewhere (a Panel server, plain Python) it runs at once."""
    loop = None
    if SENT_AS_MADE:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            pass
    if loop is None:
        step()
        return
    doc = pn.state.curdoc

    def in_doc() -> None:
        with set_curdoc(doc):
            step()

    loop.call_soon(in_doc)


#: Per document, what runs a step once its page has drawn what it was sent before it (the page's
#: :class:`~webapp.views.still.StillPage`, once the page is linked).
drawn_by: weakref.WeakKeyDictionary[Any, Callable[[Callable[[], None]], None]] = weakref.WeakKeyDictionary()


def after_drawn(step: Callable[[], None]) -> None:
    """Run ``step`` once the page has drawn what is being changed now: it shows that first, before
    it takes in what ``step`` changes (a page takes in every change that has come before it draws
    its next frame). Without a page that says so, as :func:`after_this_change`."""
    doc = pn.state.curdoc
    later = drawn_by.get(doc) if SENT_AS_MADE and doc is not None else None
    (later or after_this_change)(step)


#: Each column whose lower parts are held back (:func:`hold_back`): the parts it shows, and all of them.
_held: weakref.WeakKeyDictionary[pn.Column, tuple[list[Any], list[Any]]] = weakref.WeakKeyDictionary()


def hold_back(view: Any) -> None:
    """Keep only ``view``'s first screen in the page: each column of its ``first_screen`` (pairs of a
    column and how many of its first parts a first screen needs) keeps its first parts, and the rest
    waits for :func:`complete`."""
    for column, n in view.first_screen:
        parts = list(column.objects)
        if len(parts) > n and column not in _held:
            first = parts[:n]
            _held[column] = (first, parts)
            column.objects = first


def complete(view: Any, one_part: bool = False) -> bool:
    """Put back what :func:`hold_back` held of ``view`` (unless its columns have changed since);
    with ``one_part``, only its next part (a still moment's step: a tap landing in it waits for one
    part's models). Whether anything was held."""
    held = False
    for column, _ in view.first_screen:
        shown_parts = _held.pop(column, None)
        if shown_parts is None:
            continue
        held = True
        shown, parts = shown_parts
        if column.objects != shown:
            continue  # changed since: what it holds now stays
        shown = parts[: len(shown) + 1] if one_part else parts
        if len(shown) < len(parts):
            _held[column] = (shown, parts)
        with models_joining(pn.state.curdoc, column):
            column.objects = shown
        if one_part:
            return True
    return held


#: The views whose held parts are being put back, one part each time the page has drawn the one
#: before (:func:`complete_once_drawn`).
_completing: weakref.WeakSet[Any] = weakref.WeakSet()


def complete_once_drawn(view: Any, shown: Callable[[], bool]) -> None:
    """:func:`complete` ``view`` once the page has drawn what is changing now (:func:`after_drawn`),
    if anything of it is held back: a screen whose first screen alone was drawn, shown on a tap,
    shows that at once, and the parts below it follow while the player reads it, one part each
    time the page has drawn the one before (a tap meanwhile waits for one part, not for all of
    them). Once the screen is no longer ``shown``, the rest waits until it is shown again (or for
    still moments: :func:`complete` with ``one_part``)."""

    def next_part() -> None:
        if shown() and complete(view, one_part=True):
            after_drawn(next_part)
        else:
            _completing.discard(view)

    if view not in _completing and any(column in _held for column, _ in view.first_screen):
        _completing.add(view)
        after_drawn(next_part)


def first_screen_first(view: Any, shown: Callable[[], bool]) -> None:
    """Send ``view``'s first screen to the page now and the rest once it has drawn it, while it is
    ``shown`` (:func:`complete_once_drawn`): a screen drawn on a tap shows its first screen sooner.
    Elsewhere the screen goes whole."""
    hold_back(view)
    complete_once_drawn(view, shown)


class ScreenPlace(pn.layout.ListPanel):
    """A screen's place in the page (in :class:`ScreenPlaces`), drawn as a Bokeh ``Pane``, which is
    no layout, so that the screen in it is a layout root of its own. BokehJS works a layout out
    again, each time one of its parts changes or is shown, over every view up to its root: a screen
    whose layout ends at its place is worked out alone (a system's screen shown again, a fight
    opened), without the header, the menu and the screens hidden beside it. Only the place's
    objects, visibility, classes and styles reach the page; its sizes are its screen's (``parts``,
    in a column as wide as the page). The private Panel names it relies on are listed in
    ``kostka_build/internals.py``."""

    _bokeh_model: ClassVar[type[Pane]] = Pane
    _rename: ClassVar[Mapping[str, str | None]] = {"objects": "elements", "scroll": None}
    _properties: ClassVar[frozenset[str]] = frozenset(Pane.properties())

    def __init__(self, *parts: Any, **params: Any) -> None:
        super().__init__(pn.Column(*parts, sizing_mode="stretch_width", margin=0), **params)

    @property
    def parts(self) -> list[Any]:
        """The screen's parts, top to bottom."""
        return self.objects[0].objects

    def _process_param_change(self, params: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in super()._process_param_change(params).items() if k in self._properties}

    def _compute_sizing_mode(self, children: list[Any], props: dict[str, Any]) -> dict[str, Any]:
        return {}

    def _update_model(
        self, events: dict[str, Any], msg: dict[str, Any], root: Any, model: Any, doc: Any, comm: Any
    ) -> None:
        # A layout's own update reads sizes off its model, which a Pane has not: the objects' models
        # are made here, as a layout makes them, and the rest is any component's update.
        if "elements" not in msg:
            super(pn.layout.base.Panel, self)._update_model(events, msg, root, model, doc, comm)
            return
        elements, old_elements = self._get_objects(model, events["objects"].old, doc, root, comm)
        with hold(doc), freeze_doc(doc, model, msg, force=True):
            super(pn.layout.base.Panel, self)._update_model(
                events, {**msg, "elements": elements}, root, model, doc, comm
            )
            view = pn.state._views.get(root.ref["id"])
            if view is not None:
                view[0]._preprocess(root, self, old_elements)


class ScreenPlaces(pn.Column):
    """A column of screens' places (:class:`ScreenPlace`): a Panel layout works its sizes out from
    its parts' sizes, which a place has not."""

    def _compute_sizing_mode(self, children: list[Any], props: dict[str, Any]) -> dict[str, Any]:
        return super()._compute_sizing_mode([c for c in children if not isinstance(c, Pane)], props)


class Binder:
    """Keeps translated texts on widgets up to date with the session's language."""

    def __init__(self, tr: Translator) -> None:
        self.tr = tr
        self._updates: list[Callable[[], None]] = []
        tr.param.watch(self._refresh, "lang")

    def _refresh(self, *_: Any) -> None:
        # a text can bring a new model: a button's description is a tooltip
        with models_frozen(pn.state.curdoc):
            for update in self._updates:
                update()

    def on_lang(self, update: Callable[[], None]) -> None:
        """Run ``update`` now and after every language change."""
        self._updates.append(update)
        update()

    def text(self, obj: Any, attr: str, msgid: str, **fmt: Any) -> Any:
        """Set ``obj.attr`` to the translation of ``msgid`` (now and on every switch)."""
        self.on_lang(lambda: setattr(obj, attr, self.tr(msgid, **fmt)))
        return obj

    def options(self, widget: Any, labels: dict[str, str]) -> Any:
        """Give a Select/RadioButtonGroup translated option labels for fixed values."""

        def update() -> None:
            value = widget.value
            widget.options = {self.tr(msg): key for key, msg in labels.items()}
            if isinstance(value, list):
                widget.value = [v for v in value if v in labels]
            elif value in labels:
                widget.value = value

        self.on_lang(update)
        return widget


class TextInput(LockedChanges, pn.widgets.TextInput):
    """A text input whose typed text reaches Python before any later tap.

    Panel delays a widget's value changes by 50 ms on a server but handles a
    button's click on the next tick, so "type 200, tap Simulate" could run
    with the old number. Changes marked as priority are queued like clicks,
    in the order they happened.
    """

    _priority_changes: ClassVar[list[str]] = ["value", "value_input"]


def button(label: str = "", kind: str = "default", **kw: Any) -> pn.widgets.Button:
    kw.setdefault("min_width", 44)
    kw.setdefault("height", 48)
    return pn.widgets.Button(name=label, button_type=kind, **kw)


class Fold(pn.viewable.Viewer):
    """Part of a screen folded away under a button (*Show the charts*) until asked for.

    What it holds is made and kept up to date in Python either way; only an open fold puts it in
    the page, so a screen that is shown draws none of it. Once opened, the fold stays open (a tap
    on its button, now *Hide the charts*, folds it again), also when the player comes back to the
    screen. ``show`` and ``hide`` are the button's two texts (message ids). ``build``, if given,
    makes the rest of what it holds when it is first opened (widgets a screen may never need).
    """

    opened = param.Boolean(default=False)

    def __init__(
        self,
        binder: Binder,
        *content: pn.viewable.Viewable,
        show: str,
        hide: str,
        build: Callable[[], list[pn.viewable.Viewable]] | None = None,
        width: int = 220,
        **params: Any,
    ) -> None:
        super().__init__(**params)
        self._content = list(content)
        self._build = build
        self.tr = binder.tr
        self._texts = (show, hide)
        self.toggle = button("", width=width, css_classes=["k-fold"])
        self.toggle.on_click(lambda e: setattr(self, "opened", not self.opened))
        self._slot = pn.Column(self.toggle, sizing_mode="stretch_width", margin=0)
        binder.on_lang(self._label)
        self.param.watch(self._show, "opened")

    @property
    def content(self) -> list[pn.viewable.Viewable]:
        """What the fold holds (made now if it is made on first opening)."""
        if self._build is not None:
            build, self._build = self._build, None
            self._content += build()
        return self._content

    def _label(self) -> None:
        self.toggle.name = self.tr(self._texts[self.opened])

    def _show(self, *_: Any) -> None:
        self._label()
        self._slot.objects = [self.toggle, *self.content] if self.opened else [self.toggle]

    def __panel__(self) -> pn.viewable.Viewable:
        return self._slot


class ChartFold(Fold):
    """A screen's charts, folded away under *Show the charts* until asked for."""

    def __init__(
        self,
        binder: Binder,
        *charts: pn.viewable.Viewable,
        show: str = N_("Show the charts"),
        hide: str = N_("Hide the charts"),
        **params: Any,
    ) -> None:
        super().__init__(binder, *charts, show=show, hide=hide, **params)


def choice(**kw: Any) -> pn.widgets.RadioButtonGroup:
    """One of a few options as buttons side by side. Its ``height`` is that of one line of buttons:
    a group too wide for its screen wraps and grows (kostka.css ``.k-choice``), instead of running
    under what follows it."""
    kw.setdefault("height", 48)
    kw["css_classes"] = ["k-choice", *kw.get("css_classes", [])]
    kw["styles"] = {"--k-choice-line": f"{kw['height']}px", **kw.get("styles", {})}
    return pn.widgets.RadioButtonGroup(**kw)


def checkbox(label: str = "", **kw: Any) -> pn.widgets.Checkbox:
    kw.setdefault("height", 44)
    return pn.widgets.Checkbox(name=label, **kw)


def select(**kw: Any) -> pn.widgets.Select:
    kw.setdefault("height", 66)
    return pn.widgets.Select(**kw)


class WrapRow(pn.Row):
    """A row whose objects wrap onto further lines (``k-wrap`` in kostka.css): it needs no more
    width than its widest object, so it asks the layouts around it for none. (A Panel row asks for
    its objects' widths side by side, which would widen the page around it.)"""

    def _compute_sizing_mode(self, children: list[Any], props: dict[str, Any]) -> dict[str, Any]:
        sizes = super()._compute_sizing_mode(children, props)
        sizes.pop("min_width", None)
        return sizes


def wrap_row(*objects: Any, align: str = "flex-start", **kw: Any) -> pn.Row:
    """``objects`` side by side, wrapping onto further lines when the row is too narrow, each line's
    objects aligned by ``align`` (a CSS ``align-items``: ``"flex-end"`` lines fields up by their
    inputs, ``"center"`` by their middles). A Bokeh row, which a browser draws as one element (a
    ``pn.FlexBox`` is a template drawn by the page's script, with a data model of its own)."""
    kw["css_classes"] = ["k-wrap", *kw.get("css_classes", [])]
    kw["styles"] = {"align-items": align, **kw.get("styles", {})}
    return WrapRow(*objects, **kw)


def set_shown(widget: Any, shown: bool) -> None:
    """Show or hide ``widget`` where it is, by its style. The page lays out its whole document again
    when a model's ``visible`` changes (Bokeh's ``LayoutDOMView`` takes it as a change of sizing):
    17–26 ms a button with the CPU 4× slower, on The One Ring's screen. A style is only applied to
    the element: ``display: none``, and an empty ``display`` to show it again (the browser then
    removes it; a None would reach the page as ``undefined``, which it refuses)."""
    if is_shown(widget) != shown:
        widget.styles = {**widget.styles, "display": "" if shown else "none"}


def is_shown(widget: Any) -> bool:
    """Whether :func:`set_shown` left ``widget`` shown (and ``visible`` says so too)."""
    return bool(widget.visible) and widget.styles.get("display") != "none"


def html_pane(text: str = "", **kw: Any) -> pn.pane.HTML:
    if "width" not in kw:
        kw.setdefault("sizing_mode", "stretch_width")
    kw.setdefault("margin", (2, 5))
    return pn.pane.HTML(text, **kw)


#: What a number field accepts while it is typed: digits with an optional leading sign (the
#: minus may be typed as "-" or "\u2212"). A value outside it is marked wrong, never refused.
SIGNED_PATTERN = "[\\-+\u2212]?[0-9]*"  # (the "-" escaped: browsers read a pattern in Unicode-sets mode)
UNSIGNED_PATTERN = "[0-9]*"


def field_bounds(
    model: param.Parameterized, key: str, bounds: tuple[int | None, int | None] | None = None
) -> tuple[int | None, int | None]:
    """The bounds of ``model``'s field ``key``: ``bounds`` when given, else the model's ``BOUNDS`` for
    it (None for a side without one)."""
    return bounds if bounds is not None else getattr(type(model), "BOUNDS", {}).get(key, (None, None))


#: The look of a number field: its label above, its error under it, a red frame when it is wrong,
#: − and + a finger's square either side (NumberInput, and each field of an EditSheet).
FIELD_CSS = """
.number-field { display: flex; flex-direction: column; }
.number-label { font-size: 15px; margin-bottom: 2px; }
input.bk-input { width: 100%; box-sizing: border-box; padding: 0 8px; border: 1px solid var(--k-border, #6b7781);
  border-radius: 4px; }
input.bk-input:focus { outline: 3px solid var(--k-accent, #0b5cad); outline-offset: 0; }
.number-field.invalid input.bk-input { border: 3px solid var(--k-bad, #b3261e); }
.number-field.invalid .number-label { color: var(--k-bad, #b3261e); font-weight: 600; }
.field-error:empty { display: none; }
.number-row { display: flex; align-items: stretch; gap: 2px; }
.number-row input.bk-input { flex: 1 1 auto; min-width: 44px; text-align: center; padding: 0 4px; }
button.number-step { flex: 0 0 44px; width: 44px; min-width: 44px; min-height: 44px; padding: 0; margin: 0;
  font-size: 22px; line-height: 1; border: 1px solid var(--k-border, #6b7781); border-radius: 4px;
  touch-action: manipulation; cursor: pointer; }
button.number-step:disabled { opacity: 0.4; cursor: default; }
button.number-step:focus-visible { outline: 3px solid var(--k-accent, #0b5cad); outline-offset: 0; }
"""


class NumberInput(Component):
    """A labelled text field for a whole number, with its error written under it.

    Bokeh's own text input draws itself again whenever its title changes, which
    throws the user out of the field (and closes a tablet's keyboard) in the
    middle of typing "-2". Here the label, the error line and the red frame are
    changed in place, the typed text is never rewritten while the user types,
    and the field asks for a numeric keyboard (``inputmode``) with a
    ``pattern`` that allows a leading minus where the value can be negative.
    ``value_input`` follows every key, ``value`` each committed change.

    With ``stepper`` a − and a + button (44 px squares) sit either side of the
    input: a tap changes the number in the browser at once (within ``minimum``
    and ``maximum``; an empty or unreadable text counts as 0, so a first tap on
    an empty Injury gives 1) and commits it to both ``value_input`` and ``value``. A button at its
    bound is disabled.
    """

    value = param.String(default="")
    value_input = param.String(default="")
    label = param.String(default="")
    error = param.String(default="", doc="The reason the value is wrong ('' when it is right)")
    placeholder = param.String(default="")
    inputmode = param.Selector(default="numeric", objects=["numeric", "decimal", "text"])
    pattern = param.String(default=SIGNED_PATTERN)
    stepper = param.Boolean(default=False, doc="A − and a + button beside the field (set when it is made)")
    minimum = param.Integer(default=None, allow_None=True, doc="The lowest value the − button reaches")
    maximum = param.Integer(default=None, allow_None=True, doc="The highest value the + button reaches")
    less_label = param.String(default="", doc="The − button's accessible name (e.g. 'Decrease Awareness')")
    more_label = param.String(default="", doc="The + button's accessible name")

    _priority_changes: ClassVar[list[str]] = ["value", "value_input"]

    _esm = """
export function render({ model, el }) {
  const label = document.createElement("label");
  label.htmlFor = "number-input";
  label.className = "number-label";
  const input = document.createElement("input");
  input.id = "number-input";
  input.type = "text";
  input.className = "bk-input";
  input.autocomplete = "off";
  input.spellcheck = false;
  input.setAttribute("autocapitalize", "off");
  const error = document.createElement("div");
  error.id = "number-error";
  error.className = "field-error";
  error.setAttribute("aria-live", "polite");
  el.classList.add("number-field");
  let less = null, more = null;
  if (model.stepper) {
    const step = (text, cls) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = `bk-btn bk-btn-default number-step ${cls}`;
      b.textContent = text;
      return b;
    };
    less = step("\u2212", "number-less");
    more = step("+", "number-more");
    const row = document.createElement("div");
    row.className = "number-row";
    row.append(less, input, more);
    el.classList.add("has-stepper");
    el.append(label, row, error);
  } else {
    el.append(label, input, error);
  }
  // The number the text stands for (a leading "\u2212" is a minus), null when it is none.
  const read = () => {
    const text = input.value.trim().replace(/^\u2212/, "-");
    return /^[-+]?[0-9]+$/.test(text) ? parseInt(text, 10) : null;
  };
  const clamp = (n) => {
    if (model.minimum !== null && n < model.minimum) n = model.minimum;
    if (model.maximum !== null && n > model.maximum) n = model.maximum;
    return n;
  };
  const bounds = () => {
    if (!less) return;
    const n = read();
    less.disabled = n !== null && model.minimum !== null && n <= model.minimum;
    more.disabled = n !== null && model.maximum !== null && n >= model.maximum;
  };
  // The texts this field sent (keys typed, steps tapped) that Python has not answered yet: its
  // answers come in order, so the echo of an earlier one must not overwrite what came after it
  // (while the user types, or taps + again before the first tap's answer is back).
  let pending = [];
  const sent = (text) => {
    pending.push(text);
    if (pending.length > 100) pending.shift();
  };
  // A value this field commits itself (its own change event, heard at once) is no answer.
  let committing = false;
  const commit = (text) => {
    committing = true;
    try { model.value = text; } finally { committing = false; }
  };
  const show = () => {
    label.textContent = model.label;
    input.inputMode = model.inputmode;
    if (model.pattern) input.pattern = model.pattern; else input.removeAttribute("pattern");
    input.placeholder = model.placeholder;
    if (less) {
      less.setAttribute("aria-label", model.less_label || "\u2212");
      more.setAttribute("aria-label", model.more_label || "+");
      less.title = model.less_label;
      more.title = model.more_label;
    }
    error.textContent = model.error;
    if (model.error) {
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", "number-error");
      el.classList.add("invalid");
    } else {
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
      el.classList.remove("invalid");
    }
  };
  input.value = model.value;
  input.addEventListener("input", () => {
    sent(input.value);
    model.value_input = input.value;
    bounds();
  });
  input.addEventListener("change", () => commit(input.value));
  model.on("value", () => {
    if (committing) return;
    const answered = pending.indexOf(model.value);
    if (answered >= 0) {
      pending.splice(0, answered + 1);  // an answer to this field: what was sent after it stays
      return;
    }
    pending = [];  // a value from Python itself (another character, a loaded sheet…)
    if (input.value !== model.value) input.value = model.value;
    bounds();
  });
  if (less) {
    const tap = (delta) => {
      const n = read();
      const text = String(clamp((n === null ? 0 : n) + delta));
      input.value = text;
      sent(text);
      model.value_input = text;
      commit(text);
      bounds();
    };
    less.addEventListener("click", () => tap(-1));
    more.addEventListener("click", () => tap(1));
    for (const name of ["minimum", "maximum"]) model.on(name, bounds);
    bounds();
  }
  for (const name of ["label", "error", "placeholder", "inputmode", "pattern", "less_label", "more_label"]) {
    model.on(name, show);
  }
  show();
}
"""

    _stylesheets: ClassVar[list[str]] = [FIELD_CSS]


#: A stepper's button (a finger's square) and the gap beside it.
STEP_BUTTON = 44
STEP_GAP = 2


def stepper_width(low: int | None, high: int | None, width: int = 0) -> int:
    """The width a stepper field needs: two buttons and room for its longest number (at least ``width``)."""
    digits = max(len(str(low)) if low is not None else 3, len(str(high)) if high is not None else 3)
    return max(width, 2 * (STEP_BUTTON + STEP_GAP) + max(STEP_BUTTON, 12 + 9 * digits))


#: The accessible names of a stepper's buttons ("Decrease Awareness", "Increase Awareness").
LESS_LABEL = N_("Decrease {field}")
MORE_LABEL = N_("Increase {field}")


def number_input(label: str = "", value: str = "", *, signed: bool = True, width: int = 120, **kw: Any) -> NumberInput:
    """A :class:`NumberInput` (a numeric keyboard; a leading minus allowed when ``signed``); with
    ``stepper=True`` at least as wide as its buttons and its longest number need."""
    if kw.get("stepper"):  # a little less margin: a rating's stepper, ★ and ⚄ share a 250 px column
        kw.setdefault("margin", (2, 3))
        width = stepper_width(kw.get("minimum"), kw.get("maximum"), width)
    kw.setdefault("margin", (2, 5))
    return NumberInput(
        label=label,
        value=value,
        value_input=value,
        width=width,
        pattern=SIGNED_PATTERN if signed else UNSIGNED_PATTERN,
        **kw,
    )


class TextField(pn.viewable.Viewer):
    """A number field bound to a ``param.String`` of ``model``, showing its own error.

    The raw text stays in the model whatever it is; ``model.errors[key]``
    (an :class:`engine.InputError`) is shown translated under the field with a
    red frame, the label staying as it is (so the field keeps focus and caret
    while a half-typed value is marked wrong).

    ``stepper=True`` puts −/+ buttons beside it, bounded by ``bounds`` or else
    by the model's ``BOUNDS`` for the field; a current value with a maximum on
    the sheet (Hope, HP…) steps no higher than that maximum as it stands.
    """

    def __init__(
        self,
        binder: Binder,
        model: param.Parameterized,
        pname: str,
        label: str,
        *,
        errors_of: param.Parameterized | None = None,
        error_key: str | None = None,
        width: int = 120,
        placeholder: str = "",
        signed: bool | None = None,
        stepper: bool = False,
        bounds: tuple[int | None, int | None] | None = None,
        **label_fmt: Any,
    ) -> None:
        super().__init__()
        self.binder = binder
        self.model = model
        self.pname = pname
        self.label = label
        self.label_fmt = label_fmt
        self.errors_of = errors_of or model
        self.error_key = error_key or pname
        self.bounds = low, high = field_bounds(model, pname, bounds)
        if signed is None:  # a field whose bounds allow a negative value (or are unknown) takes a minus
            signed = low is None or low < 0
        #: the field that caps this one (Hope's maximum…), as the sheet declares it
        system = getattr(type(model), "system", None)
        self.cap = dict(_caps(system)).get(pname) if system in SHEETS else None
        if stepper:
            self.input = number_input(
                value=getattr(model, pname), width=width, signed=signed, stepper=True, minimum=low, maximum=high
            )
            binder.on_lang(self._name_buttons)
            if self.cap is not None and self.cap in model.param:
                model.param.watch(self._cap_changed, self.cap)
                self._cap_changed()
        else:
            self.input = number_input(value=getattr(model, pname), width=width, signed=signed)
        if placeholder:
            binder.text(self.input, "placeholder", placeholder)
        self.input.param.watch(self._typed, "value_input")
        self.input.param.watch(self._typed, "value")
        model.param.watch(self._model_changed, pname)
        self.errors_of.param.watch(self._show_error, "errors")
        binder.on_lang(self._show_error)

    def _name_buttons(self) -> None:
        tr = self.binder.tr
        field = tr(self.label, **self.label_fmt)
        self.input.param.update(less_label=tr(LESS_LABEL, field=field), more_label=tr(MORE_LABEL, field=field))

    def _cap_changed(self, *_: Any) -> None:
        """The + button stops at the capping field's value while that one is a valid number."""
        low, high = self.bounds
        cap_bounds = getattr(type(self.model), "BOUNDS", {}).get(self.cap, (None, None))
        try:
            cap = parse_int(self.cap, getattr(self.model, self.cap), *cap_bounds)
        except InputError:
            cap = None
        maximum = high if cap is None else cap if high is None else min(high, cap)
        if self.input.maximum != maximum:
            self.input.maximum = maximum

    def _typed(self, event: Any) -> None:
        if event.new is not None and getattr(self.model, self.pname) != event.new:
            setattr(self.model, self.pname, event.new)

    def _model_changed(self, event: Any) -> None:
        if self.input.value != event.new:
            self.input.param.update(value=event.new, value_input=event.new)

    @property
    def error_message(self) -> str:
        error = self.errors_of.errors.get(self.error_key)
        return error_text(self.binder.tr, error) if error is not None else ""

    def _show_error(self, *_: Any) -> None:
        label = self.binder.tr(self.label, **self.label_fmt)
        message = self.error_message
        if (self.input.label, self.input.error) != (label, message):
            self.input.param.update(label=label, error=message)

    def __panel__(self) -> pn.viewable.Viewable:
        return self.input


def alert_html(text: str) -> str:
    """A message shown beside a field or button: escaped text, announced by screen readers."""
    return f'<div class="field-error" role="alert">{escape(text)}</div>'


class PanePart:
    """One readout of a :class:`PaneParts`, set as an HTML pane's is (``part.object = html``)."""

    def __init__(self, whole: PaneParts) -> None:
        self._whole = whole
        self._html = ""

    @property
    def object(self) -> str:
        return self._html

    @object.setter
    def object(self, html: str) -> None:
        if html != self._html:
            self._html = html
            self._whole.redraw()


class PaneParts:
    """Readouts shown one under the other in one HTML pane (``pane``): each part is set on its own,
    as a pane of its own would be. One pane is one model for the worker to make and the page to
    draw, where each readout was one."""

    def __init__(self, pane: pn.pane.HTML, count: int) -> None:
        self.pane = pane
        self.parts = [PanePart(self) for _ in range(count)]

    def redraw(self) -> None:
        self.pane.object = "".join(part.object for part in self.parts)


def attempt(action: Callable[[], Any], message: pn.pane.HTML | PanePart, explain: Callable[[InputError], str]) -> None:
    """Run ``action``; if it refuses the input, say why in ``message`` (else clear it) instead of failing."""
    try:
        action()
    except InputError as error:
        message.object = alert_html(explain(error))
        return
    message.object = ""


def show_text(field: TextInput, text: str) -> None:
    """Put ``text`` in ``field`` unless it holds that text as typed already. Compared with what was
    typed (``value_input``), not with the last committed ``value``: as Python's answer to one key
    arrives, the page may hold more keys, and writing the text of that key back wiped them out."""
    if field.value_input != text:
        field.param.update(value=text, value_input=text)


def typed_text(field: TextInput, owner: Any, name: str) -> None:
    """Keep ``field`` and ``owner``'s raw text parameter ``name`` in step both ways: each key's text
    goes to ``owner``, and ``owner``'s text comes back to the field only where it differs from what
    the field holds as typed (a refused character dropped, another character shown)."""
    field.param.watch(lambda e: setattr(owner, name, e.new or ""), "value_input")
    # the owner's text as it stands once its own watchers ran (not the event's: one of them may have
    # set it again)
    owner.param.watch(lambda e: show_text(field, getattr(owner, name)), name)


def name_field(binder: Binder, sheet: Any) -> TextInput:
    """The character's name, kept in step with ``sheet.name_text`` both ways (raw text, as typed;
    the sheet drops refused characters as they are typed)."""
    name = TextInput(value=sheet.name_text, value_input=sheet.name_text, width=260, height=70, max_length=60)
    binder.text(name, "name", N_("Name"))
    typed_text(name, sheet, "name_text")
    return name


def secret_checkbox(binder: Binder, desk: Any) -> pn.widgets.Checkbox:
    """The "secret roll" switch of a desk that has a ``secret`` parameter."""
    box = checkbox(value=desk.secret, width=200, css_classes=["secret-roll"])
    binder.text(box, "name", N_("Secret GM roll"))
    box.link(desk, value="secret", bidirectional=True)
    return box


def view_switch(binder: Binder, roster: Any) -> pn.widgets.RadioButtonGroup:
    """Play or Edit, one tap apart above a sheet. A character that has been filled in opens in Play
    (a stored or imported hero, the one chosen from the list); a new one in Edit, where it is
    filled in. The player's own choice stands until another character is put on the sheet."""
    view = choice(height=44, width=220, css_classes=["k-view"])
    binder.options(view, SHEET_VIEWS)

    def first_view(*_: Any) -> None:
        view.value = "edit" if roster.is_blank() else "play"

    roster.param.watch(first_view, "selected")
    first_view()
    return view
