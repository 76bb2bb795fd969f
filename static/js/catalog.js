// The catalog page's column chooser is remembered in this browser: the chosen columns go
// in the query string (so a link keeps them) and in localStorage, and a visit without
// `cols` in its address gets the stored choice.
(function () {
  "use strict";
  var KEY = "planner.catalog.columns";
  var form = document.getElementById("tier-filters");
  if (!form) { return; }
  var boxes = form.querySelectorAll('input[name="cols"]');
  function chosen() {
    return Array.prototype.filter.call(boxes, function (b) { return b.checked; })
      .map(function (b) { return b.value; });
  }
  form.addEventListener("change", function (event) {
    if (event.target && event.target.name === "cols") {
      try { window.localStorage.setItem(KEY, chosen().join(",")); } catch (e) { /* private mode */ }
    }
  });
  var params = new URLSearchParams(window.location.search);
  var stored = null;
  try { stored = window.localStorage.getItem(KEY); } catch (e) { stored = null; }
  if (!params.has("cols") && stored) {
    var wanted = stored.split(",");
    var differs = false;
    Array.prototype.forEach.call(boxes, function (b) {
      var on = wanted.indexOf(b.value) >= 0;
      if (b.checked !== on) { b.checked = on; differs = true; }
    });
    if (differs) { form.requestSubmit ? form.requestSubmit() : form.submit(); }
  }
})();
