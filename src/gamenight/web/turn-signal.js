// Knowing it's your turn (issue 14, item 5): when this page must act, the tab's title and
// favicon change; an optional short beep (off by default, one switch, made with WebAudio:
// no sound file); a browser notification when the tab is hidden and notifications are allowed.
import { el, $, t } from "/static/common.js";

const SOUND_KEY = "gamenight.turnSound";
const ICON = "/static/favicon.svg";
const TURN_ICON = "/static/favicon-turn.svg";
let baseTitle = document.title;
let mustAct = false;
let audio = null;

function soundOn() { return localStorage.getItem(SOUND_KEY) === "on"; }

function beep() {
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
  } catch (_) { /* no audio on this device: the title still says it */ }
  document.body.dataset.beeps = String(Number(document.body.dataset.beeps || 0) + 1);
}

function notify(text) {
  if (!("Notification" in window) || Notification.permission !== "granted") return;
  try {
    const n = new Notification(t("gamenight: your turn"), { body: text, tag: "gamenight-turn" });
    n.onclick = () => { window.focus(); n.close(); };
    document.body.dataset.notified = String(Number(document.body.dataset.notified || 0) + 1);
  } catch (_) { /* some browsers only notify from a service worker */ }
}

function setIcon(href) {
  let link = document.querySelector("link[rel=icon]");
  if (!link) { link = el("link", { rel: "icon", type: "image/svg+xml" }); document.head.append(link); }
  link.setAttribute("href", href);
}

// The switches, shown once in the side panel.
export function initTurnSignal(title) {
  baseTitle = title;
  const sound = el("input", { type: "checkbox", id: "turn-sound", onchange: (ev) => {
    localStorage.setItem(SOUND_KEY, ev.target.checked ? "on" : "off");
    if (ev.target.checked) beep();  // a first sound, and browsers allow audio after a click
  } });
  sound.checked = soundOn();
  const allow = el("button", { type: "button", id: "turn-notify", class: "linkish", onclick: async () => {
    try { await Notification.requestPermission(); } catch (_) { /* refused or unsupported */ }
    drawNotify();
  } }, t("Tell me when the tab is hidden"));
  const box = el("div", { class: "panel", id: "turn-signal" },
    el("label", { class: "opt", id: "turn-sound-label" }, sound, ` ${t("sound on my turn")}`), allow,
    el("span", { id: "turn-notify-state", class: "muted" }));
  $("#players").after(box);
  drawNotify();
}

function drawNotify() {
  const known = "Notification" in window;
  const state = known ? Notification.permission : "unsupported";
  $("#turn-notify").hidden = state !== "default";
  $("#turn-notify-state").textContent = state === "granted" ? t("notifications on when the tab is hidden")
    : state === "denied" ? t("notifications are blocked in this browser") : "";
}

// Every state message: does this page have to act now?
export function turnSignal(msg, what) {
  const now = !!msg.asked && !!msg.view && !msg.view.over;
  document.body.dataset.yourTurn = now ? "1" : "0";
  if (now === mustAct) return;
  mustAct = now;
  document.title = now ? `● ${t("Your turn")} — ${baseTitle}` : baseTitle;
  setIcon(now ? TURN_ICON : ICON);
  if (!now) return;
  if (soundOn()) beep();
  if (document.visibilityState === "hidden") notify(what || t("it is your turn"));
}
