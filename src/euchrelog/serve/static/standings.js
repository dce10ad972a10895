// The wall screen: the standings, replaced whenever the server sends a new revision.
"use strict";
(function () {
  const box = document.getElementById("standings");
  document.body.classList.add("wall");
  const source = new EventSource(`/api/events/${document.body.dataset.event}/stream`);
  source.addEventListener("standings", (event) => {
    const data = JSON.parse(event.data);
    if (String(data.revision) === box.dataset.revision) return;
    box.innerHTML = data.html; // built and escaped by the server
    box.dataset.revision = String(data.revision);
  });
})();
