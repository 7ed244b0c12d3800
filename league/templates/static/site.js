/* league: progressive enhancement only (every page works without it): table sorting, search (pagefind,
   on demand), charts loaded before print, the embed code's copy button, the header search box, table
   filters, folded rows, opening a folded #target. See docs/architecture.md. No framework. */
(function () {
  "use strict";

  // the page's language (html lang): number format and text order
  var lang = document.documentElement.lang || "pt-BR";
  var pt = lang.slice(0, 2) === "pt";

  // table sorting
  // "1º=", "1st=", "+12", "−3", "1.234,5" (pt) / "1,234.5" (en) → numbers; "–"/"—"/"" → null (always last).
  function num(text) {
    var t = text.replace(/\s+/g, "").replace(/^(\d+)(º|ª|st|nd|rd|th)?=?$/, "$1").replace(/[−–]/g, "-");
    t = pt ? t.replace(/\./g, "").replace(",", ".") : t.replace(/,/g, "");
    if (t === "" || t === "-" || t === "—") return null;
    return /^[-+]?\d+(\.\d+)?$/.test(t) ? parseFloat(t) : NaN;
  }

  function cellText(row, i) {
    var c = row.cells[i];
    return c ? c.textContent.trim() : "";
  }

  function sortBy(table, index, th) {
    var body = table.tBodies[0];
    if (!body) return;
    var desc = th.getAttribute("aria-sort") === "ascending";
    var rows = Array.prototype.slice.call(body.rows);
    var keyed = rows.map(function (r, n) {
      var t = cellText(r, index);
      return { row: r, n: n, text: t, num: num(t) };
    });
    var numeric = keyed.every(function (k) { return k.num === null || !isNaN(k.num); });
    keyed.sort(function (a, b) {
      var r;
      if (numeric) {
        if (a.num === null || b.num === null) return a.num === null ? (b.num === null ? a.n - b.n : 1) : -1;
        r = a.num - b.num;
      } else {
        r = a.text.localeCompare(b.text, lang, { sensitivity: "base" });
      }
      if (desc) r = -r;
      return r || a.n - b.n;
    });
    keyed.forEach(function (k) { body.appendChild(k.row); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", desc ? "descending" : "ascending");
  }

  function sortable(table) {
    if (!table.tHead || !table.tHead.rows.length) return;
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, index) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "sort";
      while (th.firstChild) b.appendChild(th.firstChild);
      th.appendChild(b);
      b.addEventListener("click", function () {
        if (table.unfold) table.unfold();  // sorted, every row takes its new place: none stays folded
        sortBy(table, index, th);
      });
    });
    table.classList.add("sorting");
  }

  // search
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  function search(form) {
    var input = form.querySelector("input[type=search]");
    var status = document.getElementById("busca-status");
    var list = document.getElementById("busca-resultados");
    var base = form.getAttribute("data-pagefind");
    var api = null, seq = 0, timer = null;
    // the page's words, translated by the site (templates/search.html data-t-*)
    function t(key, fallback) { return form.getAttribute("data-t-" + key) || fallback; }

    function load() {
      if (!api) {
        api = import(base + "pagefind.js").then(function (pf) {
          if (pf.options) pf.options({ basePath: base });
          return pf;
        });
      }
      return api;
    }

    function run() {
      var q = input.value.trim(), mine = ++seq;
      if (!q) { list.innerHTML = ""; status.textContent = ""; return; }
      status.textContent = t("searching", "Buscando…");
      load().then(function (pf) { return pf.search(q); }).then(function (res) {
        if (mine !== seq) return null;
        return Promise.all(res.results.slice(0, 20).map(function (r) { return r.data(); })).then(function (data) {
          if (mine !== seq) return;
          var n = res.results.length;
          status.textContent = n === 0 ? t("none", "Nada encontrado para “{q}”.").replace("{q}", q) :
            (n === 1 ? t("one", "1 resultado") : t("many", "{n} resultados").replace("{n}", n)) +
            (n > 20 ? " " + t("first", "(mostrando 20)") : "") + ".";
          list.innerHTML = data.map(function (d) {
            var kind = d.meta && d.meta.tipo ? '<span class="badge">' + esc(d.meta.tipo) + "</span> " : "";
            return '<li><a href="' + esc(d.url) + '">' + esc((d.meta && d.meta.title) || d.url) + "</a> " + kind +
              "<br><small>" + d.excerpt + "</small></li>";
          }).join("");
        });
      }).catch(function () {
        if (mine === seq) status.textContent = t("error", "A busca não pôde ser carregada; use as listas abaixo.");
      });
    }

    form.hidden = false;
    form.addEventListener("submit", function (e) { e.preventDefault(); run(); });
    input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(run, 200); });
    var q = new URLSearchParams(location.search).get("q");
    if (q) { input.value = q; run(); }
  }

  // filter and folding
  // "João" and "JOAO" are the same to a reader typing on a phone: compare without accents or case
  function plain(s) {
    return s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  // rows or list items, each with the text the filter looks in (its heading, else all its text)
  function entries(target) {
    var rows = target.tagName === "TABLE" ?
      Array.prototype.concat.apply([], Array.prototype.map.call(target.tBodies, function (b) {
        return Array.prototype.slice.call(b.rows);
      })) : Array.prototype.slice.call(target.children);
    return rows.map(function (r) {
      var head = r.querySelector("th[scope=row]");
      return { el: r, text: plain((head || r).textContent), fold: r.hasAttribute("data-fold") };
    });
  }

  // a row shows when it matches every word typed and is not folded away
  function show(target) {
    var words = target.filterWords || [];
    var folded = target.folded && !words.length, n = 0;
    entries(target).forEach(function (e) {
      var match = words.every(function (w) { return e.text.indexOf(w) >= 0; });
      if (match) n++;
      e.el.hidden = !match;
      if (e.fold) e.el.classList.toggle("folded", folded);  // (style.css: printed all the same)
    });
    return n;
  }

  function filter(box) {
    var target = document.getElementById(box.getAttribute("data-filter"));
    if (!target) return;
    var input = box.querySelector("input"), status = box.querySelector("[role=status]"), timer = null;
    var total = entries(target).length;
    input.addEventListener("input", function () {
      var q = input.value.trim();
      target.filterWords = plain(q).split(/\s+/).filter(Boolean);
      var n = show(target);
      clearTimeout(timer);  // said once the typing pauses, not at every letter
      timer = setTimeout(function () {
        status.textContent = !q ? "" : n === 0 ? box.getAttribute("data-t-none").replace("{q}", q) :
          box.getAttribute("data-t-count").replace("{n}", n).replace("{total}", total);
      }, 400);
    });
    box.hidden = false;
  }

  function unfold(button) {
    var target = document.getElementById(button.getAttribute("data-unfold"));
    if (!target) return;
    var more = button.textContent, less = button.getAttribute("data-t-less");
    function set(folded) {
      target.folded = folded;
      button.setAttribute("aria-expanded", folded ? "false" : "true");
      button.textContent = folded ? more : less;
      show(target);
    }
    button.addEventListener("click", function () { set(!target.folded); });
    target.unfold = function () { set(false); };
    button.hidden = false;
    set(true);
  }

  function loadImagesForPrint() {
    Array.prototype.forEach.call(document.querySelectorAll('img[loading="lazy"]'), function (img) {
      img.loading = "eager";
    });
  }

  // copy the embed code
  function copyButton(button) {
    var area = document.getElementById(button.getAttribute("data-copy"));
    if (!area) return;
    var status = button.parentNode.querySelector(".copy-status");
    function done() { if (status) status.textContent = button.getAttribute("data-done"); }
    function legacy() {
      try { if (document.execCommand("copy")) done(); } catch (e) { /* the code stays selected: Ctrl+C */ }
    }
    button.hidden = false;
    button.addEventListener("click", function () {
      area.focus();
      area.select();
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(area.value).then(done, legacy);
      else legacy();
    });
  }

  // a #jogo-… target folded in a closed <details>: opened, scrolled to
  function openTarget() {
    var id = location.hash.slice(1);
    var el = id && document.getElementById(decodeURIComponent(id));
    if (!el) return;
    var folded = false;
    for (var d = el.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) {
      if (!d.open) { d.open = true; folded = true; }
    }
    if (folded) el.scrollIntoView();
  }

  function init() {
    window.addEventListener("beforeprint", loadImagesForPrint);
    window.addEventListener("hashchange", openTarget);
    openTarget();
    Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), sortable);
    Array.prototype.forEach.call(document.querySelectorAll("button.copy[data-copy]"), copyButton);
    Array.prototype.forEach.call(document.querySelectorAll("div.filter[data-filter]"), filter);
    Array.prototype.forEach.call(document.querySelectorAll("button[data-unfold]"), unfold);
    var find = document.querySelector("header form.find");
    if (find) find.hidden = false;
    var form = document.getElementById("busca");
    if (form) search(form);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
