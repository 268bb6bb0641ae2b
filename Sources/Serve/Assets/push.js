"use strict";
// Every page: registers the service worker (/sw.js), and sets the app's badge to the unviewed
// count the page carries (<meta name="app-badge">; the Badging API, where the browser has it).
// The searches page: the "Notify this device" button. Permission is asked on its click only;
// the subscription is made with the server's VAPID key (GET /api/push/key) and sent as the
// browser gives it (POST /api/push/subscriptions, the page's CSRF token in X-CSRF-Token); the
// button says whether this device is notified (on, off, blocked, not supported) and turns it off
// (DELETE /api/push/subscriptions, {"endpoint": ...}).
(function () {
  var count = document.querySelector("meta[name=app-badge]");
  if (count && typeof navigator.setAppBadge === "function") {
    var unviewed = parseInt(count.getAttribute("content"), 10);
    if (unviewed > 0) navigator.setAppBadge(unviewed).catch(function () {});
    else if (unviewed === 0) navigator.clearAppBadge().catch(function () {});
  }
  var box = document.getElementById("device");
  var button = document.getElementById("notify-device");
  var said = document.getElementById("notify-state");
  var worker = "serviceWorker" in navigator && window.isSecureContext
    ? navigator.serviceWorker.register("/sw.js").catch(function (error) {
      if (said) said.textContent = "The app's worker did not start: " + error.message;
      return null;
    })
    : null;
  if (!box || !button || !said) return;
  box.hidden = false;
  var csrf = document.querySelector("meta[name=csrf]");
  var headers = {
    "Content-Type": "application/json", "Accept": "application/json",
    "X-CSRF-Token": csrf ? csrf.getAttribute("content") : ""
  };
  var subscription = null;

  function state(name, words) {
    box.setAttribute("data-state", name);
    said.textContent = words;
    button.disabled = name === "blocked" || name === "unsupported" || name === "working";
    button.textContent = name === "on" ? "Stop notifying this device" : "Notify this device";
  }

  if (!worker || !("PushManager" in window) || !("Notification" in window)) {
    state("unsupported", window.isSecureContext
      ? "This browser cannot take notifications (on an iPhone or iPad: add the app to the Home Screen, then open it from there)."
      : "Notifications need https (or this machine's own address): see docs/serve.md.");
    return;
  }

  function refresh() {
    if (Notification.permission === "denied") {
      state("blocked", "Notifications are blocked for this site in the browser's settings.");
      return Promise.resolve();
    }
    return worker.then(function (registration) {
      if (!registration) {
        state("unsupported", said.textContent);
        return;
      }
      return registration.pushManager.getSubscription().then(function (found) {
        subscription = found;
        if (found) state("on", "This device is notified.");
        else state("off", "This device is not notified.");
      });
    });
  }

  // The server's answer, or an error carrying what it said.
  function answered(response) {
    if (response.ok) return response;
    return response.json().catch(function () { return {}; }).then(function (body) {
      throw new Error((body && typeof body.error === "string" ? body.error : "") || ("the server answered " + response.status));
    });
  }

  function key(text) {
    if (typeof text !== "string" || !/^[A-Za-z0-9_-]{80,100}$/.test(text)) throw new Error("the server's key is not a VAPID key");
    var plain = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4));
    var bytes = new Uint8Array(plain.length);
    for (var i = 0; i < plain.length; i++) bytes[i] = plain.charCodeAt(i);
    if (bytes.length !== 65 || bytes[0] !== 4) throw new Error("the server's key is not a P-256 public key");
    return bytes;
  }

  function turnOn() {
    return Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") return refresh();
      state("working", "Subscribing…");
      return Promise.all([
        navigator.serviceWorker.ready,
        fetch("/api/push/key", { headers: headers, credentials: "same-origin" }).then(answered)
          .then(function (response) { return response.json(); })
      ]).then(function (both) {
        var registration = both[0];
        var applicationServerKey = key(both[1] && both[1].publicKey);
        return registration.pushManager.getSubscription().then(function (old) {
          // One made with another key (the store's key changed) cannot be reused.
          return old ? old.unsubscribe() : null;
        }).then(function () {
          return registration.pushManager.subscribe({
            userVisibleOnly: true, applicationServerKey: applicationServerKey
          });
        });
      }).then(function (made) {
        return fetch("/api/push/subscriptions", {
          method: "POST", headers: headers, credentials: "same-origin", body: JSON.stringify(made)
        }).then(answered).catch(function (error) {
          // The server did not keep it: nothing is left subscribed that it would not send to.
          return made.unsubscribe().then(function () { throw error; });
        });
      }).then(refresh);
    });
  }

  function turnOff() {
    var endpoint = subscription.endpoint;
    state("working", "Turning off…");
    return fetch("/api/push/subscriptions", {
      method: "DELETE", headers: headers, credentials: "same-origin",
      body: JSON.stringify({ endpoint: endpoint })
    }).then(answered).then(function () {
      return subscription.unsubscribe();
    }).then(refresh);
  }

  button.addEventListener("click", function () {
    var asked = box.getAttribute("data-state") === "on" ? turnOff() : turnOn();
    asked.catch(function (error) {
      refresh().then(function () {
        said.textContent = "That did not work: " + (error && error.message ? error.message : String(error));
        box.setAttribute("data-error", "1");
      });
    });
  });
  refresh().catch(function (error) { state("unsupported", "Notifications are not available: " + error.message); });
})();
