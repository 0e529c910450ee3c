"""Browser-side helpers: local storage and the page theme.

:class:`BrowserStore` is a tiny Panel ``JSComponent`` whose inline ES module
(no imports, so nothing is fetched from a CDN) reads the ``kostka.*`` keys of
``window.localStorage`` when it is first drawn and writes them back whenever
Python changes ``values`` (in the static site the loader hands what the browser
holds to Python with the start, and the component reports nothing itself). It
runs on the page's main thread, so it works the same under ``panel serve`` and
in the Pyodide worker build. It also applies the light/dark palette to the
document, because custom properties set on ``<html>`` reach every Panel
component's shadow root.
"""

from __future__ import annotations

import param

from .component import Component

__all__ = ["DARK", "LIGHT", "BrowserStore"]

#: The two palettes, as CSS custom properties set on <html>.
LIGHT = {
    "--k-bg": "#ffffff",
    "--k-fg": "#14171a",
    "--k-muted": "#4a5560",
    "--k-surface": "#f2f4f6",
    "--k-input-bg": "#ffffff",
    "--k-border": "#6b7781",
    "--k-accent": "#0b5cad",
    "--k-on-accent": "#ffffff",
    "--k-good": "#1b7a3a",
    "--k-bad": "#b3261e",
    "--k-warn": "#8a5a00",
    "--k-die": "#fdfcf7",
    "--k-die-stroke": "#14171a",
}
DARK = {
    "--k-bg": "#121416",
    "--k-fg": "#e9ecef",
    "--k-muted": "#aab4bd",
    "--k-surface": "#1d2125",
    "--k-input-bg": "#1a1d20",
    "--k-border": "#8994a0",
    "--k-accent": "#6cb2ff",
    "--k-on-accent": "#0b1320",
    "--k-good": "#6fd48c",
    "--k-bad": "#ff8a80",
    "--k-warn": "#f3c46b",
    "--k-die": "#23272b",
    "--k-die-stroke": "#e9ecef",
}


class BrowserStore(Component):
    """Two-way bridge to ``localStorage`` for the keys in ``keys``.

    ``values`` maps each key to its stored text ('' when absent); ``loaded``
    turns True once the browser has reported what it holds. ``theme`` is applied
    to the page (``"light"`` or ``"dark"``). When Python sets ``ready`` the page gets
    ``<html data-kostka="ready">``: the app has read the address and the stored
    data and answers taps (tests and the loading screen can wait for it).

    Two tabs share the storage: a key is written only while the browser still holds what this tab
    last knew it held. When another tab has written it (the browser's ``storage`` event, or a
    write that finds other text), the component reports ``outside`` (what this tab knew, and what
    is there now) and writes nothing more until Python has merged the two and set ``merged``; what
    Python then sets is written over the other tab's text. ``failed`` lists the keys the browser
    refused (storage full): their data stays in the page.
    """

    keys = param.List(default=[], doc="localStorage keys to mirror")
    values = param.Dict(default={}, doc="key -> stored text")
    loaded = param.Boolean(default=False)
    theme = param.Selector(default="light", objects=["light", "dark"])
    palettes = param.Dict(default={"light": LIGHT, "dark": DARK})
    ready = param.Boolean(default=False, doc="Set by Python once stored data is applied: <html data-kostka=ready>")
    outside = param.Dict(
        default={}, doc="What another tab wrote: {seq, base: {key: text this tab knew}, theirs: {key: text now}}"
    )
    merged = param.Integer(default=0, doc="Set by Python: the last ``outside`` seq merged; writes wait for it")
    failed = param.List(default=[], doc="Keys the browser refused to write (storage full or disabled)")

    _esm = """
function applyTheme(model) {
  const palette = model.palettes[model.theme] || {};
  const root = document.documentElement;
  for (const [name, value] of Object.entries(palette)) root.style.setProperty(name, value);
  root.dataset.theme = model.theme;
  document.body && (document.body.style.background = palette["--k-bg"] || "");
  document.body && (document.body.style.color = palette["--k-fg"] || "");
}

function readAll(model) {
  const out = {};
  for (const key of model.keys) {
    let text = null;
    try { text = window.localStorage.getItem(key); } catch (e) { text = null; }
    out[key] = text === null ? "" : text;
  }
  return out;
}

export function render({ model, el }) {
  el.style.display = "none";
  applyTheme(model);
  let last = readAll(model);
  // Report what the browser holds, unless the static site's loader has handed it to Python with
  // the start already. A change made while the page is first drawn can be lost on its way to
  // Python, so repeat until Python answers. (Still starting, it can take a while: keep asking,
  // less and less often.)
  const handed = Boolean(window.KostkaLoader && window.KostkaLoader.visitHanded);
  let delay = 100;
  let tries = 0;
  const report = () => {
    if (model.ready || tries++ > 120) return;  // about ten minutes at most
    model.values = readAll(model);
    model.loaded = true;
    setTimeout(report, delay);
    delay = Math.min(delay * 2, 5000);
  };
  if (!handed) setTimeout(report, 0);
  // Another tab wrote (the "storage" event), or storage no longer holds what this tab last knew
  // when it comes to write: tell Python what it holds now and what this tab knew before (the base of
  // its merge), and write nothing more until Python has merged (``merged`` reaches ``seq``).
  let seq = 0;
  const outside = (changes) => {
    const base = {};
    const theirs = {};
    for (const [key, text] of Object.entries(changes)) {
      base[key] = last[key] === undefined ? "" : last[key];
      theirs[key] = text === null ? "" : text;
      last[key] = theirs[key];
    }
    seq += 1;
    const report = { seq, base, theirs };
    // not while the page applies a change from Python (a change made then is not sent back)
    setTimeout(() => { model.outside = report; }, 0);
  };
  window.addEventListener("storage", (event) => {
    if (event.storageArea !== window.localStorage) return;
    if (event.key === null) outside(readAll(model));  // cleared
    else if (model.keys.includes(event.key)) outside({ [event.key]: event.newValue });
  });
  // Write what Python has set, once it has read the storage. Its answer to the loader's visit may
  // be here before this component is drawn: what differs from the browser's is written then.
  let refused = [];
  const save = () => {
    if (!model.loaded || model.merged < seq) return;
    const changed = {};
    const failed = [];
    for (const [key, text] of Object.entries(model.values)) {
      if (last[key] === text) continue;
      let now = null;
      try { now = window.localStorage.getItem(key); } catch (e) { now = null; }
      if ((now === null ? "" : now) !== (last[key] === undefined ? "" : last[key])) {
        changed[key] = now;  // written by another tab since: merged first
        continue;
      }
      try {
        if (text === "") window.localStorage.removeItem(key);
        else window.localStorage.setItem(key, text);
        last[key] = text;
      } catch (e) {
        failed.push(key);  // storage full or disabled: Python says so, the data stays in the page
      }
    }
    if (Object.keys(changed).length) outside(changed);
    if (failed.join() !== refused.join()) {
      refused = failed;
      setTimeout(() => { model.failed = failed; }, 0);  // as above
    }
  };
  save();
  model.on("values", save);
  model.on("loaded", save);
  model.on("merged", save);
  model.on("theme", () => applyTheme(model));
  const markReady = () => { if (model.ready) document.documentElement.dataset.kostka = "ready"; };
  model.on("ready", markReady);
  markReady();
}
"""
