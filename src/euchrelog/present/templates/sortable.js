// Sorts a table of the page by the column whose heading is clicked: numbers from the
// highest (names from A), then the other way on a second click; a cell with nothing to
// count ("-") goes last either way.
"use strict";
(function () {
  function key(cell) {
    const value = cell.dataset.value;
    if (value === undefined) return cell.textContent.toLowerCase();
    return value === "" ? null : Number(value);
  }
  function sortBy(table, heads, column) {
    const head = heads[column];
    const numeric = head.classList.contains("num");
    const first = numeric ? "descending" : "ascending";
    const now = head.getAttribute("aria-sort");
    const order = now === first ? (first === "ascending" ? "descending" : "ascending") : first;
    for (const other of heads) other.setAttribute("aria-sort", "none");
    head.setAttribute("aria-sort", order);
    const sign = order === "ascending" ? 1 : -1;
    const body = table.tBodies[0];
    const rows = Array.from(body.rows).map((row) => [key(row.cells[column]), row]);
    rows.sort(([a, ra], [b, rb]) => {
      if (a === null || b === null) {
        return a === b ? Number(ra.dataset.order) - Number(rb.dataset.order) : a === null ? 1 : -1;
      }
      const by = a < b ? -1 : a > b ? 1 : 0;
      return by * sign || Number(ra.dataset.order) - Number(rb.dataset.order);
    });
    body.append(...rows.map(([, row]) => row));
  }
  for (const table of document.querySelectorAll("table.sortable")) {
    Array.from(table.tBodies[0].rows).forEach((row, k) => { row.dataset.order = String(k); });
    const heads = Array.from(table.tHead.rows[0].cells);
    heads.forEach((head, column) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      button.append(...head.childNodes);
      head.append(button);
      head.setAttribute("aria-sort", "none");
      button.addEventListener("click", () => sortBy(table, heads, column));
    });
  }
})();
