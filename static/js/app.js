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

// "Copy link" beside a share link: the link to the clipboard, and the button says so.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-copy]");
  if (!button) {
    return;
  }
  const label = button.dataset.label || button.textContent;
  button.dataset.label = label;
  try {
    await navigator.clipboard.writeText(button.dataset.copy);
    button.textContent = button.dataset.copied;
  } catch (error) {
    // No clipboard (an insecure origin, a refused permission): select the link instead.
    const link = button.parentElement.querySelector("a.share-link");
    if (link) {
      window.getSelection().selectAllChildren(link);
    }
    button.textContent = button.dataset.copyFailed;
  }
  setTimeout(() => { button.textContent = label; }, 2500);
});

// Forms that cannot be undone (revoking a share link, deleting a plan) ask first.
document.addEventListener("submit", (event) => {
  const form = event.target.closest("form[data-confirm]");
  if (form && !window.confirm(form.dataset.confirm)) {
    event.preventDefault();
  }
});

// A box that scrolls sideways (a wide table on a phone) takes the keyboard's focus, so it
// can be scrolled without a mouse; checked again after each htmx swap.
function focusableScrollers() {
  document.querySelectorAll(".scroll-x, .card table.data").forEach((el) => {
    if (el.scrollWidth > el.clientWidth + 1 && !el.hasAttribute("tabindex")) {
      el.setAttribute("tabindex", "0");
    }
  });
}
document.addEventListener("DOMContentLoaded", focusableScrollers);
document.addEventListener("htmx:afterSettle", focusableScrollers);
window.addEventListener("resize", focusableScrollers);
