import ClarissaCore

/// The one style sheet and the one script, served from `/assets/` (nothing from other hosts:
/// the pages work with no internet; only the sites' photos need it).
enum Assets {
  static let style = """
    :root { color-scheme: light dark; --bg: #f5f5f7; --card: #fff; --text: #1d1d1f; --muted: #6e6e73; --accent: #0a7d3e; --mark: #0b63ce; --warn: #b3261e; }
    @media (prefers-color-scheme: dark) { :root { --bg: #111; --card: #1c1c1e; --text: #f5f5f7; --muted: #a1a1a6; --accent: #30d158; --mark: #64a8ff; --warn: #ff6961; } }
    * { box-sizing: border-box; }
    body { font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; color: var(--text); background: var(--bg); }
    a { color: var(--mark); }
    .top { display: flex; flex-wrap: wrap; gap: .5rem 1.2rem; align-items: center; padding: .7rem 1rem; background: var(--card); box-shadow: 0 1px 3px rgba(0,0,0,.12); }
    .brand { font-weight: 700; color: var(--text); text-decoration: none; font-size: 1.1rem; }
    .top nav { display: flex; gap: 1rem; flex-wrap: wrap; }
    main { padding: 1rem; max-width: 80rem; margin: 0 auto; }
    h1 { font-size: 1.4rem; margin: .2rem 0 .8rem; overflow-wrap: anywhere; }
    h2 { font-size: 1.1rem; margin: 1.2rem 0 .4rem; }
    .problems { border: 2px solid var(--warn); border-radius: .6rem; padding: .2rem .9rem; margin-bottom: 1rem; background: var(--card); }
    .problems pre { white-space: pre-wrap; overflow-wrap: anywhere; font-size: .85rem; }
    .searches { display: grid; grid-template-columns: repeat(auto-fill, minmax(18rem, 1fr)); gap: .8rem; }
    .search { background: var(--card); border-radius: .8rem; padding: .3rem 1rem .8rem; box-shadow: 0 1px 3px rgba(0,0,0,.12); }
    .search h2 { margin: .6rem 0 .2rem; overflow-wrap: anywhere; }
    .search p { margin: .15rem 0; color: var(--muted); font-size: .92rem; }
    .has-unviewed .unviewed-count { font-weight: 700; color: var(--mark); }
    .failures, .cooling { margin: .4rem 0 0; padding-left: 1.1rem; font-size: .85rem; color: var(--warn); overflow-wrap: anywhere; }
    .tag { font-size: .75rem; font-weight: 600; padding: .05rem .45rem; border-radius: .6rem; background: var(--muted); color: var(--card); vertical-align: middle; }
    .filters { display: flex; flex-wrap: wrap; gap: .5rem .9rem; align-items: end; background: var(--card); padding: .7rem .9rem; border-radius: .8rem; margin-bottom: .8rem; }
    .filters label { display: flex; flex-direction: column; font-size: .8rem; color: var(--muted); gap: .15rem; }
    .filters label.check { flex-direction: row; align-items: center; gap: .35rem; font-size: .9rem; color: var(--text); }
    .filters input[type=number] { width: 6rem; }
    input, select, button { font: inherit; padding: .3rem .5rem; border-radius: .4rem; border: 1px solid #8886; background: Field; color: FieldText; }
    button { cursor: pointer; background: var(--mark); color: #fff; border: none; padding: .35rem .8rem; }
    .toolbar { display: flex; justify-content: space-between; align-items: center; margin: .4rem 0 .8rem; color: var(--muted); }
    .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); gap: .8rem; }
    .card { background: var(--card); border-radius: .8rem; overflow: hidden; box-shadow: 0 1px 3px rgba(0,0,0,.15); display: flex; flex-direction: column; }
    .card.unviewed { outline: 2px solid var(--mark); }
    .card.viewed { opacity: .78; }
    .card-link { color: inherit; text-decoration: none; display: flex; flex-direction: column; flex: 1; }
    .photo { aspect-ratio: 4 / 3; background: #8883; display: flex; align-items: center; justify-content: center; color: var(--muted); font-size: .85rem; overflow: hidden; }
    .photo img { width: 100%; height: 100%; object-fit: cover; }
    .info { padding: .5rem .75rem .3rem; }
    .marks { display: flex; flex-wrap: wrap; gap: .25rem; }
    .badge { font-size: .72rem; font-weight: 600; padding: .05rem .45rem; border-radius: .6rem; background: var(--muted); color: var(--card); }
    .unviewed-badge { background: var(--mark); }
    .badge.drop { background: var(--accent); }
    .price { color: var(--accent); font-weight: 700; font-size: 1.1rem; margin-top: .2rem; }
    .price.big { font-size: 1.5rem; margin: 0; }
    .history { font-size: .8rem; color: var(--muted); }
    .history .drop { color: var(--accent); font-weight: 600; }
    .history .rise { color: var(--warn); }
    .title { font-weight: 600; margin: .15rem 0; overflow-wrap: anywhere; }
    .meta { color: var(--muted); font-size: .85rem; overflow-wrap: anywhere; }
    .context { margin: .3rem 0 0; padding-left: 1.1rem; font-size: .85rem; overflow-wrap: anywhere; } .digests { color: var(--muted); }
    form.open { padding: 0 .75rem .7rem; margin: 0; }
    .open-button { width: 100%; }
    .actions { display: flex; flex-wrap: wrap; gap: .6rem; margin: .6rem 0; }
    .actions form.open { padding: 0; }
    .photos { display: flex; gap: .5rem; overflow-x: auto; margin: .5rem 0; }
    .photos img { height: 14rem; border-radius: .5rem; }
    .facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem .9rem; }
    .facts dt { color: var(--muted); } .facts dd { margin: 0; overflow-wrap: anywhere; }
    .description { white-space: pre-line; overflow-wrap: anywhere; background: var(--card); padding: .7rem .9rem; border-radius: .6rem; }
    .pager { display: flex; gap: 1.5rem; justify-content: center; margin: 1.2rem 0; }
    .empty, .message { color: var(--muted); }
    .signin { display: flex; gap: .6rem; align-items: end; flex-wrap: wrap; }
    .map { height: 70vh; min-height: 18rem; border-radius: .8rem; z-index: 0; }
    .map-note, .map-links { color: var(--muted); margin: .3rem 0; }
    .legend { display: flex; flex-wrap: wrap; gap: .3rem 1.1rem; list-style: none; padding: 0; margin: .5rem 0; color: var(--muted); font-size: .85rem; align-items: center; }
    .pin { border-radius: 50%; border: 2px solid #fff; box-shadow: 0 0 0 1px rgba(0,0,0,.5); }
    .legend .pin { display: inline-block; width: 14px; height: 14px; margin-right: .35rem; vertical-align: middle; }
    .pin-unviewed { background: #0b63ce; } .pin-viewed { background: #8e8e93; } .pin-drop { background: #0a7d3e; }
    .popup { color: #1d1d1f; font: 14px/1.35 system-ui, sans-serif; overflow-wrap: anywhere; }
    .popup img { display: block; width: 100%; height: 8rem; object-fit: cover; border-radius: .4rem; }
    .popup .price { color: #0a7d3e; } .popup .meta { color: #6e6e73; } .popup form.open { padding: .4rem 0 0; }
    .other-facts { border-collapse: collapse; } .other-facts th, .other-facts td { text-align: left; padding: .15rem 1rem .15rem 0; vertical-align: top; overflow-wrap: anywhere; }
    .other-facts th { color: var(--muted); font-weight: normal; }
    @media (max-width: 32rem) { main { padding: .6rem; } .cards { grid-template-columns: 1fr 1fr; gap: .5rem; } .info { padding: .4rem .5rem .2rem; } .price { font-size: 1rem; } .filters input[type=number] { width: 4.5rem; } }
    """

  /// What the script does (the pages work without it): a listing opened from a card is shown
  /// as viewed at once; a photo that cannot load (offline) says so; the filter's choices apply as
  /// soon as they change.
  static let script = """
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
    """
}
