// Kostka's Pyodide worker: loads the runtime and every wheel from this site (no other host),
// then runs the Panel app made by `panel convert` and talks to the page like Panel's own
// pyodide-worker template (panel 1.9.4). build.py replaces the placeholder below with the
// configuration: wheel list, download size and the app's Python code.
/*KOSTKA_CONFIG*/

// Panel's worker code turns Python dicts into JS objects with this (panel.io.pyodide's
// _dict_converter: the build has it taken from here rather than evaluated from source, which the
// site's Content-Security-Policy forbids).
self.kostkaDictConverter = (entries) => {
  for (const entry of entries) if (entry[1] === undefined) entry[1] = null;
  return Object.fromEntries(entries);
};

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
let expectedBytes = KOSTKA.downloadBytes.snapshot;  // a fresh boot expects the wheels instead
let lastReport = 0;
function reportBytes(force) {
  const now = Date.now();
  if (force || now - lastReport > 100) {
    lastReport = now;
    self.postMessage({type: "kostka-bytes", loaded: loadedBytes, total: expectedBytes});
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

// ---- the wheels, for a fresh boot: fetched at once and unpacked into site-packages by the
// worker itself (a few hundred milliseconds, where Pyodide's loadPackage unzips them in Python
// after the boot: about two seconds here). Each is checked by Subresource Integrity against the
// lock's sha256. A browser without DecompressionStream, or a wheel this cannot unpack (a shared
// library needs Pyodide's loader), falls back to loadPackage.
async function decompress(data, format) {
  // written straight into the stream (a Blob's stream is ten times slower in Chromium)
  const stream = new DecompressionStream(format);
  const writer = stream.writable.getWriter();
  writer.write(data).catch(() => {});  // a failure reaches the reader below
  writer.close().catch(() => {});
  return new Uint8Array(await new Response(stream.readable).arrayBuffer());
}

function safePath(path) {
  // a relative path that stays inside site-packages: no empty, "." or ".." part
  return typeof path === "string" && !path.split("/").some((part) => part === "" || part === "." || part === "..");
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

async function fetchChecked(entry) {
  const response = await fetch(INDEX_URL + entry.file, {integrity: entry.integrity});
  if (!response.ok) throw new Error(`Failed to load '${entry.file}': ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function wheelFiles(entry) {
  const files = [];
  for (const [name, method, data] of zipEntries(await fetchChecked(entry), entry.file)) {
    if (name.endsWith("/") || /^[^/]+\.data\//.test(name)) continue;  // folders; data for Jupyter and man pages
    if (!safePath(name)) throw new Error(`${entry.file}: bad path ${name}`);
    if (/\.so(\.|$)/.test(name)) throw new Error(`${entry.file} holds a shared library`);
    if (method !== 0 && method !== 8) throw new Error(`${entry.file}: zip method ${method}`);
    files.push([`${SITE_PACKAGES}/${name}`, method === 8 ? await decompress(data, "deflate-raw") : data]);
  }
  return files;
}

function canDecompress() {
  try {
    new DecompressionStream("deflate-raw");
    return true;
  } catch (error) {
    return false;
  }
}

function fetchWheels() {
  // a promise of every file of every wheel, or null where the browser cannot inflate
  if (!canDecompress()) return null;
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

// ---- the interpreter: restored from the site's memory snapshot, else booted afresh.
// build.py makes the snapshot with this Pyodide release: every wheel installed, Panel imported,
// and the page's code run up to writing the document once for each language, so an app per
// language is built and its document serialised for nobody yet (webapp/startup.py); a restore
// only hands out the visitor's language's app and sends its document as written (KOSTKA.welcome).
// It holds no page, no address and no stored character.
// Files live outside the interpreter's memory: the snapshot holds those it may still read, and
// the standard library comes without the modules it holds in memory (KOSTKA.stdlib: the
// snapshot's importers were made to know that zip, not the whole python_stdlib.zip, which only a
// fresh boot fetches).
// Seeds do not come from the interpreter's state (engine.rng draws each one from the browser's
// crypto source), and Python's own `random` is reseeded after the restore. A start that fails
// after a restore tells the page, which then asks the next start to boot afresh.
const SNAPSHOT_MAGIC = 1886286592;  // the first word of a Pyodide memory snapshot
const CONTAINER_MAGIC = 0x4b53544b;  // "KTSK": build.py's container of the memory and the files
const SITE_PACKAGES = KOSTKA.sitePackages;
const SNAPSHOT_ID = KOSTKA.snapshot[0].integrity;

// Python run once every wheel is loaded, after a fresh boot (build.py runs the same before the snapshot)
const IMPORT_PANEL = `
import os
os.environ["PANEL_CDN_ROOT"] = kostka_panel_root
del kostka_panel_root
import panel
`;

function plausibleMemory(bytes) {
  // A Pyodide snapshot: magic word, header size, then the whole WebAssembly memory (64 KiB pages).
  if (bytes.byteLength < 1 << 20 || bytes.byteLength % 4 || bytes.byteOffset % 4) return false;
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, 2);
  return words[0] === SNAPSHOT_MAGIC && words[1] < bytes.byteLength && (bytes.byteLength - words[1]) % 65536 === 0;
}

// The container build.py writes (see SNAPSHOT_MAGIC there): gzip-compressed, cut into parts,
// fetched at once and decompressed in order as they arrive.
async function fetchSnapshot() {
  const parts = KOSTKA.snapshot.map(fetchChecked);
  parts.forEach((part) => part.catch(() => {}));  // the first failure is reported below
  const stream = new DecompressionStream("gzip");
  const writer = stream.writable.getWriter();
  const output = new Response(stream.readable).arrayBuffer();
  output.catch(() => {});
  try {
    for (const part of parts) await writer.write(await part);
    await writer.close();
  } catch (error) {
    writer.abort(error).catch(() => {});
    throw error;
  }
  const stored = unpackSnapshot(new Uint8Array(await output));
  if (!stored) throw new Error("the interpreter snapshot is damaged");
  return stored;
}

function unpackSnapshot(bytes) {
  // {memory, files} or null unless every part is where the index says and the memory looks right
  try {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const padded = view.getUint32(4, true);
    if (view.getUint32(0, true) !== CONTAINER_MAGIC || padded % 4 || 8 + padded > bytes.byteLength) return null;
    const index = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + padded)));
    let at = 8 + padded;
    const memory = bytes.subarray(at, at + index.memory);
    at += index.memory;
    const files = [];
    for (const [path, size] of index.files) {
      if (!safePath(path) || !(size >= 0)) return null;
      files.push([`${SITE_PACKAGES}/${path}`, bytes.subarray(at, at + size)]);
      at += size;
    }
    return at === bytes.byteLength && plausibleMemory(memory) ? {memory, files} : null;
  } catch (error) {
    return null;
  }
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
    FS.writeFile(path, data);
  }
  // New files under sys.path: the finders of site-packages forget what they listed. (Not
  // importlib.invalidate_caches(), which also rereads the standard library's zip: 0.2 s.)
  pyodide.globals.set("kostka_site_packages", SITE_PACKAGES);
  pyodide.runPython(`import sys
for path, finder in list(sys.path_importer_cache.items()):
    if path.startswith(kostka_site_packages) and hasattr(finder, "invalidate_caches"):
        finder.invalidate_caches()
del kostka_site_packages, path, finder`);
}

// Python holds no JS object in the snapshot but globals (js.JSON…, kostkaDictConverter), found
// again by their names: nothing is evaluated.
function deserializeJs() {
  throw new Error("unexpected object in snapshot");
}

async function restoredRuntime() {
  const stored = fetchSnapshot();
  stored.catch(() => {});  // loadPyodide awaits it and reports the failure below
  try {
    const pyodide = await loadPyodide({
      indexURL: INDEX_URL,
      stdLibURL: INDEX_URL + KOSTKA.stdlib,
      _loadSnapshot: stored.then((s) => s.memory),
      _snapshotDeserializer: deserializeJs,
    });
    writeFiles(pyodide, (await stored).files);
    pyodide.runPython("import random; random.seed()");
    return pyodide;
  } catch (error) {
    console.warn("Kostka: the interpreter snapshot did not load; booting afresh", error);
    return null;
  }
}

async function bootFresh(step) {
  // A new interpreter with every wheel installed and Panel imported; `step` hears of the progress.
  expectedBytes = loadedBytes + KOSTKA.downloadBytes.boot;
  const wheels = fetchWheels();  // while the runtime boots
  const pyodide = await loadPyodide({indexURL: INDEX_URL});
  step(2, "packages");
  await installWheels(pyodide, wheels);
  step(3, "panel");
  pyodide.globals.set("kostka_panel_root", KOSTKA.panelRoot);
  await pyodide.runPythonAsync(IMPORT_PANEL);
  return pyodide;
}

// The worker's name: "kostka-app:<language>:<id of a snapshot that failed here before>" (static/loader.js)
const [, LANGUAGE = "", FAILED_SNAPSHOT = ""] = self.name.split(":");
let restored = false;  // this start restored the snapshot

async function startApplication() {
  status(1, "runtime");
  let pyodide = FAILED_SNAPSHOT !== SNAPSHOT_ID && canDecompress() ? await restoredRuntime() : null;
  restored = pyodide !== null;
  self.postMessage({type: "kostka-runtime", from: restored ? "snapshot" : "boot"});
  if (restored) {
    status(2, "packages");  // all in the snapshot
    status(3, "panel");
  } else {
    pyodide = await bootFresh(status);
  }
  self.pyodide = pyodide;
  pyodide.globals.set("sendPatch", sendPatch);
  // the language the loading screen chose (address, storage, browser): the app starts in it
  pyodide.globals.set("kostka_language", LANGUAGE);
  status(4, "app");
  if (!restored) pyodide.runPython('import os; os.environ["KOSTKA_LANG"] = kostka_language; del kostka_language');
  const [docs_json, render_items, root_ids] = await pyodide.runPythonAsync(restored ? KOSTKA.welcome : KOSTKA.code);
  status(5, "render");
  self.postMessage({type: "render", docs_json: docs_json, render_items: render_items, root_ids: root_ids});
  // While the page draws the document, the address and the stored data the loader handed over are
  // read, and their changes sent at once in one patch: the page takes it in as soon as it has drawn
  // the document (static/loader.js), and linking the page then has nothing left to send
  // (webapp/startup.py, take_visit).
  inTurn(async () => {
    const {location, stored} = await visit;
    startup().take_visit(location, stored, sendPatch);
  });
  // While the page draws the document, a roll with an app nobody sees, so that the browser has
  // compiled a roll's code before the player's first one (webapp/startup.py, rehearse).
  if (restored) inTurn(() => pyodide.runPythonAsync("from webapp.startup import rehearse\nrehearse()"));
}

startApplication().catch((error) => {
  console.error(error);
  const lines = `${error}`.trim().split("\n");
  // after a restore, the page remembers the snapshot so that the next start (the error screen
  // offers a reload) boots afresh instead
  self.postMessage({type: "kostka-error", message: lines[lines.length - 1], snapshot: restored ? SNAPSHOT_ID : null});
});

// The page's messages run in Python one after the other, in the order they came, each handed to
// its Python function (running a snippet instead would compile it anew each time).
let pending = Promise.resolve();
// The visit (static/loader.js): the page's address and the browser's stored data, as JSON texts.
// The loader sends it as it starts the worker, so it is here long before the app is.
let visitArrived = null;
const visit = new Promise((resolve) => { visitArrived = resolve; });
let startupModule = null;  // webapp.startup, looked up once: its functions take the page's messages
const startup = () => (startupModule ??= self.pyodide.pyimport("webapp.startup"));
let pagePatches = null;  // the Python function that takes the page's changes in, looked up once
const takePagePatch = () => (pagePatches ??= startup().take_page_patch);

function inTurn(step) {
  pending = pending.then(step).catch((error) => console.error(error));
}

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg.type === "rendered") {
    inTurn(() => startup().link(sendPatch));  // as Panel's worker links the page (webapp/startup.py)
  } else if (msg.type === "patch") {
    // The page's changes: those to models Python has removed since are left out, the rest applied
    // (webapp/startup.py, take_page_patch).
    inTurn(() => takePagePatch()(msg.patch));
    self.postMessage({type: "idle"});
  } else if (msg.type === "kostka-visit") {
    visitArrived(msg);
  }
  // (Panel's page also sends the address once it has drawn the document, as "location": the visit
  // brought it already, and Python may have written the address since.)
};
