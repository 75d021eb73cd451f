import { api, el, $, toast, GAME_TITLES } from "/static/common.js";

const tableId = location.pathname.split("/")[2];
let data = null, module = null, step = 0, timer = null, info = null;
$("#back").href = `/tables/${tableId}`;

const ctx = {
  tableId,
  get names() { return info.seats.map((s) => s.name || `seat ${s.seat + 1}`); },
  act() {}, send() {},
};

function show() {
  const seat = data.seat;
  const view = data.views[step];
  $("#slider").value = step;
  $("#step-text").textContent = `step ${step} of ${data.steps.length}`;
  const s = step > 0 ? data.steps[step - 1] : null;
  $("#step-action").textContent = s ? `${ctx.names[s.seat]}: ${JSON.stringify(s.action)}` : "the start";
  document.body.dataset.step = step;
  module.render($("#game"), {
    type: "state", version: step, seat, view, actions: [], asked: false,
    table: { ...info, status: "replay" }, deadline: null,
  }, ctx);
}

async function load(seat) {
  try { data = await api(`/api/tables/${tableId}/replay${seat === "" ? "" : `?seat=${seat}`}`); }
  catch (e) { $("#game").textContent = e.message; toast(e.message, "error"); return; }
  $("#slider").max = data.steps.length;
  step = Math.min(step, data.steps.length);
  show();
}

function go(n) { step = Math.max(0, Math.min(data.steps.length, n)); show(); }

async function main() {
  info = await api(`/api/tables/${tableId}`);
  $("#title").textContent = `${GAME_TITLES[info.game] || info.game} — replay`;
  for (const s of info.seats) $("#seat").append(el("option", { value: s.seat }, s.name || `seat ${s.seat + 1}`));
  module = await import(`/static/games/${info.game}.js`);
  if (module.init) await module.init($("#game"), info, ctx);
  $("#first").onclick = () => go(0);
  $("#prev").onclick = () => go(step - 1);
  $("#next").onclick = () => go(step + 1);
  $("#last").onclick = () => go(data.steps.length);
  $("#slider").oninput = (e) => go(Number(e.target.value));
  $("#seat").onchange = (e) => load(e.target.value);
  $("#play").onclick = () => {
    if (timer) { clearInterval(timer); timer = null; $("#play").textContent = "Play"; return; }
    $("#play").textContent = "Pause";
    timer = setInterval(() => { if (step >= data.steps.length) { clearInterval(timer); timer = null; $("#play").textContent = "Play"; } else go(step + 1); }, 700);
  };
  document.addEventListener("keydown", (ev) => {
    if (ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT") return;
    if (ev.key === "ArrowRight") go(step + 1);
    else if (ev.key === "ArrowLeft") go(step - 1);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(data.steps.length);
  });
  await load("");
}

main();
