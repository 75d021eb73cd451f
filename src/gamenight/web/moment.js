// The round's moment (issue 13, item 5): while the server holds the table for a moment
// (a Drop or Stop reveal, Arne's scoring) its state message carries
// `moment: {version, seconds}`. The page says "seen" once the person has seen it: the game's
// animation finished while the tab was visible, or they pressed Continue (button or `C`).
// Sending "seen" only when the server asked for it keeps an older server quiet.
import { el, t } from "/static/common.js";

let send = null;
let handled = null;     // the moment version we are showing or have answered
let answered = null;    // the moment version we said "seen" for
let countdown = null;
let bar = null;         // the Continue bar, kept across redraws of the game's page
const playing = new Set();  // animations under way (promises from the game's page)
const skippers = new Set(); // how to end each of them at once (Continue)

/** The game's page says an animation is under way; seen waits for it. `skip` ends it now. */
export function playingUntil(promise, skip = null) {
  const p = Promise.resolve(promise).catch(() => undefined);
  playing.add(p);
  if (skip) skippers.add(skip);
  p.then(() => { playing.delete(p); if (skip) skippers.delete(skip); });
  return p;
}

/** Ends every animation under way (the person pressed Continue). */
export function skipAll() { for (const skip of [...skippers]) skip(); }

/** A short announcement on top of the page, where the eye is whatever was scrolled. */
export function announce(text, ms = 3000) {
  document.getElementById("announce")?.click();  // ends the one before (and its wait)
  const box = el("div", { id: "announce", class: "announce", role: "status" }, text);
  document.body.append(box);
  if (!reducedMotion()) box.animate([{ transform: "translate(-50%, -1rem)", opacity: 0 }, { transform: "translate(-50%, 0)", opacity: 1 }], { duration: 300, easing: "ease-out" });
  let done = null;
  const over = new Promise((ok) => { done = ok; });
  const timer = setTimeout(done, ms);
  box.addEventListener("click", done);
  over.then(() => { clearTimeout(timer); box.remove(); });
  return playingUntil(over, done);
}

/** Resolves once every animation under way has finished. */
export async function settled() {
  while (playing.size) await Promise.all([...playing]);
}

/** True when the person asked to skip animations (they then end at once). */
export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function visible() {
  if (document.visibilityState === "visible") return Promise.resolve();
  return new Promise((ok) => {
    const on = () => { if (document.visibilityState === "visible") { document.removeEventListener("visibilitychange", on); ok(); } };
    document.addEventListener("visibilitychange", on);
  });
}

function say(version, skip = false) {
  if (skip) skipAll();
  if (answered === version || !send) return;
  answered = version;
  document.body.dataset.seen = String(version);
  send({ type: "seen", version });
  drawButton(null);
}

/** The bar goes where the game's page announces the moment (`[data-moment-slot]`), else on top. */
function place() {
  if (!bar) return;
  const slot = document.querySelector("[data-moment-slot]");
  if (slot) { if (bar.parentNode !== slot) slot.append(bar); bar.classList.remove("floating"); }
  else if (bar.parentNode !== document.body) { document.body.append(bar); bar.classList.add("floating"); }
}

function drawButton(m) {
  clearInterval(countdown);
  if (!m) { if (bar) bar.remove(); bar = null; return; }
  bar = bar || el("div", { id: "continue-bar", class: "continue-bar" });
  const left = el("span", { class: "muted", id: "continue-left" });
  const ends = Date.now() + 1000 * Math.max(0, m.seconds || 0);
  const tick = () => { left.textContent = m.seconds ? t("next in {seconds} s", { seconds: Math.max(0, Math.ceil((ends - Date.now()) / 1000)) }) : ""; };
  tick();
  countdown = setInterval(tick, 250);
  bar.replaceChildren(left,
    el("button", { type: "button", class: "primary", id: "continue", onclick: () => say(m.version, true) }, t("Continue (C)")));
  place();
}

export function initMoment(sender) {
  send = sender;
  document.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || (ev.target && ev.target.tagName === "INPUT")) return;
    if ((ev.key === "c" || ev.key === "C") && handled !== null && answered !== handled) say(handled, true);
  });
}

/** Called after the game's page drew a state message. */
export function momentState(msg) {
  const m = msg.moment;
  if (!m || msg.seat === null || msg.seat === undefined) { drawButton(null); return; }
  if (handled === m.version) { place(); return; }
  handled = m.version;
  drawButton(m);
  settled().then(visible).then(() => say(m.version));
}

/** A refusal of a "seen" the server does not know: nothing the person needs to read. */
export function isSeenRefusal(msg) {
  return /'seen'/.test(msg.reason || "");
}
