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

// A WebSocket to a table that reconnects on its own (a restarted server, a closed laptop).
export function connect(tableId, onMessage, onStatus) {
  let ws = null;
  let closed = false;
  let delay = 300;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  function open() {
    ws = new WebSocket(`${proto}://${location.host}/ws/tables/${tableId}`);
    ws.onopen = () => { delay = 300; onStatus && onStatus("online"); };
    ws.onmessage = (ev) => { try { onMessage(JSON.parse(ev.data)); } catch (e) { console.error(e); } };
    ws.onclose = () => {
      onStatus && onStatus("offline");
      if (!closed) setTimeout(open, delay);
      delay = Math.min(delay * 1.6, 3000);
    };
  }
  open();
  return {
    send(msg) {
      if (ws && ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify(msg)); return true; }
      toast("not connected; reconnecting…", "error");
      return false;
    },
    close() { closed = true; ws && ws.close(); },
  };
}

