// Runs the map page's script (/assets/map.js) in node against a real clarissa server on
// loopback, with a stand-in for the page and for Leaflet that records what the script hands
// Leaflet as a tooltip: Leaflet puts a string in as HTML, an element as it is.
// node map-harness.js BASE_URL
"use strict";
const base = process.argv[2];
const report = { tooltips: [], html: [], asked: [], markers: [], labels: [], circles: [] };
function element(tag) {
  const node = {
    tagName: tag, children: [], attributes: {}, text: "", style: {}, listeners: {},
    set textContent(value) { this.text = String(value); this.children = []; },
    get textContent() { return this.text + this.children.map((c) => c.textContent).join(""); },
    set innerHTML(value) { report.html.push(String(value)); },
    appendChild(child) { this.children.push(child); return child; },
    setAttribute(name, value) { this.attributes[name] = String(value); },
    getAttribute(name) { return name in this.attributes ? this.attributes[name] : null; },
    addEventListener(type, handler) { this.listeners[type] = handler; },
  };
  return node;
}
const holder = element("div");
holder.setAttribute("data-api", "/api/map");
holder.setAttribute("data-tiles", "http://127.0.0.1/{z}/{x}/{y}.png");
holder.setAttribute("data-attribution", "tiles");
const note = element("p");
// The list beside the map, its order and its legend.
const list = element("ol");
const legend = element("ul");
const sorter = element("select");
sorter.value = "newest";
const parts = { map: holder, "map-note": note, "map-list": list, "map-legend": legend, "map-sort": sorter };
global.document = {
  getElementById: (id) => parts[id] || null,
  createElement: element,
  querySelector: () => null,
};
function layer() {
  const made = {
    addTo() { return made; },
    bindPopup() { return made; },
    setIcon() {},
    bindTooltip(content) {
      report.tooltips.push(
        typeof content === "string"
          ? { html: content }
          : { tag: content.tagName, text: content.textContent });
      return made;
    },
  };
  return made;
}
const map = {
  setView() { return map; }, addLayer() {}, fitBounds() {}, createPane() {}, getPane() { return null; },
  on() {},
};
// A marker with a pin records its title and icon's classes; a place's label records its text
// (an element: Leaflet puts a string in as HTML).
function marker(at, options) {
  const icon = (options && options.icon) || {};
  if (options && options.title !== undefined) report.markers.push({ title: options.title, icon: icon.className });
  else if (icon.html !== undefined) {
    report.labels.push(typeof icon.html === "string" ? { html: icon.html } : { tag: icon.html.tagName, text: icon.html.textContent });
  }
  return layer();
}
global.L = {
  map: () => map, tileLayer: layer, marker, circleMarker: layer, polygon: layer,
  circle: (at, options) => { report.circles.push({ at, radius: options.radius, color: options.color }); return layer(); },
  divIcon: (options) => options,
  markerClusterGroup: () => ({ addLayers() {}, getBounds() { return null; }, zoomToShowLayer() {}, on() {} }),
};
const realFetch = global.fetch;
global.fetch = (url, options) => {
  report.asked.push(url);
  return realFetch(base + url, options);
};
// The script as the server serves it.
realFetch(base + "/assets/map.js").then((answer) => answer.text()).then((script) => {
  eval(script);
});
const keys = () => list.children.map((item) => item.attributes["data-key"]);
setTimeout(() => {
  report.newest = keys();
  sorter.value = "travel";
  if (sorter.listeners.change) sorter.listeners.change();
  report.travel = keys();
  report.legend = legend.children.map((item) => ({ className: item.className, text: item.textContent }));
  report.cards = list.children.map((item) => ({ className: item.className, text: item.textContent }));
  report.note = note.textContent;
  report.places = holder.getAttribute("data-places");
  report.areas = holder.getAttribute("data-areas");
  console.log(JSON.stringify(report));
}, 1500);
