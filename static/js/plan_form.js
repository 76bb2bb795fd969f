// The plan editor's form: stale results while an input is not valid yet, rows added from
// the formsets' empty templates, and the fields' error state kept in step with the
// messages the live recompute swaps in. Static, as the Content-Security-Policy requires.

// Each field whose message span has text is aria-invalid and described by that message.
function markInvalidFields() {
  document.querySelectorAll("#plan-form span.errorlist[id$='_error']").forEach((span) => {
    const field = document.getElementById(span.id.replace(/_error$/, ""));
    if (!field) {
      return;
    }
    const described = (field.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
    const others = described.filter((id) => id !== span.id);
    if (span.textContent.trim()) {
      field.setAttribute("aria-invalid", "true");
      field.setAttribute("aria-describedby", [...others, span.id].join(" "));
    } else {
      field.removeAttribute("aria-invalid");
      if (others.length) {
        field.setAttribute("aria-describedby", others.join(" "));
      } else {
        field.removeAttribute("aria-describedby");
      }
    }
  });
}

// A refused keystroke keeps the last good results on the page, dimmed: the server answers
// with HX-Reswap: none; a valid answer swaps fresh results in and clears the mark.
document.addEventListener("htmx:afterRequest", (event) => {
  if (!event.target.matches || !event.target.matches("#plan-form")) {
    return;
  }
  const xhr = event.detail.xhr;
  const stale = Boolean(xhr) && xhr.getResponseHeader("HX-Reswap") === "none";
  const results = document.getElementById("results");
  if (results) {
    results.classList.toggle("stale", stale);
  }
  const note = document.getElementById("results-stale");
  if (note) {
    note.hidden = !stale;
  }
  markInvalidFields();
});

// "Add a row": the formset's empty form, numbered next, and its TOTAL_FORMS raised.
document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-add-row]");
  if (!button) {
    return;
  }
  const prefix = button.dataset.addRow;
  const total = document.getElementById(`id_${prefix}-TOTAL_FORMS`);
  const template = document.getElementById(`${prefix}-empty`);
  const rows = document.querySelector(`[data-formset="${prefix}"]`);
  if (!total || !template || !rows) {
    return;
  }
  const index = Number(total.value);
  const html = template.innerHTML.replaceAll("__prefix__", String(index));
  const target = rows.tBodies ? rows.tBodies[0] : rows;
  target.insertAdjacentHTML("beforeend", html);
  total.value = String(index + 1);
  if (window.htmx) {
    window.htmx.process(target.lastElementChild); // the new row's tier search
  }
  const first = target.lastElementChild.querySelector("input, select");
  if (first) {
    first.focus();
  }
});

// The tier inputs ask the tier search as the reader types (hx-get on each one): the
// request carries only the typed text, as `q`; a datalist that already holds every tier
// (a small catalog) is left as it is and nothing is asked.
document.addEventListener("htmx:configRequest", (event) => {
  const input = event.detail.elt;
  if (!input.matches || !input.matches("input[data-tier-search]")) {
    return;
  }
  const list = document.getElementById("tier-options");
  if (!list || list.hasAttribute("data-complete")) {
    event.preventDefault();
    return;
  }
  event.detail.parameters = { q: input.value };
});

// The chosen tier by name under its box (the box holds the key, which a narrow column
// cuts to "inmot"): the label of the datalist option whose key was typed or picked.
function showTierName(input) {
  const cell = input.closest("td, .field");
  if (!cell) {
    return;
  }
  let note = cell.querySelector(".tier-note");
  const list = document.getElementById("tier-options");
  const option = list && Array.from(list.options).find((o) => o.value === input.value);
  if (!option) {
    if (note && input.value !== input.defaultValue) {
      note.textContent = "";
    }
    return;
  }
  if (!note) {
    note = document.createElement("small");
    note.className = "tier-note";
    input.insertAdjacentElement("afterend", note);
  }
  note.textContent = option.label || option.textContent;
}
for (const type of ["input", "change"]) {
  document.addEventListener(type, (event) => {
    if (event.target.matches && event.target.matches("input[data-tier-search]")) {
      showTierName(event.target);
    }
  });
}
document.addEventListener("htmx:afterSwap", (event) => {
  if (event.detail.target && event.detail.target.id === "tier-options") {
    for (const input of document.querySelectorAll("input[data-tier-search]")) {
      if (input === document.activeElement) {
        showTierName(input);
      }
    }
  }
});

// Phones (one column): the answer sits above the form, out of view while the reader types
// further down. A bar at the bottom of the screen repeats the headline's words while a
// field has focus and the headline is scrolled away; it links back to the full answer.
const oneColumn = window.matchMedia("(max-width: 1100px)");
function updateAnswerBar() {
  const bar = document.getElementById("answer-bar");
  const form = document.getElementById("plan-form");
  if (!bar || !form) {
    return;
  }
  const answer = document.querySelector("#results [data-testid=headline]");
  const headline = document.getElementById("headline");
  const away = headline ? headline.getBoundingClientRect().bottom < 0 : false;
  // The bar itself counts as typing: pressing it moves the focus onto it, and hiding it on
  // that focusout (before the press ends) would swallow the click that leads to the answer.
  const typing = form.contains(document.activeElement) || document.activeElement === bar;
  if (answer) {
    bar.textContent = answer.textContent.trim().replace(/\s+/g, " ");
  }
  bar.hidden = !(oneColumn.matches && answer && typing && away);
  // The page keeps room below its last button for the bar, and scrolls a focused field
  // above it (app.css reads --answer-bar), so the bar never covers Save or Overwrite.
  const room = bar.hidden ? "0px" : `${bar.offsetHeight}px`;
  document.documentElement.style.setProperty("--answer-bar", room);
}
for (const type of ["focusin", "focusout", "htmx:afterSettle"]) {
  document.addEventListener(type, () => window.requestAnimationFrame(updateAnswerBar));
}
window.addEventListener("scroll", updateAnswerBar, { passive: true });
