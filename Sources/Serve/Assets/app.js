"use strict";
document.addEventListener("submit", function (event) {
  var form = event.target;
  if (!form.classList || !form.classList.contains("open")) return;
  var holder = form.closest("[data-key]");
  if (holder) { holder.classList.remove("unviewed"); holder.classList.add("viewed");
    var badge = holder.querySelector(".unviewed-badge"); if (badge) badge.remove(); }
});
function unloaded(image) {
  if (!image.parentNode) return;
  var holder = image.parentNode;
  image.remove();
  if (holder.classList.contains("photo")) { holder.classList.add("none"); holder.textContent = "photo not loaded (offline?)"; }
}
document.addEventListener("error", function (event) {
  if (event.target.tagName === "IMG") unloaded(event.target);
}, true);
// A photo that failed before this script ran had its error event already.
Array.prototype.forEach.call(document.querySelectorAll("img"), function (image) {
  if (image.complete && image.naturalWidth === 0 && image.getAttribute("src")) unloaded(image);
});
document.addEventListener("change", function (event) {
  var field = event.target;
  if (field.form && field.form.id === "filters" && (field.tagName === "SELECT" || field.type === "checkbox")) field.form.submit();
});