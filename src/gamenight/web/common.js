// Shared helpers of every page: JSON requests, escaping, a reconnecting WebSocket, and the
// page's language (issue 46): t(), tn() and the header's language switcher.

export function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
  })[c]);
}

export async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const res = await fetch(path, { credentials: "same-origin", ...opts });
  let data = null;
  try { data = await res.json(); } catch (_) { data = null; }
  if (!res.ok) throw new Error((data && data.error) || `${res.status} ${res.statusText}`);
  return data;
}

// -- Languages ---------------------------------------------------------------------------
// Every message is written in English in the code, t("Create table"); the server's JSON
// catalogue of the chosen language (GET /api/i18n, written by `make i18n` from the .po
// files) maps it to the translation. Params fill {name} places; tn() picks the plural form
// of the language by Intl.PluralRules (Russian has three). Text nodes only: a translation is
// never markup. The choice: the account's (signed in), else this device's (localStorage),
// else the browser's languages.
const LANG_KEY = "gamenight.lang";
const LANG_COOKIE = "gamenight_lang";
let lang = "en";
let messages = {};
let languages = { en: "English" };
let signedIn = false;
let plurals = new Intl.PluralRules("en");

/** The page's language ("de"). */
export function language() { return lang; }

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

/** `key` (the English message) in the page's language, with {name} places filled. */
export function t(key, params) {
  const found = messages[key];
  return fill(typeof found === "string" ? found : key, params);
}

/** The form of a message for the number `n` ("1 player", "3 players"; "5 игроков");
 * {n} is the number as the language writes it. */
export function tn(one, many, n, params = {}) {
  const found = messages[one];
  const kind = plurals.select(n);
  const text = found && typeof found === "object" ? (found[kind] ?? found.other) : kind === "one" ? one : many;
  return fill(text, { n: number(n), ...params });
}

/** Marks a message in data (a variant's title) for extraction; t() translates it where shown. */
export function N_(key) { return key; }

const BOT_LEVELS = { easy: N_("easy"), medium: N_("medium"), hard: N_("hard"), random: N_("random") };

/** A seat's name as shown: a bot's name the server gave ("Bot 2 (easy)") in the page's
 * words, an unnamed seat as "seat 3", a person's name as they wrote it. */
export function seatWords(seat) {
  const bot = seat.kind === "bot" && /^Bot (\d+) \((\w+)\)$/.exec(seat.name || "");
  if (bot) return t("Bot {number} ({level})", { number: bot[1], level: t(BOT_LEVELS[bot[2]] || bot[2]) });
  return seat.name || t("seat {seat}", { seat: seat.seat + 1 });
}

/** A number as the page's language writes it. */
export function number(n, options = {}) { return new Intl.NumberFormat(lang, options).format(n); }

/** `n` with `digits` decimals, as the page's language writes them ("0,7" in German). */
export function fixed(n, digits) { return number(n, { minimumFractionDigits: digits, maximumFractionDigits: digits }); }

function oneSpace(text) { return text.split(/\s+/).filter(Boolean).join(" "); }

const SHOWN_ATTRIBUTES = ["title", "placeholder", "aria-label", "alt"];

/** The page's own texts (its HTML, extracted by `make i18n`) in the page's language. */
export function translatePage(root = document.body) {
  if (lang === "en") return;
  document.title = t(oneSpace(document.title));
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const plain = oneSpace(node.nodeValue);
    if (!plain || !(plain in messages) || node.parentElement?.closest("script, style, code")) continue;
    const [, lead, trail] = node.nodeValue.match(/^(\s*)[\s\S]*?(\s*)$/);
    node.nodeValue = `${lead}${t(plain)}${trail}`;
  }
  for (const name of SHOWN_ATTRIBUTES) {
    for (const item of root.querySelectorAll(`[${name}]`)) {
      const plain = oneSpace(item.getAttribute(name));
      if (plain in messages) item.setAttribute(name, t(plain));
    }
  }
}

function wanted() {
  const saved = localStorage.getItem(LANG_KEY);
  return [saved, ...(navigator.languages || [navigator.language])].filter(Boolean);
}

/** Load the page's language and translate its HTML; call before drawing anything. */
export async function initLanguage() {
  try {
    const res = await fetch(`/api/i18n?want=${encodeURIComponent(wanted().join(","))}`, { credentials: "same-origin" });
    const data = await res.json();
    lang = data.lang; messages = data.messages || {}; languages = data.languages || languages; signedIn = !!data.account;
  } catch (_) { lang = "en"; messages = {}; }
  plurals = new Intl.PluralRules(lang);
  document.documentElement.lang = lang;
  // The server's own answers (a game's pitch, its rules) read the cookie.
  document.cookie = `${LANG_COOKIE}=${lang}; path=/; max-age=31536000; samesite=lax`;
  translatePage();
  const slot = document.getElementById("lang-slot");
  if (slot) slot.replaceChildren(languageSwitcher());
  return lang;
}

/** Choose a language: kept on this device and, signed in, in the account; the page reloads
 * in it (every text, the server's too). */
export async function setLanguage(code) {
  localStorage.setItem(LANG_KEY, code);
  document.cookie = `${LANG_COOKIE}=${code}; path=/; max-age=31536000; samesite=lax`;
  if (signedIn) { try { await api("/api/account/language", { language: code }); } catch (_) { /* kept here */ } }
  location.reload();
}

/** The header's language switcher: each language in its own words. */
export function languageSwitcher() {
  const select = el("select", { id: "lang", "aria-label": t("Language"), onchange: (ev) => setLanguage(ev.target.value) },
    Object.entries(languages).map(([code, name]) => el("option", { value: code, lang: code, selected: code === lang }, name)));
  return select;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element built like el(): attributes set one by one, text only as text nodes. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** A paragraph from text where *stars* mark bold words and `ticks` mark keys. */
export function rich(text, tag = "p") {
  const node = document.createElement(tag);
  for (const part of text.split(/(\*[^*]+\*|`[^`]+`)/)) {
    if (part.startsWith("*") && part.endsWith("*") && part.length > 1) node.append(el("b", {}, part.slice(1, -1)));
    else if (part.startsWith("`") && part.endsWith("`") && part.length > 1) node.append(el("kbd", {}, part.slice(1, -1)));
    else if (part) node.append(document.createTextNode(part));
  }
  return node;
}

/** "1 card", "3 cards". */
export function plural(n, word, many = `${word}s`) { return `${n} ${n === 1 ? word : many}`; }

/** A moment (epoch seconds) written the same way on every page, as the page's language
 * writes it: "Dec 5, 2026, 8:48 AM", "05.12.2026, 08:48". */
export function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
}

export function $(sel, root = document) { return root.querySelector(sel); }

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

// An SVG element with attributes and text children (text nodes: never markup from data).
export function svgEl(tag, attrs = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== false && v !== null && v !== undefined) node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function toast(text, kind = "info") {
  let box = $("#toasts");
  if (!box) { box = el("div", { id: "toasts", "aria-live": "polite" }); document.body.append(box); }
  const t = el("div", { class: `toast ${kind}` }, text);
  box.append(t);
  setTimeout(() => t.remove(), kind === "error" ? 6000 : 3500);
}

// Refusals that say the server could not do it just now (its database or the table's owner
// was unavailable), not that the move was wrong: the page sends that move again once.
const OUTAGE = /could not be stored|not answering|try again shortly|the server failed on this message/;

// Poll /api/ready until the server says it can serve again (at most `seconds`).
async function whenReady(seconds = 300) {
  const give_up = Date.now() + seconds * 1000;
  while (Date.now() < give_up) {
    try { if ((await fetch("/api/ready", { cache: "no-store" })).ok) return true; } catch (e) { /* offline */ }
    await new Promise((done) => setTimeout(done, 1000));
  }
  return false;
}

// A WebSocket to a table that reconnects on its own (a restarted server, a closed laptop).
// An act refused by an outage is sent again, once, when /api/ready is 200: safe, since an
// act names the version it was made on (a duplicate is refused as stale, never applied
// twice); the refusal is not shown, and a second one of the same act is.
export function connect(tableId, onMessage, onStatus) {
  let ws = null;
  let closed = false;
  let delay = 300;
  let lastAct = null;  // the last act sent, and whether it was sent again already
  let busyShown = false;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  function heard(msg) {
    const mine = lastAct && (msg.made_on === undefined || msg.made_on === lastAct.msg.version);
    if (msg.type === "refused" && mine && !lastAct.again && OUTAGE.test(msg.reason || "")) {
      const act = lastAct;
      act.again = true;
      toast(t("the server is busy for a moment; your move is sent again when it is back"));
      whenReady().then((ok) => { if (ok && !closed && lastAct === act) api.send(act.msg); });
      return;
    }
    onMessage(msg);
  }
  function open() {
    ws = new WebSocket(`${proto}://${location.host}/ws/tables/${tableId}`);
    ws.onopen = () => { delay = 300; busyShown = false; onStatus && onStatus("online"); };
    ws.onmessage = (ev) => { try { heard(JSON.parse(ev.data)); } catch (e) { console.error(e); } };
    ws.onclose = (ev) => {
      onStatus && onStatus("offline");
      if (ev.code === 1013 && !busyShown) { busyShown = true; toast(ev.reason || t("the server is full; retrying"), "error"); }
      if (!closed) setTimeout(open, delay);
      delay = Math.min(delay * 1.6, 3000);
    };
  }
  open();
  const api = {
    send(msg) {
      if (msg.type === "act") lastAct = { msg, again: lastAct?.msg === msg };
      if (ws && ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify(msg)); return true; }
      toast(t("not connected; reconnecting…"), "error");
      return false;
    },
    close() { closed = true; ws && ws.close(); },
  };
  return api;
}

