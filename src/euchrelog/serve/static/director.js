// The director's pages: the draw read from a CSV file into the form; on an event's page,
// every table's progress and the findings, fetched again on each revision the stream
// announces.
"use strict";
(function () {
  const file = document.getElementById("draw-file");
  if (file) {
    const read = async () => {
      if (file.files.length) document.getElementById("draw").value = await file.files[0].text();
    };
    file.addEventListener("change", read);
    read(); // a file chosen before this deferred script ran
  }
  const id = document.body.dataset.event;
  const box = document.getElementById("progress");
  if (!id || !box) return;
  const source = new EventSource(`/api/events/${id}/stream`);
  source.addEventListener("standings", async () => {
    const response = await fetch(`/director/events/${id}/progress`,
      { credentials: "same-origin" });
    if (response.ok) box.innerHTML = await response.text(); // built and escaped by the server
  });
})();
