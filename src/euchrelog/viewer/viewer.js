// The euchrelog replay viewer. Every state it shows was computed in Python and sits in
// the page as data (one frame after each act); this script only steps through the frames
// and draws them, with textContent for every text that comes from a record.
"use strict";
(function () {
  // Each game's data is a <script type="application/json"> element of its own, read when
  // the game is shown (one game at a time is held).
  const GAMES = Array.from(document.querySelectorAll("script.euchrelog-game"));
  const loaded = { k: -1, data: null };
  function gameData(k) {
    if (loaded.k !== k) {
      loaded.data = JSON.parse(GAMES[k].textContent);
      loaded.k = k;
    }
    return loaded.data;
  }
  const SVG = "http://www.w3.org/2000/svg";
  const SUITS = { C: ["\u2663", "clubs", false], D: ["\u2666", "diamonds", true],
    H: ["\u2665", "hearts", true], S: ["\u2660", "spades", false] };
  const RANKS = { "7": "seven", "8": "eight", "9": "nine", T: "ten", J: "jack", Q: "queen",
    K: "king", A: "ace" };
  const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };
  const SPOTS = ["N", "E", "S", "W"];
  const PLACES = ["top", "right", "bottom", "left"];
  const $ = (id) => document.getElementById(id);
  const state = { game: 0, frame: 0, view: "all", tryLine: null, values: "both", hash: "" };
  const MISTAKES = ["inaccuracy", "mistake", "blunder"];
  const PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"];
  const VALUES_KEY = "euchrelog-viewer-values";

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function svgEl(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  }
  function cardName(code) {
    if (code === "??" || code === "back") return "a card face down";
    if (code === "JK") return "the joker";
    const suit = SUITS[code[1]];
    return (RANKS[code[0]] || code[0]) + " of " + (suit ? suit[1] : code[1]);
  }
  // A value on a card: the deciding side's points, signed ("+1.31", "\u22120.19").
  function signed(v, digits) {
    const t = Math.abs(v).toFixed(digits);
    return (v > 1e-9 ? "+" : v < -1e-9 ? "\u2212" : "") + t;
  }
  function card(code, extraClass, badge) {
    const back = code === "??" || code === "back";
    const svg = svgEl("svg", { viewBox: "0 0 60 84",
      class: "card" + (extraClass ? " " + extraClass : ""), role: "img",
      "aria-label": cardName(code), "data-card": back ? "back" : code });
    svg.appendChild(svgEl("rect", { class: "face", x: 1.5, y: 1.5, width: 57, height: 81, rx: 6,
      fill: back ? "url(#card-back)" : "#fffdf8", stroke: back ? "#0d2a4a" : "#8a8a8a",
      "stroke-width": 1.5 }));
    if (back) return svg;
    const joker = code === "JK";
    const suit = SUITS[code[1]] || ["\u2605", "joker", false];
    const colour = suit[2] ? "#c0262d" : joker ? "#6b3fa0" : "#1b1b1b";
    const rank = svgEl("text", { x: 6, y: 19, fill: colour, "font-size": 17, "font-weight": 700,
      "font-family": "Georgia, serif" });
    rank.textContent = joker ? "JK" : code[0] === "T" ? "10" : code[0];
    const small = svgEl("text", { x: 7, y: 35, fill: colour, "font-size": 15 });
    small.textContent = suit[0];
    const big = svgEl("text", { x: 36, y: 68, fill: colour, "font-size": 34,
      "text-anchor": "middle" });
    big.textContent = suit[0];
    svg.append(rank, small, big);
    if (badge) drawBadge(svg, code, badge);
    return svg;
  }
  // The single- and double-dummy values of a card at a decision, drawn on the card's
  // left strip (the part of a card a hand's overlap leaves in sight).
  function drawBadge(svg, code, badge) {
    const rows = [];
    if (badge.sd !== null && badge.sd !== undefined && state.values !== "dd")
      rows.push(["sd", signed(badge.sd, 2), "single dummy " + signed(badge.sd, 2)]);
    if (badge.dd !== null && badge.dd !== undefined && (state.values !== "sd" || !badge.hasSd))
      rows.push(["dd", signed(badge.dd, 0), "double dummy " + signed(badge.dd, 0)]);
    if (!rows.length) return;
    svg.classList.add("valued");
    rows.forEach(([kind, text], k) => {
      const y = 82 - (rows.length - k) * 15;
      const g = svgEl("g", { class: "badge badge-" + kind, "data-value": text });
      g.appendChild(svgEl("rect", { x: 2, y: y, width: 32, height: 14, rx: 3 }));
      const t = svgEl("text", { x: 18, y: y + 10.5, "text-anchor": "middle",
        "font-size": 10.5, "font-weight": 700 });
      t.textContent = text;
      g.appendChild(t);
      svg.appendChild(g);
    });
    svg.setAttribute("aria-label", cardName(code) + ", " + rows.map((r) => r[2]).join(", ")
      + " points");
  }
  function backs(n) { return Array.from({ length: n }, () => card("back")); }
  function hand(cards, nBacks, label, cls, marks, badges) {
    const box = el("div", { class: "hand" + (cls ? " " + cls : "") + (badges ? " valued" : ""),
      role: "group", "aria-label": label });
    for (const c of cards) box.appendChild(card(c, marks && marks[c], badges && badges[c]));
    box.append(...backs(nBacks));
    return box;
  }

  const game = () => gameData(state.game);
  const frame = () => game().frames[state.frame];
  const dealOf = (f) => game().deals[f.d];

  function seatLabel(g, seat) {
    const name = g.names[seat];
    return SEAT_NAMES[seat] + (name ? " \u00b7 " + name : "");
  }
  function shown(f, seat) { return state.view === "all" || state.view === seat; }
  // Where a seat sits on the screen: North at the top, or the seat whose view is shown
  // at the bottom.
  function placeOf(seat) {
    const turn = state.view === "all" ? 0 : (6 - SPOTS.indexOf(state.view)) % 4;
    return PLACES[(SPOTS.indexOf(seat) + turn) % 4];
  }

  function drawSeat(box, g, f, seat) {
    box.setAttribute("data-seat", seat);
    const deal = dealOf(f);
    const label = el("div", { class: "label" }, seatLabel(g, seat));
    const chip = (cls, title, text) => label.appendChild(el("span", { class: cls, title }, text));
    if (seat === deal.dealer) chip("chip", "dealer", "D");
    if (seat === f.maker) chip("chip maker", "maker", f.alone === seat ? "M alone" : "M");
    if (seat === f.defender) chip("chip", "defends alone", "alone");
    if (f.turn === seat) box.classList.add("turn");
    if (f.out.includes(seat)) {
      box.classList.add("out");
      chip("chip", "sits out this deal", "sits out");
    }
    box.appendChild(label);
    const h = f.hands[seat];
    if (!deal.cards) { box.setAttribute("aria-label", seatLabel(g, seat)); return; }
    const count = h.cards.length + h.backs;
    const words = seatLabel(g, seat) + ": " + count + (count === 1 ? " card" : " cards");
    box.appendChild(shown(f, seat) ? hand(h.cards, h.backs, words, "", ddMarks(f, seat),
      badgesOf(f, seat)) : hand([], count, words));
  }

  function drawCenter(g, f) {
    const center = $("center");
    center.replaceChildren();
    const deal = dealOf(f);
    const label = el("div", { class: "trick-label" });
    if (f.trick) {
      label.textContent = "Trick " + f.trick + (f.winner ? ": " + f.winner + " wins" : "");
    }
    center.appendChild(label);
    const table = el("div", { class: "trick", role: "group", "aria-label": "cards on the table" });
    table.id = "table";
    const faults = new Map(f.faults.map(([seat, code, words]) => [seat + code, words]));
    for (const [seat, code] of f.table) {
      const spot = el("div", { class: "played" + (seat === f.winner ? " won" : ""),
        "data-seat": seat, "data-place": placeOf(seat) });
      const words = faults.get(seat + code);
      const c = card(code, words === undefined ? "" : "fault");
      if (words !== undefined) {
        c.setAttribute("aria-label", cardName(code) + ", marked: " + words);
        const tip = svgEl("title", {});
        tip.textContent = words;
        c.appendChild(tip);
      }
      spot.appendChild(c);
      table.appendChild(spot);
    }
    center.appendChild(table);
    if (f.sheet) center.appendChild(el("p", { class: "sheet-line" }, f.sheet));
    if (f.kind === "score") center.appendChild(el("p", { class: "sheet-line" }, f.text));
    if (deal.cards && f.up !== null) {
      const up = el("div", { class: "upcard" });
      if (f.upAt !== "hand") {
        const face = f.upAt === "up" || state.view === "all";
        up.appendChild(el("span", {}, f.upAt === "up" ? "upcard" : "turned down"));
        up.appendChild(hand(face ? [f.up] : [], face ? 0 : 1, "the upcard", "upcard-hand",
          null, f.decision && f.decision.kind === "discard" && face
            ? badgesOf(f, f.decision.seat) : null));
      }
      if (f.kitty) {
        up.appendChild(el("span", {}, g.kittyName));
        const open = state.view === "all";
        up.appendChild(hand(open ? f.kitty : [], open ? 0 : f.kitty.length,
          "the " + g.kittyName, "kitty"));
      }
      if (state.view === "all" && f.discards.length) {
        up.appendChild(el("span", {}, "discarded"));
        up.appendChild(hand(f.discards, 0, "discarded cards", "discards"));
      }
      center.appendChild(up);
    }
  }

  function drawExtra(g, f) {
    const empty = SPOTS.filter((s) => !g.seats.includes(s));
    if (!f.extra || !empty.length || !dealOf(f).cards) return;
    const box = $("spot-" + placeOf(empty[0]));
    const name = g.extraKind === "ghost" ? "ghost hand" : "dummy";
    box.appendChild(el("div", { class: "label" }, name));
    const count = f.extra.cards.length + f.extra.backs;
    const words = "the " + name + ": " + count + (count === 1 ? " card" : " cards");
    box.appendChild(state.view === "all" ? hand(f.extra.cards, f.extra.backs, words, "extra")
      : hand([], count, words, "extra"));
  }

  function drawInfo(g, f) {
    const deal = dealOf(f);
    const contract = $("contract");
    contract.replaceChildren(el("h2", {}, "Deal " + deal.number + " \u00b7 " + g.variant));
    if (f.trump) {
      const suit = SUITS[f.trump];
      const line = el("div");
      line.appendChild(el("span", { class: "trump-big", "aria-hidden": "true" },
        suit ? suit[0] : "NT"));
      line.appendChild(document.createTextNode(" " + (suit ? suit[1] : "no trump") + " by "
        + f.maker + (f.alone ? ", alone" : "")
        + (f.defender ? ", " + f.defender + " defends alone" : "")));
      contract.appendChild(line);
    } else {
      const when = f.kind === "deal" ? "" : ", bidding";
      contract.appendChild(el("div", {}, "dealer " + deal.dealer + when));
    }
    const bids = $("bids");
    bids.replaceChildren(el("h2", {}, "Bidding"));
    if (f.bids.length) {
      const list = el("ol");
      for (const [seat, words] of f.bids) list.appendChild(el("li", {}, seat + " " + words));
      bids.appendChild(list);
    } else bids.appendChild(el("div", {}, "\u2014"));
    const score = $("score");
    score.replaceChildren(el("h2", {}, "Score"));
    const table = el("table");
    const head = el("tr");
    head.append(el("th", {}, ""), el("th", {}, "tricks"), el("th", {}, "total"));
    table.appendChild(head);
    const slipped = f.findings.some((k) => g.findings[k].sheet === "slip");
    for (const side of g.sides) {
      const row = el("tr", { "data-side": side });
      const won = f.won[side];
      const total = String(f.score[side]);
      row.append(el("td", {}, side),
        el("td", { "data-tricks": won === null ? "?" : String(won) },
          won === null ? "\u2013" : String(won)),
        el("td", { "data-score": total }, total));
      table.appendChild(row);
    }
    score.appendChild(table);
    if (f.kind === "score" && f.written) {
      const w = el("div");
      const parts = [];
      if (f.written.points) parts.push("points " + sides(f.written.points));
      if (f.written.total) parts.push("total " + sides(f.written.total));
      w.textContent = "written: " + parts.join(", ");
      if (slipped) w.className = "wrong";
      score.appendChild(w);
    }
    if (f.kind === "score" && f.points) {
      score.appendChild(el("div", {}, "scored: " + (sides(f.points) || "nothing")));
    }
    if (state.frame === g.frames.length - 1 && g.winner) {
      score.appendChild(el("div", { class: "winner" },
        "winner: " + g.winner + " (" + sides(g.totals) + ")"));
    }
    for (const [side, points, reason] of f.penalties || []) {
      score.appendChild(el("div", { class: "wrong" },
        "penalty " + side + " \u2212" + points + ": " + reason));
    }
  }
  function sides(values) { return Object.entries(values).map(([s, n]) => s + " " + n).join(" "); }


  function drawFindings(g, f) {
    const list = $("findings");
    list.replaceChildren();
    const all = g.findings;
    if (!all.length) {
      list.appendChild(el("li", { class: "empty" }, "No findings: the record checks clean."));
      return;
    }
    all.forEach((x, k) => {
      const here = f !== null && x.frame === state.frame;
      const item = el("li", { class: (x.severity === "note" ? "note" : "")
        + (here ? " here" : "") });
      const button = el("button", { type: "button", id: "finding-" + k });
      button.appendChild(el("code", {}, x.code));
      const where = x.line ? x.line + ":" + x.column + " " : "";
      button.appendChild(document.createTextNode(" " + where + x.message));
      if (x.frame !== null) button.addEventListener("click", () => go(x.frame));
      else button.setAttribute("aria-disabled", "true");
      item.appendChild(button);
      list.appendChild(item);
    });
  }

  // ---- the double-dummy layer (every value computed in Python: frame.dd, frame.ddPlayed)
  function ddMarks(f, seat) {
    const d = f.decision;
    const sdBest = d && d.seat === seat && d.sdBest && state.values !== "dd";
    if (!sdBest && (!f.dd || f.dd.seat !== seat)) return null;
    const marks = {};
    for (const c of sdBest ? d.sdBest : f.dd.best) marks[c] = "best";
    return marks;
  }
  // ---- the decisions (frame.decision: every value computed in Python)
  function badgesOf(f, seat) {
    const d = f.decision;
    if (!d || d.seat !== seat || !shown(f, seat)) return null;
    const hasSd = d.options.some((o) => o.sd !== null);
    const badges = {};
    for (const o of d.options) badges[o.option] = { sd: o.sd, dd: o.dd, hasSd };
    return badges;
  }
  const KIND_WORDS = { play: "to play", discard: "to discard", bid: "to bid" };
  function verdict(d, open) {
    const best = open && d.sdBest && d.by === "sd" ? d.sdBest : open && d.ddBest ? d.ddBest
      : null;
    let words = d.seat + " " + (d.kind === "discard" ? "discards " : d.kind === "play"
      ? "plays " : "") + d.chosen + ": " + d.class;
    if (d.loss > 1e-9) {
      const se = d.by === "sd" && d.sdInfo.se ? " \u00b1 " + d.sdInfo.se.toFixed(2) : "";
      words += ", " + d.loss.toFixed(2) + se + " points " + (d.by === "sd"
        ? "on average " : "") + "below " + (best ? best.join(" ") : "the best");
    }
    return words + " (" + (d.by === "sd" ? "single" : "double") + " dummy)"
      + (d.fault ? ": " + d.fault : "");
  }
  function drawDecision(g, f) {
    const panel = $("decision");
    panel.hidden = !g.dd || !decisionsOf(g).length;
    if (panel.hidden) return;
    const body = $("decision-body");
    body.replaceChildren();
    const before = state.frame > 0 ? g.frames[state.frame - 1].decision : null;
    if (before && before.class) {
      const open = state.view === "all" || state.view === before.seat;
      body.appendChild(el("p", { id: "decision-verdict", class: "verdict " + before.class,
        "data-class": before.class }, verdict(before, open)));
    }
    const d = f.decision;
    if (!d) {
      if (!before) body.appendChild(el("p", { class: "empty" }, "No decision judged here."));
      return;
    }
    if (state.view !== "all" && state.view !== d.seat) {
      body.appendChild(el("p", { class: "empty" }, d.seat + " " + (KIND_WORDS[d.kind] || "")
        + ": the values are shown in " + d.seat + "\u2019s view or with all hands."));
      return;
    }
    const table = el("table", { class: "dd-values", id: "decision-options" });
    table.appendChild(el("caption", {}, d.seat + " " + (KIND_WORDS[d.kind] || "to decide")
      + ": the points " + d.side + " can expect"));
    const hasSd = d.options.some((o) => o.sd !== null);
    const head = el("tr");
    head.appendChild(el("th", {}, ""));
    if (hasSd) head.appendChild(el("th", { title: "single dummy: the mean over the "
      + "layouts of the cards " + d.seat + " cannot see" }, "SD"));
    head.appendChild(el("th", { title: "double dummy: seeing every card" }, "DD"));
    table.appendChild(head);
    for (const o of d.options) {
      const row = el("tr", { "data-option": o.option });
      const name = el("td", {}, o.option);
      if (o.option === d.chosen) name.appendChild(el("span", { class: "chip" }, "played"));
      row.appendChild(name);
      if (hasSd) row.appendChild(el("td", { class: d.sdBest && d.sdBest.includes(o.option)
        ? "dd-best" : "" }, o.sd === null ? "\u2013" : signed(o.sd, 2)));
      row.appendChild(el("td", { class: d.ddBest && d.ddBest.includes(o.option) ? "dd-best"
        : "" }, o.dd === null ? "\u2013" : signed(o.dd, 0)));
      table.appendChild(row);
    }
    body.appendChild(table);
    if (d.sdInfo) {
      const info = d.sdInfo;
      body.appendChild(el("p", { class: "empty" }, info.exact
        ? "exact: every one of " + info.layouts + " layouts"
        : info.samples + " layouts drawn of " + info.layouts.toLocaleString("en")));
    }
  }

  // ---- the evaluation graph: the deciding side's expected points after each decision
  function decisionsOf(g) {
    if (g.decided) return g.decided;
    const found = [];
    g.frames.forEach((f, k) => {
      if (f.decision && f.decision.after !== null) found.push({ frame: k, d: f.d,
        side: f.decision.side, after: f.decision.after, class: f.decision.class,
        text: f.decision.seat + " " + f.decision.chosen });
    });
    g.decided = found;
    return found;
  }
  function drawGraph(g) {
    const panel = $("graph-panel");
    const box = $("graph");
    box.replaceChildren();
    const points = g.dd ? decisionsOf(g) : [];
    panel.hidden = !points.length;
    if (!points.length) return;
    // As wide as the panel (a narrow screen gets a narrow graph, its text still legible).
    const W = Math.max(320, Math.min(1400, box.clientWidth || 800));
    const H = 170, L = 34, R = 8, T = 10, B = 22;
    const top = Math.max(1, Math.ceil(Math.max(...points.map((p) => Math.abs(p.after)))));
    const x = (i) => L + (points.length > 1 ? (i * (W - L - R)) / (points.length - 1)
      : (W - L - R) / 2);
    const y = (v) => T + ((top - v) * (H - T - B)) / (2 * top);
    const svg = svgEl("svg", { viewBox: "0 0 " + W + " " + H, class: "graph", id: "graph-svg",
      role: "group", "aria-label": "evaluation graph: each side\u2019s expected points "
      + "after each of its decisions; a point goes to its decision" });
    for (const v of [top, 0, -top]) {
      svg.appendChild(svgEl("line", { x1: L, x2: W - R, y1: y(v), y2: y(v),
        class: v ? "guide" : "zero" }));
      const label = svgEl("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end",
        class: "axis" });
      label.textContent = signed(v, 0);
      svg.appendChild(label);
    }
    let deal = -1;
    points.forEach((p, i) => {
      if (p.d === deal) return;
      deal = p.d;
      const at = i ? (x(i - 1) + x(i)) / 2 : L;
      svg.appendChild(svgEl("line", { x1: at, x2: at, y1: T, y2: H - B, class: "deal-line" }));
      const label = svgEl("text", { x: at + 2, y: H - 6, class: "axis" });
      label.textContent = String(g.deals[p.d].number);
      svg.appendChild(label);
    });
    const cursor = svgEl("line", { x1: L, x2: L, y1: T, y2: H - B, id: "graph-cursor",
      class: "cursor" });
    svg.appendChild(cursor);
    g.sides.forEach((side, s) => {
      const mine = points.map((p, i) => [p, i]).filter(([p]) => p.side === side);
      if (!mine.length) return;
      const colour = PALETTE[s % PALETTE.length];
      let path = "";
      let last = -1;
      for (const [p, i] of mine) {
        path += (last === p.d ? " L" : " M") + x(i).toFixed(1) + " " + y(p.after).toFixed(1);
        last = p.d;
      }
      svg.appendChild(svgEl("path", { d: path.trim(), stroke: colour, class: "series",
        "data-side": side }));
      for (const [p, i] of mine) {
        const bad = MISTAKES.includes(p.class);
        const dot = svgEl("circle", { cx: x(i), cy: y(p.after), r: bad ? 5.5 : 3.5,
          fill: colour, class: "point" + (bad ? " " + p.class : ""),
          "data-frame": String(p.frame), tabindex: "-1" });
        const tip = svgEl("title", {});
        tip.textContent = "deal " + g.deals[p.d].number + ", " + p.text + ": " + side
          + " expect " + signed(p.after, 2) + (p.class ? " (" + p.class + ")" : "");
        dot.appendChild(tip);
        dot.addEventListener("click", () => go(p.frame));
        svg.appendChild(dot);
      }
    });
    box.appendChild(svg);
    const legend = el("p", { class: "legend" });
    g.sides.forEach((side, s) => {
      if (!points.some((p) => p.side === side)) return;
      const key = el("span", { class: "key" }, side);
      key.style.setProperty("--key", PALETTE[s % PALETTE.length]);
      legend.appendChild(key);
    });
    legend.appendChild(document.createTextNode(g.sd
      ? " expected points after each decision: single dummy where the review has it, "
        + "else double dummy. Larger dots: inaccuracies and worse; click one to go there."
      : " points after each decision, double dummy. Click a dot to go there."));
    box.appendChild(legend);
  }
  function moveCursor(g) {
    const cursor = $("graph-cursor");
    if (!cursor) return;
    const points = decisionsOf(g);
    let at = -1;
    points.forEach((p, i) => { if (p.frame <= state.frame) at = i; });
    const dot = at >= 0 ? document.querySelector("#graph-svg circle[data-frame=\""
      + points[at].frame + "\"]") : null;
    const cx = dot ? dot.getAttribute("cx") : "-10";
    cursor.setAttribute("x1", cx);
    cursor.setAttribute("x2", cx);
    for (const c of document.querySelectorAll("#graph-svg circle.here"))
      c.classList.remove("here");
    if (dot && points[at].frame === state.frame) dot.classList.add("here");
  }
  function goMistake(delta) {
    const g = game();
    if (!g.dd) return;
    const frames = decisionsOf(g).filter((p) => MISTAKES.includes(p.class)).map((p) => p.frame);
    const next = delta > 0 ? frames.find((k) => k > state.frame)
      : frames.filter((k) => k < state.frame).pop();
    if (next === undefined) {
      $("status").textContent = "No " + (delta > 0 ? "later" : "earlier")
        + " mistake (an inaccuracy, mistake or blunder) in this game.";
      return;
    }
    go(next);
  }

  // ---- the par grid of a deal: rows maker (and alone), columns trump
  function parGrid(review) {
    const trumps = [...new Set(review.par.map((e) => e.trump))];
    const makers = [];
    for (const e of review.par) {
      const key = e.maker + (e.alone ? " alone" : "");
      if (!makers.includes(key)) makers.push(key);
    }
    const table = el("table", { class: "par-grid", id: "par-grid" });
    table.appendChild(el("caption", {}, "Par: the makers\u2019 tricks under perfect play, "
      + "and the points"));
    const head = el("tr");
    head.appendChild(el("th", {}, "maker"));
    for (const t of trumps) {
      const suit = SUITS[t];
      head.appendChild(el("th", { title: suit ? suit[1] : "no trump", "data-trump": t },
        suit ? suit[0] : t));
    }
    table.appendChild(head);
    const c = review.contract;
    for (const key of makers) {
      const row = el("tr", { "data-maker": key });
      row.appendChild(el("th", {}, key));
      for (const t of trumps) {
        const e = review.par.find((x) => x.trump === t && x.maker + (x.alone ? " alone" : "")
          === key);
        const played = c && c.trump === t && c.maker + (c.alone ? " alone" : "") === key;
        row.appendChild(e ? el("td", { class: played ? "contract" : "",
          title: played ? "the contract played" : "" }, e.tricks + " \u00b7 "
          + (sides(e.points) || "0")) : el("td", {}, "\u2013"));
      }
      table.appendChild(row);
    }
    return table;
  }
  function drawDD(g, f) {
    const panel = $("dd");
    panel.hidden = !g.dd;
    if (!g.dd) return;
    const body = $("dd-body");
    body.replaceChildren();
    const review = dealOf(f).dd;
    if (!review || review.skipped) {
      body.appendChild(el("p", { class: "empty" }, "This deal is not reviewed: "
        + (review ? review.skipped : "no review") + "."));
      return;
    }
    const lost = Object.entries(review.lost).filter(([, n]) => n);
    const costs = lost.length ? "; points lost: " + lost.map(([s, n]) => s + " " + n).join(", ")
      : "";
    body.appendChild(el("p", {}, "Makers (" + review.makers.join(" ") + ") take " + review.dd
      + " under perfect play, " + review.made + " as played" + costs + "."));
    if (review.stopped) {
      body.appendChild(el("p", { class: "empty" }, "The review stops at the first fault of "
        + "the play: " + review.stopped + "."));
    }
    if (review.sdSkipped) {
      body.appendChild(el("p", { class: "empty" }, "No single-dummy values in this deal: "
        + review.sdSkipped + "."));
    }
    if (review.par && review.par.length) {
      const details = el("details", { class: "par", id: "par" });
      if (state.parOpen) details.open = true;
      details.addEventListener("toggle", () => { state.parOpen = details.open; });
      details.appendChild(el("summary", {}, "Par grid"));
      details.appendChild(parGrid(review));
      body.appendChild(details);
    }
    const played = f.ddPlayed;
    if (played) {
      body.appendChild(el("p", { id: "dd-played", class: played.loss ? "dd-loss" : "dd-best" },
        played.seat + " plays " + played.card + ": " + (played.loss ? "costs " + played.loss
          + (played.loss === 1 ? " trick" : " tricks") : "a best card") + "; makers take "
          + played.after + " with perfect play from here."));
    }
    const d = f.dd;
    if (!d) return;
    if (state.view !== "all" && d.seat !== state.view) {
      body.appendChild(el("p", { class: "empty" }, d.seat + " to play: the value of each card is "
        + "shown in " + d.seat + "\u2019s view or with all hands."));
      return;
    }
    const table = el("table", { class: "dd-values", id: "dd-values" });
    table.appendChild(el("caption", {}, d.seat + " to play: makers\u2019 tricks after each card"));
    for (const [c, value] of d.values) {
      const row = el("tr", { "data-card": c });
      const cell = el("td");
      const tried = state.tryLine && state.tryLine.card === c;
      if (d.lines[c]) {
        const button = el("button", { type: "button", id: "dd-try-" + c,
          "aria-pressed": tried ? "true" : "false",
          "aria-label": "try " + cardName(c) + ": perfect play after it" }, "try " + c);
        button.addEventListener("click", () => tryCard(c));
        cell.appendChild(button);
      } else cell.textContent = c;
      row.append(cell, el("td", { class: d.best.includes(c) ? "dd-best" : "" }, String(value)));
      table.appendChild(row);
    }
    body.appendChild(table);
    if (state.tryLine && state.tryLine.frame === state.frame) {
      const t = state.tryLine;
      body.appendChild(el("p", {},
        "If " + d.seat + " plays " + t.card + ", perfect play goes on:"));
      const ol = el("ol", { class: "dd-line", id: "dd-line" });
      for (const trick of d.lines[t.card])
        ol.appendChild(el("li", {}, trick.plays.map(([s, c]) => s + " " + c).join(", ")
          + (trick.winner ? ": " + trick.winner + " wins" : "")));
      body.appendChild(ol);
      const back = el("button", { type: "button", id: "dd-back" }, "Back to the game as played");
      back.addEventListener("click", () => { state.tryLine = null; render(); });
      body.appendChild(back);
    }
  }
  function tryCard(c) {
    state.tryLine = { frame: state.frame, card: c };
    render();
  }

  function drawTricks(g, f) {
    const deal = dealOf(f);
    const box = $("tricks");
    box.replaceChildren();
    deal.tricks.forEach((start, k) => {
      const b = el("button", { type: "button", id: "trick-" + (k + 1),
        "aria-label": "trick " + (k + 1) + " of deal " + deal.number }, String(k + 1));
      const end = k + 1 < deal.tricks.length ? deal.tricks[k + 1] : deal.score;
      if (state.frame >= start && state.frame < end) b.setAttribute("aria-current", "true");
      b.addEventListener("click", () => go(start));
      box.appendChild(b);
    });
  }

  function render() {
    if (!game().frames.length) { drawEmpty(); return; }
    // The parts below are drawn anew: the control that had the focus gets it back.
    const focused = document.activeElement && document.activeElement.id;
    draw();
    const again = focused && document.getElementById(focused);
    if (again && again !== document.activeElement) again.focus();
  }
  function drawEmpty() {
    for (const id of ["spot-top", "spot-right", "spot-bottom", "spot-left", "center", "contract",
      "bids", "score", "tricks", "deal-select"]) $(id).replaceChildren();
    $("status").textContent = "This game has no deal recorded.";
    $("slider").max = "0";
    $("position").textContent = "";
    $("dd").hidden = true;
    $("notes-panel").hidden = true;
    drawFindings(game(), null);
    document.body.setAttribute("data-frame", "0");
  }
  function draw() {
    const g = game();
    const f = frame();
    for (const place of PLACES) {
      const box = $("spot-" + place);
      box.replaceChildren();
      box.removeAttribute("data-seat");
      box.className = "seat spot-" + place;
    }
    for (const seat of g.seats) drawSeat($("spot-" + placeOf(seat)), g, f, seat);
    drawExtra(g, f);
    drawCenter(g, f);
    drawInfo(g, f);
    drawFindings(g, f);
    drawTricks(g, f);
    drawDD(g, f);
    drawDecision(g, f);
    moveCursor(g);
    $("notes").replaceChildren(...f.notes.map((words) => el("li", {}, words)));
    $("notes-panel").hidden = !f.notes.length;
    const slider = $("slider");
    slider.max = String(g.frames.length - 1);
    slider.value = String(state.frame);
    const words = "step " + (state.frame + 1) + " of " + g.frames.length + ": " + f.text;
    slider.setAttribute("aria-valuetext", words);
    $("position").textContent = (state.frame + 1) + " / " + g.frames.length;
    const here = f.findings.map((k) => g.findings[k]);
    const found = here.map((x) => x.code + " " + x.message).join("; ");
    $("status").textContent = f.text + (here.length ? " \u2014 " + found : "");
    $("deal-select").value = String(f.d);
    $("status").className = here.length ? "fault" : "";
    document.body.setAttribute("data-frame", String(state.frame));
    writeHash();
  }

  // ---- deep links: #game-G, #game-G/deal-D/step-S, #game-G/deal-D/trick-T/step-S
  // (D: the deal's place in the game, from 1; S: the step in the deal, or the card in
  // the trick, from 1; step-0 of a trick: the step before its first card)
  function hashOf() {
    const f = frame();
    let text = "game-" + (state.game + 1);
    if (!f) return text;
    const deal = dealOf(f);
    text += "/deal-" + (f.d + 1);
    const k = state.frame;
    const t = deal.tricks.findIndex((start, i) => k >= start
      && k < (i + 1 < deal.tricks.length ? deal.tricks[i + 1] : deal.score));
    if (f.kind === "play" && t >= 0) return text + "/trick-" + (t + 1) + "/step-"
      + (k - deal.tricks[t] + 1);
    return text + "/step-" + (k - deal.frame + 1);
  }
  function writeHash() {
    const text = "#" + hashOf();
    if (text === location.hash) { state.hash = text; return; }
    state.hash = text;
    try { history.replaceState(null, "", text); } catch (e) { /* a page that may not */ }
  }
  function parseHash(hash) {
    const m = /^#game-(\d+)(?:\/deal-(\d+)(?:\/trick-(\d+))?(?:\/step-(\d+))?)?$/.exec(hash);
    if (!m) return null;
    return { game: Number(m[1]) - 1, deal: m[2] ? Number(m[2]) - 1 : null,
      trick: m[3] ? Number(m[3]) - 1 : null, step: m[4] !== undefined ? Number(m[4]) : null };
  }
  function frameOf(place) {
    const g = game();
    if (place.deal === null || !g.deals.length) return 0;
    const deal = g.deals[Math.max(0, Math.min(g.deals.length - 1, place.deal))];
    if (place.trick !== null && deal.tricks.length) {
      const t = Math.max(0, Math.min(deal.tricks.length - 1, place.trick));
      const start = deal.tricks[t];
      const end = t + 1 < deal.tricks.length ? deal.tricks[t + 1] : deal.score;
      const step = place.step === null ? 1 : place.step;
      return Math.max(start - 1, Math.min(end - 1, start + step - 1));
    }
    const step = place.step === null ? 1 : Math.max(1, place.step);
    return Math.min(deal.score, deal.frame + step - 1);
  }
  function openHash(hash) {
    const place = parseHash(hash);
    if (!place) return false;
    const k = Math.min(Math.max(place.game, 0), GAMES.length - 1);
    if (k !== state.game || !loaded.data) {
      $("game-select").value = String(k);
      setGame(k, true);
    }
    const n = game().frames.length;
    state.frame = n ? Math.max(0, Math.min(n - 1, frameOf(place))) : 0;
    state.tryLine = null;
    render();
    return true;
  }

  function go(k) {
    const n = game().frames.length;
    if (!n) return;
    state.frame = Math.max(0, Math.min(n - 1, k));
    state.tryLine = null;
    render();
  }
  function goDeal(delta) {
    const f = frame();
    if (!f) return;
    const deals = game().deals;
    const d = Math.max(0, Math.min(deals.length - 1, f.d + delta));
    go(delta < 0 && state.frame > deals[f.d].frame ? deals[f.d].frame : deals[d].frame);
  }
  function goTrick(delta) {
    const f = frame();
    if (!f) return;
    const deal = dealOf(f);
    const starts = [deal.frame, ...deal.tricks, deal.score];
    if (delta > 0) {
      const next = starts.find((k) => k > state.frame);
      go(next === undefined ? deal.score : next);
    } else {
      const prev = starts.filter((k) => k < state.frame);
      go(prev.length ? prev[prev.length - 1] : deal.frame);
    }
  }

  function setGame(k, quiet) {
    state.game = k;
    state.frame = 0;
    const g = game();
    $("title").textContent = g.title;
    document.title = g.title + " \u2014 euchrelog viewer";
    $("tags").textContent = g.tags.map(([n, v]) => n + ": " + v).join(" \u00b7 ");
    $("game-notes").replaceChildren(...g.comments.map((words) => el("li", {}, words)));
    $("game-comments").hidden = !g.comments.length;
    const dealSelect = $("deal-select");
    dealSelect.replaceChildren();
    g.deals.forEach((deal, d) => dealSelect.appendChild(el("option", { value: String(d) },
      "Deal " + deal.number + " (" + deal.dealer + " deals)")));
    const view = $("view-select");
    view.replaceChildren(el("option", { value: "all" }, "All hands"));
    for (const seat of g.seats) {
      view.appendChild(el("option", { value: seat }, seatLabel(g, seat) + "\u2019s view"));
    }
    state.view = "all";
    $("values-label").hidden = !g.sd;
    $("mistake-keys").hidden = !g.dd;
    buildPrint(g);
    drawGraph(g);
    if (!quiet) render();
  }

  function buildPrint(g) {
    const out = $("printout");
    out.replaceChildren();
    g.deals.forEach((deal) => {
      const sheet = el("section", { class: "print-deal" });
      const start = g.frames[deal.frame];
      const end = g.frames[deal.score];
      sheet.appendChild(el("h2", {},
        g.title + " \u2014 deal " + deal.number + ", dealer " + deal.dealer));
      if (deal.cards) {
        const hands = el("table");
        for (const seat of g.seats) {
          const row = el("tr");
          const h = start.hands[seat];
          const cards = h.cards.concat(Array(h.backs).fill("??")).join(" ");
          row.append(el("th", {}, seatLabel(g, seat)), el("td", {}, cards));
          hands.appendChild(row);
        }
        if (start.extra) {
          const row = el("tr");
          row.append(el("th", {}, g.extraKind === "ghost" ? "ghost hand" : "dummy"),
            el("td", {}, start.extra.cards.join(" ")));
          hands.appendChild(row);
        }
        if (start.up) {
          const row = el("tr");
          const kitty = start.kitty ? " | " + start.kitty.join(" ") : "";
          row.append(el("th", {}, "upcard, " + g.kittyName), el("td", {}, start.up + kitty));
          hands.appendChild(row);
        }
        sheet.appendChild(hands);
      }
      const acts = g.frames.slice(deal.frame + 1, deal.tricks.length ? deal.tricks[0] : deal.score)
        .map((f) => f.text);
      if (acts.length) sheet.appendChild(el("p", {}, acts.join("; ")));
      if (deal.tricks.length) {
        const table = el("table");
        deal.tricks.forEach((s, k) => {
          const last = g.frames[(k + 1 < deal.tricks.length ? deal.tricks[k + 1] : deal.score) - 1];
          const row = el("tr");
          row.appendChild(el("th", {}, String(last.trick)));
          const faults = new Set(last.faults.map(([seat, code]) => seat + code));
          for (const [seat, code] of last.table) {
            const cls = (seat === last.winner ? "won" : "")
              + (faults.has(seat + code) ? " fault" : "");
            row.appendChild(el("td", { class: cls.trim() }, seat + " " + code));
          }
          table.appendChild(row);
        });
        sheet.appendChild(table);
      }
      sheet.appendChild(el("p", {}, end.text + " \u2014 totals " + sides(end.score)));
      const found = g.findings.filter((x) => x.frame !== null && g.frames[x.frame].d === start.d);
      for (const x of found) {
        sheet.appendChild(el("p", { class: "fault" }, x.code + " " + x.message));
      }
      out.appendChild(sheet);
    });
  }

  function onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = e.target && e.target.tagName;
    const typing = tag === "SELECT" || tag === "TEXTAREA"
      || (tag === "INPUT" && e.target.type !== "range");
    if (typing) return;
    const moves = { ArrowRight: () => go(state.frame + 1), ArrowLeft: () => go(state.frame - 1),
      Home: () => go(0), End: () => go(game().frames.length - 1),
      PageDown: () => goDeal(1), PageUp: () => goDeal(-1),
      ArrowDown: () => goTrick(1), ArrowUp: () => goTrick(-1),
      n: () => goMistake(1), p: () => goMistake(-1) };
    const move = moves[e.key];
    if (move) { e.preventDefault(); move(); }
  }

  if (!GAMES.length) { $("status").textContent = "This page holds no game."; return; }
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(state.frame - 1));
  $("next").addEventListener("click", () => go(state.frame + 1));
  $("last").addEventListener("click", () => go(game().frames.length - 1));
  $("slider").addEventListener("input", (e) => go(Number(e.target.value)));
  $("deal-select").addEventListener("change", (e) => {
    const deal = game().deals[Number(e.target.value)];
    if (deal) go(deal.frame);
  });
  $("view-select").addEventListener("change", (e) => { state.view = e.target.value; render(); });
  try {
    const kept = localStorage.getItem(VALUES_KEY);
    if (kept === "sd" || kept === "dd" || kept === "both") state.values = kept;
  } catch (e) { /* no storage: the values stay "both" */ }
  $("values-select").value = state.values;
  $("values-select").addEventListener("change", (e) => {
    state.values = e.target.value;
    try { localStorage.setItem(VALUES_KEY, state.values); } catch (err) { /* no storage */ }
    render();
  });
  $("next-mistake").addEventListener("click", () => goMistake(1));
  $("prev-mistake").addEventListener("click", () => goMistake(-1));
  $("print").addEventListener("click", () => window.print());
  const games = $("game-select");
  if (GAMES.length > 1) {
    GAMES.forEach((g, k) => {
      games.appendChild(el("option", { value: String(k) }, (k + 1) + ". " + g.dataset.title));
    });
    games.addEventListener("change", (e) => setGame(Number(e.target.value)));
  } else games.parentElement.hidden = true;
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", () => {
    if (location.hash !== state.hash) openHash(location.hash);
  });
  if (!openHash(location.hash)) {
    games.value = "0";
    setGame(0);
  }
})();
