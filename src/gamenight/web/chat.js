// Table chat (issue 14, item 4): every line is put in the page as text nodes (el()), never
// as markup. People with a seat write; spectators read; the owner can mute a seat.
import { api, el, $, toast, t } from "/static/common.js";

let send = null;       // sends a message on the table's socket
let tableId = null;
let owner = false;
let seat = null;       // the seat this page acts for (null: a spectator)
let seatNames = [];
let muted = new Set();
let max = 300;
let phrasesShown = false;
let synced = false;    // asked for the chat so far on this connection

function panel() {
  let box = $("#chat");
  if (box) return box;
  box = el("section", { id: "chat", class: "panel", "aria-labelledby": "chat-h" },
    el("h3", { id: "chat-h" }, t("Chat")),
    el("div", { id: "chat-lines", role: "log", tabindex: "0", "aria-label": t("chat, newest last") }),
    el("div", { id: "chat-phrases", class: "row" }),
    el("form", { id: "chat-form", class: "row", onsubmit: (ev) => { ev.preventDefault(); say(); } },
      el("input", { id: "chat-input", maxlength: "300", autocomplete: "off", placeholder: t("say something"), "aria-label": t("chat message") }),
      el("button", { type: "submit", id: "chat-send" }, t("Send")),
      el("span", { id: "chat-count", class: "muted" })),
    el("label", { class: "opt", id: "chat-share-label" },
      el("input", { type: "checkbox", id: "chat-share", onchange: (ev) => send({ type: "chat_share", on: ev.target.checked }) }),
      ` ${t("keep the chat in the replay (when everyone agrees)")}`),
    el("div", { id: "chat-muted", class: "muted" }));
  const players = $("#players");
  players.after(box);
  $("#chat-input").addEventListener("input", () => {
    const n = $("#chat-input").value.length;
    $("#chat-count").textContent = n >= max ? t("{n}/{max}: the most a line can hold", { n, max }) : n > 0 ? `${n}/${max}` : "";
  });
  return box;
}

function say() {
  const input = $("#chat-input");
  const text = input.value.trim();
  if (!text) return;
  if (send({ type: "chat", text })) input.value = "";
  $("#chat-count").textContent = "";
}

async function setMute(who, on) {
  try { await api(`/api/tables/${tableId}/chat/mute`, { seat: who, on }); }
  catch (e) { toast(e.message, "error"); }
}

function lineNode(line) {
  const canMute = owner && line.seat !== seat && line.seat !== null && !muted.has(line.seat);
  return el("div", { class: "chat-line", "data-seat": line.seat, "data-n": line.n },
    el("strong", {}, line.name), ": ", el("span", { class: "chat-text" }, line.text),
    canMute ? el("button", { type: "button", class: "linkish chat-mute", title: t("mute {name}", { name: line.name }), onclick: () => setMute(line.seat, true) }, t("mute")) : null);
}

function drawMuted() {
  const box = $("#chat-muted");
  box.replaceChildren();
  for (const s of muted) {
    const name = seatNames[s] || t("seat {seat}", { seat: s + 1 });
    box.append(el("div", {}, t("{name} is muted", { name }),
      owner ? el("button", { type: "button", class: "linkish chat-unmute", onclick: () => setMute(s, false) }, ` ${t("unmute {name}", { name })}`) : null));
  }
  const me = seat !== null && muted.has(seat);
  $("#chat-input").disabled = me || seat === null;
  $("#chat-send").disabled = me || seat === null;
  $("#chat-input").placeholder = seat === null ? t("players only") : me ? t("the owner has muted you") : t("say something");
  for (const b of document.querySelectorAll("#chat-phrases button")) b.disabled = me || seat === null;
  for (const b of document.querySelectorAll("#chat-lines .chat-mute")) {
    if (muted.has(Number(b.parentElement.dataset.seat))) b.remove();
  }
}

function drawPhrases(phrases) {
  if (phrasesShown) return;
  phrasesShown = true;
  const box = $("#chat-phrases");
  for (const [key, words] of Object.entries(phrases)) {
    box.append(el("button", { type: "button", class: "chat-phrase", "data-phrase": key, onclick: () => send({ type: "chat", phrase: key }) }, t(words)));  // the words: server/chat.py PHRASES
  }
}

export function initChat(opts) {
  send = opts.send;
  tableId = opts.tableId;
  owner = !!opts.owner;
  panel();
}

// Each state message: who this page is and the seats' names.
export function chatState(msg) {
  seat = msg.seat;
  if (!synced) synced = send({ type: "chat_sync" });
  seatNames = msg.table.seats.map((s) => s.name || t("seat {seat}", { seat: s.seat + 1 }));
  if (!$("#chat")) return;
  const person = seat !== null;
  $("#chat-share-label").hidden = !person;
  drawMuted();
}

// The socket went down: ask for the chat again once it is back.
export function chatOffline() { synced = false; }

// A chat message from the socket; returns true when it was one.
export function chatMessage(msg) {
  if (!["chat", "chat_mute", "chat_refused"].includes(msg.type)) return false;
  panel();
  if (msg.type === "chat_refused") { toast(msg.reason, "error"); return true; }
  if (msg.type === "chat_mute") { muted = new Set(msg.muted); drawMuted(); return true; }
  const box = $("#chat-lines");
  const atEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 30;
  if (msg.full) {
    box.replaceChildren();
    max = msg.max || max;
    $("#chat-input").maxLength = max;
    muted = new Set(msg.muted);
    drawPhrases(msg.phrases || {});
    if (seat !== null) $("#chat-share").checked = !!msg.share[String(seat)];
  }
  for (const line of msg.lines) box.append(lineNode(line));
  while (box.childElementCount > 200) box.firstElementChild.remove();
  drawMuted();
  if (atEnd || msg.full) box.scrollTop = box.scrollHeight;
  return true;
}
