// Drop or Stop: your hidden hand (peek), everyone's face-up drops, DROP / STOP, the reveal.
import { el, fixed, svg, t, tn } from "/static/common.js";
import { coachPanel } from "/static/games/coach.js";
import { playingUntil, reducedMotion } from "/static/moment.js";

// How to play at this table (the rules themselves are the rules panel's, rules.js).
export const pageHelp = t("Keys: `D` drop, `S` stop, `P` peek at your hand.");

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
  const label = back ? t("face-down card") : flex ? (note ? t("FLEX card counted as {value}", { value: note.replace("=", "") }) : t("FLEX card, counts 1 or 5")) : t("card {value}", { value: info ? info.value : id });
  const face = svg("svg", { width: w, height: h, viewBox: "0 0 52 74", role: "img", "aria-label": label, class: `card-svg${fresh ? " flip" : ""}` });
  face.append(svg("title", {}, back ? t("a hidden card") : flex ? t("FLEX: counts 1 or 5, whichever is better for its owner") : t("worth {value}", { value: info ? info.value : id })));
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
function odds(o) { return `${fixed(100 * o.value, 1)}${o.margin ? ` ±${fixed(100 * o.margin, 1)}` : ""}%`; }

/** The coach's numbers: the chance to win the round if you drop or stop (exact, or estimated). */
function coachOdds(advice) {
  const parts = advice.options.map((o) => el("span", { class: `odds${o.action.type === advice.best ? " best" : ""}`, "data-option": o.action.type },
    `${o.label}: ${odds(o)}`));
  return [...parts, el("span", { class: "muted" }, ` ${advice.measure} (${advice.how || t("the hard bot's exact count")})`)];
}

/** The coach's review of one decision, in words (the replay page). */
export function reviewWords(advice, played) {
  return { played: played.type === "drop" ? t("Drop") : t("Stop"),
    options: advice.options.map((o) => t("{option}: {odds} to win the round", { option: o.label, odds: odds(o) })) };
}

function seatName(ctx, s) { return ctx.names[s] || t("seat {seat}", { seat: s + 1 }); }

function scoring(wins, need) {
  const box = el("span", { class: "scoring", title: tn("{wins} of {n} scoring card turned", "{wins} of {n} scoring cards turned", need, { wins }) });
  for (let i = 0; i < need; i++) box.append(el("span", { class: `pill ${i < wins ? "ok" : ""}` }, i < wins ? "★" : "☆"));
  return box;
}

/** A total over the target: the view says "OVERFLOW" (R17), older logs null. */
function over(total) { return typeof total !== "number"; }

/** One player's line of the reveal: hidden + face-up cards, the total, how FLEX counted. */
function revealRow(view, ctx, me, r, s) {
  const cards = el("span", { class: "cards" });
  let f = 0;
  const face = (c) => cardSvg(c, view.cards, { small: true, note: view.cards[c]?.flex ? `=${r.flex[s][f++] ?? "?"}` : "" });
  for (const c of r.hands[s]) cards.append(face(c));
  cards.append(el("span", { class: "muted" }, " + "));
  for (const c of r.tableaux[s]) cards.append(face(c));
  const total = r.totals[s];
  const flexText = r.flex[s].length ? t("FLEX counted as {values}", { values: r.flex[s].join(t(" and ")) }) : "";
  const won = r.winners.includes(s);
  return el("div", { class: `reveal-row${won ? " winner" : ""}`, "data-reveal-seat": s },
    el("strong", { class: "who" }, s === me ? t("You") : seatName(ctx, s)), cards,
    el("span", { class: "total" }, el("strong", {}, over(total) ? t("OVERFLOW (over {target})", { target: view.target }) : `= ${total}`),
      flexText ? el("span", { class: "muted" }, ` (${flexText})`) : "",
      won ? el("span", { class: "pill ok" }, t("wins the round")) : ""));
}

/** The round's moment, said where the eye is (above your buttons): who won and why, how FLEX
 * counted, then every player's cards turned over one after the other. */
function moment(view, ctx, me) {
  const r = view.rounds[view.rounds.length - 1];
  // "You" starts a sentence, "you" sits inside one ("Bot 2 and you win", "Ann had 6, you had 8")
  const n = (s, i) => (s === me ? (i === 0 ? t("You") : t("you")) : seatName(ctx, s));
  const best = r.winners.length ? r.totals[r.winners[0]] : null;
  const many = r.winners.length > 1 || r.winners[0] === me;  // "you win", "Ann and Bob win"
  const won = { names: r.winners.map(n).join(t(" and ")), round: r.round, total: best };
  const who = r.winners.length
    ? (r.winners.length === 1 && r.winners[0] === me ? t("You win round {round} with {total}", won)
      : many ? t("{names} win round {round} with {total}", won) : t("{names} wins round {round} with {total}", won))
    : t("Nobody wins round {round}: everyone went over {target}", { round: r.round, target: view.target });
  const losers = r.totals.map((total, s) => [total, s]).filter(([, s]) => !r.winners.includes(s));
  const others = losers.map(([total, s], i) => (over(total) ? t("{name} went over {target}", { name: n(s, i), target: view.target }) : t("{name} had {total}", { name: n(s, i), total })));
  const flexed = r.flex.map((f, s) => [f, s]).filter(([f]) => f.length);
  const flex = flexed.map(([f, s], i) => {
    const values = f.join(t(" and "));
    if (s !== me) return t("{name}'s FLEX counted as {values}", { name: seatName(ctx, s), values });
    return i === 0 ? t("Your FLEX counted as {values}", { values }) : t("your FLEX counted as {values}", { values });
  });
  return el("div", { class: "moment", id: "moment", role: "status", "data-round": r.round },
    el("strong", {}, `${who}.`), others.length ? ` ${others.join(", ")}.` : "", flex.length ? ` ${flex.join("; ")}.` : "",
    el("div", { "data-moment-slot": "" }),  // Continue, next to the words (a phone's hand bar covers the end)
    el("div", { class: "reveal", id: "reveal", "aria-label": t("round {round}: all hands shown", { round: r.round }) }, r.totals.map((_, s) => revealRow(view, ctx, me, r, s))));
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
  const turnText = view.over ? t("game over") : view.to_act === me ? t("Your turn: drop or stop?") : t("{name} is deciding…", { name: seatName(ctx, view.to_act) });
  parts.push(el("div", { class: "panel dos-head" },
    el("div", { class: "row" }, el("strong", {}, t("Round {round}", { round: view.round })),
      el("span", {}, t("best total up to {target} wins the round", { target: view.target })),
      el("span", {}, tn("{n} round win to win the game", "{n} round wins to win the game", view.wins_to_win)),
      el("span", { class: "muted" }, tn("{n} card to draw", "{n} cards to draw", view.draw_pile_size))),
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
      onclick: () => { peeking = !peeking; render(root, lastMsg, lastCtx); } }, peeking ? t("Hide") : t("Peek"));
    const total = peeking ? el("span", { id: "own-total" }, t("your total: {total}", { total: view.own_total })) : el("span", { class: "muted" }, t("peek to see your total"));
    // On your turn a choice the rules do not offer stays clickable and says why (the
    // server answers with the rules' own reason, R12a/R14); off your turn both rest.
    const choice = (kind, cls, text) => {
      const why = legal.length > 0 && !legal.includes(kind);
      return el("button", { type: "button", id: kind, class: `${cls}${why ? " unavailable" : ""}`, disabled: legal.length === 0,
        "aria-disabled": why ? "true" : false, title: why ? t("not possible now: click to see why") : false,
        onclick: () => ctx.act({ type: kind }) }, text);
    };
    const drop = choice("drop", "primary big", "DROP");
    const stop = choice("stop", "big", "STOP");
    parts.push(el("div", { class: `panel${legal.length ? " handbar asked" : ""}`, id: "my-hand", "data-focus-home": "" }, el("h3", {}, t("Your hidden cards")), el("div", { class: "row" }, hand, peek, total),
      el("div", { class: "row spaced" }, drop, stop), coachPanel(msg, ctx, () => render(root, lastMsg, lastCtx), coachOdds, ` ${t("shows the odds on your turn")}`)));
  }

  const seats = el("div", { class: "panel" }, el("h3", {}, t("The table")));
  const fresh_cards = new Set();
  view.seats.forEach((st, i) => { if (st.tableau.length > (tableauSizes[i] ?? st.tableau.length)) fresh_cards.add(st.tableau[st.tableau.length - 1]); });
  tableauSizes = view.seats.map((st) => st.tableau.length);
  view.seats.forEach((s, i) => {
    const row = el("div", { class: `seat ${i === me ? "me" : ""} ${i === view.to_act && !view.over ? "turn" : ""}`, style: "margin:.3rem 0", "data-seat": i });
    const tab = el("span", { class: "cards" });
    for (let k = 0; k < s.hand_size; k++) tab.append(cardSvg("", view.cards, { back: true, small: true }));
    if (s.hand_size) tab.append(el("span", { class: "muted" }, " + "));
    for (const c of s.tableau) tab.append(cardSvg(c, view.cards, { small: true, fresh: fresh_cards.has(c) }));
    row.append(el("div", { class: "row" }, el("strong", {}, seatName(ctx, i)), i === me ? t("(you)") : "",
      s.active ? el("span", { class: "pill" }, t("in the round")) : el("span", { class: "pill" }, t("stopped")),
      el("span", {}, t("face up: {value}", { value: s.tableau_value })),
      s.certainly_over ? el("span", { class: "pill bad" }, t("certainly over")) : "",
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
  const n = (s) => names[s] || t("seat {seat}", { seat: s + 1 });
  const and = t(" and ");
  const card = (id) => { const c = view && view.cards && view.cards[id]; return c ? (c.flex ? t("a FLEX") : t("a {value}", { value: c.value })) : id; };
  switch (e.kind) {
    case "dealt": return t("Round {round}: two hidden cards each; {name} starts.", { round: e.round, name: n(e.start_seat) });
    case "hand": return null;
    case "dropped": return t("{name} drops {card}.", { name: n(e.seat), card: card(e.card) });
    case "stopped": return t("{name} stops.", { name: n(e.seat) });
    case "revealed": {  // each total with its player's name, in seat order
      const totals = e.totals.map((total, s) => (over(total) ? (view && view.target ? t("{name} over {target}", { name: n(s), target: view.target }) : t("{name} over", { name: n(s) })) : `${n(s)} ${total}`));
      if (!e.winners.length) return t("Round {round}: nobody wins ({totals}).", { round: e.round, totals: totals.join(", ") });
      return tn("Round {round}: {names} wins ({totals}).", "Round {round}: {names} win ({totals}).", e.winners.length, { round: e.round, names: e.winners.map(n).join(and), totals: totals.join(", ") });
    }
    case "reshuffled": return t("The discard pile is shuffled into a new draw pile.");
    case "game_over": return tn("Game over: {names} wins.", "Game over: {names} win.", e.winners.length, { names: e.winners.map(n).join(and) });
    default: return null;
  }
}

/** Under the results table: every player's round wins by name (seat order). */
export function resultDetails(msg, names = []) {
  const v = msg.view;
  const wins = v.seats.map((s, i) => `${names[i] || t("seat {seat}", { seat: i + 1 })} ${s.wins}`).join(", ");
  return el("p", { class: "muted", id: "round-wins" }, tn("Round wins: {wins} after {n} round.", "Round wins: {wins} after {n} rounds.", v.round, { wins }));
}

/** Cards of a hand as small faces (the replay's "reveal all hands"). */
export function handFaces(hand, view) { return el("span", { class: "cards" }, hand.map((c) => cardSvg(c, view.cards, { small: true }))); }
