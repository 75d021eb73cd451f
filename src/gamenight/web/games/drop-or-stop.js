// Drop or Stop: your hidden hand (peek), everyone's face-up drops, DROP / STOP, the reveal.
import { el, svg, plural } from "/static/common.js";
import { coachPanel } from "/static/games/coach.js";
import { playingUntil, reducedMotion } from "/static/moment.js";

// How to play at this table (the rules themselves are the rules panel's, rules.js).
export const pageHelp = "Keys: `D` drop, `S` stop, `P` peek at your hand.";

let peeking = false;
let seenRounds = null;  // the last round drawn (null before the first message)
let momentBox = null;
let tableauSizes = [];
let lastCtx = null;
let lastMsg = null;

/** A card face: a number, or FLEX (1 or 5); `note` says how a FLEX counted. */
function cardSvg(id, cards, { back = false, small = false, note = "", fresh = false } = {}) {
  const w = small ? 36 : 54, h = small ? 51 : 76;
  const info = cards && cards[id];
  const flex = info && info.flex;
  const label = back ? "face-down card" : flex ? `FLEX card${note ? ` counted as ${note.replace("=", "")}` : ", counts 1 or 5"}` : `card ${info ? info.value : id}`;
  const face = svg("svg", { width: w, height: h, viewBox: "0 0 52 74", role: "img", "aria-label": label, class: `card-svg${fresh ? " flip" : ""}` });
  face.append(svg("title", {}, back ? "a hidden card" : flex ? "FLEX: counts 1 or 5, whichever is better for its owner" : `worth ${info ? info.value : id}`));
  face.append(svg("rect", { x: 1, y: 1, width: 50, height: 72, rx: 6, fill: back ? "#2f5fb3" : flex ? "#fff3c4" : "#fff", stroke: "#333", "stroke-width": 1.5 }));
  if (back) face.append(svg("path", { d: "M8 8h36v58H8z", fill: "none", stroke: "#fff", "stroke-width": 2, "stroke-dasharray": "4 3" }));
  else if (flex) {
    face.append(svg("text", { x: 26, y: 36, "font-size": 17, "text-anchor": "middle", "font-weight": 700 }, note ? note.replace("=", "") : "1|5"));
    face.append(svg("text", { x: 26, y: 58, "font-size": 11, "text-anchor": "middle", "font-weight": 700 }, "FLEX"));
  } else {
    face.append(svg("text", { x: 26, y: 47, "font-size": 28, "text-anchor": "middle", "font-weight": 700 }, String(info ? info.value : id)));
    face.append(svg("text", { x: 6, y: 14, "font-size": 10 }, String(info ? info.value : "")));
  }
  return face;
}

/** "41.2%", or "41.2 ±1.3%" for an estimate with its 95% margin. */
function odds(o) { return `${(100 * o.value).toFixed(1)}${o.margin ? ` ±${(100 * o.margin).toFixed(1)}` : ""}%`; }

/** The coach's numbers: the chance to win the round if you drop or stop (exact, or estimated). */
function coachOdds(advice) {
  const parts = advice.options.map((o) => el("span", { class: `odds${o.action.type === advice.best ? " best" : ""}`, "data-option": o.action.type },
    `${o.label}: ${odds(o)}`));
  return [...parts, el("span", { class: "muted" }, ` ${advice.measure} (${advice.how || "the hard bot's exact count"})`)];
}

/** The coach's review of one decision, in words (the replay page). */
export function reviewWords(advice, played) {
  return { played: played.type === "drop" ? "Drop" : "Stop",
    options: advice.options.map((o) => `${o.label}: ${odds(o)} to win the round`) };
}

function seatName(ctx, s) { return ctx.names[s] || `seat ${s + 1}`; }

function scoring(wins, need) {
  const box = el("span", { class: "scoring", title: `${wins} of ${need} scoring cards turned` });
  for (let i = 0; i < need; i++) box.append(el("span", { class: `pill ${i < wins ? "ok" : ""}` }, i < wins ? "★" : "☆"));
  return box;
}

/** A total over the target: the view says "OVERFLOW" (R17), older logs null. */
function over(t) { return typeof t !== "number"; }

/** One player's line of the reveal: hidden + face-up cards, the total, how FLEX counted. */
function revealRow(view, ctx, me, r, s) {
  const cards = el("span", { class: "cards" });
  let f = 0;
  const face = (c) => cardSvg(c, view.cards, { small: true, note: view.cards[c]?.flex ? `=${r.flex[s][f++] ?? "?"}` : "" });
  for (const c of r.hands[s]) cards.append(face(c));
  cards.append(el("span", { class: "muted" }, " + "));
  for (const c of r.tableaux[s]) cards.append(face(c));
  const t = r.totals[s];
  const flexText = r.flex[s].length ? `FLEX counted as ${r.flex[s].join(" and ")}` : "";
  const won = r.winners.includes(s);
  return el("div", { class: `reveal-row${won ? " winner" : ""}`, "data-reveal-seat": s },
    el("strong", { class: "who" }, s === me ? "You" : seatName(ctx, s)), cards,
    el("span", { class: "total" }, el("strong", {}, over(t) ? `OVERFLOW (over ${view.target})` : `= ${t}`),
      flexText ? el("span", { class: "muted" }, ` (${flexText})`) : "",
      won ? el("span", { class: "pill ok" }, "wins the round") : ""));
}

/** The round's moment, said where the eye is (above your buttons): who won and why, how FLEX
 * counted, then every player's cards turned over one after the other. */
function moment(view, ctx, me) {
  const r = view.rounds[view.rounds.length - 1];
  // "You" starts a sentence, "you" sits inside one ("Bot 2 and you win", "Ann had 6, you had 8")
  const n = (s, i) => (s === me ? (i === 0 ? "You" : "you") : seatName(ctx, s));
  const best = r.winners.length ? r.totals[r.winners[0]] : null;
  const who = r.winners.length ? `${r.winners.map(n).join(" and ")} ${r.winners.length > 1 || r.winners[0] === me ? "win" : "wins"} round ${r.round} with ${best}` : `Nobody wins round ${r.round}: everyone went over ${view.target}`;
  const losers = r.totals.map((t, s) => [t, s]).filter(([, s]) => !r.winners.includes(s));
  const others = losers.map(([t, s], i) => `${n(s, i)} ${over(t) ? `went over ${view.target}` : `had ${t}`}`);
  const flexed = r.flex.map((f, s) => [f, s]).filter(([f]) => f.length);
  const flex = flexed.map(([f, s], i) => `${s === me ? (i === 0 ? "Your" : "your") : `${seatName(ctx, s)}'s`} FLEX counted as ${f.join(" and ")}`);
  return el("div", { class: "moment", id: "moment", role: "status", "data-round": r.round },
    el("strong", {}, `${who}.`), others.length ? ` ${others.join(", ")}.` : "", flex.length ? ` ${flex.join("; ")}.` : "",
    el("div", { "data-moment-slot": "" }),  // Continue, next to the words (a phone's hand bar covers the end)
    el("div", { class: "reveal", id: "reveal", "aria-label": `round ${r.round}: all hands shown` }, r.totals.map((_, s) => revealRow(view, ctx, me, r, s))));
}

/** The reveal played step by step: each player's hidden cards turn over, then their total. */
function playReveal(box) {
  const still = reducedMotion();
  if (!still) box.animate([{ transform: "scale(.96)", opacity: 0.6 }, { transform: "none", opacity: 1 }], { duration: 300, easing: "ease-out" });
  const steps = [];
  [...box.querySelectorAll(".reveal-row")].forEach((row, i) => {
    const at = 250 + i * (still ? 350 : 550);
    [...row.querySelectorAll("svg")].forEach((card, k) => {
      const frames = still ? [{ opacity: 0 }, { opacity: 1 }] : [{ transform: "rotateY(90deg)", opacity: 0.3 }, { transform: "none", opacity: 1 }];
      steps.push(card.animate(frames, { duration: still ? 120 : 320, delay: at + k * 70, fill: "backwards", easing: "ease-out" }).finished);
    });
    const total = row.querySelector(".total");
    steps.push(total.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 200, delay: at + 300, fill: "backwards" }).finished);
    if (row.classList.contains("winner")) {
      const end = 250 + box.querySelectorAll(".reveal-row").length * (still ? 350 : 550);
      steps.push(row.animate([{ backgroundColor: "#fff" }, { backgroundColor: "#c9f0d6" }, { backgroundColor: "#eefaf2" }], { duration: 600, delay: end, fill: "backwards" }).finished);
    }
  });
  return Promise.all(steps.map((p) => p.catch(() => undefined)));
}

export function render(root, msg, ctx) {
  lastCtx = ctx; lastMsg = msg;
  const view = msg.view;
  const me = msg.seat;
  const legal = msg.actions ? msg.actions.map((a) => a.type) : [];
  const parts = [];
  const turnText = view.over ? "game over" : view.to_act === me ? "Your turn: drop or stop?" : `${seatName(ctx, view.to_act)} is deciding…`;
  parts.push(el("div", { class: "panel dos-head" },
    el("div", { class: "row" }, el("strong", {}, `Round ${view.round}`),
      el("span", {}, `best total up to ${view.target} wins the round`),
      el("span", {}, `${plural(view.wins_to_win, "round win")} to win the game`),
      el("span", { class: "muted" }, `${plural(view.draw_pile_size, "card")} to draw`)),
    el("div", { class: "now", id: "who-acts" }, turnText)));
  // The reveal is drawn once per round and kept across redraws, so its animation plays once;
  // it plays when the round ends before your eyes (or the server holds the table for it).
  const round = view.rounds.length - 1;
  if (round >= 0) {
    const drawnFor = momentBox && momentBox.dataset.seat !== String(me);  // the seat moved devices
    if (!momentBox || momentBox.dataset.round !== String(view.rounds[round].round) || round !== seenRounds || drawnFor) {
      const again = drawnFor && momentBox.dataset.round === String(view.rounds[round].round);
      momentBox = moment(view, ctx, me);
      momentBox.dataset.seat = String(me);
      if (!again && (seenRounds !== null || msg.moment)) playingUntil(playReveal(momentBox));
    }
    parts.push(momentBox);
  }
  if (me !== null && me !== undefined) {
    const hand = el("div", { class: "cards", id: "hand" });
    for (const c of view.hand || []) hand.append(cardSvg(c, view.cards, { back: !peeking }));
    const peek = el("button", { type: "button", id: "peek", "aria-pressed": String(peeking),
      onclick: () => { peeking = !peeking; render(root, lastMsg, lastCtx); } }, peeking ? "Hide" : "Peek");
    const total = peeking ? el("span", { id: "own-total" }, `your total: ${view.own_total}`) : el("span", { class: "muted" }, "peek to see your total");
    // On your turn a choice the rules do not offer stays clickable and says why (the
    // server answers with the rules' own reason, R12a/R14); off your turn both rest.
    const choice = (kind, cls, text) => {
      const why = legal.length > 0 && !legal.includes(kind);
      return el("button", { type: "button", id: kind, class: `${cls}${why ? " unavailable" : ""}`, disabled: legal.length === 0,
        "aria-disabled": why ? "true" : false, title: why ? "not possible now: click to see why" : false,
        onclick: () => ctx.act({ type: kind }) }, text);
    };
    const drop = choice("drop", "primary big", "DROP");
    const stop = choice("stop", "big", "STOP");
    parts.push(el("div", { class: `panel${legal.length ? " handbar asked" : ""}`, id: "my-hand", "data-focus-home": "" }, el("h3", {}, "Your hidden cards"), el("div", { class: "row" }, hand, peek, total),
      el("div", { class: "row spaced" }, drop, stop), coachPanel(msg, ctx, () => render(root, lastMsg, lastCtx), coachOdds, " shows the odds on your turn")));
  }

  const seats = el("div", { class: "panel" }, el("h3", {}, "The table"));
  const fresh_cards = new Set();
  view.seats.forEach((st, i) => { if (st.tableau.length > (tableauSizes[i] ?? st.tableau.length)) fresh_cards.add(st.tableau[st.tableau.length - 1]); });
  tableauSizes = view.seats.map((st) => st.tableau.length);
  view.seats.forEach((s, i) => {
    const row = el("div", { class: `seat ${i === me ? "me" : ""} ${i === view.to_act && !view.over ? "turn" : ""}`, style: "margin:.3rem 0", "data-seat": i });
    const tab = el("span", { class: "cards" });
    for (let k = 0; k < s.hand_size; k++) tab.append(cardSvg("", view.cards, { back: true, small: true }));
    if (s.hand_size) tab.append(el("span", { class: "muted" }, " + "));
    for (const c of s.tableau) tab.append(cardSvg(c, view.cards, { small: true, fresh: fresh_cards.has(c) }));
    row.append(el("div", { class: "row" }, el("strong", {}, seatName(ctx, i)), i === me ? "(you)" : "",
      s.active ? el("span", { class: "pill" }, "in the round") : el("span", { class: "pill" }, "stopped"),
      el("span", {}, `face up: ${s.tableau_value}`),
      s.certainly_over ? el("span", { class: "pill bad" }, "certainly over") : "",
      scoring(s.wins, view.wins_to_win)), tab);
    seats.append(row);
  });
  parts.push(seats);
  seenRounds = round;
  // Your hand goes right under the header on a phone: the buttons stay in reach.
  root.replaceChildren(...parts);
}

document.addEventListener("keydown", (ev) => {
  if (!lastMsg || ev.target.tagName === "INPUT" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const legal = lastMsg.actions ? lastMsg.actions.map((a) => a.type) : [];
  const key = ev.key.toLowerCase();
  if (key === "d" && legal.includes("drop")) lastCtx.act({ type: "drop" });
  else if (key === "s" && legal.includes("stop")) lastCtx.act({ type: "stop" });
  else if (key === "p") { peeking = !peeking; render(document.getElementById("game"), lastMsg, lastCtx); }
});

export function describeEvent(e, names, view) {
  const n = (s) => names[s] || `seat ${s + 1}`;
  const card = (id) => { const c = view && view.cards && view.cards[id]; return c ? (c.flex ? "a FLEX" : `a ${c.value}`) : id; };
  switch (e.kind) {
    case "dealt": return `Round ${e.round}: two hidden cards each; ${n(e.start_seat)} starts.`;
    case "hand": return null;
    case "dropped": return `${n(e.seat)} drops ${card(e.card)}.`;
    case "stopped": return `${n(e.seat)} stops.`;
    case "revealed": {  // each total with its player's name, in seat order
      const totals = e.totals.map((t, s) => `${n(s)} ${over(t) ? `over${view && view.target ? ` ${view.target}` : ""}` : t}`);
      return `Round ${e.round}: ${e.winners.map(n).join(" and ") || "nobody"} ${e.winners.length === 1 ? "wins" : "win"} (${totals.join(", ")}).`;
    }
    case "reshuffled": return "The discard pile is shuffled into a new draw pile.";
    case "game_over": return `Game over: ${e.winners.map(n).join(" and ")} ${e.winners.length === 1 ? "wins" : "win"}.`;
    default: return null;
  }
}

/** Under the results table: every player's round wins by name (seat order). */
export function resultDetails(msg, names = []) {
  const v = msg.view;
  const wins = v.seats.map((s, i) => `${names[i] || `seat ${i + 1}`} ${s.wins}`).join(", ");
  return el("p", { class: "muted", id: "round-wins" }, `Round wins: ${wins} after ${plural(v.round, "round")}.`);
}

/** Cards of a hand as small faces (the replay's "reveal all hands"). */
export function handFaces(hand, view) { return el("span", { class: "cards" }, hand.map((c) => cardSvg(c, view.cards, { small: true }))); }
