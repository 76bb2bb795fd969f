// Behaviour that would otherwise sit in inline attributes (onchange, onclick, hx-on),
// which the Content-Security-Policy refuses: the site runs no inline script at all.

// The language menu switches at once (a "Go" button stands in without JavaScript).
document.addEventListener("change", (event) => {
  if (event.target.matches("select[data-submit-on-change]")) {
    event.target.form.submit();
  }
});

// "Print report".
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-print]")) {
    window.print();
  }
});

// A recompute swaps new results and, out of band, the messages beside the fields that
// still have one: the messages of the last recompute are emptied just before.
document.addEventListener("htmx:beforeSwap", (event) => {
  if (event.target.id === "results") {
    document.querySelectorAll("#plan-form span.errorlist[id]").forEach((el) => {
      el.textContent = "";
    });
  }
});
