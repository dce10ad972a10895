// The director's page: every table's progress and the findings, fetched again on each
// revision the stream announces.
"use strict";
(function () {
  const id = document.body.dataset.event;
  const box = document.getElementById("progress");
  const source = new EventSource(`/api/events/${id}/stream`);
  source.addEventListener("standings", async () => {
    const response = await fetch(`/director/events/${id}/progress`,
      { credentials: "same-origin" });
    if (response.ok) box.innerHTML = await response.text(); // built and escaped by the server
  });
})();
