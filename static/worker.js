// Kostka's Pyodide worker: loads the runtime and every wheel from this site (no other host),
// then runs the Panel app made by `panel convert` and talks to the page like Panel's own
// pyodide-worker template (panel 1.7.5). build.py replaces the placeholder below with the
// configuration: wheel list, download size and the app's Python code.
/*KOSTKA_CONFIG*/

const BASE = new URL("./", self.location).href;
const STEPS = 5;
importScripts(BASE + KOSTKA.pyodideDir + "pyodide.js");

function status(step, key) {
  console.log(`Kostka: step ${step} (${key}) at ${Math.round(performance.now())} ms in the worker`);
  self.postMessage({type: "kostka-status", step: step, total: STEPS, key: key});
}

// Count the bytes that arrive, so the loading screen can show how far the download is.
let loadedBytes = 0;
let lastReport = 0;
function reportBytes(force) {
  const now = Date.now();
  if (force || now - lastReport > 100) {
    lastReport = now;
    self.postMessage({type: "kostka-bytes", loaded: loadedBytes, total: KOSTKA.downloadBytes});
  }
}
const realFetch = self.fetch.bind(self);
self.fetch = async (input, init) => {
  const response = await realFetch(input, init);
  const url = String(response.url || input);
  if (!response.body || url.endsWith(".wasm")) {
    // The WebAssembly response is passed through untouched, so the browser can stream-compile
    // it and keep its compiled code cached for the next visit.
    loadedBytes += KOSTKA.wasmBytes;  // its size on disk, whatever the transfer encoding
    reportBytes(true);
    return response;
  }
  const reader = response.body.getReader();
  const counted = new ReadableStream({
    async pull(controller) {
      const {done, value} = await reader.read();
      if (done) {
        reportBytes(true);
        controller.close();
        return;
      }
      loadedBytes += value.byteLength;
      reportBytes(false);
      controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(counted, {status: response.status, statusText: response.statusText, headers: response.headers});
};

function sendPatch(patch, buffers, msg_id) {
  self.postMessage({type: "patch", patch: patch, buffers: buffers});
}

// ---- the interpreter: restored from a memory snapshot when one is stored, else booted afresh
// (and a snapshot of it stored for the next start). The snapshot is taken right after boot,
// before any package or JS object is loaded into Python, so it depends on the Pyodide runtime
// only: it is stored under the runtime's id (build.py hashes the runtime's files) and survives
// new builds of the site that keep the runtime. Seeds do not come from the interpreter's state
// (engine.rng draws each one from the browser's crypto source).
const SNAPSHOT_CACHE = "pyodide-snapshot";  // not "kostka-…": the service worker leaves it alone
const SNAPSHOT_KEY = `${BASE}${KOSTKA.pyodideDir}interpreter-${KOSTKA.runtimeId}.snapshot`;  // never fetched
const SNAPSHOT_MAGIC = 1886286592;  // the first word of a Pyodide 0.27 memory snapshot

function plausibleSnapshot(bytes) {
  // A Pyodide snapshot: magic word, header size, then the whole WebAssembly memory (64 KiB pages).
  if (bytes.byteLength < 1 << 20 || bytes.byteLength % 4) return false;
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, 2);
  return words[0] === SNAPSHOT_MAGIC && words[1] < bytes.byteLength && (bytes.byteLength - words[1]) % 65536 === 0;
}

async function storedSnapshot() {
  try {
    const hit = await (await caches.open(SNAPSHOT_CACHE)).match(SNAPSHOT_KEY);
    if (!hit) return null;
    const bytes = new Uint8Array(await hit.arrayBuffer());
    if (plausibleSnapshot(bytes)) return bytes;
    console.warn("Kostka: the stored interpreter snapshot is damaged; booting afresh");
  } catch (error) {
    // no Cache Storage here (not a secure context): boot afresh
  }
  return null;
}

let snapshotToStore = null;  // taken at boot, written once the app is on the screen

async function storeSnapshot() {
  const bytes = snapshotToStore;
  snapshotToStore = null;
  if (!bytes) return;
  try {
    await caches.delete(SNAPSHOT_CACHE);  // one snapshot at a time: drop any of an older runtime
    await (await caches.open(SNAPSHOT_CACHE)).put(SNAPSHOT_KEY, new Response(bytes));
  } catch (error) {
    console.warn("Kostka: could not store an interpreter snapshot", error);
  }
}

async function startRuntime() {
  const indexURL = BASE + KOSTKA.pyodideDir;
  const snapshot = await storedSnapshot();
  if (snapshot) {
    try {
      const pyodide = await loadPyodide({indexURL: indexURL, _loadSnapshot: snapshot});
      self.postMessage({type: "kostka-runtime", from: "snapshot"});
      return pyodide;
    } catch (error) {
      console.warn("Kostka: the stored interpreter snapshot did not load; booting afresh", error);
    }
  }
  const pyodide = await loadPyodide({indexURL: indexURL, _makeSnapshot: true});
  try {
    snapshotToStore = pyodide.makeMemorySnapshot();
  } catch (error) {
    console.warn("Kostka: could not take an interpreter snapshot", error);
  }
  self.postMessage({type: "kostka-runtime", from: "boot"});
  return pyodide;
}

async function startApplication() {
  status(1, "runtime");
  self.pyodide = await startRuntime();
  self.pyodide.globals.set("sendPatch", sendPatch);
  status(2, "packages");
  // One call: Pyodide resolves our pyodide-lock.json and fetches every wheel in parallel.
  await self.pyodide.loadPackage(KOSTKA.packages, {messageCallback: () => {}});
  status(3, "panel");
  self.pyodide.globals.set("kostka_panel_root", BASE + KOSTKA.panelRoot);
  await self.pyodide.runPythonAsync(`
import os
os.environ["KOSTKA_PANEL_ROOT"] = kostka_panel_root
import panel
`);
  status(4, "app");
  const [docs_json, render_items, root_ids] = await self.pyodide.runPythonAsync(KOSTKA.code);
  status(5, "render");
  self.postMessage({type: "render", docs_json: docs_json, render_items: render_items, root_ids: root_ids});
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg.type === "rendered") {
    setTimeout(storeSnapshot, 1000);  // 20 MB to write: not while the start-up needs the machine
    self.pyodide.runPythonAsync(`
    from panel.io.state import state
    from panel.io.pyodide import _link_docs_worker

    _link_docs_worker(state.curdoc, sendPatch, setter='js')
    `);
  } else if (msg.type === "patch") {
    self.pyodide.globals.set("patch", msg.patch);
    self.pyodide.runPythonAsync(`
    from panel.io.pyodide import _convert_json_patch
    state.curdoc.apply_json_patch(_convert_json_patch(patch), setter='js')
    `);
    self.postMessage({type: "idle"});
  } else if (msg.type === "location") {
    self.pyodide.globals.set("location", msg.location);
    self.pyodide.runPythonAsync(`
    import json
    from panel.io.state import state
    from panel.util import edit_readonly
    if state.location:
        loc_data = json.loads(location)
        with edit_readonly(state.location):
            state.location.param.update({
                k: v for k, v in loc_data.items() if k in state.location.param
            })
    `);
  }
};

startApplication().catch((error) => {
  console.error(error);
  const lines = `${error}`.trim().split("\n");
  self.postMessage({type: "kostka-error", message: lines[lines.length - 1]});
});
