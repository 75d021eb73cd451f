import { api, el, $, GAME_TITLES } from "/static/common.js";

let games = [];
const nameInput = $("#name");
nameInput.value = localStorage.getItem("gamenight.name") || "";

function currentGame() { return games.find((g) => g.name === $("#game").value); }

function players() {
  const input = document.querySelector('#create [name="players"]');
  const v = input ? parseInt(input.value, 10) : 2;
  return Number.isFinite(v) && v > 0 ? Math.min(v, 12) : 2;
}

function drawOptions() {
  const game = currentGame();
  const box = $("#options");
  box.innerHTML = "";
  $("#players-opt").innerHTML = "";
  for (const o of game.options) {
    if (game.file_options.includes(o.name) && !o.choices) {
      // a file path option: only presets from the web
    }
    let input;
    if (o.choices) {
      input = el("select", { name: o.name }, o.choices.map((c) => el("option", { value: String(c), selected: c === o.default }, String(c))));
    } else if (o.type === "bool") {
      input = el("select", { name: o.name }, ["true", "false"].map((c) => el("option", { value: c, selected: String(o.default) === c }, c)));
    } else {
      const numeric = o.type === "int" || o.type === "float";
      input = el("input", {
        name: o.name, value: o.default === null ? "" : (Array.isArray(o.default) ? o.default.join(",") : String(o.default)),
        type: numeric ? "number" : "text", step: o.type === "float" ? "any" : "1",
        min: o.floor ?? o.min ?? false, max: o.ceiling ?? o.max ?? false,  // the server's ceiling
      });
    }
    input.dataset.default = o.default === null ? "" : (Array.isArray(o.default) ? o.default.join(",") : String(o.default));
    input.addEventListener("change", () => { if (o.name === "players") drawSeats(); });
    const label = el("label", { class: "opt", title: o.help }, o.name === "players" ? "Players" : o.name, input, el("small", {}, o.help));
    (o.name === "players" ? $("#players-opt") : box).append(label);
  }
  drawSeats();
}

function drawSeats() {
  const game = currentGame();
  const box = $("#seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.innerHTML = "";
  for (let i = 0; i < players(); i++) {
    const choices = [["me", "me"], ["open", "open (invite)"], ...game.levels.map((l) => [l, `bot: ${l}`])];
    const fallback = i === 0 ? "me" : "medium";
    const value = old[i] || fallback;
    box.append(el("label", { class: "opt" }, `Seat ${i + 1}`,
      el("select", { name: `seat${i}`, "data-seat": i }, choices.map(([v, t]) => el("option", { value: v, selected: v === value }, t)))));
  }
}

async function load() {
  games = await api("/api/games");
  const sel = $("#game");
  sel.innerHTML = "";
  for (const g of games) sel.append(el("option", { value: g.name }, GAME_TITLES[g.name] || g.name));
  const want = new URLSearchParams(location.search).get("game");
  if (want) sel.value = want;
  sel.addEventListener("change", drawOptions);
  drawOptions();
  refresh();
  setInterval(refresh, 3000);
}

async function refresh() {
  let tables = [];
  try { tables = await api("/api/tables"); } catch (_) { return; }
  const body = $("#tables");
  body.innerHTML = "";
  if (!tables.length) { body.append(el("tr", {}, el("td", { class: "muted" }, "no tables yet: create one above"))); return; }
  for (const t of tables) {  // newest first, as the server sends them
    const row = el("tr", {},
      el("td", {}, GAME_TITLES[t.game] || t.game),
      el("td", {}, el("span", { class: `pill ${t.status === "open" ? "ok" : "warn"}` }, t.status)),
      el("td", {}, t.seats.map((s) => s.kind === "open" ? "open seat" : s.name).join(", ")),
      el("td", {}, el("a", { href: `/tables/${t.id}` }, t.status === "open" ? "join" : "watch")));
    body.append(row);
  }
}

$("#create").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const game = currentGame();
  const name = nameInput.value.trim();
  localStorage.setItem("gamenight.name", name);
  const options = {};
  for (const input of document.querySelectorAll("#options [name], #players-opt [name]")) {
    if (input.value !== input.dataset.default) options[input.name] = input.value;
  }
  const picks = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  const sit = picks.indexOf("me");
  const seats = picks.map((p) => (p === "me" ? "open" : p));
  const body = {
    game: game.name, options, seats,
    settings: { reaction_seconds: $("#reaction_seconds").value, bot_delay: $("#bot_delay").value },
  };
  if (sit >= 0) {
    if (!name) { $("#create-err").textContent = "enter your name to take a seat"; nameInput.focus(); return; }
    body.sit = sit; body.name = name;
  }
  try {
    const t = await api("/api/tables", body);
    location.href = `/tables/${t.id}`;
  } catch (e) {
    $("#create-err").textContent = e.message;
  }
});

load();
