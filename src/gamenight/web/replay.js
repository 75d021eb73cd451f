// The replay: a finished game step by step, told in the table log's sentences, with a move
// list, passes skipped on request, and every hand revealed (a finished game hides nothing).
import { api, el, $, toast, initLanguage, seatWords, t, tn } from "/static/common.js";
import { reducedMotion } from "/static/moment.js";
import { showReplayChat } from "/static/replay-chat.js";

const tableId = location.pathname.split("/")[2];
let data = null, events = null, module = null, step = 0, timer = null, info = null;
let everyone = null;  // every seat's replay, for "reveal all hands"
$("#back").href = `/tables/${tableId}`;
showReplayChat(tableId);

const ctx = {
  tableId,
  get names() { return info.seats.map(seatWords); },
  act() {}, send() {},
};

function isPass(i) { return i > 0 && data.steps[i - 1].action && data.steps[i - 1].action.type === "pass"; }

/** The sentences of step i (what its action made happen). */
function sentences(i) {
  const list = [];
  for (const e of (events && events[i]) || []) {
    const line = module.describeEvent ? module.describeEvent(e, ctx.names, data.views[i]) : null;
    if (line) list.push(typeof line === "object" && !(line instanceof Node) ? line.text : line);
  }
  if (!list.length && i > 0) list.push(`${ctx.names[data.steps[i - 1].seat]}: ${data.steps[i - 1].action.type.replace(/_/g, " ")}`);
  return list;
}

function drawMoves() {
  const skip = $("#skip-passes").checked;
  const items = [];
  for (let i = 0; i <= data.steps.length; i++) {
    if (skip && isPass(i)) continue;
    const text = i === 0 ? t("The start.") : sentences(i).join(" ");
    items.push(el("li", { "data-step": i, class: i === step ? "current" : "" },
      el("button", { type: "button", class: "linkish", "aria-current": i === step ? "step" : false, onclick: () => { go(i); boardInView(); } }, `${i}. ${text}`)));
  }
  $("#moves").replaceChildren(...items);
  const cur = $("#moves .current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

function drawHands() {
  const box = $("#hands");
  if (!$("#reveal-all").checked || !everyone) { $("#hands-panel").hidden = true; return; }
  $("#hands-panel").hidden = false;
  box.replaceChildren(...everyone.map((r, s) => {
    const hand = (r.views[step] && r.views[step].hand) || [];
    const faces = module.handFaces ? module.handFaces(hand, r.views[step]) : hand.join(", ");
    return el("div", { class: "row hand-row" }, el("strong", {}, ctx.names[s]), hand.length ? faces : el("span", { class: "muted" }, t("no cards")));
  }));
}

function show() {
  const view = data.views[step];
  $("#slider").value = step;
  $("#step-text").textContent = t("step {step} of {total}", { step, total: data.steps.length });
  $("#step-action").textContent = step === 0 ? t("The start.") : sentences(step).join(" ");
  document.body.dataset.step = step;
  module.render($("#game"), {
    type: "state", version: step, seat: data.seat, view, actions: [], asked: false,
    table: { ...info, status: "replay" }, deadline: null,
  }, ctx);
  drawMoves();
  drawHands();
}

async function load(seat) {
  try {
    const q = seat === "" ? "" : `?seat=${seat}`;
    [data, events] = await Promise.all([api(`/api/tables/${tableId}/replay${q}`),
      api(`/api/tables/${tableId}/replay/events${q}`).then((r) => r.events).catch(() => null)]);
  } catch (e) { $("#game").textContent = e.message; toast(e.message, "error"); return; }
  $("#slider").max = data.steps.length;
  step = Math.min(step, data.steps.length);
  show();
}

function go(n) { step = Math.max(0, Math.min(data.steps.length, n)); show(); }

/** After a click in a list below the board (a phone's one column), bring the step's
 * sentence and the board into sight: a click changed it out of view and seemed to do nothing. */
function boardInView() {
  const top = $("#step-action").getBoundingClientRect().top;
  if (top < 0 || top > window.innerHeight * 0.5) $("#step-action").scrollIntoView({ block: "start", behavior: reducedMotion() ? "auto" : "smooth" });
}

/** One step forward or back; with "skip passes" on, steps that are only a pass are skipped. */
function move(dir) {
  let n = step + dir;
  if ($("#skip-passes").checked) while (n > 0 && n < data.steps.length && isPass(n)) n += dir;
  go(n);
}

async function revealAll() {
  if (!$("#reveal-all").checked || everyone) { drawHands(); return; }
  try { everyone = await Promise.all(info.seats.map((s) => api(`/api/tables/${tableId}/replay?seat=${s.seat}`))); }
  catch (e) { toast(e.message, "error"); $("#reveal-all").checked = false; }
  drawHands();
}

// The coach's review: asked for one seat, computed in the server's worker pool decision by
// decision; the page polls its progress and lists each decision with the coach's view.
let review = null, reviewSeat = null, reviewTimer = null;

function reviewUrl(seat) { return `/api/tables/${tableId}/coach/review${seat === "" ? "" : `?seat=${seat}`}`; }

/** The option the coach valued most (the server's `best`; reviews kept from before it: the first). */
function bestOf(item) { return Number.isInteger(item.best) ? item.best : 0; }

/** "✓ the coach's choice", or where the played move stands by the coach's own numbers
 * (`rank`: how many options it valued higher) and the one it valued most. */
function verdict(item, words) {
  if (item.rank === 0) return `✓ ${t("the coach's choice")}`;
  const best = words.options[bestOf(item)] || "";
  return item.rank === null ? t("the coach preferred {best}", { best }) : t("the coach's #{rank}; it preferred {best}", { rank: item.rank + 1, best });
}

function drawReview() {
  const bar = $("#review-progress"), text = $("#review-text");
  bar.hidden = !review || review.finished;
  if (!review) return;
  bar.max = Math.max(1, review.total); bar.value = review.done;
  text.textContent = review.error || (review.finished
    ? tn("{n} decision reviewed; the coach's choice in {agreed}.", "{n} decisions reviewed; the coach's choice in {agreed}.", review.steps.length, { agreed: review.steps.filter((x) => x.rank === 0).length })
    : t("reviewing… {done} of {total} decisions", { done: review.done, total: review.total }));
  if (!module.reviewWords) return;
  $("#review").replaceChildren(...review.steps.map((item) => {
    const words = module.reviewWords(item.advice, item.played, (data.views[item.step] || data.views[0]), ctx.names);
    return el("li", { "data-step": item.step, class: item.rank === 0 ? "agree" : "differ" },
      el("button", { type: "button", class: "linkish", onclick: () => showReviewed(item) },
        `${item.step + 1}. ${words.played} — ${verdict(item, words)}`));
  }));
}

async function showReviewed(item) {
  if (String(data.seat ?? "") !== String(reviewSeat)) { $("#seat").value = String(reviewSeat); await load(String(reviewSeat)); }
  // The position after the move, as the move list and the slider number it (lichess too):
  // "Step 11: played Drop" beside "step 10 of 18" read as a mistake.
  go(item.step + 1);
  const words = module.reviewWords(item.advice, item.played, data.views[item.step], ctx.names);
  // Unnumbered: the coach's options in its own order (Drop or Stop: Drop, Stop), the one it
  // valued most marked; numbers would read as ranks.
  const list = el("ul", { class: "coach-plays" }, words.options.map((w, i) => el("li", { class: `odds${i === bestOf(item) ? " best" : ""}` }, w)));
  $("#review-detail").replaceChildren(el("span", {}, el("strong", {}, t("Step {number}: played {played}.", { number: item.step + 1, played: words.played })), ` ${t("The coach's view:")}`), list);
  $("#review-detail").hidden = false;
  boardInView();
}

async function pollReview() {
  try { review = await api(reviewUrl(reviewSeat === null ? "" : reviewSeat)); }
  catch (e) { $("#review-text").textContent = e.message; return; }
  drawReview();
  if (!review.finished) reviewTimer = setTimeout(pollReview, 400);
}

async function startReview() {
  clearTimeout(reviewTimer);
  const chosen = $("#review-seat").value;
  try { review = await api(reviewUrl(chosen), {}); }
  catch (e) { $("#review-text").textContent = e.message; return; }
  reviewSeat = review.seat;
  $("#review-detail").hidden = true;
  drawReview();
  if (!review.finished) reviewTimer = setTimeout(pollReview, 400);
}

async function main() {
  await initLanguage();  // the page's language first: everything below is drawn in it
  info = await api(`/api/tables/${tableId}`);
  $("#title").textContent = t("{game} — replay", { game: info.title || info.game });
  for (const s of info.seats) {
    $("#seat").append(el("option", { value: s.seat }, seatWords(s)));
    $("#review-seat").append(el("option", { value: s.seat }, seatWords(s)));
  }
  // One list of seats for both: a player's own is chosen at the start ("mine" beside their
  // own name was the same seat twice; their replay opened as a spectator's, hands hidden).
  const mine = info.you === null || info.you === undefined ? null : String(info.you);
  if (mine !== null) { $("#seat").value = mine; $("#review-seat").value = mine; }
  module = await import(`/static/games/${info.game}.js`);
  if (module.init) await module.init($("#game"), info, ctx);
  $("#first").addEventListener("click", () => go(0));
  $("#prev").addEventListener("click", () => move(-1));
  $("#next").addEventListener("click", () => move(1));
  $("#last").addEventListener("click", () => go(data.steps.length));
  $("#slider").addEventListener("input", (e) => go(Number(e.target.value)));
  $("#seat").addEventListener("change", (e) => load(e.target.value));
  $("#skip-passes").addEventListener("change", drawMoves);
  $("#reveal-all").addEventListener("change", revealAll);
  $("#review-start").addEventListener("click", startReview);
  $("#play").addEventListener("click", () => {
    if (timer) { clearInterval(timer); timer = null; $("#play").textContent = t("Play"); return; }
    $("#play").textContent = t("Pause");
    timer = setInterval(() => { if (step >= data.steps.length) { clearInterval(timer); timer = null; $("#play").textContent = t("Play"); } else move(1); }, 700);
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT") return;
    if (ev.key === "ArrowRight") move(1);
    else if (ev.key === "ArrowLeft") move(-1);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(data.steps.length);
  });
  await load(mine ?? "");
}

main();
