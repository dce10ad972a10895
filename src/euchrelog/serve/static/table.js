// The table page: the score so far, and one deal entered by tap or keyboard.
// The token comes from the link's fragment (#token=...), so it never reaches a log.
"use strict";
(function () {
  const body = document.body.dataset;
  const base = `/api/events/${body.event}/rounds/${body.round}/tables/${body.table}`;
  const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
  const pendingKey = `euchrelog-pending:${body.event}:${body.round}:${body.table}`;
  const message = document.getElementById("message");
  const chosen = { by: null, dealer: null, trump: null, maker: null, alone: "no", tricks: null };
  let state = null;
  let sending = false;

  function say(text, kind) {
    message.textContent = text;
    message.className = kind || "";
  }

  function newKey() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // The buttons are made again only when they change (a page loaded again while a player
  // taps or tabs keeps the button under the finger and the focus).
  function choices(id, values, labels) {
    const box = document.getElementById(id);
    const signature = JSON.stringify([values, labels || null]);
    if (box.dataset.signature === signature) {
      for (const button of box.children) {
        button.setAttribute("aria-pressed", String(chosen[id] === button.dataset.value));
      }
      return;
    }
    box.dataset.signature = signature;
    box.replaceChildren();
    box.setAttribute("role", "group");
    values.forEach((value, i) => {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.value = value;
      button.textContent = labels ? labels[i] : value;
      button.setAttribute("aria-pressed", String(chosen[id] === value));
      button.addEventListener("click", () => {
        chosen[id] = value;
        for (const other of box.children) {
          other.setAttribute("aria-pressed", String(other === button));
        }
      });
      box.appendChild(button);
    });
  }

  // Players and sides by name, suits by symbol: the letters are the notation's, not the
  // table's.
  function player(seat) {
    return state.seats[seat] || seat;
  }

  function side(name) {
    return (state && state.side_names[name]) || name;
  }

  function scores(totals) {
    return Object.entries(totals).map(([s, points]) => `${side(s)} ${points}`).join(" · ");
  }

  function render() {
    const score = document.getElementById("score");
    score.replaceChildren();
    const line = document.createElement("div");
    line.className = "total";
    line.textContent = Object.keys(state.totals).length ? scores(state.totals) : "no deal yet";
    score.appendChild(line);
    const seats = document.createElement("div");
    seats.className = "sides";
    seats.textContent = Object.values(state.side_names).join(" v ");
    score.appendChild(seats);
    const next = document.createElement("div");
    if (state.over) {
      next.textContent = state.winner ? `game over: won by ${side(state.winner)}`
        : "game over: drawn";
    } else {
      const dealer = state.next.dealer ? `, ${player(state.next.dealer)} deals` : "";
      next.textContent = `deal ${state.next.deal}${dealer}`;
    }
    score.appendChild(next);
    const list = document.getElementById("deals");
    list.replaceChildren();
    state.lines.forEach((text, i) => {
      const item = document.createElement("li");
      const status = state.statuses[i] ? state.statuses[i].status : "accepted";
      item.textContent = text;
      if (status !== "accepted") {
        const mark = document.createElement("span");
        mark.className = `mark ${status}`;
        mark.textContent = status === "pending" ? " (waiting for acceptance)" : " (disputed)";
        item.appendChild(mark);
      }
      list.appendChild(item);
    });
    document.getElementById("send").disabled = state.over || Boolean(state.pending);
    renderPending();
    const c = state.choices;
    const firstDeal = !state.over && !state.next.dealer;
    document.getElementById("dealer-set").hidden = !firstDeal;
    if (firstDeal && !chosen.dealer) chosen.dealer = c.seats[0];
    // Where the event takes acceptance, the side that enters the deal (the other accepts)
    document.getElementById("by-set").hidden = !state.acceptance;
    if (!chosen.by) chosen.by = c.sides[0];
    choices("by", c.sides, c.sides.map(side));
    const names = c.seats.map(player);
    choices("dealer", c.seats, names);
    choices("trump", c.trumps, c.trump_labels);
    choices("maker", c.seats, names);
    choices("alone", ["no", "alone"], ["no", "alone"]);
    const tricks = [];
    for (let n = 0; n <= c.tricks; n++) tricks.push(String(n));
    choices("tricks", tricks);
  }

  // A deal entered by one side waits for a player of another side to accept it (or to
  // dispute it, for the director to settle) before the next deal.
  function renderPending() {
    let box = document.getElementById("pending");
    if (!box) {
      box = document.createElement("section");
      box.id = "pending";
      box.setAttribute("aria-live", "polite");
      document.getElementById("sheet").before(box);
    }
    const pending = state.pending;
    box.hidden = !pending;
    // Made again only for another deal (a page loaded again keeps the reason being typed,
    // its focus, and the button under the finger).
    const shown = pending ? JSON.stringify([pending, state.lines[pending.deal - 1]]) : "";
    if (box.dataset.shown === shown) return;
    box.dataset.shown = shown;
    box.replaceChildren();
    if (!pending) return;
    const said = document.createElement("p");
    const others = state.choices.sides.filter((s) => s !== pending.by);
    const by = pending.by ? side(pending.by) : "the table";
    said.textContent = `deal ${pending.deal} entered by ${by}: ` +
      `${others.map(side).join(" or ")}, accept it or dispute it`;
    box.appendChild(said);
    const line = document.createElement("p");
    line.className = "line";
    line.textContent = state.lines[pending.deal - 1] || "";
    box.appendChild(line);
    const why = document.createElement("input");
    why.id = "reason";
    why.maxLength = 500;
    why.placeholder = "why you dispute it (optional)";
    why.setAttribute("aria-label", "why you dispute it (optional)");
    for (const other of others) {
      const row = document.createElement("div");
      row.className = "settle";
      for (const [verb, label] of [["accept", "Accept"], ["dispute", "Dispute"]]) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = verb;
        button.dataset.side = other;
        button.textContent = `${label} (${side(other)})`;
        button.addEventListener("click", () => settle(pending.deal, verb, other, why.value));
        row.appendChild(button);
      }
      box.appendChild(row);
    }
    box.appendChild(why);
  }

  async function settle(deal, verb, by, reason) {
    try {
      const response = await fetch(`${base}/deals/${deal}/${verb}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify(verb === "dispute" && reason ? { by, reason } : { by }),
      });
      const body = await response.json();
      if (response.ok) {
        say(`deal ${deal} ${body.status} by ${side(by)}`, "ok");
      } else {
        say(body.error || `refused (${response.status})`, "refused");
      }
    } catch (err) {
      say(`no answer (${err.message}): try again`, "refused");
    }
    await load();
  }

  async function load() {
    const response = await fetch(base);
    if (!response.ok) {
      say("this table cannot be found", "refused");
      return;
    }
    state = await response.json();
    render();
  }

  function entry() {
    const full = document.getElementById("full").value.trim();
    if (full) return full + "\n";
    const missing = ["trump", "maker", "tricks"].filter((k) => chosen[k] === null);
    if (missing.length) return null;
    const dealer = state.next.dealer || chosen.dealer;
    const alone = chosen.alone === "alone" ? " alone" : "";
    return `deal ${state.next.deal} dealer ${dealer}\n` +
      `  trump ${chosen.trump} maker ${chosen.maker}${alone} tricks ${chosen.tricks}\n`;
  }

  // Sent again only while there is no answer or the server says it is busy (502-504);
  // any other answer is final: a refused deal is never sent again.
  async function post(pending) {
    for (let attempt = 0; attempt < 6; attempt++) {
      try {
        const response = await fetch(base + "/deals", {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify(pending),
        });
        if ([502, 503, 504].includes(response.status)) {
          throw new Error(`status ${response.status}`);
        }
        let body = {};
        try {
          body = await response.json();
        } catch (err) {
          body = { error: `the server answered ${response.status}` };
        }
        return { status: response.status, body };
      } catch (err) {
        say(`no answer (${err.message}); sending again…`, "refused");
        await new Promise((done) => setTimeout(done, 500 * 2 ** attempt));
      }
    }
    return null;
  }

  async function send(pending) {
    sending = true;
    document.getElementById("send").disabled = true;
    localStorage.setItem(pendingKey, JSON.stringify(pending));
    const answer = await post(pending);
    sending = false;
    document.getElementById("send").disabled = false;
    if (answer === null) {
      say("the deal could not be sent: it is kept and will be sent again", "refused");
      return;
    }
    localStorage.removeItem(pendingKey);
    if (answer.status === 201 || answer.status === 200) {
      const totals = scores(answer.body.totals);
      const waits = answer.body.status === "pending" ? " (waiting for acceptance)" : "";
      say(`deal ${answer.body.deal || ""} entered: ${totals}${waits}`, "ok");
      document.getElementById("full").value = "";
      Object.assign(chosen, { trump: null, maker: null, alone: "no", tricks: null });
      await load();
    } else if (answer.status === 422) {
      say("refused: " + answer.body.findings.map(
        (f) => (f.line ? `line ${f.line}: ` : "") + `${f.code} ${f.message}`).join("; "),
      "refused");
    } else {
      say(answer.body.error || `refused (${answer.status})`, "refused");
    }
  }

  document.getElementById("sheet").addEventListener("submit", (event) => {
    event.preventDefault();
    if (sending || !state || state.over) return;
    const text = entry();
    if (text === null) {
      say("choose trump, the maker and the tricks (or enter the deal in full)", "refused");
      return;
    }
    send({ text, key: newKey(), by: chosen.by || state.choices.sides[0] });
  });

  load().then(() => {
    const kept = localStorage.getItem(pendingKey);
    if (kept) send(JSON.parse(kept));
  });

  // A deal entered, accepted or disputed on another phone of the table shows here too:
  // the page looks again at each change of the event (within a second, so that the
  // phones of the room do not all ask at the same moment).
  const live = new EventSource(`/api/events/${body.event}/stream?revisions`);
  live.addEventListener("revision", () => {
    setTimeout(() => {
      if (!sending && state) load();
    }, Math.random() * 1000);
  });
})();
