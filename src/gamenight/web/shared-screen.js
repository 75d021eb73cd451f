// One shared screen, pass and play (issue 14, item 7). At a table set up for it, this page
// may hold several seats. The server sends a seat's view only after the page says that
// person is looking, so between turns the page covers the table and asks to pass the device.
import { api, el, $, toast, t } from "/static/common.js";

let tableId = null;
let send = null;
let reconnect = null;
let held = [];          // the seats this device holds
let enabled = false;
let asking = null;      // the seat we are waiting for to take the device

export async function initShared(opts) {
  tableId = opts.tableId;
  send = opts.send;
  reconnect = opts.reconnect;
  let mine;
  try { mine = await api(`/api/tables/${tableId}/shared`); } catch (_) { return; }
  if (!mine.shared_screen) return;
  enabled = true;
  held = mine.seats;
  document.body.dataset.sharedScreen = "1";
  const name = el("input", { id: "shared-name", maxlength: "40", placeholder: t("name"), "aria-label": t("name of the next player at this device") });
  const add = el("button", { type: "button", id: "shared-sit", class: "primary", onclick: () => sit(name) }, t("Add a player at this device"));
  $("#lobby").append(el("div", { class: "row spaced", id: "shared-lobby" }, el("strong", {}, `${t("One shared screen:")} `), name, add));
}

async function sit(input) {
  const name = input.value.trim();
  if (!name) { input.focus(); return; }
  const seat = lastTable ? (lastTable.seats.find((s) => s.kind === "open") || {}).seat : undefined;
  if (seat === undefined) { toast(t("every seat is taken"), "error"); return; }
  try {
    const r = await api(`/api/tables/${tableId}/shared/join`, { seat, name });
    held = r.seats;
    input.value = "";
    reconnect();  // the socket learns the seats of this device from the new cookie
  } catch (e) { toast(e.message, "error"); }
}

let lastTable = null;

function overlay() {
  let box = $("#handover");
  if (!box) {
    box = el("div", { id: "handover", class: "overlay handover", hidden: true },
      el("div", { class: "panel", role: "dialog", "aria-labelledby": "handover-h" },
        el("h2", { id: "handover-h" }), el("p", { id: "handover-p" }),
        el("button", { type: "button", id: "handover-ready", class: "primary big", onclick: () => {
          if (asking !== null) send({ type: "look", seat: asking });
        } })));
    document.body.append(box);
  }
  return box;
}

function ask(seat, name) {
  const box = overlay();
  $("#handover-h").textContent = t("Pass the device to {name}", { name });
  $("#handover-p").textContent = t("Tap when only {name} is looking.", { name });
  $("#handover-ready").textContent = t("I am {name}: show my cards", { name });
  box.dataset.seat = seat;
  box.hidden = false;
}

// Every state message; decides whose view should be on screen.
export function sharedState(msg) {
  lastTable = msg.table;
  if (!enabled) return;
  const view = msg.view;
  const who = view && !view.over && msg.table.status === "running" ? view.to_act : null;
  if (who !== null && who !== undefined && held.includes(who) && who !== msg.seat) {
    if (msg.seat !== null && asking !== who) send({ type: "look", seat: null });  // hide the last hand now
    asking = who;
    const s = msg.table.seats[who];
    ask(who, s.name || t("seat {seat}", { seat: who + 1 }));
    overlay().dataset.window = view.window ? "1" : "0";  // a reaction window waits too
    return;
  }
  if (who === msg.seat || who === null || who === undefined || !held.includes(who)) {
    asking = null;
    overlay().hidden = true;
  }
}
