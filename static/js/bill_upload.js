// The Bills page's upload: a chosen or dropped file goes up in pieces (each its own POST
// of raw bytes), a progress bar following them; then the import's status comes back as
// HTML that polls itself with htmx (hx-get every second) until done or refused.
// Loaded as a file (the Content-Security-Policy runs no inline script). Without
// JavaScript the form posts the whole file and the page shows the same status.

(() => {
  const form = document.getElementById("bill-upload-form");
  if (!form) {
    return;
  }
  const input = form.querySelector("input[type=file]");
  const zone = document.getElementById("drop-zone");
  const progress = document.getElementById("upload-progress");
  const bar = progress.querySelector("progress");
  const percent = progress.querySelector("[data-upload-percent]");
  const status = document.getElementById("upload-status");
  const csrf = form.querySelector("input[name=csrfmiddlewaretoken]").value;
  const pieceBytes = Number(form.dataset.chunkBytes);
  const limit = Number(form.dataset.limit);

  function say(text, refused) {
    const box = document.createElement("div");
    box.className = "upload-state" + (refused ? " status-refused" : "");
    box.setAttribute("data-testid", "upload-state");
    box.setAttribute("data-status", refused ? "refused" : "error");
    const span = document.createElement("span");
    span.className = "refused";
    span.setAttribute("role", "alert");
    span.textContent = text;
    box.appendChild(span);
    status.replaceChildren(box);
  }

  async function send(file) {
    if (file.size > limit) {
      say(form.dataset.tooLarge, true);
      return;
    }
    progress.hidden = false;
    progress.querySelector("[data-upload-name]").textContent = file.name;
    bar.value = 0;
    percent.textContent = "0 %";
    status.replaceChildren();
    let token = "";
    let offset = 0;
    try {
      do {
        const piece = file.slice(offset, offset + pieceBytes);
        const params = new URLSearchParams({ offset: String(offset), token, name: file.name });
        const answer = await fetch(`${form.dataset.chunkUrl}?${params}`, {
          method: "POST",
          headers: { "X-CSRFToken": csrf, "Content-Type": "application/octet-stream" },
          body: piece,
          credentials: "same-origin",
        });
        const body = await answer.json();
        if (!answer.ok) {
          say(body.error, true);
          progress.hidden = true;
          return;
        }
        token = body.token;
        offset = body.received;
        const shown = file.size ? Math.round((100 * offset) / file.size) : 100;
        bar.value = shown;
        percent.textContent = `${shown} %`;
      } while (offset < file.size);
      const finish = new FormData();
      finish.append("token", token);
      finish.append("name", file.name);
      const answer = await fetch(form.dataset.finishUrl, {
        method: "POST",
        headers: { "X-CSRFToken": csrf },
        body: finish,
        credentials: "same-origin",
      });
      if (!answer.ok) {
        say((await answer.json()).error, true);
        return;
      }
      status.innerHTML = await answer.text();
      window.htmx.process(status);
      form.reset();
    } catch (error) {
      say(form.dataset.failed, true);
    } finally {
      progress.hidden = true;
    }
  }

  form.addEventListener("submit", (event) => {
    if (input.files.length) {
      event.preventDefault();
      send(input.files[0]);
    }
  });
  input.addEventListener("change", () => {
    if (input.files.length) {
      send(input.files[0]);
    }
  });
  ["dragenter", "dragover"].forEach((name) => {
    zone.addEventListener(name, (event) => {
      event.preventDefault();
      zone.classList.add("dragging");
    });
  });
  ["dragleave", "drop"].forEach((name) => {
    zone.addEventListener(name, () => zone.classList.remove("dragging"));
  });
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    if (event.dataTransfer.files.length) {
      send(event.dataTransfer.files[0]);
    }
  });
})();
