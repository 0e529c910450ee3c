// Kostka's loader (runs on the page, before anything else): shows what is loading and how far,
// in the user's language; starts the app's worker at once and registers the service worker,
// which on a first visit caches the whole site meanwhile, so the next visit works offline.
(function () {
  "use strict";

  // ---- every uncaught error of the page, and every error the app's worker reports (ui.error below),
  // as a short line in KostkaLoader.errors: tests read it in browsers whose driver shows no console
  // (WebKit's). Only noted, never handled: nothing else changes. Set first, to see the loader's own.
  const errors = [];
  const noteError = (text) => {
    if (errors.length < 50) errors.push(String(text).slice(0, 300));
  };
  window.addEventListener("error", (event) => noteError(`${event.message} (${event.filename}:${event.lineno})`));
  window.addEventListener("unhandledrejection", (event) => {
    const reason = event.reason;
    noteError("unhandled rejection: " + (reason && reason.message ? reason.message : String(reason)));
  });

  const TEXT = {
    en: {
      offline: "Saving for offline use: {files}",
      saved: "Saved for offline use.",
      unsaved: "Not saved for offline use: this device will need the network to open Kostka again.",
      runtime: "Starting the Python runtime",
      packages: "Loading Python packages",
      panel: "Starting the interface",
      app: "Preparing the dice and odds",
      render: "Drawing the screen",
      step: "Step {n} of {total}: {what}…",
      files: "{done} of {total} files",
      mb: "{loaded} of {total} MB",
      seconds: "{s} s",
      hint: "The first start takes a few seconds. After that Kostka also works without a network.",
      error: "Kostka could not start.",
      reload: "Reload",
    },
    ru: {
      offline: "Сохраняем для работы без сети: {files}",
      saved: "Сохранено для работы без сети.",
      unsaved: "Не удалось сохранить для работы без сети: чтобы снова открыть «Костку», этому устройству понадобится сеть.",
      runtime: "Запускаем Python",
      packages: "Загружаем пакеты Python",
      panel: "Запускаем интерфейс",
      app: "Готовим кости и шансы",
      render: "Рисуем экран",
      step: "Шаг {n} из {total}: {what}…",
      files: "{done} из {total} файлов",
      mb: "{loaded} из {total} МБ",
      seconds: "{s} с",
      hint: "Первый запуск занимает несколько секунд. Потом «Костка» работает и без сети.",
      error: "Не удалось запустить «Костку».",
      reload: "Перезагрузить",
    },
    cs: {
      offline: "Ukládáme pro práci bez sítě: {files}",
      saved: "Uloženo pro práci bez sítě.",
      unsaved: "Neuloženo pro práci bez sítě: k dalšímu otevření Kostky bude toto zařízení potřebovat síť.",
      runtime: "Spouštíme Python",
      packages: "Načítáme balíčky Pythonu",
      panel: "Spouštíme rozhraní",
      app: "Připravujeme kostky a šance",
      render: "Vykreslujeme obrazovku",
      step: "Krok {n} z {total}: {what}…",
      files: "{done} z {total} souborů",
      mb: "{loaded} z {total} MB",
      seconds: "{s} s",
      hint: "První spuštění trvá několik sekund. Potom Kostka funguje i bez sítě.",
      error: "Kostku se nepodařilo spustit.",
      reload: "Načíst znovu",
    },
  };
  const STEPS = 5;
  const FAILED_SNAPSHOT = "kostka.failed-snapshot";  // localStorage: see static/worker.js

  function pickLanguage() {
    let stored = null;
    try {
      stored = window.localStorage.getItem("kostka.lang");
    } catch (e) { /* storage may be blocked */ }
    let asked = null;  // ?lang= in the address wins, as in the app
    try {
      asked = new URLSearchParams(location.search).get("lang");
    } catch (e) { /* no address to read */ }
    const wanted = [asked, stored, ...(navigator.languages || []), navigator.language];
    for (const tag of wanted) {
      const code = String(tag || "").toLowerCase().split(/[-_]/)[0];
      if (TEXT[code]) return code;
    }
    return "en";
  }
  const lang = pickLanguage();
  const T = TEXT[lang];
  const fmt = (s, vars) => s.replace(/\{(\w+)\}/g, (_, k) => String(vars[k]));

  const start = performance.now();
  let started;  // resolved once the app is on the screen (or could not start)
  const appStarted = new Promise((resolve) => { started = resolve; });
  // The page's HTML is a megabyte: the worker's first messages and the first ticks can come while
  // the browser has parsed the loading screen's box but not yet the lines inside it. The screen
  // is drawn from `state` once all of it is there (its last element, the reload button, or the
  // whole document), and again on every change and tick; nothing told meanwhile is lost.
  const ui = {
    state: {step: 0, key: null, detail: "", fraction: 0, error: null},
    offline: "",  // how far the service worker is in saving the site for offline use
    el(id) { return document.getElementById(id); },
    parsed() { return document.readyState !== "loading" || Boolean(this.el("kostka-loader-reload")); },
    render() {
      const root = this.el("kostka-loader");
      if (!root || !this.parsed()) return;
      const s = this.state;
      const secs = Math.floor((performance.now() - start) / 1000);
      const text = (id, value) => {
        const el = this.el(id);
        if (el) el.textContent = value;
      };
      if (s.error !== null) {
        root.classList.add("kostka-error");
        root.setAttribute("aria-busy", "false");
        text("kostka-loader-step", T.error);
        text("kostka-loader-detail", s.error);
        const button = this.el("kostka-loader-reload");
        if (button) {
          button.textContent = T.reload;
          button.hidden = false;
          button.onclick = () => location.reload();  // (no inline handler: the page's policy allows none)
        }
        return;
      }
      if (s.key) text("kostka-loader-step", fmt(T.step, {n: s.step, total: STEPS, what: T[s.key]}));
      text("kostka-loader-detail", (s.detail ? s.detail + " · " : "") + fmt(T.seconds, {s: secs}));
      const within = Math.max(0, Math.min(1, s.fraction || 0));
      const fill = this.el("kostka-loader-fill");
      if (fill) fill.style.width = (Math.max(0, s.step - 1) + within) / STEPS * 100 + "%";
      const die = this.el("kostka-loader-die");
      if (die) die.dataset.face = "526314"[secs % 6];
      if (document.readyState !== "loading") text("kostka-loader-hint", this.offline || T.hint);
    },
    set(step, key, detail, fraction) {
      Object.assign(this.state, {step: step, key: key, detail: detail || "", fraction: fraction || 0});
      this.render();
    },
    error(message) {
      noteError(message);
      this.state.error = String(message || "");
      clearInterval(this.timer);
      document.documentElement.dataset.kostkaLoader = "error";
      this.render();
      started();
    },
    done() {
      const root = this.el("kostka-loader");
      clearInterval(this.timer);
      document.documentElement.dataset.kostkaLoader = "ready";
      performance.mark("kostka-interactive");
      started();
      if (root) {
        root.setAttribute("aria-busy", "false");
        root.classList.add("kostka-done");
        setTimeout(() => root.remove(), 250);
      }
    },
  };
  // tick every second, so the screen never looks frozen
  ui.timer = setInterval(() => ui.render(), 1000);
  document.addEventListener("DOMContentLoaded", () => {
    if (!ui.state.key) Object.assign(ui.state, {step: 1, key: "runtime"});
    ui.render();  // what was told while the page was arriving
  });
  document.documentElement.dataset.kostkaLoader = "loading";

  // ---- a status line for the offline saving on a first visit, which runs once the app is drawn
  // (the loading screen is gone by then): how far it is, then "Saved for offline use." for a while.
  function showOffline(text, last, seconds = 6) {
    let line = document.getElementById("kostka-offline-status");
    if (!line) {
      if (!document.body) return;
      line = document.createElement("div");
      line.id = "kostka-offline-status";
      line.setAttribute("role", "status");
      document.body.appendChild(line);
    }
    line.textContent = text;
    if (last) setTimeout(() => line.remove(), seconds * 1000);
  }

  // ---- service worker: caches the whole site for offline use. On a first visit it is installed
  // once the app is on the screen, so that it does not compete with the start-up for the
  // machine; the browser's HTTP cache then answers its requests for everything the app has
  // fetched, so nothing is downloaded twice. The page never waits for it.
  let wasControlled = false;
  const swReady = (async () => {
    if (!("serviceWorker" in navigator) || !window.isSecureContext) return "unsupported";
    try {
      wasControlled = Boolean(navigator.serviceWorker.controller);
      navigator.serviceWorker.addEventListener("message", (event) => {
        const msg = event.data || {};
        // (a progress message may arrive after the service worker has taken over: it is stale then)
        if (msg.type === "kostka-precache" && !wasControlled && !document.documentElement.dataset.kostkaOffline) {
          ui.offline = fmt(T.offline, {files: fmt(T.files, {done: msg.done, total: msg.total})});
          ui.render();
          showOffline(ui.offline, false);
        }
      });
      navigator.serviceWorker.startMessages();
      navigator.serviceWorker.addEventListener("controllerchange", () => {
        // a newer build took over while this (older) page was still starting: start the new one
        if (wasControlled && document.documentElement.dataset.kostkaLoader === "loading") location.reload();
      });
      if (!wasControlled) await appStarted;
      const reg = await navigator.serviceWorker.register("sw.js", {updateViaCache: "none"});
      if (wasControlled) return "controlled";
      const installing = reg.installing || reg.waiting;
      if (!installing) return "uncontrolled";
      await new Promise((resolve) => {
        navigator.serviceWorker.addEventListener("controllerchange", resolve, {once: true});
        installing.addEventListener("statechange", () => {
          if (installing.state === "redundant") resolve();
        });
      });
      return navigator.serviceWorker.controller ? "controlled" : "failed";
    } catch (error) {
      console.warn("Kostka: service worker unavailable, continuing online only", error);
      return "failed";
    }
  })();
  swReady.then((state) => {
    // for tests and curious users: "controlled" means every file is cached and an offline reload works
    document.documentElement.dataset.kostkaOffline = state;
    // a first visit says how the offline saving ended: saved, or not (a file that arrived altered
    // or not at all fails the install, rightly; the player should know the next start needs a network)
    const first = !wasControlled;
    ui.offline = first && state === "controlled" ? T.saved : first && state === "failed" ? T.unsaved : "";
    ui.render();
    if (ui.offline) showOffline(ui.offline, true, state === "failed" ? 20 : 6);
  });

  // ---- what this visit brings the app: the address, and what the browser holds for the app (every
  // "kostka." key but the copies of unreadable data kept aside, which are never read back). The
  // worker has them with its start and reads them while the page draws its first screen (webapp/
  // startup.py, take_visit); the storage component, once drawn, then has nothing left to report.
  function visit() {
    const stored = {};
    try {
      const storage = window.localStorage;
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i);
        if (key && key.startsWith("kostka.") && !key.startsWith("kostka.backup.")) stored[key] = storage.getItem(key);
      }
    } catch (e) { /* storage may be blocked: nothing stored */ }
    return {type: "kostka-visit", location: JSON.stringify(window.location), stored: JSON.stringify(stored)};
  }

  // ---- the app's worker, started at once (before the page has even loaded BokehJS); panel's page
  // code picks it up later and talks to it. Its messages wait until panel's code listens.
  class KostkaWorker {
    constructor(url) {
      this._handler = null;
      this._early = [];
      this._held = null;  // Python's messages waiting for the frame that shows what a component asked to show first
      performance.mark("kostka-worker-start");
      // Its name carries the language, so that the app is drawn in it from the start, and the
      // interpreter snapshot that failed to run the app here before, if any: that start boots afresh.
      let failed = "";
      try {
        failed = window.localStorage.getItem(FAILED_SNAPSHOT) || "";
      } catch (e) { /* storage may be blocked */ }
      this._worker = new Worker(url, {name: `kostka-app:${lang}:${failed}`});
      this._worker.onmessage = (event) => this._dispatch(event);
      this._worker.onerror = (event) => ui.error(event.message);
      this._worker.postMessage(visit());
    }

    get onmessage() {
      return this._handler;
    }

    set onmessage(handler) {
      this._handler = handler;
      const early = this._early;
      this._early = [];
      for (const event of early) this._pass(event);
    }

    _pass(event) {
      // to the page's handler now, or after the messages held before it
      if (this._held) this._held.push(event);
      else this._deliver(event);
    }

    _release() {
      const held = this._held;
      this._held = null;
      held.forEach((event) => this._pass(event));  // one may hold the rest again
    }

    postMessage(msg) {
      this._worker.postMessage(msg);
    }

    _dispatch(event) {
      const msg = event.data || {};
      if (msg.type === "kostka-status") {
        performance.mark("kostka-step-" + msg.key);
        ui.set(msg.step, msg.key);
        return;
      }
      if (msg.type === "kostka-bytes") {
        if (ui.state.step <= 2) {
          const mb = (n) => (n / 1e6).toFixed(1);
          ui.state.detail = fmt(T.mb, {loaded: mb(Math.min(msg.loaded, msg.total)), total: mb(msg.total)});
          ui.state.fraction = ui.state.step === 2 ? msg.loaded / msg.total : 0;
          ui.render();
        }
        return;
      }
      if (msg.type === "kostka-runtime") {
        // for tests and curious users: "snapshot" (restored) or "boot"
        document.documentElement.dataset.kostkaRuntime = msg.from;
        return;
      }
      if (msg.type === "kostka-error") {
        if (msg.snapshot) {
          try {
            window.localStorage.setItem(FAILED_SNAPSHOT, msg.snapshot);
          } catch (e) { /* storage may be blocked */ }
        }
        ui.error(msg.message);
        return;
      }
      if (msg.type === "status") {
        // Panel's own status text (e.g. the last line of a Python error)
        ui.state.detail = String(msg.msg || "");
        ui.render();
        return;
      }
      if (this._handler) this._pass(event);
      else this._early.push(event);
    }

    // Python's changes come one message each. A component that has just drawn what the player is
    // waiting for (a roll's result) asks, by the event "kostka-show-first", that the page show it
    // before it takes in the next ones (the log, the link, the charts): they wait for the frame
    // that paints it. Taken in at once, they held that frame back by up to 0.1 s with the CPU 4×
    // slower. (Without frames, a hidden page, they wait a quarter of a second at most.)
    showFirst() {
      if (this._held) return;
      this._held = [];
      let done = false;
      const release = () => {
        if (done) return;
        done = true;
        this._release();
      };
      requestAnimationFrame(() => setTimeout(release, 0));
      setTimeout(release, 250);
    }

    async _deliver(event) {
      const msg = event.data || {};
      // The page draws the document Python sent without blocking: Python's next messages (the
      // visit's changes, sent at once) wait until it has drawn it and can take them in.
      const drawing = msg.type === "render";
      if (drawing) this._held = [];
      try {
        await this._handler(event);
      } catch (error) {
        console.error(error);
        ui.error(String(error));
        return;
      } finally {
        if (drawing) this._release();
      }
      if (drawing) {
        performance.mark("kostka-rendered");
        // The components that draw themselves in the browser (the sheet's rows, the roll buttons,
        // the result panel) do so once their modules have loaded, up to 0.9 s later with the CPU 4×
        // slower, and the page lays itself out again around them in the next frame (0.15 s of
        // work there): the loading screen stays until that frame is past, so that the screen it
        // uncovers is whole and answers a tap at once (two seconds at most: a hidden page has no
        // frames).
        const modules = (window.importShim && window.importShim.settled) || (async () => {});
        const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
        const laidOut = async () => {
          await modules();
          await frame();
          await frame();
        };
        await Promise.race([laidOut(), new Promise((resolve) => setTimeout(resolve, 2000))]);
        ui.done();
      }
    }
  }

  const appWorker = new KostkaWorker("app.js");
  document.addEventListener("kostka-show-first", () => appWorker.showFirst());

  window.KostkaLoader = {
    language: lang,
    visitHanded: true,  // the storage component leaves reporting what the browser holds to this loader
    errors: errors,  // the page's uncaught errors and the worker's, as short lines (see the top)
    serviceWorker: swReady,
    worker: () => appWorker,  // build.py puts this where panel's page code starts its worker
  };
})();
