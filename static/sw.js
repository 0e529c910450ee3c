// Kostka's service worker. build.py puts the versioned list of every file of the site below,
// so the first visit caches the whole app at install time, and a new build (new VERSION)
// replaces the old cache. Requests are answered cache-first, falling back to the network.
// The wheels (ON_DEMAND) are only for a start that cannot restore the interpreter snapshot
// (static/worker.js): they are cached when first fetched instead.
/*KOSTKA_PRECACHE*/

const CACHE = "kostka-" + VERSION;
const PARALLEL = 6;

async function notify(message) {
  const clients = await self.clients.matchAll({includeUncontrolled: true, type: "window"});
  for (const client of clients) client.postMessage(message);
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const queue = PRECACHE.slice();
    let done = 0;
    async function fetchNext() {
      while (queue.length) {
        const url = queue.shift();
        // "no-cache": revalidate what the page itself already fetched (a 304, no second download)
        const response = await fetch(new Request(url, {cache: "no-cache"}));
        if (!response.ok) throw new Error(`cannot cache ${url}: HTTP ${response.status}`);
        await cache.put(url, response);
        done += 1;
        notify({type: "kostka-precache", done: done, total: PRECACHE.length});
      }
    }
    await Promise.all(Array.from({length: PARALLEL}, fetchNext));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("kostka-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // The app keeps its state in the query string: any ./?... is the same page.
    let hit = await cache.match(request, {ignoreSearch: true});
    if (!hit && request.mode === "navigate") hit = await cache.match("./");
    if (hit) return hit;
    const response = await fetch(request);
    const path = new URL(request.url).pathname;
    if (response.ok && ON_DEMAND.some((file) => path.endsWith("/" + file))) await cache.put(request, response.clone());
    return response;
  })());
});
