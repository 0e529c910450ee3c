// Kostka's Pyodide worker: loads the runtime and every wheel from this site (no other host),
// then runs the Panel app made by `panel convert` and talks to the page like Panel's own
// pyodide-worker template (panel 1.7.5). build.py replaces the placeholder below with the
// configuration: wheel list, download size and the app's Python code.
/*KOSTKA_CONFIG*/

const BASE = new URL("./", self.location).href;
const INDEX_URL = BASE + KOSTKA.pyodideDir;  // the Pyodide runtime and every wheel
const STEPS = 5;
importScripts(INDEX_URL + "pyodide.js");

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

// ---- the wheels: fetched at once, while the runtime boots, and unpacked into site-packages by
// the worker itself (a few hundred milliseconds, where Pyodide's loadPackage unzips them in
// Python after the boot: about two seconds here). Each is checked against our lock's sha256
// (Subresource Integrity). A browser without DecompressionStream("deflate-raw"), or a wheel
// this cannot unpack (a shared library needs Pyodide's loader), falls back to loadPackage.
async function inflate(data) {
  // written straight into the stream (a Blob's stream is ten times slower in Chromium)
  const stream = new DecompressionStream("deflate-raw");
  const writer = stream.writable.getWriter();
  writer.write(data).catch(() => {});  // a failure reaches the reader below
  writer.close().catch(() => {});
  return new Uint8Array(await new Response(stream.readable).arrayBuffer());
}

function zipEntries(bytes, file) {
  // [name, method, compressed bytes] from the zip's central directory
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.byteLength - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) throw new Error(`${file} is not a zip file`);
  const entries = [];
  let at = view.getUint32(end + 16, true);
  for (let i = view.getUint16(end + 10, true); i > 0; i--) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error(`${file}: bad zip directory`);
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const local = view.getUint32(at + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    entries.push([name, method, bytes.subarray(start, start + size)]);
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}

async function wheelFiles(wheel) {
  const response = await fetch(INDEX_URL + wheel.file, {integrity: wheel.integrity});
  if (!response.ok) throw new Error(`Failed to load '${wheel.file}': ${response.status}`);
  const files = [];
  for (const [name, method, data] of zipEntries(new Uint8Array(await response.arrayBuffer()), wheel.file)) {
    if (name.endsWith("/") || /^[^/]+\.data\//.test(name)) continue;  // folders; data for Jupyter and man pages
    if (name.split("/").some((part) => part === "" || part === "." || part === "..")) throw new Error(`${wheel.file}: bad path ${name}`);
    if (/\.so(\.|$)/.test(name)) throw new Error(`${wheel.file} holds a shared library`);
    if (method !== 0 && method !== 8) throw new Error(`${wheel.file}: zip method ${method}`);
    files.push([`${SITE_PACKAGES}/${name}`, method === 8 ? await inflate(data) : data]);
  }
  return files;
}

function fetchWheels() {
  // a promise of every file of every wheel, or null where the browser cannot inflate
  try {
    new DecompressionStream("deflate-raw");
  } catch (error) {
    return null;
  }
  const files = Promise.all(KOSTKA.wheels.map(wheelFiles)).then((lists) => lists.flat());
  files.catch(() => {});  // awaited (and reported) by installWheels
  return files;
}

async function installWheels(pyodide, wheels) {
  let files = null;
  try {
    files = wheels && (await wheels);
  } catch (error) {
    console.warn("Kostka: unpacking the wheels here failed; Pyodide loads them instead", error);
  }
  if (files) {
    writeFiles(pyodide, files);
  } else {
    // One call: Pyodide resolves our pyodide-lock.json and fetches every wheel in parallel.
    await pyodide.loadPackage(KOSTKA.packages, {messageCallback: () => {}});
  }
}

// ---- the interpreter: restored from a memory snapshot when one is stored, else booted afresh.
// After a fresh boot, once the app is on the screen, the page starts this script a second time,
// as a worker named "kostka-snapshot", to make the snapshot for the next starts: a new
// interpreter that loads every wheel, imports Panel and the app and warms it up
// (webapp/startup.py). It never builds the visitor's app, so it holds no page, no address and
// no stored character. It is made possible by the site shipping no shared library (numpy and
// pandas are stand-ins: see build.py), which Pyodide 0.27 could not restore. Files live outside
// the interpreter's memory, so the snapshot keeps site-packages beside it. It is stored under an id that build.py derives from the
// runtime, every wheel and the app's code: any change to them makes a new one. Seeds do not
// come from the interpreter's state (engine.rng draws each one from the browser's crypto
// source), and Python's own `random` is reseeded after a restore.
const SNAPSHOT_CACHE = "pyodide-snapshot";  // not "kostka-…": the service worker leaves it alone
const SNAPSHOT_KEY = `${INDEX_URL}app-${KOSTKA.snapshotId}.snapshot`;  // never fetched
const SNAPSHOT_MAGIC = 1886286592;  // the first word of a Pyodide 0.27 memory snapshot
const STORED_MAGIC = 0x4b53544b;  // "KTSK": Kostka's container of [memory snapshot, files]
const SITE_PACKAGES = "/lib/python3.12/site-packages";

// Python run once every wheel is loaded: every fresh interpreter imports Panel; the snapshot's
// worker also imports and warms up the app (webapp/startup.py).
const IMPORT_PANEL = `
import os
os.environ["KOSTKA_PANEL_ROOT"] = kostka_panel_root
del kostka_panel_root
import panel
`;
const WARM_UP = `
import panel.io.pyodide
from webapp.startup import warm_up
warm_up()
`;

function plausibleMemory(bytes) {
  // A Pyodide snapshot: magic word, header size, then the whole WebAssembly memory (64 KiB pages).
  if (bytes.byteLength < 1 << 20 || bytes.byteLength % 4 || bytes.byteOffset % 4) return false;
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, 2);
  return words[0] === SNAPSHOT_MAGIC && words[1] < bytes.byteLength && (bytes.byteLength - words[1]) % 65536 === 0;
}

// Stored layout: u32 STORED_MAGIC, u32 n, n bytes of JSON {memory: size, files: [[path, size]…]}
// padded to 4, the memory snapshot, then each file's bytes in order.
function packSnapshot(memory, files) {
  const index = new TextEncoder().encode(JSON.stringify({memory: memory.byteLength, files: files.map(([path, data]) => [path, data.byteLength])}));
  const padded = Math.ceil(index.byteLength / 4) * 4;
  const total = 8 + padded + memory.byteLength + files.reduce((sum, [, data]) => sum + data.byteLength, 0);
  const out = new Uint8Array(total);
  new DataView(out.buffer).setUint32(0, STORED_MAGIC, true);
  new DataView(out.buffer).setUint32(4, padded, true);
  out.fill(32, 8, 8 + padded);  // JSON may end in spaces
  out.set(index, 8);
  let at = 8 + padded;
  out.set(memory, at);
  at += memory.byteLength;
  for (const [, data] of files) {
    out.set(data, at);
    at += data.byteLength;
  }
  return out;
}

function unpackSnapshot(bytes) {
  // null unless every part is where the index says and the memory looks like a snapshot
  try {
    if (bytes.byteLength < 8) return null;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const padded = view.getUint32(4, true);
    if (view.getUint32(0, true) !== STORED_MAGIC || padded % 4 || 8 + padded > bytes.byteLength) return null;
    const index = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + padded)));
    let at = 8 + padded;
    const memory = bytes.subarray(at, at + index.memory);
    at += index.memory;
    const files = [];
    for (const [path, size] of index.files) {
      if (typeof path !== "string" || !path.startsWith(SITE_PACKAGES + "/") || !(size >= 0)) return null;
      files.push([path, bytes.subarray(at, at + size)]);
      at += size;
    }
    if (at !== bytes.byteLength || !plausibleMemory(memory)) return null;
    return {memory, files};
  } catch (error) {
    return null;
  }
}

function siteFiles(pyodide) {
  const FS = pyodide.FS;
  const files = [];
  (function walk(dir) {
    for (const name of FS.readdir(dir)) {
      if (name === "." || name === "..") continue;
      const path = `${dir}/${name}`;
      if (FS.isDir(FS.stat(path).mode)) walk(path);
      else files.push([path, FS.readFile(path)]);
    }
  })(SITE_PACKAGES);
  return files;
}

function writeFiles(pyodide, files) {
  const FS = pyodide.FS;
  const made = new Set();
  for (const [path, data] of files) {
    const dir = path.slice(0, path.lastIndexOf("/"));
    if (!made.has(dir)) {
      FS.mkdirTree(dir);
      made.add(dir);
    }
    FS.writeFile(path, data);  // a copy: the stored buffer (80 MB) can then be let go
  }
  pyodide.runPython("import importlib; importlib.invalidate_caches()");  // new files under sys.path
}

// JS objects Python holds when the snapshot is taken. Globals (js.JSON…) are found by their
// path; the only other one is a small pure function panel.io.pyodide makes at import.
const KNOWN_FUNCTIONS = ["Object.fromEntries(entries)"];
function serializeJs(value) {
  const source = typeof value === "function" ? String(value) : "";
  if (KNOWN_FUNCTIONS.some((marker) => source.includes(marker))) return {source};
  throw new Error(`a JS object the snapshot cannot hold: ${source.slice(0, 80) || typeof value}`);
}
function deserializeJs(serialized) {
  if (!KNOWN_FUNCTIONS.some((marker) => serialized.source.includes(marker))) throw new Error("unexpected object in snapshot");
  return new Function(`return (${serialized.source});`)();
}

async function storedSnapshot() {
  // The stored response, or null; its body is read while Pyodide loads its own script.
  try {
    return (await (await caches.open(SNAPSHOT_CACHE)).match(SNAPSHOT_KEY)) || null;
  } catch (error) {
    return null;  // no Cache Storage here (not a secure context): boot afresh
  }
}

async function storeSnapshot(bytes) {
  try {
    await caches.delete(SNAPSHOT_CACHE);  // one snapshot at a time: drop any of an older build
    await (await caches.open(SNAPSHOT_CACHE)).put(SNAPSHOT_KEY, new Response(bytes));
    return true;
  } catch (error) {
    console.warn("Kostka: could not store an interpreter snapshot", error);
    return false;
  }
}

function takeSnapshot(pyodide) {
  // Pyodide 0.27 only snapshots an interpreter it believes has loaded no package: the wheels'
  // files travel beside the memory instead, and the list is put back at once.
  if (pyodide.runPython("import sys; any(str(getattr(m, '__file__', '') or '').endswith('.so') for m in list(sys.modules.values()))")) {
    console.warn("Kostka: a shared library is loaded, which a snapshot cannot hold: none taken");
    return null;
  }
  const loaded = Object.assign({}, pyodide.loadedPackages);
  for (const name of Object.keys(loaded)) delete pyodide.loadedPackages[name];
  try {
    return packSnapshot(pyodide.makeMemorySnapshot({serializer: serializeJs}), siteFiles(pyodide));
  } catch (error) {
    console.warn("Kostka: could not take an interpreter snapshot", error);
    return null;
  } finally {
    Object.assign(pyodide.loadedPackages, loaded);
  }
}

async function restoredRuntime() {
  const hit = await storedSnapshot();
  if (!hit) return null;
  let stored = null;
  const memory = hit.arrayBuffer().then((buffer) => {
    stored = unpackSnapshot(new Uint8Array(buffer));
    if (!stored) throw new Error("the stored interpreter snapshot is damaged");
    return stored.memory;
  });
  memory.catch(() => {});  // loadPyodide awaits it and reports the failure below
  try {
    const pyodide = await loadPyodide({indexURL: INDEX_URL, _loadSnapshot: memory, _snapshotDeserializer: deserializeJs});
    writeFiles(pyodide, stored.files);
    pyodide.runPython("import random; random.seed()");
    return pyodide;
  } catch (error) {
    console.warn("Kostka: the stored interpreter snapshot did not load; booting afresh", error);
    return null;
  }
}

async function bootFresh(options, step = () => {}) {
  // A new interpreter with every wheel installed and Panel imported; `step` hears of the progress.
  const wheels = fetchWheels();  // while the runtime boots
  const pyodide = await loadPyodide({indexURL: INDEX_URL, ...options});
  step(2, "packages");
  await installWheels(pyodide, wheels);
  step(3, "panel");
  pyodide.globals.set("kostka_panel_root", BASE + KOSTKA.panelRoot);
  await pyodide.runPythonAsync(IMPORT_PANEL);
  return pyodide;
}

let restored = false;  // this start restored the stored snapshot

async function startApplication() {
  status(1, "runtime");
  let pyodide = await restoredRuntime();
  restored = pyodide !== null;
  // "boot": the page starts a second worker to make a snapshot once the app is on the screen
  self.postMessage({type: "kostka-runtime", from: pyodide ? "snapshot" : "boot"});
  if (pyodide) {
    status(2, "packages");  // all in the snapshot
    status(3, "panel");
  } else {
    pyodide = await bootFresh({}, status);
  }
  self.pyodide = pyodide;
  pyodide.globals.set("sendPatch", sendPatch);
  // the language the loading screen chose (address, storage, browser): webapp/app.py starts in it
  pyodide.globals.set("kostka_language", self.name.startsWith("kostka-app:") ? self.name.slice(11) : "");
  pyodide.runPython('import os; os.environ["KOSTKA_LANG"] = kostka_language; del kostka_language');
  status(4, "app");
  const [docs_json, render_items, root_ids] = await pyodide.runPythonAsync(KOSTKA.code);
  status(5, "render");
  self.postMessage({type: "render", docs_json: docs_json, render_items: render_items, root_ids: root_ids});
}

async function makeSnapshot() {
  // The snapshot's own worker (named "kostka-snapshot"): a fresh interpreter that the visitor never
  // sees, so making it costs the first start nothing but spare CPU after the app is drawn. It
  // boots exactly as the app's worker does, then warms up.
  const pyodide = await bootFresh({_makeSnapshot: true});
  await pyodide.runPythonAsync(WARM_UP);
  const bytes = takeSnapshot(pyodide);
  return bytes !== null && (await storeSnapshot(bytes));
}

if (self.name === "kostka-snapshot") {
  makeSnapshot().then(
    (stored) => self.postMessage({type: "kostka-snapshot", stored: stored}),
    (error) => {
      console.warn("Kostka: could not make an interpreter snapshot", error);
      self.postMessage({type: "kostka-snapshot", stored: false});
    },
  );
} else {
  startApplication().catch(async (error) => {
    console.error(error);
    if (restored) {
      // A snapshot that restored but could not run the app must not be used again: the next
      // start (the error screen offers a reload) boots afresh and makes a new one.
      try {
        await caches.delete(SNAPSHOT_CACHE);
      } catch (ignored) {
        // nothing stored to forget
      }
    }
    const lines = `${error}`.trim().split("\n");
    self.postMessage({type: "kostka-error", message: lines[lines.length - 1]});
  });
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg.type === "rendered") {
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
