"use strict";
// A tablet (768 px to 1199 px wide, or wider with a touch screen: an iPad in landscape): a page
// of cards becomes a list beside a pane, and a card's link opens the listing in the pane. The listing is its own page (/listing/SITE/ID),
// fetched, and its <article class="listing"> moved in; the address gets #/listing/SITE/ID, a
// history entry, so Back closes the pane again and a reload (or a mark's form, which returns to
// the address) opens it. Without this script, on a phone and on a desktop (a mouse, 1200 px and
// more: the grid of cards has the room) the link is a link.
(function () {
  var cards = document.querySelector("main .cards");
  if (!cards || !window.fetch || !window.DOMParser || !window.history.pushState) return;
  var main = document.querySelector("main");
  var wide = window.matchMedia(
    "(min-width: 768px) and (max-width: 1199.98px), (min-width: 1200px) and (pointer: coarse)");
  var side = document.createElement("div");
  side.className = "list-side";
  var pane = document.createElement("aside");
  pane.className = "pane";
  pane.id = "pane";
  pane.setAttribute("aria-live", "polite");
  var asked = 0;

  function empty() {
    var hint = document.createElement("p");
    hint.className = "pane-hint";
    hint.textContent = "Choose a listing to see it here.";
    pane.replaceChildren(hint);
    current(null);
  }

  function listingPath(text) {
    return typeof text === "string" && /^\/listing\/[^\/?#]+\/[^\/?#]+$/.test(text) ? text : null;
  }

  function fromAddress() {
    try {
      return listingPath(decodeURI(location.hash.slice(1)));
    } catch (error) {
      return null;  // a malformed escape in a hand-made address
    }
  }

  function here() {
    return location.pathname + location.search;
  }

  function current(path) {
    Array.prototype.forEach.call(cards.querySelectorAll("article.card"), function (card) {
      var link = card.querySelector("a.card-link");
      card.classList.toggle("current", !!path && !!link && link.getAttribute("href") === path);
    });
  }

  function show(path) {
    var mine = ++asked;
    current(path);
    pane.setAttribute("aria-busy", "true");
    fetch(path, { headers: { "Accept": "text/html" }, credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error("the server answered " + response.status);
      return response.text();
    }).then(function (text) {
      if (mine !== asked) return;
      var page = new DOMParser().parseFromString(text, "text/html");
      var listing = page.querySelector("main article.listing");
      if (!listing) throw new Error("no listing in the answer");
      // A mark's form comes back to this list with the listing open.
      Array.prototype.forEach.call(listing.querySelectorAll("form input[name=return]"), function (field) {
        field.value = here() + "#" + path;
      });
      pane.replaceChildren(document.adoptNode(listing));
      pane.scrollTop = 0;
      pane.removeAttribute("aria-busy");
    }).catch(function () {
      // Offline and never kept, or gone: the listing's own page says why.
      if (mine === asked) location.assign(path);
    });
  }

  function follow() {
    var path = fromAddress();
    if (path) show(path);
    else { asked++; empty(); }
  }

  function arrange() {
    if (wide.matches && !main.classList.contains("split")) {
      while (main.firstChild) side.appendChild(main.firstChild);
      main.appendChild(side);
      main.appendChild(pane);
      main.classList.add("split");
      follow();
    } else if (!wide.matches && main.classList.contains("split")) {
      while (side.firstChild) main.insertBefore(side.firstChild, side);
      side.remove();
      pane.remove();
      main.classList.remove("split");
    }
  }

  cards.addEventListener("click", function (event) {
    if (!main.classList.contains("split")) return;
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    var link = event.target.closest("a.card-link");
    var path = link && listingPath(link.getAttribute("href"));
    if (!path) return;
    event.preventDefault();
    if (fromAddress() !== path) history.pushState({ pane: path }, "", here() + "#" + path);
    show(path);
  });
  // "Open on site" in the pane: its card is viewed too (app.js marks the pane's listing).
  pane.addEventListener("submit", function (event) {
    var form = event.target;
    var holder = form.closest && form.closest("[data-key]");
    if (!form.classList.contains("open") || !holder) return;
    Array.prototype.forEach.call(cards.querySelectorAll("article.card"), function (card) {
      if (card.getAttribute("data-key") !== holder.getAttribute("data-key")) return;
      card.classList.remove("unviewed");
      card.classList.add("viewed");
      var badge = card.querySelector(".unviewed-badge");
      if (badge) badge.remove();
    });
  });
  window.addEventListener("popstate", function () { if (main.classList.contains("split")) follow(); });
  wide.addEventListener("change", arrange);
  arrange();
})();
