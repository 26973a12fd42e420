// The report's only script: filters, sorting and drill-downs, with the view kept in the URL fragment
// (#suite=…&variant=…&outcome=…&family=…&failure=…&failing=1&text=…&tag=…&sort=…&order=…&open=…) so a link
// shows the same view. ``failing``: items that did not pass (failed, xfailed, error); ``text``: items whose
// drill-down (transcript, observations, results) contains the text, case-insensitively.
(function () {
  "use strict";
  var FIELDS = ["suite", "variant", "outcome", "family", "failure", "failing", "text", "tag", "sort", "order"];
  var FAILING = ["failed", "xfailed", "error"];
  var form = document.getElementById("filters");
  var table = document.getElementById("item-table");
  var items = Array.prototype.slice.call(table.querySelectorAll("tbody.item"));
  var initial = items.slice();
  items.forEach(function (body) {
    body.wsbMetrics = JSON.parse(body.getAttribute("data-metrics") || "{}");
    body.wsbTags = JSON.parse(body.getAttribute("data-tags") || "[]");
  });

  function readState() {
    var params = new URLSearchParams(location.hash.replace(/^#/, ""));
    var state = {};
    FIELDS.concat(["open"]).forEach(function (name) { state[name] = params.get(name) || ""; });
    return state;
  }

  function writeState(state) {
    var params = new URLSearchParams();
    FIELDS.concat(["open"]).forEach(function (name) { if (state[name]) { params.set(name, state[name]); } });
    var text = params.toString();
    history.replaceState(null, "", text ? "#" + text : location.pathname + location.search);
  }

  function matches(body, state) {
    return (!state.suite || body.getAttribute("data-suite") === state.suite) &&
      (!state.variant || body.getAttribute("data-variant") === state.variant) &&
      (!state.outcome || body.getAttribute("data-outcome") === state.outcome) &&
      (!state.family || body.getAttribute("data-family") === state.family) &&
      (!state.failure || body.getAttribute("data-failure") === state.failure) &&
      (!state.failing || FAILING.indexOf(body.getAttribute("data-outcome")) >= 0) &&
      (!state.tag || body.wsbTags.indexOf(state.tag) >= 0) &&
      (!state.text || searchable(body).indexOf(state.text.toLowerCase()) >= 0);
  }

  function searchable(body) {
    // read once, on the first search: the drill-down's text (hidden or not)
    if (body.wsbText === undefined) {
      var drill = body.querySelector("tr.drill");
      body.wsbText = (drill ? drill.textContent : "").toLowerCase();
    }
    return body.wsbText;
  }

  function controlValue(control) {
    return control.type === "checkbox" ? (control.checked ? "1" : "") : control.value;
  }

  function order(state) {
    var sorted = initial.slice();
    if (state.sort) {
      var sign = state.order === "asc" ? 1 : -1;
      sorted.sort(function (a, b) {
        var x = a.wsbMetrics[state.sort], y = b.wsbMetrics[state.sort];
        var hasX = typeof x === "number", hasY = typeof y === "number";
        if (hasX !== hasY) { return hasX ? -1 : 1; }  // items without the metric last
        if (!hasX || x === y) { return initial.indexOf(a) - initial.indexOf(b); }
        return sign * (x - y);
      });
    }
    sorted.forEach(function (body) { table.appendChild(body); });
  }

  function setOpen(body, open) {
    body.querySelector("tr.drill").hidden = !open;
    body.querySelector("button.open").setAttribute("aria-expanded", open ? "true" : "false");
  }

  function apply(scroll) {
    var state = readState();
    FIELDS.forEach(function (name) {
      var control = form.elements[name];
      if (control && control.type === "checkbox") { control.checked = state[name] === "1"; }
      else if (control) {
        var wanted = state[name] || (name === "order" ? "desc" : "");
        if (control.value !== wanted) { control.value = wanted; }  // typing: keep the cursor where it is
      }
    });
    var shown = 0;
    items.forEach(function (body) {
      var visible = matches(body, state) || body.getAttribute("data-key") === state.open;
      body.hidden = !visible;
      if (visible) { shown += 1; }
      setOpen(body, body.getAttribute("data-key") === state.open);
    });
    order(state);
    document.getElementById("shown").textContent = shown + " of " + items.length + " items";
    if (scroll && state.open) {
      var target = items.filter(function (body) { return body.getAttribute("data-key") === state.open; })[0];
      if (target) { target.scrollIntoView({block: "start"}); }
    }
  }

  function fromForm() {
    var state = readState();
    FIELDS.forEach(function (name) { state[name] = controlValue(form.elements[name]); });
    if (state.order === "desc") { state.order = ""; }
    writeState(state);
    apply(false);
  }

  form.addEventListener("change", fromForm);
  form.elements.text.addEventListener("input", fromForm);
  form.addEventListener("submit", function (event) { event.preventDefault(); });

  table.addEventListener("click", function (event) {
    var button = event.target.closest("button.open");
    if (!button) { return; }
    var body = button.closest("tbody.item");
    var state = readState();
    state.open = state.open === body.getAttribute("data-key") ? "" : body.getAttribute("data-key");
    writeState(state);
    apply(false);
  });

  window.addEventListener("hashchange", function () { apply(true); });
  apply(true);
}());
