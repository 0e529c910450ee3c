// Panel's page imports its components' ES modules (for Kostka: the storage, the copy button, the
// page ping) through `importShim`, which panel convert's page gets from es-module-shims. That
// library detects the browser's features by running an inline script in a hidden frame, which the
// site's Content-Security-Policy forbids (and then it never loads a module). Every browser the
// site runs in imports modules itself, so `importShim` is the browser's own `import()`; the app
// declares no import map, so one that would need resolving is refused out loud.
(function () {
  "use strict";
  const importShim = (url) => import(url);
  importShim.addImportMap = (map) => {
    const entries = Object.keys((map && map.imports) || {}).length + Object.keys((map && map.scopes) || {}).length;
    if (entries) throw new Error("import maps are not supported on this page");
  };
  window.importShim = importShim;
})();
