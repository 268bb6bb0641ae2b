"use strict";
(function () {
  // What the markers' colours, the legend and the list's order are made of, from the data
  // alone (node's harness runs them: Tests/ServeTests/ServeMapScriptTests.swift).
  // A journey is "near the limit" above this share of its max.
  var NEAR_SHARE = 0.8;
  // The classes by commute, in the legend's order. Okabe and Ito's palette (colour-blind safe),
  // with shape as a second cue: beyond is a square, unknown hollow (style.css).
  var COMMUTE = ["within", "near", "beyond", "unknown"];
  // The places' colours (the rings, labels and near: circles), in the order of `places`.
  var PLACE_COLOURS = ["#5b2a86", "#0072b2", "#cc79a7", "#56b4e9"];
  // The most cards the list beside the map holds ("as a list" has every listing).
  var LIST_LIMIT = 200;

  function judged(m) {
    return (m.commute || []).filter(function (c) { return typeof c.max === "number" && c.max > 0; });
  }
  // within: every limited journey known and at most 0.8 x its max; near: all within their max,
  // one above 0.8 x; beyond: one above its max, or farther than its straight-line bound
  // (beyondReach); unknown: no time for a limit (or none at all).
  function commuteClass(m) {
    var times = judged(m);
    if (!times.length) return "unknown";
    var beyond = false, unknown = false, near = false;
    times.forEach(function (c) {
      if (c.beyondReach === true) beyond = true;
      else if (typeof c.minutes !== "number") unknown = true;
      else if (c.minutes > c.max) beyond = true;
      else if (c.minutes > NEAR_SHARE * c.max) near = true;
    });
    return beyond ? "beyond" : unknown ? "unknown" : near ? "near" : "within";
  }
  // The list's key for "travel time": the longest of the marker's journeys (all must hold);
  // null when one is unknown or it has none.
  function travelKey(m) {
    var times = m.commute || [];
    if (!times.length) return null;
    var longest = 0;
    for (var i = 0; i < times.length; i++) {
      if (typeof times[i].minutes !== "number") return null;
      longest = Math.max(longest, times[i].minutes);
    }
    return longest;
  }
  // The markers in the list's order: "newest" as the data comes, "travel" shortest first and
  // the unknown last (each kept in the data's order among equals).
  function sortMarkers(markers, by) {
    var indexed = markers.map(function (m, i) { return { m: m, i: i, k: by === "travel" ? travelKey(m) : null }; });
    if (by === "travel") {
      indexed.sort(function (a, b) {
        if (a.k === null || b.k === null) return a.k === b.k ? a.i - b.i : a.k === null ? 1 : -1;
        return a.k - b.k || a.i - b.i;
      });
    }
    return indexed.map(function (x) { return x.m; });
  }
  function minutes(value) { return Math.round(value * 10) / 10 + " min"; }
  // The legend's lines for `limits` ({place, by, max}), each with how many of `markers` it holds.
  function legend(limits, markers) {
    if (!limits || !limits.length) return [];
    var counts = { within: 0, near: 0, beyond: 0, unknown: 0 };
    markers.forEach(function (m) { counts[commuteClass(m)] += 1; });
    var one = limits.length === 1 ? limits[0] : null;
    var words = one
      ? {
        within: "within " + minutes(NEAR_SHARE * one.max) + " by " + one.by + " to " + one.place,
        near: "near the limit (" + minutes(NEAR_SHARE * one.max) + " to " + minutes(one.max) + ")",
        beyond: "beyond " + minutes(one.max),
        unknown: "travel time unknown" }
      : {
        within: "within 80 % of every limit",
        near: "near a limit (above 80 % of it)",
        beyond: "beyond a limit",
        unknown: "a travel time unknown" };
    return COMMUTE.map(function (c) { return { kind: c, text: words[c], count: counts[c] }; });
  }
  var logic = { commuteClass: commuteClass, travelKey: travelKey, sortMarkers: sortMarkers, legend: legend };
  if (typeof globalThis !== "undefined") globalThis.clarissaMap = logic;

  var holder = document.getElementById("map");
  if (!holder) return;
  // On a phone the filters start folded, so that the map fills the screen under the bar.
  var filters = document.getElementById("map-filters");
  if (filters && typeof window !== "undefined" && window.matchMedia && window.matchMedia("(max-width: 32rem)").matches) filters.open = false;
  var note = document.getElementById("map-note");
  function say(text) { note.textContent = text; }
  if (typeof L === "undefined" || !L.markerClusterGroup) {
    say("The map's scripts did not load: apt-get install libjs-leaflet libjs-leaflet.markercluster");
    return;
  }
  var map = L.map(holder, { worldCopyJump: true }).setView([20, 0], 2);
  logic.map = map; // for .ci/browser, which moves the view
  L.tileLayer(holder.getAttribute("data-tiles"), {
    maxZoom: 19, attribution: holder.getAttribute("data-attribution") }).addTo(map);
  // The places' names: under the markers, never a click's target, and moved off the markers.
  map.createPane("placeLabels");
  var labelPane = map.getPane("placeLabels");
  if (labelPane && labelPane.style) { labelPane.style.zIndex = 550; labelPane.style.pointerEvents = "none"; }
  var cluster = L.markerClusterGroup({ showCoverageOnHover: false });
  map.addLayer(cluster);
  var csrf = document.querySelector("meta[name=csrf]");
  function web(url) { return typeof url === "string" && /^https?:\/\//i.test(url) ? url : null; }
  function local(path) { return typeof path === "string" && /^\/[^\/\\]/.test(path) ? path : null; }
  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  var byCommute = false;
  function kind(m, state) { return byCommute ? commuteClass(m) + (state === "viewed" ? " pin-seen" : "") : state; }
  function icon(k) { return L.divIcon({ className: "pin pin-" + k, iconSize: [18, 18] }); }
  // "Open on site" as on the cards: a POST that marks the listing viewed, then opens it.
  function opener(m, marker) {
    var form = element("form", "open");
    form.method = "post";
    form.target = "_blank";
    form.action = m.page.replace(/^\/listing\//, "/open/");
    var token = element("input");
    token.type = "hidden"; token.name = "csrf"; token.value = csrf ? csrf.content : "";
    form.appendChild(token);
    form.appendChild(element("button", "open-button", "Open on site ↗"));
    form.addEventListener("submit", function () { if (m.state === "unviewed") marker.setIcon(icon(kind(m, "viewed"))); });
    return form;
  }
  // A card's or a popup's facts: rooms and area, distances, travel times (each in its colour).
  function facts(box, m) {
    if (m.facts) box.appendChild(element("div", "popup-facts", m.facts));
    if (m.distances) box.appendChild(element("div", "popup-distances", m.distances));
    (m.commute || []).forEach(function (c) {
      var line = box.appendChild(element("div", "popup-commute"));
      if (typeof c.max === "number") line.appendChild(element("span", "dot pin-" + commuteClass({ commute: [c] })));
      line.appendChild(element("span", null, c.words));
    });
  }
  function popup(m, marker) {
    var box = element("div", "popup");
    var photo = web(m.photo);
    if (photo) {
      var image = element("img");
      image.alt = ""; image.referrerPolicy = "no-referrer"; image.src = photo;
      box.appendChild(image);
    }
    if (m.price) box.appendChild(element("div", "price", m.price + (m.drop !== undefined ? " (" + m.drop + "%)" : "")));
    box.appendChild(element("div", "title", m.title));
    facts(box, m);
    if (m.place) box.appendChild(element("div", "meta", m.place));
    (m.signals || []).forEach(function (s) { box.appendChild(element("div", "popup-signal", "⚠ " + s)); });
    var page = local(m.page);
    if (page) {
      var link = element("a", "popup-page", "Details");
      link.href = page;
      box.appendChild(element("div", "popup-links")).appendChild(link);
    }
    if (web(m.url) && page) box.appendChild(opener(m, marker));
    return box;
  }
  // The list beside the map (under it on a phone): a card per marker, in the chosen order.
  var list = document.getElementById("map-list");
  var sorter = document.getElementById("map-sort");
  var listNote = document.getElementById("map-list-note");
  function fillList(data, markers) {
    if (!list) return;
    var order = sortMarkers(data.markers, sorter ? sorter.value : "newest");
    list.textContent = "";
    order.slice(0, LIST_LIMIT).forEach(function (m) {
      var item = list.appendChild(element("li", "map-card " + (byCommute ? "commute-" + commuteClass(m) : m.state)));
      item.setAttribute("data-key", m.key);
      if (m.price) item.appendChild(element("div", "price", m.price + (m.drop !== undefined ? " (" + m.drop + "%)" : "")));
      facts(item, m);
      var page = local(m.page);
      var title = item.appendChild(element(page ? "a" : "div", "title", m.title));
      if (page) title.href = page;
      item.addEventListener("click", function (event) {
        if (event.target && event.target.tagName === "A") return;
        var marker = markers[m.key];
        if (marker) cluster.zoomToShowLayer(marker, function () { marker.openPopup(); });
      });
    });
    if (listNote) {
      listNote.textContent = data.markers.length > LIST_LIMIT
        ? "The first " + LIST_LIMIT + " of " + data.markers.length.toLocaleString("en-US") + "; “as a list” has them all."
        : "";
    }
    holder.setAttribute("data-listed", String(Math.min(LIST_LIMIT, order.length)));
  }
  function fillLegend(data) {
    var box = document.getElementById("map-legend");
    var lines = legend(data.limits, data.markers);
    if (!box || !lines.length) return;
    box.textContent = "";
    box.className = "legend commute-legend";
    lines.forEach(function (line) {
      var item = box.appendChild(element("li", "legend-" + line.kind));
      item.appendChild(element("span", "pin pin-" + line.kind));
      item.appendChild(element("span", null, line.text + " (" + line.count + ")"));
    });
    box.appendChild(element("li", null, "Listings without coordinates are only in the list."));
  }
  // Each place's label, moved to the first side where it covers no marker or cluster icon, else
  // hidden (the ring's own tooltip still names it).
  var labels = [];
  function overlaps(a, b) { return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom; }
  function placeLabels() {
    if (!labels.length || typeof document.querySelectorAll !== "function") return;
    var icons = Array.prototype.map.call(
      document.querySelectorAll(".leaflet-marker-pane .leaflet-marker-icon"), function (i) { return i.getBoundingClientRect(); });
    labels.forEach(function (span) {
      span.style.visibility = "hidden";
      span.style.left = "0px"; span.style.top = "0px";
      var box = span.getBoundingClientRect();
      var w = box.width, h = box.height;
      var tries = [[12, -h / 2], [-12 - w, -h / 2], [-w / 2, -14 - h], [-w / 2, 14], [34, -h / 2], [-34 - w, -h / 2],
        [-w / 2, -36 - h], [-w / 2, 36], [12, -28 - h], [12, 28], [-12 - w, -28 - h], [-12 - w, 28]];
      for (var i = 0; i < tries.length; i++) {
        var shifted = { left: box.left + tries[i][0], right: box.left + tries[i][0] + w, top: box.top + tries[i][1], bottom: box.top + tries[i][1] + h };
        if (!icons.some(function (r) { return r.width > 0 && overlaps(shifted, r); })) {
          span.style.left = tries[i][0] + "px"; span.style.top = tries[i][1] + "px";
          span.style.visibility = "visible";
          return;
        }
      }
    });
  }
  var pending = null;
  function placeLabelsSoon() {
    if (pending) clearTimeout(pending);
    pending = setTimeout(function () { pending = null; placeLabels(); }, 60);
  }
  if (typeof map.on === "function") map.on("zoomend moveend", placeLabelsSoon);
  if (typeof cluster.on === "function") cluster.on("animationend spiderfied unspiderfied", placeLabelsSoon);
  if (sorter) sorter.addEventListener("change", function () { if (shown) fillList(shown.data, shown.markers); });
  var shown = null;

  var focus = holder.getAttribute("data-focus");
  fetch(holder.getAttribute("data-api"), { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then(function (answer) {
      if (!answer.ok) throw new Error("the server answered " + answer.status);
      return answer.json();
    })
    .then(function (data) {
      var focused = null;
      byCommute = (data.limits || []).length > 0;
      var byKey = {};
      var markers = data.markers.map(function (m) {
        var marker = L.marker([m.lat, m.lon], { icon: icon(kind(m, m.state)), title: m.title });
        marker.bindPopup(function () { return popup(m, marker); }, { minWidth: 180, maxWidth: 260 });
        if (focus && m.key === focus) focused = marker;
        byKey[m.key] = marker;
        return marker;
      });
      cluster.addLayers(markers);
      shown = { data: data, markers: byKey };
      // The searches' places (a ring, its name moved off the markers), their near: circles and
      // their areas, under the markers.
      var colours = {};
      (data.places || []).forEach(function (p, i) { colours[p.name] = PLACE_COLOURS[i % PLACE_COLOURS.length]; });
      (data.near || []).forEach(function (n) {
        L.circle([n.lat, n.lon], { radius: n.radius, color: colours[n.name] || PLACE_COLOURS[0], weight: 2, dashArray: "6 4",
          fillOpacity: 0.04, interactive: false, className: "near-circle" }).addTo(map);
      });
      (data.places || []).forEach(function (p) {
        var colour = colours[p.name];
        L.circleMarker([p.lat, p.lon], { radius: 7, color: colour, weight: 3, fillOpacity: 0.2, className: "place" })
          .bindTooltip(element("span", null, p.name), { direction: "top", className: "place-name" })
          .addTo(map);
        var radii = (data.near || []).filter(function (n) { return n.name === p.name; }).map(function (n) { return n.words; });
        var span = element("span", "place-label", p.name + (radii.length ? " · " + radii.join(", ") : ""));
        if (span.style) span.style.borderColor = colour;
        labels.push(span);
        L.marker([p.lat, p.lon], { icon: L.divIcon({ className: "place-anchor", html: span, iconSize: [0, 0] }),
          pane: "placeLabels", interactive: false, keyboard: false }).addTo(map);
      });
      // The areas come apart, once: the browser keeps them (their address names their version).
      if (local(data.areasAt)) {
        fetch(data.areasAt, { credentials: "same-origin", headers: { Accept: "application/json" } })
          .then(function (answer) { return answer.ok ? answer.json() : { areas: [] }; })
          .then(function (shapes) {
            (shapes.areas || []).forEach(function (a) {
              var latlngs = a.polygons.map(function (rings) {
                return rings.map(function (ring) { return ring.map(function (c) { return [c[1], c[0]]; }); });
              });
              L.polygon(latlngs, { color: "#5b2a86", weight: 2, fillOpacity: 0.05, className: "area" })
                .bindTooltip(element("span", null, a.name), { sticky: true }).addTo(map);
            });
            holder.setAttribute("data-areas", String((shapes.areas || []).length));
          })
          .catch(function () { holder.setAttribute("data-areas", "0"); });
      } else {
        holder.setAttribute("data-areas", "0");
      }
      fillLegend(data);
      fillList(data, byKey);
      holder.setAttribute("data-places", String((data.places || []).length));
      holder.setAttribute("data-near", String((data.near || []).length));
      holder.setAttribute("data-markers", String(markers.length));
      var count = markers.length.toLocaleString("en-US");
      if (markers.length === 0) say("No listing the filters find has coordinates.");
      else if (data.more) say("The newest " + count + " listings with coordinates; the filters find more: narrow them to see the others.");
      else say(count + (markers.length === 1 ? " listing" : " listings") + " with coordinates.");
      // One listing asked for ("on the map" of its page): its popup open; else all in view.
      // (zoomToShowLayer waits for no animation: the view is set without one first.)
      if (markers.length) map.fitBounds(cluster.getBounds(), { padding: [30, 30], maxZoom: 15, animate: !focused });
      // The popup opens once the spiderfy animation is over, so that it pans the map into view.
      if (focused) cluster.zoomToShowLayer(focused, function () { setTimeout(function () { focused.openPopup(); }, 300); });
      placeLabelsSoon();
    })
    .catch(function (error) { say("The listings could not be loaded: " + error.message); });
})();
