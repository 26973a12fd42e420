// The report's only script: the item list drawn from the page's data block a page at a time, filters,
// sorting and drill-downs, with the view kept in the URL fragment
// (#suite=…&variant=…&outcome=…&family=…&failure=…&failing=1&text=…&tag=…&sort=…&order=…&page=…&open=…) so
// a link shows the same view. ``failing``: items that did not pass (failed, xfailed, error); ``text``: items
// whose drill-down (transcript, observations, results) contains the text, case-insensitively.
// A drill-down is HTML rendered when the report was built, kept gzip'd in chunks: opening an item
// decompresses its chunk (once) and inserts it; a text filter decompresses every chunk (once) to search
// the drill-downs' text. Nothing is fetched.
(function () {
  "use strict";
  var FIELDS = ["suite", "variant", "outcome", "family", "failure", "failing", "text", "tag", "sort", "order"];
  var FAILING = ["failed", "xfailed", "error"];
  var PAGE = 200;  // rows drawn at once: a 10,000-item list is 50 pages, never 10,000 rows in the DOM
  var data = JSON.parse(document.getElementById("wsb-data").textContent);
  var form = document.getElementById("filters");
  var table = document.getElementById("item-table");
  var chunks = {};  // chunk index → promise of its drill-downs' HTML
  var texts = null;  // every drill-down's text, lower-cased, once a text filter has needed it
  var searching = null;  // the promise of ``texts`` while the chunks are decompressed
  var items = data.items.map(function (row, index) {
    var metrics = {};
    row[6].forEach(function (value, column) { if (value !== null) { metrics[data.metrics[column]] = value; } });
    var suite = data.suites[row[0]], variant = data.variants[row[2]];
    return {index: index, key: suite + "::" + row[1] + "[" + variant + "]", suite: suite, caseId: row[1],
            variant: variant, outcome: data.outcomes[row[3]], family: data.families[row[4]],
            tags: row[5].map(function (tag) { return data.tags[tag]; }), metrics: metrics, primary: row[7],
            baseline: row[8], failure: row[9] === null ? "" : data.failure_modes[row[9]]};
  });

  function readState() {
    var params = new URLSearchParams(location.hash.replace(/^#/, ""));
    var state = {};
    FIELDS.concat(["page", "open"]).forEach(function (name) { state[name] = params.get(name) || ""; });
    return state;
  }

  function writeState(state) {
    var params = new URLSearchParams();
    FIELDS.concat(["page", "open"]).forEach(function (name) { if (state[name]) { params.set(name, state[name]); } });
    var text = params.toString();
    history.replaceState(null, "", text ? "#" + text : location.pathname + location.search);
  }

  function matches(item, state) {
    return (!state.suite || item.suite === state.suite) && (!state.variant || item.variant === state.variant) &&
      (!state.outcome || item.outcome === state.outcome) && (!state.family || item.family === state.family) &&
      (!state.failure || item.failure === state.failure) &&
      (!state.failing || FAILING.indexOf(item.outcome) >= 0) &&
      (!state.tag || item.tags.indexOf(state.tag) >= 0) &&
      (!state.text || texts[item.index].indexOf(state.text.toLowerCase()) >= 0);
  }

  function controlValue(control) {
    return control.type === "checkbox" ? (control.checked ? "1" : "") : control.value;
  }

  // the drill-downs' text (tags stripped by an inert template, entities decoded), read once for all items
  function searchText() {
    if (!searching) {
      var all = [];
      for (var chunk = 0; chunk < data.drills.length; chunk += 1) { all.push(drillsOf(chunk)); }
      var template = document.createElement("template");
      searching = Promise.all(all).then(function (lists) {
        texts = [];
        lists.forEach(function (html) {
          html.forEach(function (one) {
            template.innerHTML = one;  // a template's content is inert: nothing in it runs or loads
            texts.push(template.content.textContent.toLowerCase());
          });
        });
      });
    }
    return searching;
  }

  // the items the view lists, in its order: the open item is listed even when the filters leave it out
  function listed(state) {
    var shown = items.filter(function (item) { return matches(item, state) || item.key === state.open; });
    if (state.sort) {
      var sign = state.order === "asc" ? 1 : -1;
      shown.sort(function (a, b) {
        var x = a.metrics[state.sort], y = b.metrics[state.sort];
        var hasX = typeof x === "number", hasY = typeof y === "number";
        if (hasX !== hasY) { return hasX ? -1 : 1; }  // items without the metric last
        if (!hasX || x === y) { return a.index - b.index; }
        return sign * (x - y);
      });
    }
    return shown;
  }

  function number(value) {
    if (typeof value === "boolean") { return value ? "yes" : "no"; }
    return Number.isInteger(value) ? String(value) : value.toFixed(3);
  }

  function cell(row, text, className) {
    var td = document.createElement("td");
    if (className) { td.className = className; }
    td.textContent = text;
    row.appendChild(td);
    return td;
  }

  function drillsOf(chunk) {
    if (!chunks[chunk]) {
      var bytes = Uint8Array.from(atob(data.drills[chunk]), function (c) { return c.charCodeAt(0); });
      var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
      chunks[chunk] = new Response(stream).text().then(JSON.parse);
    }
    return chunks[chunk];
  }

  function itemBody(item, open) {
    var body = document.createElement("tbody");
    body.className = "item";
    body.dataset.key = item.key;
    body.dataset.suite = item.suite;
    body.dataset.variant = item.variant;
    body.dataset.outcome = item.outcome;
    body.dataset.family = item.family;
    body.dataset.failure = item.failure;
    var row = document.createElement("tr");
    row.className = "row outcome-" + item.outcome;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "open";
    button.setAttribute("aria-expanded", open ? "true" : "false");
    button.textContent = item.suite + " / " + item.caseId;
    row.appendChild(document.createElement("td")).appendChild(button);
    cell(row, item.variant);
    cell(row, item.outcome, "outcome");
    var primary = item.primary === null ? null : data.metrics[item.primary];
    cell(row, primary === null ? "-" : data.labels[item.primary] + " " + number(item.metrics[primary]));
    cell(row, item.baseline);
    cell(row, item.tags.join(" "), "tags");
    body.appendChild(row);
    if (open) {
      var drill = document.createElement("tr");
      drill.className = "drill";
      var td = document.createElement("td");
      td.colSpan = 6;
      td.textContent = "opening…";
      drill.appendChild(td);
      body.appendChild(drill);
      drillsOf(Math.floor(item.index / data.chunk)).then(function (html) {
        td.innerHTML = html[item.index % data.chunk];  // built and escaped by the report's templates
      });
    }
    return body;
  }

  function apply(jump) {
    var state = readState();
    FIELDS.forEach(function (name) {
      var control = form.elements[name];
      if (control && control.type === "checkbox") { control.checked = state[name] === "1"; }
      else if (control) {
        var wanted = state[name] || (name === "order" ? "desc" : "");
        if (control.value !== wanted) { control.value = wanted; }  // typing: keep the cursor where it is
      }
    });
    if (state.text && !texts) {  // draw once every drill-down's text is read
      document.getElementById("shown").textContent = "searching the drill-downs…";
      searchText().then(function () { apply(jump); });
      return;
    }
    var shown = listed(state);
    var pages = Math.max(1, Math.ceil(shown.length / PAGE));
    var page = Math.min(Math.max(parseInt(state.page, 10) || 1, 1), pages);
    var target = null;
    if (jump && state.open) {  // a link that opens an item shows the page it is on
      target = shown.map(function (item) { return item.key; }).indexOf(state.open);
      if (target >= 0) { page = Math.floor(target / PAGE) + 1; }
    }
    Array.prototype.slice.call(table.tBodies).forEach(function (body) { table.removeChild(body); });
    var fragment = document.createDocumentFragment();
    shown.slice((page - 1) * PAGE, page * PAGE).forEach(function (item) {
      fragment.appendChild(itemBody(item, item.key === state.open));
    });
    table.appendChild(fragment);
    document.getElementById("shown").textContent = shown.length + " of " + items.length + " items";
    document.getElementById("page").textContent = "page " + page + " of " + pages;
    table.wsbPage = page;
    table.wsbPages = pages;
    if (target !== null && target >= 0) {
      table.querySelector("tbody.item:nth-of-type(" + (target % PAGE + 1) + ")").scrollIntoView({block: "start"});
    }
  }

  function change(edit) {
    var state = readState();
    edit(state);
    writeState(state);
    apply(false);
  }

  function fromForm() {
    change(function (state) {
      FIELDS.forEach(function (name) { state[name] = controlValue(form.elements[name]); });
      if (state.order === "desc") { state.order = ""; }
      state.page = "";  // a new view starts at its first page
    });
  }

  form.addEventListener("change", fromForm);
  form.elements.text.addEventListener("input", fromForm);
  form.addEventListener("submit", function (event) { event.preventDefault(); });

  document.querySelector("nav.pager").addEventListener("click", function (event) {
    var step = parseInt(event.target.getAttribute("data-page"), 10);
    if (!step) { return; }
    change(function (state) {
      var page = Math.min(Math.max(table.wsbPage + step, 1), table.wsbPages);
      state.page = page > 1 ? String(page) : "";
    });
  });

  table.addEventListener("click", function (event) {
    var button = event.target.closest("button.open");
    if (!button) { return; }
    var key = button.closest("tbody.item").dataset.key;
    change(function (state) {
      state.open = state.open === key ? "" : key;
      state.page = table.wsbPage > 1 ? String(table.wsbPage) : "";
    });
  });

  window.addEventListener("hashchange", function () { apply(true); });
  apply(true);
}());
