// Shared helpers of every page: JSON requests, escaping, a reconnecting WebSocket.

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

/** A moment (epoch seconds) written the same way on every page: "Dec 5, 2026, 8:48 AM". */
export function when(seconds) {
  return new Date(seconds * 1000).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
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
      toast("the server is busy for a moment; your move is sent again when it is back");
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
      if (ev.code === 1013 && !busyShown) { busyShown = true; toast(ev.reason || "the server is full; retrying", "error"); }
      if (!closed) setTimeout(open, delay);
      delay = Math.min(delay * 1.6, 3000);
    };
  }
  open();
  const api = {
    send(msg) {
      if (msg.type === "act") lastAct = { msg, again: lastAct?.msg === msg };
      if (ws && ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify(msg)); return true; }
      toast("not connected; reconnecting…", "error");
      return false;
    },
    close() { closed = true; ws && ws.close(); },
  };
  return api;
}

