"use strict";
// clarissa's service worker, served at /sw.js so that its scope is the whole app.
// - install: keeps the shell (style sheets, scripts, icons, the offline page) in a cache named
//   for the assets' hash, which `clarissa serve` writes in place of CLARISSA_ASSETS below; a new
//   build is a new name, and activate drops every older cache of the app.
// - fetch: the shell from that cache; a page (GET, this origin) from the network, its copy kept
//   (the last PAGE_LIMIT pages, the oldest dropped), and when the network fails the copy, else
//   the offline page. Never kept: POSTs, /act, /api/, /capture, /login, /sw.js, a ?token= link.
// - push: the notification the payload describes (docs/serve.md), and the app's badge set to
//   its `unviewed`. The payload is treated as hostile: text bounded and stripped of control
//   characters, and only addresses of this origin are opened or fetched.
// - notificationclick: the body marks the listing viewed (its `viewed` link) and opens it; Star
//   and Hide call their links without opening a window.
var VERSION = "CLARISSA_ASSETS";
var SHELL = "clarissa-shell-" + VERSION;
var PAGES = "clarissa-pages-" + VERSION;
var PAGE_LIMIT = 50;
var SHELL_FILES = [
  "/offline", "/assets/style.css", "/assets/app.js", "/assets/layouts.css", "/assets/push.js",
  "/assets/panes.js", "/icons/icon-192.png", "/icons/badge-96.png"
];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL).then(function (cache) {
    // Past the browser's HTTP cache (the assets are kept an hour there): this build's files.
    return cache.addAll(SHELL_FILES.map(function (path) {
      return new Request(path, { cache: "reload", credentials: "same-origin" });
    }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("clarissa-") === 0 && name !== SHELL && name !== PAGES;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

// Addresses whose answers are never kept nor answered from a copy.
function passedOver(url) {
  var path = url.pathname;
  return path === "/sw.js" || path === "/login" || path === "/act" || path.indexOf("/act/") === 0
    || path.indexOf("/api/") === 0 || path === "/capture" || path.indexOf("/capture/") === 0
    || path === "/metrics" || path === "/healthz" || url.searchParams.has("token");
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin || passedOver(url)) return;
  if (url.search === "" && SHELL_FILES.indexOf(url.pathname) >= 0) {
    event.respondWith(caches.open(SHELL).then(function (cache) {
      return cache.match(url.pathname).then(function (kept) { return kept || fetch(request); });
    }));
    return;
  }
  var accept = request.headers.get("Accept") || "";
  if (request.mode === "navigate" || accept.indexOf("text/html") >= 0) {
    event.respondWith(page(event, request));
  }
});

// Network first; a page answered 200 (not a redirect, not the sign-in) is kept under its address.
function page(event, request) {
  var key = request.url.split("#")[0];
  return fetch(request).then(function (response) {
    var type = response.headers.get("Content-Type") || "";
    if (response.status === 200 && response.type === "basic" && type.indexOf("text/html") === 0) {
      var copy = response.clone();
      event.waitUntil(caches.open(PAGES).then(function (cache) {
        return cache.delete(key).then(function () { return cache.put(key, copy); })
          .then(function () { return trim(cache); });
      }));
    }
    return response;
  }, function () {
    return caches.open(PAGES).then(function (cache) { return cache.match(key); })
      .then(function (kept) {
        return kept || caches.open(SHELL).then(function (cache) { return cache.match("/offline"); })
          .then(function (offline) {
            return offline || new Response("offline", { status: 503, headers: { "Content-Type": "text/plain" } });
          });
      });
  });
}

// The cache lists its entries oldest first (a page viewed again was deleted and put back).
function trim(cache) {
  return cache.keys().then(function (keys) {
    return Promise.all(keys.slice(0, Math.max(0, keys.length - PAGE_LIMIT)).map(function (old) {
      return cache.delete(old);
    }));
  });
}

// Text from the payload: a string, control characters made spaces, at most `limit` characters.
function text(value, limit) {
  if (typeof value !== "string") return "";
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ").trim().slice(0, limit);
}

// An address of this origin (http: or https:), absolute; anything else: null.
function own(value) {
  if (typeof value !== "string" || value.length > 2048) return null;
  try {
    var url = new URL(value, self.location.origin);
    if (url.origin !== self.location.origin) return null;
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    return url.href;
  } catch (error) {
    return null;
  }
}

function read(data) {
  var payload = null;
  try { payload = data ? data.json() : null; } catch (error) { payload = null; }
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) payload = {};
  var links = {};
  var actions = [];
  (Array.isArray(payload.actions) ? payload.actions : []).forEach(function (action) {
    if (!action || typeof action !== "object") return;
    var name = action.action;
    var url = own(action.url);
    if ((name !== "star" && name !== "hide") || !url || links[name]) return;
    links[name] = url;
    actions.push({ action: name, title: text(action.title, 40) || (name === "star" ? "Star" : "Hide") });
  });
  var unviewed = payload.unviewed;
  return {
    title: text(payload.title, 200) || "clarissa",
    body: text(payload.body, 1000),
    tag: text(payload.tag, 100),
    url: own(payload.url),
    viewed: own(payload.viewed),
    links: links,
    actions: actions,
    unviewed: typeof unviewed === "number" && Number.isInteger(unviewed) && unviewed >= 0
      && unviewed <= 1000000 ? unviewed : null
  };
}

// The app's badge (the Badging API, where the browser has it): the count, or none at 0.
function badge(count) {
  var navigator = self.navigator;
  if (count === null || !navigator || typeof navigator.setAppBadge !== "function") return Promise.resolve();
  var done = count > 0 ? navigator.setAppBadge(count)
    : typeof navigator.clearAppBadge === "function" ? navigator.clearAppBadge() : navigator.setAppBadge(0);
  return Promise.resolve(done).catch(function () {});
}

self.addEventListener("push", function (event) {
  var message = read(event.data);
  var options = {
    body: message.body,
    icon: "/icons/icon-192.png",
    badge: "/icons/badge-96.png",
    data: { url: message.url, viewed: message.viewed, links: message.links },
    actions: message.actions.slice(0, 2)
  };
  if (message.tag) {
    options.tag = message.tag;
    options.renotify = true;
  }
  event.waitUntil(Promise.all([
    self.registration.showNotification(message.title, options), badge(message.unviewed)
  ]));
});

// A POST to a link of this origin (an /act link: its signed token is the authorization).
function call(link) {
  var url = own(link);
  if (!url) return Promise.resolve();
  return fetch(url, { method: "POST", credentials: "same-origin", redirect: "manual" })
    .catch(function () {});
}

function show(link) {
  var url = own(link) || self.location.origin + "/";
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    for (var i = 0; i < windows.length; i++) {
      if (windows[i].url === url && typeof windows[i].focus === "function") return windows[i].focus();
    }
    return self.clients.openWindow ? self.clients.openWindow(url) : null;
  });
}

self.addEventListener("notificationclick", function (event) {
  var notification = event.notification;
  var data = notification.data || {};
  notification.close();
  if (event.action) {
    var links = data.links || {};
    if (event.action === "star" || event.action === "hide") event.waitUntil(call(links[event.action]));
    return;
  }
  // Marked viewed before the page is asked, so that the page shows it viewed.
  event.waitUntil(call(data.viewed).then(function () { return show(data.url); }));
});

// The push service changed the subscription: the new one is sent as the page's button does.
self.addEventListener("pushsubscriptionchange", function (event) {
  event.waitUntil(fetch("/api/push/key", { credentials: "same-origin" }).then(function (answer) {
    return answer.json();
  }).then(function (key) {
    return self.registration.pushManager.subscribe({
      userVisibleOnly: true, applicationServerKey: key.publicKey
    });
  }).then(function (subscription) {
    return fetch("/api/session", { credentials: "same-origin" }).then(function (answer) {
      return answer.json();
    }).then(function (session) {
      return fetch("/api/push/subscriptions", {
        method: "POST", credentials: "same-origin", body: JSON.stringify(subscription),
        headers: { "Content-Type": "application/json", "X-CSRF-Token": String(session.csrf || "") }
      });
    });
  }).catch(function () {}));
});
