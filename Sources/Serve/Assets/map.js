"use strict";
(function () {
  var holder = document.getElementById("map");
  if (!holder) return;
  var note = document.getElementById("map-note");
  function say(text) { note.textContent = text; }
  if (typeof L === "undefined" || !L.markerClusterGroup) {
    say("The map's scripts did not load: apt-get install libjs-leaflet libjs-leaflet.markercluster");
    return;
  }
  var map = L.map(holder, { worldCopyJump: true }).setView([20, 0], 2);
  L.tileLayer(holder.getAttribute("data-tiles"), {
    maxZoom: 19, attribution: holder.getAttribute("data-attribution") }).addTo(map);
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
  function icon(state) { return L.divIcon({ className: "pin pin-" + state, iconSize: [18, 18] }); }
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
    form.addEventListener("submit", function () { if (m.state === "unviewed") marker.setIcon(icon("viewed")); });
    return form;
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
    if (m.facts) box.appendChild(element("div", "popup-facts", m.facts));
    if (m.distances) box.appendChild(element("div", "popup-distances", m.distances));
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
  var focus = holder.getAttribute("data-focus");
  fetch(holder.getAttribute("data-api"), { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then(function (answer) {
      if (!answer.ok) throw new Error("the server answered " + answer.status);
      return answer.json();
    })
    .then(function (data) {
      var focused = null;
      var markers = data.markers.map(function (m) {
        var marker = L.marker([m.lat, m.lon], { icon: icon(m.state), title: m.title });
        marker.bindPopup(function () { return popup(m, marker); }, { minWidth: 180, maxWidth: 260 });
        if (focus && m.key === focus) focused = marker;
        return marker;
      });
      cluster.addLayers(markers);
      // The searches' places (a ring and its name) and their areas, under the markers.
      (data.places || []).forEach(function (p) {
        L.circleMarker([p.lat, p.lon], { radius: 7, color: "#5b2a86", weight: 3, fillOpacity: 0.2, className: "place" })
          .bindTooltip(element("span", null, p.name), { permanent: true, direction: "right", className: "place-name" })
          .addTo(map);
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
      holder.setAttribute("data-places", String((data.places || []).length));
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
    })
    .catch(function (error) { say("The listings could not be loaded: " + error.message); });
})();