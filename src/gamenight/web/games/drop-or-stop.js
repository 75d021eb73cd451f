// Drop or Stop: your hidden hand (peek), everyone's face-up drops, DROP / STOP, the reveal.
import { el, svgEl } from "/static/common.js";

export const howto = `
<p>Every round each player has two <b>hidden</b> cards. On your turn either <b>DROP</b>
(draw a card face up in front of you) or <b>STOP</b> (you are out of this round, your cards
stay). Play goes round until everyone has stopped.</p>
<p>Then all hands are shown. Your total is your hidden cards plus your face-up cards. A
<b>FLEX</b> card counts 1 <i>or</i> 5, whichever is better for you. Over the target (11) is
<b>OVERFLOW</b> and scores nothing.</p>
<p>The best total wins the round (ties all win) and turns over a scoring card. The first
to turn over all of them wins the game. Keys: <kbd>D</kbd> drop, <kbd>S</kbd> stop,
<kbd>P</kbd> peek at your hand.</p>`;

let peeking = false;
let seenRounds = -1;
let lastCtx = null;
let lastMsg = null;

function cardSvg(id, cards, { back = false, small = false, note = "" } = {}) {
  const w = small ? 34 : 52, h = small ? 48 : 74;
  const info = cards && cards[id];
  const flex = info && info.flex;
  const fill = back ? "#2f6fde" : flex ? "#fff3c4" : "#ffffff";
  const face = back
    ? [svgEl("path", { d: "M8 8h36v58H8z", fill: "none", stroke: "#fff", "stroke-width": 2, "stroke-dasharray": "4 3" })]
    : flex
      ? [svgEl("text", { x: 26, y: 36, "font-size": 16, "text-anchor": "middle", "font-weight": 700 }, "1|5"),
        svgEl("text", { x: 26, y: 56, "font-size": 10, "text-anchor": "middle" }, `FLEX${note ? " " + note : ""}`)]
      : [svgEl("text", { x: 26, y: 46, "font-size": 28, "text-anchor": "middle", "font-weight": 700 }, info ? info.value : id),
        svgEl("circle", { cx: 26, cy: 12, r: 4, fill: "#2f6fde" })];
  const svg = svgEl("svg", { width: w, height: h, viewBox: "0 0 52 74", role: "img", class: "card-svg",
    "aria-label": back ? "face-down card" : `${id}${note ? " " + note : ""}` },
  svgEl("rect", { x: 1, y: 1, width: 50, height: 72, rx: 6, fill, stroke: "#333", "stroke-width": 1.5 }), ...face);
  return svg;
}

function seatName(ctx, s) { return ctx.names[s] || `seat ${s + 1}`; }

function scoring(wins, need) {
  const box = el("span", { class: "scoring", title: `${wins} of ${need} scoring cards turned` });
  for (let i = 0; i < need; i++) box.append(el("span", { class: `pill ${i < wins ? "ok" : ""}` }, i < wins ? "★" : "☆"));
  return box;
}

function reveal(view, ctx, round) {
  const r = view.rounds[round];
  const rows = r.totals.map((t, s) => {
    const cards = el("span", { class: "cards" });
    let f = 0;
    for (const c of r.hands[s]) cards.append(cardSvg(c, view.cards, { small: true, note: view.cards[c]?.flex ? `=${r.flex[s][f++] ?? "?"}` : "" }));
    cards.append(el("span", { class: "muted" }, " + "));
    for (const c of r.tableaux[s]) cards.append(cardSvg(c, view.cards, { small: true, note: view.cards[c]?.flex ? `=${r.flex[s][f++] ?? "?"}` : "" }));
    const flexText = r.flex[s].length ? `FLEX counted as ${r.flex[s].join(", ")}` : "";
    return el("tr", { class: r.winners.includes(s) ? "winner" : "" },
      el("td", {}, seatName(ctx, s)), el("td", {}, cards),
      el("td", {}, el("strong", {}, String(t)), el("div", { class: "muted" }, flexText)),
      el("td", {}, r.winners.includes(s) ? el("span", { class: "pill ok" }, "wins the round") : ""));
  });
  return el("div", { class: "panel", id: "reveal" },
    el("h3", {}, `Round ${r.round}: the reveal`),
    el("p", { class: "muted" }, `Highest total up to ${view.target} wins; FLEX counts 1 or 5, whichever is better.`),
    el("table", { class: "list" }, rows));
}

export function render(root, msg, ctx) {
  lastCtx = ctx; lastMsg = msg;
  const view = msg.view;
  const me = msg.seat;
  const legal = msg.actions ? msg.actions.map((a) => a.type) : [];
  root.innerHTML = "";
  const head = el("div", { class: "panel row" },
    el("strong", {}, `Round ${view.round}`),
    el("span", {}, `target ${view.target}`),
    el("span", {}, `${view.wins_to_win} round wins to win`),
    el("span", { class: "muted" }, `draw pile ${view.draw_pile_size} · discard ${view.discard_pile_size}`),
    view.over ? el("span", { class: "pill ok" }, "game over") :
      el("span", { class: "pill warn" }, view.to_act === me ? "your turn" : `${seatName(ctx, view.to_act)} to act`));
  root.append(head);

  if (me !== null && me !== undefined) {
    const hand = el("div", { class: "cards", id: "hand" });
    for (const c of view.hand || []) hand.append(cardSvg(c, view.cards, { back: !peeking }));
    const peek = el("button", { type: "button", id: "peek", "aria-pressed": String(peeking),
      onclick: () => { peeking = !peeking; render(root, lastMsg, lastCtx); } }, peeking ? "Hide" : "Peek");
    const total = peeking ? el("span", { id: "own-total" }, `your total: ${view.own_total}`) : el("span", { class: "muted" }, "peek to see your total");
    const drop = el("button", { type: "button", id: "drop", class: "primary big", disabled: !legal.includes("drop"), onclick: () => ctx.act({ type: "drop" }) }, "DROP");
    const stop = el("button", { type: "button", id: "stop", class: "big", disabled: !legal.includes("stop"), onclick: () => ctx.act({ type: "stop" }) }, "STOP");
    root.append(el("div", { class: "panel" }, el("h3", {}, "Your hand"), el("div", { class: "row" }, hand, peek, total),
      el("div", { class: "row", style: "margin-top:.6rem" }, drop, stop)));
  }

  const seats = el("div", { class: "panel" }, el("h3", {}, "The table"));
  view.seats.forEach((s, i) => {
    const row = el("div", { class: `seat ${i === me ? "me" : ""} ${i === view.to_act && !view.over ? "turn" : ""}`, style: "margin:.3rem 0", "data-seat": i });
    const tab = el("span", { class: "cards" });
    for (let k = 0; k < s.hand_size; k++) tab.append(cardSvg("", view.cards, { back: true, small: true }));
    if (s.hand_size) tab.append(el("span", { class: "muted" }, " + "));
    for (const c of s.tableau) tab.append(cardSvg(c, view.cards, { small: true }));
    row.append(el("div", { class: "row" }, el("strong", {}, seatName(ctx, i)), i === me ? "(you)" : "",
      s.active ? el("span", { class: "pill" }, "in the round") : el("span", { class: "pill" }, "stopped"),
      el("span", {}, `face up: ${s.tableau_value}`),
      s.certainly_over ? el("span", { class: "pill bad" }, "certainly over") : "",
      scoring(s.wins, view.wins_to_win)), tab);
    seats.append(row);
  });
  root.append(seats);

  if (view.rounds.length) {
    const idx = view.rounds.length - 1;
    const panel = reveal(view, ctx, idx);
    if (idx !== seenRounds) { panel.classList.add("fresh"); seenRounds = idx; }
    root.append(panel);
  }
}

document.addEventListener("keydown", (ev) => {
  if (!lastMsg || ev.target.tagName === "INPUT" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const legal = lastMsg.actions ? lastMsg.actions.map((a) => a.type) : [];
  const key = ev.key.toLowerCase();
  if (key === "d" && legal.includes("drop")) lastCtx.act({ type: "drop" });
  else if (key === "s" && legal.includes("stop")) lastCtx.act({ type: "stop" });
  else if (key === "p") { peeking = !peeking; render(document.getElementById("game"), lastMsg, lastCtx); }
});

export function describeEvent(e, names) {
  const n = (s) => names[s] || `seat ${s + 1}`;
  switch (e.kind) {
    case "dealt": return `round ${e.round}: cards dealt, ${n(e.start_seat)} starts`;
    case "hand": return `your hand: ${e.cards.join(", ")}`;
    case "dropped": return `${n(e.seat)} dropped ${e.card}`;
    case "stopped": return `${n(e.seat)} stopped`;
    case "revealed": return `round ${e.round}: ${e.winners.map(n).join(", ") || "nobody"} won (${e.totals.join(" / ")})`;
    case "reshuffled": return "the discard pile was reshuffled";
    case "game_over": return `game over: ${e.winners.map(n).join(", ")} won`;
    default: return null;
  }
}

export function resultDetails(msg) {
  const v = msg.view;
  return el("p", { class: "muted" }, `Round wins: ${v.seats.map((s) => s.wins).join(" / ")} after ${v.round} rounds.`);
}
