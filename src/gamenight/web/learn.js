// The guided first game of a game (issue 46, item 1): the server's script step by step
// (routes/learn.py), drawn by the game's own table module (web/games/GAME.js). Each step
// points at one element of the table (highlighted, scrolled into view), says what to do,
// sends the person's move; a refused move is answered with the reason, an accepted one
// with what happened and why, then Next.
import { api, el, $, initLanguage, t } from "/static/common.js";

const game = decodeURIComponent(location.pathname.split("/")[2] || "");
let module = null;   // the game's table module
let page = null;     // the server's page for the current step
let phase = "intro"; // intro: the intro; do: a step waits for the person; why: after it; done
let why = "";        // what happened at the step just done
let sending = false;

const body = $("#coachmark-body");
const buttons = $("#coachmark-buttons");
const refusal = $("#coachmark-refusal");

/** The table as the game's module expects a table's state message. */
function message(p) {
  return {
    type: "state",
    version: p.at,
    seat: p.seat,
    view: p.view,
    actions: p.actions,
    asked: p.asked,
    you: {},
    events: [],
    events_from: 0,
    now: Date.now() / 1000,
    deadline: null,
    table: {
      id: "learn", game, status: p.outcome ? "finished" : "running", tutorial: true, settings: {},
      seats: names().map((name, i) => ({ seat: i, kind: i === p.seat ? "person" : "bot", name, connected: true })),
    },
    ...(p.outcome ? { outcome: p.outcome } : {}),
  };
}

const ctx = {
  tableId: "learn",
  get you() { return page ? page.seat : null; },
  get names() { return names(); },
  act(action) { move(action); },
  send(msg) {  // a pass sent as a message by a table (a reaction window) is a move here
    if (msg && msg.type === "pass") move({ type: "pass" });
  },
};

async function move(action) {
  if (sending || !page) return;
  if (phase !== "do") { say(phase === "why" ? t("Read what happened, then press Next.") : t("Press Start first.")); return; }
  sending = true;
  try {
    const answer = await api(`/api/learn/${encodeURIComponent(game)}/${page.at}`, { action });
    if (!answer.accepted) {
      say(answer.reason);
      if (module.onRefused) module.onRefused({ reason: answer.reason });
      pointAt = 0;
      drawTable();
      return;
    }
    page = answer.next;
    why = answer.why;
    phase = "why";
    draw();
  } catch (e) {
    say(e.message);
  } finally {
    sending = false;
  }
}

/** A refusal, said where the instruction is. */
function say(text) {
  refusal.replaceChildren(el("p", {}, text));
}

function step() { return page.step; }

/** The seats' names; yours is the name you play under elsewhere (the lobby's), if any. */
function names() {
  if (!page) return [];
  const mine = localStorage.getItem("gamenight.name");
  return page.names.map((n, i) => (i === page.seat && mine ? mine : n));
}

function drawLog() {
  const box = $("#log");
  box.replaceChildren();
  for (const e of page.events) {
    const line = module.describeEvent ? module.describeEvent(e, names(), page.view) : null;
    if (!line) continue;
    const text = typeof line === "object" && !(line instanceof Node) ? line.text : line;
    box.append(el("div", {}, text));
  }
  box.scrollTop = box.scrollHeight;
}

/** The element the step points at now (a step may point at several in turn: a card, then
 * where it goes): highlighted and in view; a look step is done by pressing it. */
let pointAt = 0;      // which of the step's elements is pointed at
let pointed = null;   // that element
function point() {
  const target = phase === "do" && step() ? document.querySelector(`#game ${step().point[pointAt]}`) : null;
  document.body.dataset.pointAt = String(pointAt);
  if (target && target === pointed && target.classList.contains("learn-target")) return;
  for (const old of document.querySelectorAll(".learn-target")) old.classList.remove("learn-target");
  pointed = target;
  document.body.dataset.pointed = phase !== "do" || !step() ? "" : target ? "1" : "missing";
  if (!target) return;
  target.classList.add("learn-target");
  target.scrollIntoView({ block: "center", behavior: "instant" });
}
// A table that draws itself again (a card picked, its targets lit) keeps the pointer.
new MutationObserver(() => point()).observe($("#game"), { childList: true, subtree: true });

// Pressing the element pointed at (after the table's own handler: Peek still shows the
// hand, a picked card lights its targets) points at the step's next one; the last one of a
// look step does the step; a move step is done by the move the table sends.
function pressed(ev) {
  if (phase !== "do" || !step() || sending) return;
  const target = ev.target.closest && ev.target.closest(".learn-target");
  if (!target) return;
  if (pointAt + 1 < step().point.length) { pointAt += 1; point(); return; }
  if (step().look) setTimeout(() => move(null), 0);
}
document.addEventListener("click", pressed);
// (a card the table answers on Enter or Space without a click: the same as pressing it)
document.addEventListener("keydown", (ev) => {
  const button = ev.target.localName === "button";  // (a button's Enter is a click too)
  if (!button && (ev.key === "Enter" || ev.key === " ")) pressed(ev);
});

function drawTable() {
  module.render($("#game"), message(page), ctx);
  point();
}

function button(id, text, onclick, primary = true) {
  return el("button", { type: "button", id, class: primary ? "primary" : "", onclick }, text);
}

function draw() {
  refusal.replaceChildren();
  pointAt = 0;
  const total = page.steps;
  $("#progress").textContent = phase === "intro" ? t("{total} steps", { total }) : phase === "done" ? t("done") : t("step {step} of {total}", { step: Math.min(page.at + (phase === "why" ? 0 : 1), total), total });
  document.body.dataset.phase = phase;
  document.body.dataset.at = String(page.at);
  if (phase === "intro") {
    body.replaceChildren(el("p", { id: "learn-intro" }, page.intro), el("p", { class: "muted" }, t("About {minutes} minutes.", { minutes: page.minutes })));
    buttons.replaceChildren(button("learn-start", t("Start"), () => { phase = "do"; draw(); }));
  } else if (phase === "do") {
    body.replaceChildren(el("p", { id: "learn-say", class: "say" }, step().say));
    buttons.replaceChildren();
  } else if (phase === "why") {
    const last = page.at >= total;
    body.replaceChildren(el("p", { id: "learn-why", class: "why" }, el("strong", {}, "✓ "), why));
    buttons.replaceChildren(button("learn-next", last ? t("Finish") : t("Next"), () => { phase = last ? "done" : "do"; draw(); }));
  } else {
    body.replaceChildren(el("p", { id: "learn-outro" }, page.outro));
    buttons.replaceChildren(el("a", { class: "btn primary", href: "/", id: "learn-play" }, t("Play a real game")),
      " ", button("learn-again", t("Start again"), () => load(0), false));
  }
  drawTable();
  drawLog();
  if (phase !== "do") $("#coachmark-buttons button, #coachmark-buttons a")?.focus({ preventScroll: true });
  if (phase !== "do") $("#coachmark").scrollIntoView({ block: "nearest" });
}

async function load(at) {
  page = await api(`/api/learn/${encodeURIComponent(game)}?at=${at}`);
  phase = at === 0 ? "intro" : "do";
  draw();
}

async function main() {
  await initLanguage();  // the page's language first (the server answers in it: its cookie)
  try {
    page = await api(`/api/learn/${encodeURIComponent(game)}?at=0`);
  } catch (e) {
    body.replaceChildren(el("p", { role: "alert" }, e.message), el("a", { class: "btn primary", href: "/" }, t("Back to the lobby")));
    return;
  }
  $("#title").textContent = page.title;
  document.title = `gamenight — ${page.title}`;
  module = await import(`/static/games/${page.game}.js`);
  if (module.init) await module.init($("#game"), { id: "", game, learn: true }, ctx);
  draw();
}

main();
