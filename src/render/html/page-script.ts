/**
 * The page's script, inline: expand and collapse, search by name, keyboard
 * navigation over the tree and the lists (roving focus), and move links that
 * open the collapsed branches on their way. It reads only the DOM, so the
 * page works (everything expanded in print) and stays readable without it.
 */
export const PAGE_SCRIPT = String.raw`
(function () {
  "use strict";
  var doc = document;
  var items = Array.prototype.slice.call(doc.querySelectorAll("li.node, li.rec"));
  var rests = Array.prototype.slice.call(doc.querySelectorAll("li.rest"));
  var search = doc.getElementById("q");
  var status = doc.getElementById("matches");
  var current = null;

  function isOpen(li) { return li.getAttribute("aria-expanded") === "true"; }
  function setOpen(li, open) { if (li.hasAttribute("aria-expanded")) li.setAttribute("aria-expanded", open ? "true" : "false"); }
  function parentItem(li) { var p = li.parentElement && li.parentElement.closest("li.node"); return p || null; }
  function visible(li) { return !li.hidden && li.offsetParent !== null; }
  function visibleItems() { return items.filter(visible); }

  function focusItem(li) {
    if (!li) return;
    if (current && current !== li) current.tabIndex = -1;
    li.tabIndex = 0;
    current = li;
    li.focus({ preventScroll: true });
    var row = li.querySelector(".row") || li;
    row.scrollIntoView({ block: "nearest" });
  }

  /** Open every collapsed branch above an element, clear a search hiding it, and show it. */
  function reveal(li) {
    if (!li) return;
    if (li.hidden) { search.value = ""; filter(""); }
    for (var p = parentItem(li); p; p = parentItem(p)) setOpen(p, true);
    focusItem(li);
    li.querySelector(".row").scrollIntoView({ block: "center" });
    li.classList.add("flash");
    setTimeout(function () { li.classList.remove("flash"); }, 1500);
  }

  doc.addEventListener("click", function (e) {
    var t = e.target;
    var link = t.closest && t.closest("a[href^='#']");
    if (link) {
      var target = doc.getElementById(link.getAttribute("href").slice(1));
      if (target && target.matches("li.node, li.rec")) {
        e.preventDefault();
        history.replaceState(null, "", link.getAttribute("href"));
        reveal(target);
      }
      return;
    }
    var tw = t.closest && t.closest(".tw");
    var li = t.closest && t.closest("li.node, li.rec");
    if (tw && li && li.hasAttribute("aria-expanded")) setOpen(li, !isOpen(li));
    if (li) focusItem(li);
  });

  doc.addEventListener("keydown", function (e) {
    if (e.target === search) {
      if (e.key === "Escape") { search.value = ""; filter(""); }
      else if (e.key === "ArrowDown" || e.key === "Enter") { e.preventDefault(); focusItem(visibleItems()[0]); }
      return;
    }
    if (e.key === "/" && !e.ctrlKey && !e.metaKey) { e.preventDefault(); search.focus(); search.select(); return; }
    var li = e.target.closest && e.target.closest("li.node, li.rec");
    if (!li) return;
    var list, i;
    switch (e.key) {
      case "ArrowDown": case "ArrowUp":
        list = visibleItems(); i = list.indexOf(li);
        focusItem(list[e.key === "ArrowDown" ? Math.min(i + 1, list.length - 1) : Math.max(i - 1, 0)]);
        break;
      case "Home": list = visibleItems(); focusItem(list[0]); break;
      case "End": list = visibleItems(); focusItem(list[list.length - 1]); break;
      case "ArrowRight":
        if (li.hasAttribute("aria-expanded") && !isOpen(li)) setOpen(li, true);
        else { var child = li.querySelector(":scope > ul > li.node"); if (child) focusItem(child); }
        break;
      case "ArrowLeft":
        if (isOpen(li)) setOpen(li, false); else focusItem(parentItem(li));
        break;
      case "Enter": case " ":
        var mv = li.querySelector(":scope > .row a.mv");
        if (mv && e.key === "Enter") mv.click();
        else if (li.hasAttribute("aria-expanded")) setOpen(li, !isOpen(li));
        break;
      default: return;
    }
    e.preventDefault();
  });

  // Search: an item shows when its name matches or something below it does; branches on the way open.
  var initial = items.map(function (li) { return li.getAttribute("aria-expanded"); });
  function filter(q) {
    q = q.trim().toLowerCase();
    var n = 0, keep = new Set();
    for (var i = items.length - 1; i >= 0; i--) {
      var li = items[i];
      if (!q) { li.hidden = false; if (initial[i] !== null) li.setAttribute("aria-expanded", initial[i]); continue; }
      var hit = li.getAttribute("data-name").indexOf(q) !== -1;
      if (hit) n++;
      var show = hit || keep.has(li);
      li.hidden = !show;
      if (keep.has(li)) setOpen(li, true);
      if (show) { var p = parentItem(li); if (p) keep.add(p); }
    }
    rests.forEach(function (r) { r.hidden = !!q; });
    status.textContent = q ? n + (n === 1 ? " match" : " matches") : "";
    search.setAttribute("data-filtered", q);
  }
  var timer = 0;
  search.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(function () { filter(search.value); }, 80); });
  doc.getElementById("expand").addEventListener("click", function () { items.forEach(function (li) { setOpen(li, true); }); });
  doc.getElementById("collapse").addEventListener("click", function () { items.forEach(function (li) { if (parentItem(li)) setOpen(li, false); }); });

  var first = items[0];
  if (first) first.tabIndex = 0;
  if (location.hash) { var t = doc.getElementById(location.hash.slice(1)); if (t && t.matches("li.node, li.rec")) reveal(t); }
  // When the page is drawn and answers input, by its own clock (the browser tests report it): the handlers are attached
  // now, but style, layout and paint come after this script; a timer set in the next frame's callback runs once that
  // frame is drawn. Hidden tabs draw no frames, hence the fallback.
  function ready() { doc.documentElement.setAttribute("data-ready", String(Math.round(performance.now()))); }
  if (doc.hidden) ready(); else requestAnimationFrame(function () { setTimeout(ready, 0); });
})();
`;
