// Panel's page imports its components' ES modules (for Kostka: every component drawn in the
// browser, such as the sheet's rows, the roll buttons and the result panel) through `importShim`,
// which panel convert's page gets from es-module-shims. That library detects the browser's
// features by running an inline script in a hidden frame, which the site's Content-Security-Policy
// forbids (and then it never loads a module). Every browser the site runs in imports modules
// itself, so `importShim` is the browser's own `import()`; the app declares no import map, so one
// that would need resolving is refused out loud.
(function () {
  "use strict";
  // The modules asked for and not yet loaded (or failed): the loader keeps its screen until the
  // components waiting for them have drawn themselves.
  const pending = new Set();
  const importShim = (url) => {
    const loading = import(url);
    pending.add(loading);
    const settle = () => { pending.delete(loading); };
    loading.then(settle, settle);
    return loading;
  };
  // Resolves once every module asked for so far has loaded or failed and what waited for it has
  // run (a component draws itself once its module is there), looking again for modules asked for
  // meanwhile.
  importShim.settled = async () => {
    do {
      await new Promise((resolve) => setTimeout(resolve, 0));
      await Promise.allSettled([...pending]);
    } while (pending.size);
  };
  importShim.addImportMap = (map) => {
    const entries = Object.keys((map && map.imports) || {}).length + Object.keys((map && map.scopes) || {}).length;
    if (entries) throw new Error("import maps are not supported on this page");
  };
  window.importShim = importShim;
})();
