import { api, connect, el, $, fixed, toast, initLanguage, language, seatWords, t, tn, N_ } from "/static/common.js";
import { chatMessage, chatOffline, chatState, initChat } from "/static/chat.js";
import { initTurnSignal, turnSignal } from "/static/turn-signal.js";
import { initShared, sharedState } from "/static/shared-screen.js";
import { initMoment, isSeenRefusal, momentState, settled } from "/static/moment.js";
import { initRules } from "/static/rules.js";

const tableId = location.pathname.split("/")[2];
let info = null;        // the table from /api/tables/ID (you, owner)
let module = null;      // the game's page module
let last = null;        // the last state message
let conn = null;
let resultsShown = false;
let logCount = 0;
let actedOn = null;
let helloSent = false;     // the newest version we made an action on
const STATUS_WORDS = { open: N_("waiting for players"), running: N_("playing"), finished: N_("finished"), abandoned: N_("abandoned") };

$("#invite-url").textContent = `${location.origin}/tables/${tableId}`;
$("#invite").addEventListener("click", async () => {
  try { await navigator.clipboard.writeText(`${location.origin}/tables/${tableId}`); toast(t("invite link copied")); }
  catch (_) { toast(`${location.origin}/tables/${tableId}`); }
});
$("#join-name").value = localStorage.getItem("gamenight.name") || "";
$("#results-close").addEventListener("click", () => { $("#results").hidden = true; });
$("#replay-link").href = `/tables/${tableId}/replay`;
$("#rematch").addEventListener("click", () => acceptRematch());
$("#start").addEventListener("click", async () => {
  try { await api(`/api/tables/${tableId}/start`, {}); }
  catch (e) { $("#lobby-msg").textContent = e.message; }
});
// The owner of a table that welcomes programs challenges a bot account by name (issue 48;
// docs/bot-api.md): the program that listens for it takes an open seat.
$("#challenge").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const name = $("#challenge-name").value.trim();
  const said = $("#challenge-msg");
  said.className = "field-err";
  if (!name) { said.textContent = t("enter the name of a bot account"); $("#challenge-name").focus(); return; }
  try {
    await api(`/api/tables/${tableId}/challenge`, { bot: name });
    said.className = "muted";
    said.textContent = t("{name} is challenged: it takes a seat when its program accepts", { name });
  } catch (e) { said.textContent = e.message; }
});

function seatName(seat) { return t("seat {seat}", { seat: seat + 1 }); }
const shownName = seatWords;  // a bot's name in the page's words (common.js)
function names() { return (last?.table || info).seats.map(shownName); }

const ctx = {
  tableId,
  get you() { return last ? last.seat : info?.you; },
  get names() { return names(); },
  act(action) {
    if (!last) return;
    actedOn = last.version;
    focusAfterAct = true;
    conn.send({ type: "act", version: last.version, action });
  },
  send(msg) { conn.send(msg); },
};

// Keyboard focus across redraws (issue 45): a game draws its table anew on every state, so a
// focused control is replaced and focus fell to the page body. Focus stays on the hand or the
// action bar (the element a game marks data-focus-home): on the control the person chose if
// it is there and enabled, else on the bar's primary action, a playable card or its first
// button, else on the bar itself. Only focus lost by a redraw, or left on the body by a move,
// is put back: focus the person took elsewhere (chat, log) stays there.
const game = $("#game");
const CONTROLS = "button:not(:disabled), input:not(:disabled), [tabindex]:not([tabindex='-1']), a[href]";
let focusAfterAct = false;  // the person just acted: focus on the body moves to the bar
let focusedInGame = null;   // the element of the table that has focus (null: focus is elsewhere)
let chosenControl = null;   // how to find again the control the person focused themselves
let refocusing = false;

/** A selector (and text) that finds a control again in the next drawing of the table. */
function controlKey(node) {
  const parts = [];
  for (let n = node; n && n !== game; n = n.parentElement) {
    if (n.id) { parts.unshift(`#${CSS.escape(n.id)}`); break; }
    const data = [...n.attributes].filter((a) => a.name.startsWith("data-"))
      .map((a) => `[${a.name}="${CSS.escape(a.value)}"]`).join("");
    if (data || n === node) parts.unshift(`${n.localName}${data}`);
  }
  return { selector: parts.join(" "), text: node.textContent };
}

function usable(node) { return node.matches(CONTROLS) && node.getClientRects().length > 0; }

function findControl(key) {
  if (!key) return null;
  let found;
  try { found = [...game.querySelectorAll(key.selector)].filter(usable); } catch (_) { return null; }
  return found.length === 1 ? found[0] : found.find((n) => n.textContent === key.text) || null;
}

/** The bar's first control: its primary action, else the picked card, else a playable card,
 * else a button; never a check box (a key typed there is no move). Else the bar itself. */
function barHome(bar) {
  const controls = [...bar.querySelectorAll(CONTROLS)].filter((n) => usable(n) && n.localName !== "input");
  const home = [".primary", "[role=button][aria-pressed=true]", "[role=button]", "*"]
    .map((kind) => controls.find((n) => n.matches(kind))).find(Boolean);
  if (home) return home;
  if (!bar.hasAttribute("tabindex")) bar.tabIndex = -1;
  return bar;
}

function keepFocus() {
  const active = document.activeElement;
  if (active && active !== document.body) { focusAfterAct = false; return; }  // focus is somewhere
  const lost = focusedInGame !== null && !focusedInGame.isConnected;
  if (!lost && !focusAfterAct) return;
  const bar = game.querySelector("[data-focus-home]");
  if (!bar) return;
  const target = findControl(chosenControl) || barHome(bar);
  refocusing = true;
  try { target.focus({ preventScroll: true }); } finally { refocusing = false; }
  focusedInGame = target;
  focusAfterAct = false;
}
new MutationObserver(keepFocus).observe(game, { childList: true, subtree: true });
document.addEventListener("focusin", (ev) => {
  const inGame = game.contains(ev.target);
  focusedInGame = inGame ? ev.target : null;
  if (refocusing) return;
  chosenControl = inGame && !ev.target.matches("[data-focus-home]") ? controlKey(ev.target) : null;
  if (!inGame) focusAfterAct = false;
});
// Focus leaving a control that is still on the page went where the person put it (a click
// on the board, on a panel): nothing to put back. A control a redraw removed is gone by then.
document.addEventListener("focusout", (ev) => {
  const node = ev.target;
  queueMicrotask(() => {
    if (node !== focusedInGame || !node.isConnected) return;
    const active = document.activeElement;
    if (!active || active === document.body) { focusedInGame = null; chosenControl = null; }
  });
});

async function join(seat) {
  const name = $("#join-name").value.trim();
  if (!name) { $("#lobby-msg").textContent = t("enter your name first"); $("#join-name").focus(); return; }
  localStorage.setItem("gamenight.name", name);
  try {
    info = await api(`/api/tables/${tableId}/join`, { seat, name });
    conn.close();
    conn = connect(tableId, onMessage, onStatus);  // the new cookie makes this socket the seat's
  } catch (e) { $("#lobby-msg").textContent = e.message; }
}

// The owner arranges seats (issue 14): an open seat becomes a bot, a bot seat opens, a
// person is removed before the start; while running a person's seat is handed to a bot.
async function arrange(seat, to) {
  try { await api(`/api/tables/${tableId}/seats/${seat}`, { to }); }
  catch (e) { toast(e.message, "error"); }
}

function ownerButton(s) {
  if (!info || !info.owner || info.you === s.seat) return "";
  if (s.kind === "open") return el("button", { type: "button", onclick: () => arrange(s.seat, "bot"), "data-seat-bot": s.seat }, t("Add a bot"));
  if (s.kind === "bot") return el("button", { type: "button", onclick: () => arrange(s.seat, "open"), "data-seat-open": s.seat }, t("Open the seat"));
  const remove = el("button", { type: "button", onclick: () => arrange(s.seat, "open"), "data-seat-remove": s.seat }, t("Remove"));
  if (!waiting(table()).includes(s.seat)) return remove;
  // A rematch seat still waiting for its person: the owner may start without them.
  return el("span", {}, el("button", { type: "button", onclick: () => arrange(s.seat, "bot"), "data-seat-bot": s.seat }, t("A bot instead")), " ", remove);
}

// The series of rematches (issue 14): every game's scores by name and the totals.
function table() { return (last && last.table) || info; }
function seriesOf(tb) { return (tb && tb.settings && tb.settings.series) || null; }
function waiting(tb) { const s = seriesOf(tb); return (s && s.pending) || []; }

// The server sends the standing (server/series.standing): every finished game, this one
// too once it is over, and the totals; the page only draws it.
function seriesLine(standing) {
  const wins = Object.entries(standing.wins).map(([n, w]) => tn("{name} {n} win", "{name} {n} wins", w, { name: n })).join(", ");
  const played = standing.games.length;
  return tn("Series after {n} game: {wins}", "Series after {n} games: {wins}", played, { wins: wins || t("no winner yet") });
}

function drawSeries(tb) {
  const s = tb && tb.series;
  let box = document.getElementById("series");
  if (!s) { if (box) box.remove(); return; }
  if (!box) {
    box = el("section", { class: "panel", id: "series", "aria-label": t("the series") });
    $("#players").after(box);
  }
  // Every row names the players in one order (the totals'), though the seats rotate.
  const order = (scores) => [...Object.keys(s.totals).filter((n) => Object.hasOwn(scores, n)), ...Object.keys(scores).filter((n) => !Object.hasOwn(s.totals, n))];
  const rows = s.games.map((g, i) => el("tr", { "data-game": i + 1 }, el("td", {}, t("Game {number}", { number: i + 1 })),
    el("td", {}, order(g.scores).map((n) => `${n} ${g.scores[n]}`).join(", ")),
    el("td", {}, g.winners.join(t(" and ")))));
  const total = el("tr", { id: "series-totals" }, el("td", {}, t("Totals")),
    el("td", {}, Object.entries(s.totals).map(([n, x]) => `${n} ${x}`).join(", ")),
    el("td", {}, Object.entries(s.wins).map(([n, w]) => tn("{name} {n} win", "{name} {n} wins", w, { name: n })).join(", ")));
  box.replaceChildren(el("h3", { id: "series-h" }, t("Series: game {number}", { number: s.now })),
    el("table", { class: "list" }, el("tr", {}, el("th", {}, t("game")), el("th", {}, t("scores")), el("th", {}, t("won"))), rows, total));
}

let offered = false;  // a rematch was offered to this seat: answered by Accept or Decline
function rematchOffer(msg) {
  const old = document.getElementById("rematch-offer");
  if (old) old.remove();
  const go = el("a", { href: `/tables/${msg.table}`, id: "rematch-link" }, t("look at the new table"));
  const bar = el("div", { class: "panel", id: "rematch-offer" }, `${t("{name} wants a rematch.", { name: msg.by })} `, go);
  if (last && last.seat !== null) {
    offered = true;  // its Accept is the one button for it (a second "Rematch" did the same)
    $("#rematch").hidden = true;
    bar.append(" ", el("button", { type: "button", class: "primary", id: "rematch-accept", onclick: acceptRematch }, t("Accept")),
      " ", el("button", { type: "button", id: "rematch-decline", onclick: declineRematch }, t("Decline")));
  }
  (!$("#results").hidden ? $("#results-body") : $("main")).prepend(bar);
}

async function acceptRematch() {
  try { const t = await api(`/api/tables/${tableId}/rematch`, {}); location.href = `/tables/${t.id}`; }
  catch (e) { toast(e.message, "error"); }
}

async function declineRematch() {
  try { await api(`/api/tables/${tableId}/decline`, {}); toast(t("you declined the rematch")); document.getElementById("rematch-offer")?.remove(); }
  catch (e) { toast(e.message, "error"); }
}

function rematchMark(tb, s) {
  const series = seriesOf(tb);
  if (!series || !(series.pending || []).includes(s.seat)) return "";
  const no = (series.declined || []).includes(s.seat);
  return el("span", { class: `pill ${no ? "" : "warn"}`, "data-waiting": s.seat }, no ? t("declined") : t("not yet accepted"));
}

// A seat taken while signed in (messages.public_table "account"): a guest cannot pass for it.
function accountMark(s) {
  return s.account ? el("span", { class: "pill ok", title: t("signed in: this seat is an account's"), "data-account": s.seat }, t("account")) : "";
}

function drawLobby(table) {
  const box = $("#lobby-seats");
  box.replaceChildren();
  for (const s of table.seats) {
    const mine = info && info.you === s.seat;
    const body = s.kind === "open"
      ? (info && info.you === null ? el("button", { type: "button", class: "primary", onclick: () => join(s.seat), "data-join": s.seat }, t("Sit here")) : el("span", { class: "muted" }, t("open")))
      : el("span", {}, shownName(s), " ", accountMark(s), mine ? ` ${t("(you)")}` : "", rematchMark(table, s));
    box.append(el("div", { class: `seat ${mine ? "me" : ""}` }, el("div", { class: "muted" }, t("Seat {seat}", { seat: s.seat + 1 })), body, " ", ownerButton(s)));
  }
  const full = table.seats.every((s) => s.kind !== "open");
  $("#start").hidden = !(info && info.owner);
  $("#challenge").hidden = !(info && info.owner && table.settings?.outside_bots && !full);
  // A rematch waits for the people who have not accepted yet (said by name); one who
  // declined is said as such, with what the owner can do. Start waits for both.
  $("#start").disabled = !full || waiting(table).length > 0;
  const declinedSeats = seriesOf(table)?.declined || [];
  const nameOf = (i) => table.seats[i].name || seatName(i);
  const pending = waiting(table).filter((i) => !declinedSeats.includes(i) && i !== info?.you).map(nameOf);
  const declined = waiting(table).filter((i) => declinedSeats.includes(i)).map(nameOf);
  const who = declined.length && info?.owner
    ? t("{names} declined the rematch: make their seat open or give it to a bot to start", { names: declined.join(t(" and ")) })
    : pending.length ? t("waiting for {names} to accept the rematch", { names: pending.join(t(" and ")) }) : "";
  $("#lobby-msg").textContent = who || (full ? (info?.owner ? "" : t("waiting for the creator to start")) : t("waiting for every seat to be filled"));
  // The name box is for taking a seat: not shown to someone already seated.
  $("#join-name").closest("label").hidden = !(info && info.you === null && !full);
}

function drawPlayers(msg) {
  const box = $("#players");
  box.replaceChildren();
  const view = msg.view;
  const toAct = view && !view.over ? (view.to_act ?? (view.actors || [])[0]) : null;
  box.append(el("h3", {}, t("Players")));
  for (const s of msg.table.seats) {
    box.append(el("div", { class: `seat ${s.seat === msg.seat ? "me" : ""} ${s.seat === toAct ? "turn" : ""}` },
      el("span", { class: `status-dot ${s.connected ? "online" : "offline"}` }), " ",
      el("strong", {}, shownName(s)), " ", accountMark(s), s.seat === msg.seat ? ` ${t("(you)")}` : "",
      s.seat === toAct ? el("span", { class: "pill warn" }, s.seat === msg.seat ? t("your move") : t("to move")) : "",
      clockChip(msg, s), awayNote(msg, s), standIn(msg, s)));
  }
  drawAway(msg);
  const watching = msg.table.spectators || [];
  if (watching.length) box.append(el("div", { class: "muted", id: "spectators" }, t("Watching: {names}", { names: watching.join(", ") })));
}

// A person whose page is closed: said in words, with when a bot takes over for them.
function isAway(msg, s) {
  if (s.kind !== "person" || msg.table.status !== "running" || s.connected || s.stand_in || s.seat === msg.seat) return false;
  // One shared screen: a seat nobody looks as right now waits for the device, it is not away.
  const shared = msg.table.settings && msg.table.settings.shared_screen;
  return !shared || !!s.bot_at;
}
function awayText(name, until) {
  if (!until) return t("{name} is away", { name });
  const left = Math.max(0, Math.ceil(until - Date.now() / 1000));
  return left > 0 ? t("{name} is away — a bot plays for them in {seconds} s", { name, seconds: left }) : t("{name} is away — a bot plays for them now", { name });
}
function awayUntil(msg, s) {
  return s.bot_at ? s.bot_at + (Date.now() / 1000 - msg.now) : 0;  // in this clock
}
function awayNote(msg, s) {
  if (!isAway(msg, s)) return "";
  const until = awayUntil(msg, s);
  return el("div", { class: "away-note muted", "data-away": s.seat, "data-until": until ? String(until) : false, "data-name": s.name || seatName(s.seat) },
    awayText(s.name || seatName(s.seat), until));
}
function drawAway(msg) {
  let box = document.getElementById("away");
  const gone = msg.table.seats.filter((s) => isAway(msg, s));
  if (!gone.length) { if (box) box.remove(); return; }
  if (!box) { box = el("div", { id: "away", class: "panel away", role: "status" }); $(".layout").before(box); }
  box.replaceChildren(...gone.map((s) => {
    const until = awayUntil(msg, s);
    return el("div", { "data-away": s.seat, "data-until": until ? String(until) : false, "data-name": s.name || seatName(s.seat) }, awayText(s.name || seatName(s.seat), until));
  }));
}
setInterval(() => {
  for (const line of document.querySelectorAll("[data-away][data-until]")) {
    line.textContent = awayText(line.dataset.name, Number(line.dataset.until));
  }
}, 500);

// A bot sitting in for a person who left: said by name; the person takes the seat back,
// the owner may hand a gone person's seat to a bot.
function standIn(msg, s) {
  if (s.kind !== "person" || msg.table.status !== "running") return "";
  const name = s.name || seatName(s.seat);
  if (s.stand_in) {
    const note = el("div", { class: "pill", "data-stand-in": s.seat }, t("bot playing for {name}", { name }));
    if (s.seat !== msg.seat) return note;
    return el("div", {}, note, el("button", { type: "button", id: "take-back", onclick: () => conn.send({ type: "take_back" }) }, t("Take my seat back")));
  }
  // not for your own seat played on your other device (your account's): "Play here" is
  if (info && info.owner && s.seat !== msg.seat && s.seat !== info.account_seat) {
    // On its own line under the name: prominent for a person who is away; for one whose
    // page is open (perhaps away from the keys) a quiet link, so the owner can still help.
    const away = !s.connected;
    return el("div", { class: "seat-action" }, el("button", { type: "button", class: away ? "" : "linkish", "data-hand": s.seat, "data-away-hand": away ? "1" : "0", onclick: () => arrange(s.seat, "bot") },
      away ? t("Let a bot play for {name} now", { name }) : t("{name} not at the keys? Let a bot play", { name })));
  }
  return "";
}

// A person's time bank (turn clocks, issue 14): the one whose turn it is counts down.
function clockText(seconds) {
  const t = Math.max(0, Math.floor(seconds));
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}`;
}
function clockChip(msg, s) {
  const banks = msg.table.settings && msg.table.settings.clock_banks;
  if (!banks || banks[String(s.seat)] === undefined || msg.table.status !== "running") return "";
  const turn = msg.table.settings.clock_turn;
  const running = turn && turn[0] === s.seat;
  const chip = el("span", { class: `pill ${running ? "warn" : ""}`, "data-clock": s.seat, title: t("time bank") }, t("clock {time}", { time: clockText(banks[String(s.seat)]) }));
  if (running) {
    const skew = Date.now() / 1000 - msg.now;
    chip.dataset.until = String(turn[1] + banks[String(s.seat)] + skew);
  }
  return chip;
}
setInterval(() => {
  for (const chip of document.querySelectorAll("[data-clock][data-until]")) {
    chip.textContent = t("clock {time}", { time: clockText(Number(chip.dataset.until) - Date.now() / 1000) });
  }
}, 250);

// Server lines for the log (a clock that ran out), kept with the table's settings.
let notesShown = 0;
function drawNotes(msg) {
  const notes = (msg.table.settings && msg.table.settings.notes) || [];
  for (const text of notes.slice(notesShown)) $("#log").append(el("div", { class: "note", "data-note": "" }, text));
  notesShown = Math.max(notesShown, notes.length);
}

let timerHandle = null;
function drawTimer(msg) {
  const box = $("#timerbox");
  clearInterval(timerHandle);
  if (!msg.deadline) { box.hidden = true; return; }
  box.hidden = false;
  const skew = Date.now() / 1000 - msg.now;
  const total = Math.max(1, msg.deadline - msg.now);
  const who = msg.deadline_seat === msg.seat ? t("You") : names()[msg.deadline_seat];  // starts the line
  const clocked = Boolean(msg.table.settings && msg.table.settings.clock_turn);  // a turn clock, not a window's countdown
  // On a phone the turn clock is a strip pinned to the top of the screen (app.css): in the
  // aside it was below the fold, so a person on their turn saw no clock (issue 45, item 1).
  box.classList.toggle("clocked", clocked);
  const tick = () => {
    const left = Math.max(0, msg.deadline - (Date.now() / 1000 - skew));
    $("#timer-text").textContent = clocked ? t("{who}: {time} left on the clock", { who, time: clockText(left) }) : t("{who}: {seconds} s left to answer", { who, seconds: fixed(left, left < 10 ? 1 : 0) });
    $("#timer-bar").style.width = `${(100 * left) / total}%`;
    const inBanner = document.getElementById("window-timer");
    if (inBanner) inBanner.textContent = ` ${t("{s} s", { s: fixed(left, left < 10 ? 1 : 0) })}`;
  };
  tick();
  timerHandle = setInterval(tick, 250);
}

// The log reads top to bottom, newest last; it stays scrolled to the end unless the reader
// scrolled up to read something older.
function drawLog(msg) {
  if (!msg.events) return;
  const box = $("#log");
  const atEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 30;
  if (msg.events_from < logCount) { box.replaceChildren(); logCount = msg.events_from; }
  const nm = names();
  for (const e of msg.events) {
    const line = module && module.describeEvent ? module.describeEvent(e, nm, msg.view) : null;
    if (!line) continue;
    const quiet = typeof line === "object" && !(line instanceof Node) && line.quiet;
    let body = typeof line === "object" && !(line instanceof Node) ? line.text : line;
    body = standInLine(msg, e, body);
    const prev = box.lastElementChild;
    // "Bot 2, Bot 3 and Ann pass.": one window's passes on one line; someone passing again
    // is the next window's, on a line of its own (one line named Ann twice, Bot 2 twice)
    const before = prev && prev.dataset.who ? prev.dataset.who.split("|") : [];
    if (quiet && line.who && before.length && !before.includes(line.who)) {
      const who = [...before, line.who];
      prev.dataset.who = who.join("|");
      prev.textContent = t("{names} and {last} pass.", { names: who.slice(0, -1).join(", "), last: who[who.length - 1] });
      continue;
    }
    box.append(el("div", { class: quiet ? "quiet" : "", "data-who": quiet && line.who ? line.who : false }, body));
  }
  while (box.childElementCount > 400) box.firstElementChild.remove();
  logCount += msg.events.length;
  if (atEnd) box.scrollTop = box.scrollHeight;
}

// A move made while a bot sits in for the seat's person is the bot's: "A bot stops for Bob."
function standInLine(msg, e, body) {
  if (typeof body !== "string" || typeof e.seat !== "number") return body;
  const s = msg.table.seats[e.seat];
  if (!s || !s.stand_in) return body;
  const name = s.name || seatName(e.seat);
  // (a sentence is rebuilt only in English; another language says it after the line)
  if (language() !== "en") return t("{line} (a bot plays for {name})", { line: body, name });
  if (!body.startsWith(`${name} `)) return body;
  const rest = body.slice(name.length + 1).replace(/[.!]$/, "");
  return `A bot ${rest} for ${name}.`;
}

// The results wait until the game's last moment (Arne's scoring step by step) has played.
async function drawResults(msg) {
  if (!msg.outcome || resultsShown) return;
  resultsShown = true;
  await settled();
  const o = msg.outcome;
  const nm = names();
  const order = nm.map((n, i) => i).sort((a, b) => o.ranks[a] - o.ranks[b]);
  const rows = order.map((i) => el("tr", {}, el("td", {}, `${o.ranks[i]}.`), el("td", {}, nm[i], i === msg.seat ? ` ${t("(you)")}` : ""),
    el("td", {}, String(o.scores[i])), el("td", {}, o.winners.includes(i) ? `★ ${t("winner")}` : "")));
  const body = $("#results-body");
  body.replaceChildren();
  const winners = o.winners.map((i) => nm[i]).join(t(" and "));
  body.append(el("p", { id: "winner-line" }, o.truncated ? t("The game was cut off without a winner.") : tn("{names} wins!", "{names} win!", o.winners.length, { names: winners })));
  body.append(el("table", { class: "list" }, el("tr", {}, el("th", {}, t("rank")), el("th", {}, t("player")), el("th", {}, t("score")), el("th", {}, "")), rows));
  if (module && module.resultDetails) body.append(module.resultDetails(msg, nm));
  if (msg.table.series) body.append(el("p", { id: "results-series" }, seriesLine(msg.table.series)));
  $("#rematch").hidden = offered || (msg.seat === null && !(info && info.owner));
  $("#results").hidden = false;
}

// A spectator is told so; the switches for "my turn" are not theirs.
function drawWatching(msg) {
  const sharedDevice = document.body.dataset.sharedScreen === "1";  // between turns: nobody looks
  const watching = msg.seat === null && !sharedDevice;
  document.body.dataset.watching = watching ? "1" : "0";
  const signal = document.getElementById("turn-signal");
  if (signal) signal.hidden = watching;
  let line = document.getElementById("watching");
  if (!watching) { if (line) line.remove(); return; }
  if (!line) { line = el("div", { id: "watching", class: "panel", role: "status" }); $(".layout").before(line); }
  const open = msg.table.status === "open" && msg.table.seats.some((s) => s.kind === "open");
  const yours = info?.account_seat;  // the seat your account holds, played on another device
  const live = msg.table.status === "open" || msg.table.status === "running";
  if (live && yours !== null && yours !== undefined && msg.table.seats[yours]?.kind === "person") {
    const name = msg.table.seats[yours].name || seatName(yours);
    line.replaceChildren(`${t("You play {name} (seat {seat}) from another device.", { name, seat: yours + 1 })} `,
      el("button", { type: "button", class: "primary", id: "reclaim", onclick: reclaim }, t("Play here")));
    return;
  }
  line.textContent = open ? t("You are watching. Sit in an open seat to play.") : t("You are watching this game.");
}

// Signed in on another device (or after clearing cookies): this device takes the seat.
async function reclaim() {
  try {
    info = await api(`/api/tables/${tableId}/reclaim`, {});
    conn.close();
    conn = connect(tableId, onMessage, onStatus);  // the new cookie makes this socket the seat's
  } catch (e) { toast(e.message); }
}

function onStatus(s) {
  $("#conn").className = `status-dot ${s}`;
  if (s === "offline") helloSent = false;  // a new socket says the name again
  if (s === "offline") chatOffline();
}

function onMessage(msg) {
  if (msg.type === "refused" && isSeenRefusal(msg)) return;  // a server without moments
  if (msg.type === "refused") {
    // A benign race: the decision moved on before our action arrived (another seat passed
    // first). Nothing was applied; the new state is on its way, so say nothing.
    const raced = /^stale action/.test(msg.reason || "") || (actedOn !== null && msg.version > actedOn);
    if (!raced) toast(msg.reason, "error");
    else conn.send({ type: "sync" });
    if (module && module.onRefused) module.onRefused(msg);
    return;
  }
  if (msg.type === "error") { toast(msg.reason, "error"); return; }
  if (msg.type === "rematch") {
    toast(t("{name} wants a rematch", { name: msg.by }));
    rematchOffer(msg);
    return;
  }
  if (msg.type === "closed") { toast(msg.reason, "error"); return; }
  if (msg.type === "note") { toast(msg.text); return; }
  if (chatMessage(msg)) return;
  if (msg.type !== "state") return;
  if (last && msg.seat !== last.seat) { $("#log").replaceChildren(); logCount = msg.events_from; }  // another seat's log (one shared screen)
  last = msg;
  if (msg.seat === null && !helloSent) {  // a spectator is listed by the name they gave
    helloSent = true;
    const name = localStorage.getItem("gamenight.name") || info?.account_name;  // signed in: your name
    if (name) conn.send({ type: "hello", name });
  }
  chatState(msg);
  sharedState(msg);
  drawWatching(msg);
  turnSignal(msg, t("{game}: your decision", { game: info?.title || "gamenight" }));
  if (info && msg.seat !== info.you) info.you = msg.seat;
  $("#status").textContent = t(STATUS_WORDS[msg.table.status] || msg.table.status);
  $("#status").className = `pill ${msg.table.status === "running" ? "warn" : msg.table.status === "open" ? "ok" : ""}`;
  document.body.dataset.status = msg.table.status;
  document.body.dataset.version = msg.version;
  $("#lobby").hidden = msg.table.status !== "open";
  if (msg.table.status === "open") drawLobby(msg.table);
  drawPlayers(msg);
  drawSeries(msg.table);
  drawTimer(msg);
  if (msg.view && module) module.render($("#game"), msg, ctx);
  momentState(msg);
  drawNotes(msg);  // a clock's note comes before the move the bot made
  drawLog(msg);
  drawResults(msg);
}

async function main() {
  await initLanguage();  // the page's language first: everything below is drawn in it
  try { info = await api(`/api/tables/${tableId}`); }
  catch (e) {  // a wrong or old address: say so, and the way back
    $("#game").replaceChildren(el("div", { class: "panel", role: "alert" },
      el("h1", {}, t("This table is not here")), el("p", {}, e.message),
      el("a", { class: "btn primary", href: "/" }, t("Back to the lobby"))));
    document.querySelector(".layout aside").hidden = true;
    $("#invite").hidden = true;
    $("#status").hidden = true;
    return;
  }
  $("#title").textContent = info.title || info.game;
  if (info.practice) {  // everyone who comes sees that the deal follows a known seed
    $("#status").after(el("span", { class: "pill", id: "practice", title: t("the seed is chosen and public: every deal can be known in advance") }, t("practice · seed {seed}", { seed: info.practice.seed })));
  }
  document.title = `gamenight — ${info.title || info.game}`;
  module = await import(`/static/games/${info.game}.js`);
  await initRules($("#howto-body"), info.game, module.pageHelp, info.options);  // the rules panel (rules.js)
  if (window.matchMedia("(max-width: 820px)").matches) $("#howto").open = false;
  if (module.init) await module.init($("#game"), info, ctx);
  initTurnSignal(document.title);
  await initShared({
    tableId,
    send: (m) => conn.send(m),
    reconnect: () => { conn.close(); conn = connect(tableId, onMessage, onStatus); },  // new seat cookie
  });
  initChat({ tableId, owner: info.owner, send: (m) => conn.send(m) });
  initMoment((m) => conn.send(m));
  conn = connect(tableId, onMessage, onStatus);
  // Chosen in the lobby ("play here"): this device takes the account's seat at once.
  if (new URLSearchParams(location.search).has("here") && info.you === null && info.account_seat !== null) {
    history.replaceState(null, "", location.pathname);
    await reclaim();
  }
}

main();
