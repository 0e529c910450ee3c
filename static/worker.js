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

async function startApplication() {
  status(1, "runtime");
  self.pyodide = await loadPyodide({indexURL: BASE + KOSTKA.pyodideDir});
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
