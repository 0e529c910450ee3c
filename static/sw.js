// Kostka's service worker. build.py puts the build's manifest below: VERSION, and every file of the
// site with its sha256 (as Subresource Integrity). It never mixes builds:
// - Install: every file of PRECACHE is fetched and checked against its hash into a cache of this
//   build's own ("kostka-<VERSION>"); one missing or damaged file fails the install, and the
//   build that was there (its service worker and its cache) stays.
// - A page, and the app's worker it starts, are answered from the cache of the build the page was
//   loaded from until the page reloads; a page loaded afresh gets the newest build installed. Which
//   build each page and worker belongs to is written down (the cache CLIENTS), so that it outlives
//   this service worker being stopped, and a newer one knows it too.
// - A build's cache is deleted once no page or worker of it is left.
// The wheels and the whole standard library (ON_DEMAND) are only for a start that cannot restore
// the interpreter snapshot (static/worker.js): they are checked against their hashes and cached
// when first fetched instead.
/*KOSTKA_PRECACHE*/

const PREFIX = "kostka-";
const CACHE = PREFIX + VERSION;
const CLIENTS = "kostka:clients";  // client id -> version (not a build's cache: no PREFIX)
const PARALLEL = 6;
const SCOPE = new URL("./", self.location).href;

async function notify(message) {
  const clients = await self.clients.matchAll({includeUncontrolled: true, type: "window"});
  for (const client of clients) client.postMessage(message);
}

function fileOf(url) {
  // the manifest's name of a URL of this site ("./" for the page, whatever its query), or null
  const href = new URL(url).href.split("#")[0];
  if (!href.startsWith(SCOPE)) return null;
  const path = href.slice(SCOPE.length).split("?")[0];
  return path === "" || path === "index.html" ? "./" : path;
}

// ---- which build each page and worker belongs to

const known = new Map();  // client id -> version, as written in CLIENTS
const GRACE = 60_000;  // ms: a page just navigated to may not be listed among the clients yet
// Requests with no client id come from the app worker of a page loaded from the network (a first
// visit) once a service worker has taken it over: they belong to that page's build, written under
// this name when the first service worker took such pages over.
const FROM_NETWORK = "from-network";

function clientKey(id) {
  return new Request(`${SCOPE}kostka-client/${encodeURIComponent(id)}`);
}

async function recordOf(id) {
  const stored = await (await caches.open(CLIENTS)).match(clientKey(id));
  return stored ? JSON.parse(await stored.text()) : null;
}

async function remember(id, version, family) {
  // family: the clients whose life keeps this record (the client itself, by default)
  known.set(id, version);
  const record = JSON.stringify({version: version, family: family || [id], at: Date.now()});
  await (await caches.open(CLIENTS)).put(clientKey(id), new Response(record));
}

async function versionOf(id) {
  const key = id || FROM_NETWORK;
  if (!known.has(key)) {
    const record = await recordOf(key);
    if (record) known.set(key, record.version);
    else if (id) await remember(id, VERSION);  // a client new to every service worker: this build's
    else known.set(key, VERSION);
  }
  return known.get(key);
}

async function forgetTheGone() {
  // delete the builds (and the records) no living page or worker uses, the newest one kept
  const living = new Set((await self.clients.matchAll({includeUncontrolled: true, type: "all"})).map((c) => c.id));
  const records = await caches.open(CLIENTS);
  const used = new Set([CACHE]);
  for (const request of await records.keys()) {
    const id = decodeURIComponent(request.url.split("/kostka-client/")[1] || "");
    const record = JSON.parse(await (await records.match(request)).text());
    if (record.family.some((member) => living.has(member)) || Date.now() - record.at < GRACE) {
      used.add(PREFIX + record.version);
    } else {
      known.delete(id);
      await records.delete(request);
    }
  }
  for (const name of await caches.keys()) {
    if (name.startsWith(PREFIX) && !used.has(name)) await caches.delete(name);
  }
}

// ---- install: the whole build, each file checked, or nothing

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    // (a cache of this very build may be there already, in use: a failed install leaves it be)
    const existed = await caches.has(CACHE);
    const cache = await caches.open(CACHE);
    const queue = Object.keys(PRECACHE);
    const total = queue.length;
    let done = 0;
    async function fetchNext() {
      while (queue.length) {
        const file = queue.shift();
        // "no-cache": revalidate what the page itself already fetched (a 304, no second download);
        // the browser refuses a body whose sha256 is not the manifest's
        const response = await fetch(new Request(file, {cache: "no-cache", integrity: PRECACHE[file]}));
        if (!response.ok) throw new Error(`cannot cache ${file}: HTTP ${response.status}`);
        await cache.put(file, response);
        done += 1;
        notify({type: "kostka-precache", done: done, total: total});
      }
    }
    try {
      await Promise.all(Array.from({length: PARALLEL}, fetchNext));
    } catch (error) {
      queue.length = 0;
      if (!existed) await caches.delete(CACHE);  // a build that did not arrive whole is never used
      throw error;
    }
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    // pages (and their workers) that came from the network, before any service worker, are of
    // the build the network gave them, which is this one: written down before taking them over
    const fresh = [];
    for (const client of await self.clients.matchAll({includeUncontrolled: true, type: "all"})) {
      if (!(await recordOf(client.id))) fresh.push(client.id);
    }
    for (const id of fresh) await remember(id, VERSION);
    if (fresh.length && !(await recordOf(FROM_NETWORK))) await remember(FROM_NETWORK, VERSION, fresh);
    await self.clients.claim();
    await forgetTheGone();
  })());
});

// ---- requests: from the cache of the requester's build

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    let version;
    if (request.mode === "navigate") {
      version = VERSION;  // a page loaded afresh: the newest build
      if (event.resultingClientId) event.waitUntil(remember(event.resultingClientId, version).then(forgetTheGone));
    } else {
      version = await versionOf(event.clientId);
      // the app's worker belongs to the build of the page that starts it
      if (request.destination === "worker" && event.resultingClientId) {
        event.waitUntil(remember(event.resultingClientId, version, [event.resultingClientId, event.clientId]));
      }
    }
    const cache = await caches.open(PREFIX + version);
    const file = fileOf(request.url);
    // The app keeps its state in the query string: any ./?... is the same page.
    const hit = file && (await cache.match(file));
    if (hit) return hit;
    const onDemand = file && version === VERSION && ON_DEMAND[file];
    if (onDemand) {
      const response = await fetch(request.url, {integrity: onDemand});
      if (response.ok) await cache.put(file, response.clone());
      return response;
    }
    return fetch(request);
  })());
});
