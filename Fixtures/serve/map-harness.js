// Runs the map page's script (/assets/map.js) in node against a real clarissa server on
// loopback, with a stand-in for the page and for Leaflet that records what the script hands
// Leaflet as a tooltip: Leaflet puts a string in as HTML, an element as it is.
// node map-harness.js BASE_URL
"use strict";
const base = process.argv[2];
const report = { tooltips: [], html: [], asked: [] };
function element(tag) {
  const node = {
    tagName: tag, children: [], attributes: {}, text: "",
    set textContent(value) { this.text = String(value); this.children = []; },
    get textContent() { return this.text + this.children.map((c) => c.textContent).join(""); },
    set innerHTML(value) { report.html.push(String(value)); },
    appendChild(child) { this.children.push(child); return child; },
    setAttribute(name, value) { this.attributes[name] = String(value); },
    getAttribute(name) { return name in this.attributes ? this.attributes[name] : null; },
    addEventListener() {},
  };
  return node;
}
const holder = element("div");
holder.setAttribute("data-api", "/api/map");
holder.setAttribute("data-tiles", "http://127.0.0.1/{z}/{x}/{y}.png");
holder.setAttribute("data-attribution", "tiles");
const note = element("p");
global.document = {
  getElementById: (id) => (id === "map" ? holder : id === "map-note" ? note : null),
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
const map = { setView() { return map; }, addLayer() {}, fitBounds() {} };
global.L = {
  map: () => map, tileLayer: layer, marker: layer, circleMarker: layer, polygon: layer,
  divIcon: () => ({}),
  markerClusterGroup: () => ({ addLayers() {}, getBounds() { return null; }, zoomToShowLayer() {} }),
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
setTimeout(() => {
  report.note = note.textContent;
  report.places = holder.getAttribute("data-places");
  report.areas = holder.getAttribute("data-areas");
  console.log(JSON.stringify(report));
}, 1500);
