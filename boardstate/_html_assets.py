"""The replay page's style and scripts (``_html``): the same in every page."""

from __future__ import annotations

STYLE = """
:root{color-scheme:light dark;font-family:system-ui,sans-serif;line-height:1.4}
body{margin:0 auto;padding:0 1rem 2rem;max-width:110rem}
[hidden]{display:none!important}
h1{font-size:1.4rem;margin:.8rem 0 .2rem}
h2{font-size:1.1rem;margin:.6rem 0 .3rem}
.about{margin:.2rem 0;color:GrayText}
nav{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin:.6rem 0}
nav form{display:flex;gap:.3rem;align-items:center;margin-left:.6rem}
nav input{width:5.5rem}
button{font:inherit;padding:.25rem .8rem}
#everything{margin-left:.6rem}
#everything[aria-pressed="true"]{font-weight:600}
.hint{color:GrayText;font-size:.9rem;margin-left:.6rem}
#status{font-weight:600;min-height:1.4em;margin:.4rem 0}
.table{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start}
#position{flex:1 1 36rem;min-width:0}
.frame{margin:0 0 1.5rem}
figcaption{font-size:.9rem;color:GrayText;margin-bottom:.3rem}
.picture svg{display:block;max-width:100%;height:auto;background:#fff}
.picture pre{margin:0;padding:.6rem;overflow:auto;border:1px solid GrayText;
font-size:.85rem;line-height:1.3}
.moves{flex:0 1 26rem;min-width:16rem}
#moves{margin:0;padding:0;list-style:none;position:relative}
#moves li{display:grid;grid-template-columns:auto 1fr;column-gap:.5em;
padding:.1rem .3rem;border-radius:.2rem}
#moves .n{min-width:5ch;text-align:right;color:GrayText;font-variant-numeric:tabular-nums;
white-space:nowrap}
#moves a{color:inherit;text-decoration:none}
#moves a:hover,#moves a:focus{text-decoration:underline}
.settled{grid-column:2;font-size:.85rem;color:GrayText}
#moves li.current{background:Highlight;color:HighlightText}
#moves li.current .settled,#moves li.current .n{color:inherit}
.js .frame{margin:0}
.js figcaption{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.js .failed figcaption{position:static;width:auto;height:auto;clip:auto;color:inherit}
.js #moves{max-height:75vh;overflow:auto}
.js.quiet #moves>li:not(.seen),.js.quiet #outcome:not(.seen){display:none}
#result{font-weight:600}
""".strip()

# Before the page is read: with scripts on, the moves after the current one and the result
# are hidden (class "quiet", unless the page was written with every spoiler shown).
EARLY = 'document.documentElement.className += " js";'

SCRIPT = """
(function () {
  "use strict";
  var doc = document;
  var root = doc.documentElement;
  var position = doc.getElementById("position");
  var picture = position.querySelector(".picture");
  var caption = position.querySelector("figcaption");
  var list = doc.getElementById("moves");
  var items = list.querySelectorAll("li[data-step]");
  var outcome = doc.getElementById("outcome");
  var status = doc.getElementById("status");
  var jump = doc.getElementById("jump");
  var everything = doc.getElementById("everything");
  var buttons = {
    first: doc.getElementById("first"), back: doc.getElementById("back"),
    forward: doc.getElementById("forward"), last: doc.getElementById("last")
  };
  var last = items.length - 1;
  var current = -1;
  var seen = -1;
  var k;
  var marked = list.querySelectorAll("li.current");  // (set in the markup for reading with scripts off)
  for (k = 0; k < marked.length; k++) {
    marked[k].classList.remove("current");
    marked[k].removeAttribute("aria-current");
  }

  // The pictures: packed by the page's writer (boardstate/_html_pack.py), unpacked once.
  var pieces = [];
  var changes = [];
  var kept = [];  // the pieces of every 32nd picture
  var made = {at: -1, ids: null};  // the picture last put together
  var drawn = 0;  // (the markup shows the first)
  var wanted = 0;
  var ready = false;
  function apply(ids, flat) {
    var out = [], at = 0, i = 0, n, j;
    while (i < flat.length) {
      for (j = at; j < flat[i]; j++) { out.push(ids[j]); }
      at = flat[i] + flat[i + 1];
      n = flat[i + 2];
      for (j = 0; j < n; j++) { out.push(flat[i + 3 + j]); }
      i += 3 + n;
    }
    for (j = at; j < ids.length; j++) { out.push(ids[j]); }
    return out;
  }
  function idsOf(frame) {
    var from = frame - frame % 32, ids = kept[from / 32];
    if (made.at >= from && made.at <= frame) { from = made.at; ids = made.ids; }
    while (from < frame) { from += 1; ids = apply(ids, changes[from]); }
    made = {at: frame, ids: ids};
    return ids;
  }
  function draw(frame) {
    wanted = frame;
    if (!ready || frame === drawn) { return; }
    var ids = idsOf(frame), html = new Array(ids.length);
    for (var i = 0; i < ids.length; i++) { html[i] = pieces[ids[i]]; }
    picture.innerHTML = html.join("");
    drawn = frame;
  }
  function unpack() {
    if (typeof DecompressionStream === "undefined") {
      return Promise.reject(new Error("this browser has no DecompressionStream"));
    }
    var text = atob(doc.getElementById("pictures").textContent);  // (white space ignored)
    var bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) { bytes[i] = text.charCodeAt(i); }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    return new Response(stream).text().then(function (lines) {
      var ids = [];
      lines.split("\\n").forEach(function (line) {
        if (!line) { return; }
        var entry = JSON.parse(line), added = entry[0];
        for (var j = 0; j < added.length; j++) { pieces.push(added[j]); }
        ids = apply(ids, entry[1]);
        if (changes.length % 32 === 0) { kept.push(ids); }
        changes.push(entry[1]);
      });
    });
  }

  function keepInView(item) {
    var top = item.offsetTop, bottom = top + item.offsetHeight;
    if (top < list.scrollTop) { list.scrollTop = top; }
    else if (bottom > list.scrollTop + list.clientHeight) {
      list.scrollTop = bottom - list.clientHeight;
    }
  }
  function mark(i) {  // the moves up to the current one are seen, the later ones not
    for (k = seen + 1; k <= i; k++) { items[k].classList.add("seen"); }
    for (k = seen; k > i; k--) { items[k].classList.remove("seen"); }
    seen = i;
  }
  function show(i) {
    i = Math.floor(Number(i));
    if (isNaN(i)) { return; }
    i = Math.max(0, Math.min(last, i));
    if (current >= 0) {
      items[current].classList.remove("current");
      items[current].removeAttribute("aria-current");
    }
    var item = items[i];
    item.classList.add("current");
    item.setAttribute("aria-current", "step");
    mark(i);
    outcome.classList.toggle("seen", i === last);
    draw(Number(item.getAttribute("data-frame")));
    var words = item.querySelector(".move").textContent;
    position.setAttribute("data-step", String(i));
    status.textContent = "record " + i + " of " + last + ": " + words;
    if (!position.classList.contains("failed")) {
      caption.textContent = "After record " + i + ": " + words;
    }
    jump.value = String(i);
    buttons.first.disabled = buttons.back.disabled = i === 0;
    buttons.forward.disabled = buttons.last.disabled = i === last;
    keepInView(item);
    current = i;
  }
  buttons.first.addEventListener("click", function () { show(0); });
  buttons.back.addEventListener("click", function () { show(current - 1); });
  buttons.forward.addEventListener("click", function () { show(current + 1); });
  buttons.last.addEventListener("click", function () { show(last); });
  everything.addEventListener("click", function () {
    var quiet = root.classList.toggle("quiet");
    everything.setAttribute("aria-pressed", quiet ? "false" : "true");
    keepInView(items[current]);
  });
  doc.getElementById("jump-form").addEventListener("submit", function (event) {
    event.preventDefault();
    show(jump.value);
  });
  list.addEventListener("click", function (event) {
    var item = event.target.closest ? event.target.closest("li[data-step]") : null;
    if (!item) { return; }
    event.preventDefault();
    show(item.getAttribute("data-step"));
  });
  doc.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" ||
        target.isContentEditable)) { return; }
    var to = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last}[event.key];
    if (to === undefined) { return; }
    event.preventDefault();
    show(to);
  });
  doc.getElementById("controls").hidden = false;
  var asked = /^#(\\d+)$/.exec(location.hash);
  show(asked ? asked[1] : 0);
  unpack().then(function () {
    ready = true;
    draw(wanted);
    position.setAttribute("data-ready", "yes");
  }, function (error) {
    position.classList.add("failed");
    caption.textContent = "Only the first position can be shown: " + error.message + ".";
    position.setAttribute("data-ready", "failed");
  });
}());
""".strip()
