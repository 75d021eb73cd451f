// The lobby: a catalogue card per game (simplest first), a form in player words with the
// game's variants, and every designer setting under a closed "Advanced (designers)".
import { api, el, $, when, initLanguage, seatWords, t, tn, N_ } from "/static/common.js";

const DIFFICULTY = { easy: 0, medium: 1, hard: 2 };
const DIFFICULTY_WORDS = { easy: N_("easy to learn"), medium: N_("a few rules"), hard: N_("rich rules") };
const SEAT_WORDS = { easy: N_("Bot (easy)"), medium: N_("Bot (medium)"), hard: N_("Bot (hard)"), random: N_("Bot (random moves)") };

let games = [];
const extras = {};     // game name -> its lobby module (variants, player options, picture)
let variant = null;    // the chosen variant's id
const nameInput = $("#name");
nameInput.value = localStorage.getItem("gamenight.name") || "";
// Signed in: your account's name, unless this device already knows what you go by.
api("/api/me").then((me) => {
  if (!me.account) return;
  if (!nameInput.value) nameInput.value = me.account.name;
  $("#account-link").textContent = me.account.name;  // signed in: said where "account" was
}).catch(() => {});

function currentGame() { return games.find((g) => g.name === $("#game").value); }
function extra() { return extras[currentGame().name] || { variants: [], playerOptions: [] }; }
function chosenVariant() { return extra().variants.find((v) => v.id === variant) || extra().variants[0] || null; }

/** The players a game (and its chosen variant) allows. */
function playerRange() {
  const g = currentGame();
  const v = chosenVariant();
  const [lo, hi] = v && v.players ? v.players : g.players;
  return { lo: Math.max(lo, g.players[0]), hi: Math.min(hi, g.players[1]), even: !!(v && v.even) };
}

function players() {
  const input = $('#players-opt [name="players"]');
  const v = input ? parseInt(input.value, 10) : 2;
  return Number.isFinite(v) && v > 0 ? Math.min(v, 12) : 2;
}

/** A plain sentence for a bad player count, or "" when it is fine. */
function playersProblem() {
  const g = currentGame();
  const { lo, hi, even } = playerRange();
  const n = Number($('#players-opt [name="players"]').value);
  const v = chosenVariant();
  const what = v && v.players ? `${g.title}${extra().variants.length > 1 ? ` (${t(v.title)})` : ""}` : g.title;
  if (!Number.isInteger(n) || n < lo || n > hi) return t("{game} is for {lo} to {hi} players.", { game: what, lo, hi });
  if (even && n % 2) return t("{game} needs an even number of players.", { game: what });
  return "";
}

function drawCatalogue() {
  const box = $("#catalogue");
  box.replaceChildren();
  for (const g of games) {
    const pic = extras[g.name] && extras[g.name].picture ? extras[g.name].picture() : "";
    const chosen = g.name === $("#game").value;
    // Beside the card, its guided first game (issue 46): a link, not inside the card's button.
    const learn = g.learn ? el("a", { class: "learn-link", href: `/learn/${encodeURIComponent(g.name)}`, "data-learn": g.name },
      t("Learn to play (about {minutes} min)", { minutes: g.learn.minutes })) : "";
    box.append(el("div", { class: "game-entry" }, el("button", { type: "button", class: `game-card${chosen ? " chosen" : ""}`, "data-game": g.name, "aria-pressed": String(chosen),
      onclick: () => { $("#game").value = g.name; variant = null; drawForm(); $("#new-table").scrollIntoView({ behavior: "smooth", block: "start" }); } },
    el("span", { class: "pic" }, pic),
    el("strong", { class: "title" }, g.title),
    el("span", { class: "pitch" }, g.pitch),
    el("span", { class: "facts" }, `${tn("{lo}–{hi} player", "{lo}–{hi} players", g.players[1], { lo: g.players[0], hi: g.players[1] })} · ${t("about {length}", { length: g.length })} · ${t(DIFFICULTY_WORDS[g.difficulty] || g.difficulty)}`)), learn));
  }
}

// A seat option (declared seat=True: the engine's seat index from 0, or "random") is chosen
// as a player number from 1, as people count; the value sent is the engine's index.
function seatChoices(select) {
  const players = Math.max(1, Number($('#players-opt [name="players"]')?.value) || 1);
  const values = ["random", ...Array.from({ length: Math.min(players, 12) }, (_, i) => String(i))];
  const kept = select.value || select.dataset.value;
  const want = values.includes(kept) ? kept : values.includes(select.dataset.default) ? select.dataset.default : "random";
  select.replaceChildren(...values.map((v) => el("option", { value: v, selected: v === want },
    v === "random" ? t("random") : t("player {n}", { n: Number(v) + 1 }))));
}

function optionInput(o, value) {
  const shown = value === null || value === undefined ? "" : Array.isArray(value) ? value.join(",") : String(value);
  let input;
  if (o.seat) input = el("select", { name: o.name, "data-seat-option": "true", "data-value": shown });
  // (a choice's words come from the server in the page's language, `labels`; its value is what is sent)
  else if (o.choices) input = el("select", { name: o.name }, o.choices.map((c, i) => el("option", { value: String(c), selected: String(c) === shown }, o.labels ? o.labels[i] : String(c))));
  else if (o.type === "bool") input = el("select", { name: o.name }, ["true", "false"].map((c) => el("option", { value: c, selected: shown === c }, c === "true" ? t("yes") : t("no"))));
  else {
    const numeric = o.type === "int" || o.type === "float";
    input = el("input", { name: o.name, value: shown, type: numeric ? "number" : "text", step: o.type === "float" ? "any" : "1", min: o.min ?? false, max: o.max ?? false });
  }
  input.dataset.default = o.default === null ? "" : Array.isArray(o.default) ? o.default.join(",") : String(o.default);
  if (o.seat) seatChoices(input);
  return input;
}

function drawVariants() {
  const box = $("#variants");
  const list = extra().variants;
  box.closest("fieldset").hidden = list.length < 2;
  if (!chosenVariant()) variant = list.length ? list[0].id : null;
  variant = chosenVariant() ? chosenVariant().id : null;
  box.replaceChildren(...list.map((v) => el("label", { class: `variant${v.id === variant ? " chosen" : ""}` },
    el("input", { type: "radio", name: "variant-choice", value: v.id, checked: v.id === variant,
      onchange: () => { variant = v.id; drawVariants(); clampPlayers(); drawSeats(); checkPlayers(); } }),
    el("span", {}, el("strong", {}, t(v.title)), el("small", {}, t(v.sentence))))));
}

function clampPlayers() {
  const input = $('#players-opt [name="players"]');
  const { lo, hi } = playerRange();
  input.min = lo; input.max = hi;
  $("#players-hint").textContent = t("{lo} to {hi}", { lo, hi });
}

function checkPlayers() {
  const problem = playersProblem();
  $("#players-err").textContent = problem;
  $('#players-opt [name="players"]').setAttribute("aria-invalid", problem ? "true" : "false");
  return !problem;
}

function drawForm() {
  const game = currentGame();
  $("#new-title").textContent = game.title;
  drawCatalogue();
  const own = new Set(extra().playerOptions.map((p) => p.name));
  const variantNames = new Set(extra().variants.flatMap((v) => Object.keys(v.options)));
  // Players
  const pOpt = game.options.find((o) => o.name === "players");
  const pInput = el("input", { name: "players", type: "number", step: "1", value: String(game.default_players), "aria-describedby": "players-err players-hint" });
  pInput.dataset.default = String(pOpt ? pOpt.default : game.default_players);
  pInput.addEventListener("change", () => { checkPlayers(); drawSeats(); document.querySelectorAll("[data-seat-option]").forEach(seatChoices); });
  pInput.addEventListener("input", checkPlayers);
  $("#players-opt").replaceChildren(el("label", { class: "opt" }, t("Players"), pInput,
    el("small", { id: "players-hint" }), el("small", { class: "field-err", id: "players-err", role: "alert" })));
  drawVariants();
  clampPlayers();
  // Options players choose, with words
  $("#player-options").replaceChildren(...extra().playerOptions.map((p) => {
    const o = game.options.find((x) => x.name === p.name);
    if (!o) return "";
    return el("label", { class: "opt" }, t(p.label), optionInput(o, o.default), el("small", {}, t(p.sentence)));
  }));
  for (const input of $("#player-options").querySelectorAll("[name]")) input.dataset.kind = "option";
  // Everything else: designers only
  const adv = game.options.filter((o) => o.name !== "players" && !own.has(o.name) && !variantNames.has(o.name) && !game.file_options.includes(o.name));
  // Each setting by its name as typed (`gamenight play --option NAME=...`), with its help in
  // the page's language (the server says it so, from the game's catalogue).
  $("#options").replaceChildren(...adv.map((o) => el("label", { class: "opt", title: o.help }, el("code", {}, o.name), optionInput(o, o.default), el("small", {}, o.help))));
  $("#reaction-opt").hidden = $("#hold-opt").hidden = !game.windows;
  $("#advanced").open = false;
  drawSeats();
  checkPlayers();
}

function drawSeats() {
  const game = currentGame();
  const box = $("#seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  const oldNames = [...box.querySelectorAll("[data-seat-name]")].map((s) => s.value);
  const choices = [["me", t("You")], ["open", t("Open seat (invite a friend)")], ...game.levels.map((l) => [l, SEAT_WORDS[l] ? t(SEAT_WORDS[l]) : t("Bot ({level})", { level: l })])];
  box.replaceChildren();
  for (let i = 0; i < players(); i++) {
    const value = old[i] || (i === 0 ? "me" : game.levels.includes("medium") ? "medium" : game.levels[0]);
    const select = el("select", { name: `seat${i}`, "data-seat": i, onchange: sharedHint }, choices.map(([v, t]) => el("option", { value: v, selected: v === value }, t)));
    const who = el("input", { "data-seat-name": i, maxlength: "40", placeholder: t("their name"), "aria-label": t("name of the person in seat {seat}", { seat: i + 1 }), hidden: true });
    who.value = oldNames[i] || "";
    box.append(el("label", { class: "opt seat-opt" }, t("Seat {seat}", { seat: i + 1 }), select, who));
  }
  sharedHint();
}

// "You" in more than one seat: one shared screen (pass and play). The first "You" is the
// name above; every further "You" seat asks for that person's name.
function sharedHint() {
  const selects = [...document.querySelectorAll("#seats select")];
  const mine = selects.filter((s) => s.value === "me").map((s) => Number(s.dataset.seat));
  for (const input of document.querySelectorAll("#seats [data-seat-name]")) {
    input.hidden = !(mine.length > 1 && mine.indexOf(Number(input.dataset.seatName)) > 0);
  }
  let hint = document.getElementById("shared-hint");
  if (!hint) { hint = el("p", { id: "shared-hint", class: "muted" }); $("#seats").after(hint); }
  hint.hidden = mine.length < 2;
  hint.textContent = mine.length < 2 ? "" : tn("One shared screen: {n} of you play at this device (pass and play). Between turns the table hides and asks you to pass the device, so nobody sees another's cards.", "One shared screen: {n} of you play at this device (pass and play). Between turns the table hides and asks you to pass the device, so nobody sees another's cards.", mine.length);
}

// The lobby's lists (issue 14): your tables at the top ("your turn" when you must act),
// tables to join or watch below the form; finished games under "Recent games".
async function refresh() {
  let data = null;
  try { data = await api("/api/lobby"); } catch (_) { return; }
  const title = (name) => (games.find((g) => g.name === name) || { title: name }).title;
  const words = { "your turn": N_("your turn"), play: N_("play"), "play here": N_("play here"), join: N_("join"), watch: N_("watch") };
  const row = (tb) => el("tr", { class: tb.mine ? "mine" : "", "data-table": tb.id, "data-action": tb.action },
    el("td", {}, title(tb.game)),
    el("td", {}, el("span", { class: `pill ${tb.status === "open" ? "ok" : "warn"}` }, tb.status === "open" ? t("waiting for players") : t("playing")),
      // a practice table: its seed (so every hand) is known to everyone, and said so here
      tb.practice ? el("span", { class: "pill", "data-practice": "", title: t("the seed is chosen and public: every deal can be known in advance") }, t("practice · seed {seed}", { seed: tb.practice.seed })) : ""),
    // a person's name may break anywhere (a 40-letter one must not widen a phone's page);
    // the interface's own words ("open seat", "Bot 2 (hard)") only between words
    el("td", { class: "names" }, ...tb.seats.flatMap((s, i) => [i ? ", " : "",
      s.kind === "person" ? el("span", { class: "name" }, seatWords(s)) : (s.kind === "open" ? t("open seat") : seatWords(s))])),
    el("td", {}, el("a", { href: `/tables/${tb.id}${tb.action === "play here" ? "?here=1" : ""}`, class: tb.your_turn ? "btn primary" : "" }, t(words[tb.action] || "watch"))));
  // Your own games first, at the top of the page (a phone scrolled past the whole form).
  $("#yours-box").hidden = !data.yours.length;
  $("#yours").replaceChildren(...data.yours.map(row));
  const body = $("#tables");
  if (!data.tables.length) body.replaceChildren(el("tr", {}, el("td", { class: "muted" }, t("No tables to join yet: create one above."))));
  else body.replaceChildren(...data.tables.map(row));
  const recent = $("#recent");
  if (!data.recent.length) { recent.replaceChildren(el("tr", {}, el("td", { class: "muted" }, t("none yet")))); return; }
  recent.replaceChildren(...data.recent.map((r) => el("tr", { "data-recent": r.id },
    el("td", {}, title(r.game)),
    el("td", { class: "muted" }, when(r.ended)),
    el("td", {}, el("a", { href: r.replay }, t("replay"))))));
}

/** A server refusal in plain words beside the field it is about. */
function showServerError(message) {
  const plain = message.replace(/\s*\((?:[A-Z]{1,2}\d+[a-z]?|§[\d.]+|Q\d+)(?:[,;/ ]+(?:[A-Z]{1,2}\d+[a-z]?|§[\d.]+|Q\d+))*\)/g, "");
  if (/player/i.test(message) && !/seat/i.test(message)) { $("#players-err").textContent = playersProblem() || plain; return; }
  $("#create-err").textContent = plain;
}

$("#create").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("#create-err").textContent = ""; $("#name-err").textContent = "";
  const game = currentGame();
  const name = nameInput.value.trim();
  if (!checkPlayers()) { $('#players-opt [name="players"]').focus(); return; }
  localStorage.setItem("gamenight.name", name);
  const options = { ...(chosenVariant() ? chosenVariant().options : {}) };
  for (const input of document.querySelectorAll("#options [name], #player-options [name], #players-opt [name]")) {
    if (input.value !== input.dataset.default) options[input.name] = input.value;
  }
  const picks = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  const sit = picks.indexOf("me");
  const body = { game: game.name, options, seats: picks.map((p) => (p === "me" ? "open" : p)),
    settings: { bot_delay: $("#bot_delay").value, clock: $("#clock").value, grace_seconds: $("#grace_seconds").value, ...(game.windows ? { reaction_seconds: $("#reaction_seconds").value, reaction_hold_seconds: $("#reaction_hold_seconds").value } : {}),
      ...($("#outside_bots").checked ? { outside_bots: true } : {}) } };  // programs may sit (docs/bot-api.md)
  const mine = picks.map((p, i) => (p === "me" ? i : -1)).filter((i) => i >= 0);
  const shared = mine.length > 1;  // one shared screen: every "You" seat at this device
  const sitters = [];
  if (sit >= 0) {
    if (!name) { $("#name-err").textContent = t("Enter your name to take a seat."); nameInput.focus(); return; }
    if (!shared) { body.sit = sit; body.name = name; }
    else {
      for (const seat of mine) {
        const input = document.querySelector(`#seats [data-seat-name="${seat}"]`);
        const who = seat === sit ? name : input.value.trim();
        if (!who) { $("#create-err").textContent = t("Enter the name of the person in seat {seat}.", { seat: seat + 1 }); input.focus(); return; }
        sitters.push({ seat, name: who });
      }
      if (new Set(sitters.map((s) => s.name.toLowerCase())).size < sitters.length) {
        $("#create-err").textContent = t("Give each person at this device their own name."); return;
      }
      body.settings.shared_screen = true;
    }
  }
  try {
    const t = await api("/api/tables", body);
    for (const s of sitters) await api(`/api/tables/${t.id}/shared/join`, s);
    location.href = `/tables/${t.id}`;
  } catch (e) { showServerError(e.message); }
});

// The table settings' defaults and ranges come from the server (GET /api/table-settings):
// the form never says a number twice.
async function loadSettings() {
  const known = await api("/api/table-settings");
  for (const input of document.querySelectorAll("input[data-setting]")) {
    const s = known[input.id];
    if (!s) continue;
    input.min = String(s.min);
    input.max = String(s.max);
    if (s.default !== null) input.value = String(s.default);
  }
  $("#hold-said").textContent = t("everyone's short moment to answer a card; \"Wait!\" gives a player {seconds} s", { seconds: $("#reaction_hold_seconds").value });
}

async function load() {
  await initLanguage();  // the page's language first: everything below is drawn in it
  await loadSettings();
  games = (await api("/api/games")).sort((a, b) => (DIFFICULTY[a.difficulty] ?? 9) - (DIFFICULTY[b.difficulty] ?? 9));
  const sel = $("#game");
  sel.replaceChildren(...games.map((g) => el("option", { value: g.name }, g.title)));
  const want = new URLSearchParams(location.search).get("game");
  sel.value = want && games.some((g) => g.name === want) ? want : games[0].name;
  sel.addEventListener("change", () => { variant = null; drawForm(); });
  drawCatalogue();
  drawForm();
  refresh();
  setInterval(refresh, 3000);
  // Pictures and variants come from each game's own small module; the form works without.
  await Promise.all(games.map(async (g) => {
    try { extras[g.name] = await import(`/static/games/${g.web.replace(/\.js$/, "")}-lobby.js`); } catch (_) { /* no lobby module */ }
  }));
  drawForm();
}

load();
