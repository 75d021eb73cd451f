// Arne's moments (issue 13, item 5): a card that lands in a display or on the discard pile
// flies there from the player who played it, the final round is announced, and the scoring
// at the end is counted display by display, stack by stack. Short animations (Web Animations
// API); with prefers-reduced-motion nothing moves, things only appear.
import { el, t } from "/static/common.js";
import { announce, playingUntil, reducedMotion } from "/static/moment.js";
import { cardFace, cardWords, parse } from "/static/games/arne-cards.js";

const FACE = { P50: 50, P100: 100, P200: 200, P500: 500, P1000: 1000 };

function stackKey(st) { return `${st.base}|${st.x3}|${st.crush}|${st.lock}|${st.chameleon}`; }

/** Who moved the card(s) of this update: the giver of a demanded card, the player of a black
 * card, else the player whose card was in play. */
function mover(prev, msg) {
  for (const e of [...(msg.events || [])].reverse()) {
    if (e.kind === "gave_point") return e.target;
    if (e.kind === "black" || e.kind === "declared") return e.player;
  }
  return prev.in_play ? prev.active : msg.view.active;
}

function fly(node, from) {
  if (!node || !from) return;
  const a = from.getBoundingClientRect();
  const b = node.getBoundingClientRect();
  if (!b.width) return;
  if (reducedMotion()) {
    playingUntil(node.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 250 }).finished);
    return;
  }
  const dx = a.left + a.width / 2 - (b.left + b.width / 2);
  const dy = a.top + a.height / 2 - (b.top + b.height / 2);
  const anim = node.animate([
    { transform: `translate(${dx}px, ${dy}px) scale(.7)`, opacity: 0.4 },
    { transform: "none", opacity: 1, offset: 0.8 },
    { transform: "scale(1.08)" },
    { transform: "none" },
  ], { duration: 520, easing: "ease-out" });
  playingUntil(anim.finished);
}

function pulse(node) {
  if (!node) return;
  const frames = reducedMotion() ? [{ opacity: 0.3 }, { opacity: 1 }] : [{ transform: "scale(1.25)" }, { transform: "none" }];
  playingUntil(node.animate(frames, { duration: 400, easing: "ease-out" }).finished);
}

/** After a redraw: animate what changed since `prev` (the view drawn before). */
export function animateMoves(root, prev, msg) {
  const view = msg.view;
  if (!prev || prev.game_no !== view.game_no) return;
  const who = mover(prev, msg);
  const from = who === msg.seat && root.querySelector("#hand") ? root.querySelector("#hand") : root.querySelector(`[data-player="${who}"]`);
  for (const d of view.displays) {
    const before = (prev.displays[d.display] || { stacks: [] }).stacks;
    d.stacks.forEach((st, i) => {
      const node = root.querySelector(`[data-display="${d.display}"] [data-stack="${i}"]`);
      if (!before[i] || before[i].base !== st.base) fly(node, from);
      else if (stackKey(before[i]) !== stackKey(st)) pulse(node);
    });
  }
  const grew = view.discard.length - prev.discard.length;
  if (grew > 0 && grew <= 3) fly(root.querySelector('[data-display="-1"] .cardface'), from);
}

/** The draw pile ran out: the final round is said on top of the page. */
export function announceFinal(prev, view, names) {
  if (!prev || prev.final_round || !view.final_round) return;
  announce(t("The draw pile is empty: final round. Each player may play one black card: {names}.", { names: view.final_round.map(names).join(", ") }), 3500);
}

/** What a stack adds to its display, in the words of the count ("+500", "×2", "crushed"). */
function stackPart(st) {
  const times = st.x3 ? 3 : 1;
  const type = parse(st.base).type;  // "red P500" -> P500
  if (type === "MINUS200") return st.lock ? { text: t("−200 locked: 0") } : { minus: 200 * times, text: `−${200 * times}` };
  if (st.crush && !st.lock) return { text: t("crushed: 0") };
  if (type === "X2") return { factor: 2 * times, text: `×${2 * times}` };
  const face = FACE[type] || 0;
  return { points: face * times, text: st.x3 ? `+${face}×3` : `+${face}` };
}

function displayRows(view, names, me) {
  return view.displays.map((d) => {
    const owner = d.owner_seat === null ? null : names(view.seats[d.owner_seat].player);
    const you = d.owner_seat !== null && view.seats[d.owner_seat].player === me;
    const steps = d.stacks.map((st) => ({ st, part: stackPart(st) }));
    const row = el("div", { class: "score-row", "data-score-display": d.display },
      el("strong", { class: "who" }, you ? t("Your display") : owner === null ? t("The dummy's display") : t("Display of {name}", { name: owner })),
      el("span", { class: "cards" }, steps.map(({ st, part }) => el("span", { class: "score-step" },
        cardFace(st.base, { width: 30, marks: st, label: cardWords(st.base) }), el("small", {}, part.text)))),
      el("span", { class: "running", "aria-hidden": "true" }, "0"),
      el("strong", { class: "score-total" }, `= ${d.score}`));
    return { row, steps, final: d.score };
  });
}

/** The scoring at the end of a game, counted step by step over the final displays.
 * Returns a promise that ends when the count is done (or skipped). */
export function playScoring(view, names, me, scores) {
  document.getElementById("announce")?.click();  // the count takes the stage (a click ends it)
  const rows = displayRows(view, names, me);
  const result = el("p", { class: "score-result" }, t("Scores: {scores}.", { scores: scores.map((s, p) => `${p === me ? t("you") : names(p)} ${s}`).join(", ") }));
  const skipBtn = el("button", { type: "button", id: "scoring-skip" }, t("Show all"));
  const box = el("div", { class: "panel scoring", id: "scoring", role: "dialog", "aria-labelledby": "scoring-h" },
    el("h2", { id: "scoring-h" }, view.over ? t("The final count") : t("The count of this game")),
    rows.map((r) => r.row), result, el("div", { class: "row" }, skipBtn, el("div", { "data-moment-slot": "" })));
  const overlay = el("div", { class: "overlay scoring-overlay", id: "scoring-overlay" }, box);
  document.body.append(overlay);
  const total = rows.reduce((n, r) => n + r.steps.length + 1, 0);
  const step = reducedMotion() ? 120 : Math.max(90, Math.min(320, 5000 / Math.max(1, total)));
  const timers = [];
  let at = 300;
  let finish = null;
  const over = new Promise((ok) => { finish = ok; });
  const shown = (node) => { node.classList.add("shown"); if (!reducedMotion()) node.animate([{ transform: "translateY(-6px)", opacity: 0 }, { transform: "none", opacity: 1 }], { duration: 200 }); };
  for (const r of rows) {
    let points = 0, factor = 1, minus = 0;
    const running = r.row.querySelector(".running");
    timers.push(setTimeout(() => r.row.classList.add("counting"), at));
    r.row.querySelectorAll(".score-step").forEach((node, i) => {
      const part = r.steps[i].part;
      points += part.points || 0; factor *= part.factor || 1; minus += part.minus || 0;
      const now = points * factor - minus;
      timers.push(setTimeout(() => { shown(node); running.textContent = String(now); }, at));
      at += step;
    });
    timers.push(setTimeout(() => { r.row.classList.remove("counting"); shown(r.row.querySelector(".score-total")); running.hidden = true; }, at));
    at += step * 2;
  }
  timers.push(setTimeout(() => shown(result), at));
  timers.push(setTimeout(finish, at + 1500));
  const skip = () => {  // everything at once, a moment to read it, then the results
    timers.forEach(clearTimeout);
    box.querySelectorAll(".score-step, .score-total, .score-result").forEach((n) => n.classList.add("shown"));
    box.querySelectorAll(".running").forEach((n) => { n.hidden = true; });
    skipBtn.disabled = true;
    setTimeout(finish, 1200);
  };
  skipBtn.addEventListener("click", skip);
  over.then(() => overlay.remove());
  skipBtn.focus();
  return playingUntil(over, skip);
}
