// Accounts, profiles and leaderboards: /account, /players/NAME, /leaderboard/GAME.
// Every piece of data reaches the page as a text node (el() builds nodes, never HTML).
import { $, api, el, fixed, when, initLanguage, t, tn } from "/static/common.js";

const path = location.pathname.split("/").filter(Boolean).map(decodeURIComponent);

async function request(method, url, body) {
  const res = await fetch(url, {
    method,
    credentials: "same-origin",
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error((data && data.error) || `${res.status} ${res.statusText}`);
  return data;
}

async function showMe() {
  const { account } = await api("/api/me");
  const me = $("#me");
  me.replaceChildren(account
    ? el("a", { href: `/players/${encodeURIComponent(account.name)}` }, account.name)
    : el("a", { href: "/account" }, t("Sign in")));
  return account;
}

async function accountPage() {
  $("#account").hidden = false;
  document.title = t("gamenight — your account");
  const refresh = async () => {
    const account = await showMe();
    $("#account-form").hidden = !!account;
    $("#signed-in").hidden = !account;
    $("#manage").hidden = !account;
    if (account) {
      $("#signed-in-text").textContent = t("Signed in as {name}.", { name: account.name });
      $("#my-profile").href = `/players/${encodeURIComponent(account.name)}`;
      $("#archive-out").checked = (await api("/api/account/archive")).opt_out;
      $("#admin").hidden = !(await api("/api/admin")).admin;
    }
  };
  const send = async (url) => {
    const err = $("#account-err");
    err.textContent = "";
    try {
      await request("POST", url, { name: $("#acc-name").value, password: $("#acc-password").value });
      await refresh();
    } catch (e) { err.textContent = e.message; }
  };
  $("#account-form").addEventListener("submit", (ev) => { ev.preventDefault(); send("/api/session"); });
  $("#sign-up").addEventListener("click", () => send("/api/accounts"));
  $("#log-out").addEventListener("click", async () => { await request("DELETE", "/api/session"); await refresh(); });
  // Password change, export and deletion (accounts.router): every answer shown as text.
  $("#password-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const msg = $("#password-msg");
    msg.textContent = "";
    try {
      await request("POST", "/api/account/password", { old: $("#pw-old").value, new: $("#pw-new").value });
      $("#password-form").reset();
      msg.textContent = t("Password changed; other devices are signed out.");
    } catch (e) { msg.textContent = e.message; }
  });
  // The open archive (issue 48): a person's opt-out, and the operator's admins' download.
  $("#archive-out").addEventListener("change", async (ev) => {
    const box = ev.target;
    const msg = $("#archive-msg");
    msg.textContent = "";
    try {
      box.checked = (await request("POST", "/api/account/archive", { opt_out: box.checked })).opt_out;
      msg.textContent = box.checked ? t("Your games stay out of the archive.") : t("Your games may go into the archive.");
    } catch (e) { box.checked = !box.checked; msg.textContent = e.message; }
  });
  for (const g of await api("/api/games")) $("#admin-game").append(el("option", { value: g.name }, g.title));
  $("#admin-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const msg = $("#admin-msg");
    msg.textContent = t("Exporting…");
    const query = new URLSearchParams({ since: $("#admin-since").value, game: $("#admin-game").value });
    const res = await fetch(`/api/admin/archive?${query}`, { credentials: "same-origin" });
    if (!res.ok) {
      const data = await res.json().catch(() => null);
      msg.textContent = (data && data.error) || `${res.status} ${res.statusText}`;
      return;
    }
    const link = el("a", { href: URL.createObjectURL(await res.blob()), download: "games.parquet" });
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    const games = Number(res.headers.get("x-games"));
    msg.textContent = tn("{n} game exported.", "{n} games exported.", games);
  });
  $("#delete-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const msg = $("#delete-msg");
    msg.textContent = "";
    if (!confirm(t("Delete your account for good?"))) return;
    try {
      await request("DELETE", "/api/account", { password: $("#del-password").value });
      $("#delete-form").reset();
      await refresh();
      $("#account-err").textContent = t("Your account was deleted.");
    } catch (e) { msg.textContent = e.message; }
  });
  await refresh();
}

// A newcomer's rating (mu - 3 sigma) is near zero or below: shown as the estimate with a
// "?" until it is settled, as lichess does (accounts.PROVISIONAL_GAMES).
function ratingCell(r) {
  if (!r.provisional) return el("td", {}, fixed(r.rating, 1));
  return el("td", { title: t("provisional: too few rated games to be sure") }, `${fixed(r.mu, 1)}?`);
}

async function profilePage(name) {
  $("#profile").hidden = false;
  document.title = `gamenight — ${name}`;
  await showMe();
  let p;
  try { p = await api(`/api/profiles/${encodeURIComponent(name)}`); } catch (e) {
    $("#profile-h").textContent = e.message;
    return;
  }
  $("#profile-h").textContent = p.name;
  $("#profile-summary").textContent = tn("{n} finished game · playing since {since}", "{n} finished games · playing since {since}", p.games_played, { since: when(p.since) });
  const ratings = $("#profile-ratings tbody");
  ratings.replaceChildren(...(p.ratings.length ? p.ratings.map((r) => el("tr", {},
    el("td", {}, r.title), ratingCell(r), el("td", {}, `${fixed(r.mu, 1)} ± ${fixed(r.sigma, 1)}`),
    el("td", {}, String(r.games)), el("td", {}, el("a", { href: `/leaderboard/${encodeURIComponent(r.game)}` }, t("leaderboard"))),
  )) : [el("tr", {}, el("td", { colspan: "5", class: "muted" }, t("No rated games yet.")))]));
  const recent = $("#profile-recent tbody");
  recent.replaceChildren(...(p.recent.length ? p.recent.map((g) => el("tr", {},
    el("td", {}, g.title), el("td", {}, when(g.at)), el("td", {}, String(g.players)),
    el("td", {}, g.rated ? t("yes") : t("no")),
    el("td", {}, g.replay ? el("a", { href: g.replay }, t("replay")) : el("a", { href: `/tables/${g.table}` }, g.status)),
  )) : [el("tr", {}, el("td", { colspan: "5", class: "muted" }, t("No games yet.")))]));
}

function playerCell(r) {
  return el("td", {}, r.bot ? r.name : el("a", { href: `/players/${encodeURIComponent(r.name)}` }, r.name));
}

// Ranked by rating (mu - 3 sigma), and below, apart and unranked, the provisional players
// (fewer than accounts.PROVISIONAL_GAMES rated games) by their estimate mu, as lichess does.
async function leaderboardPage(game) {
  $("#leaderboard").hidden = false;
  await showMe();
  let b;
  try { b = await api(`/api/leaderboard/${encodeURIComponent(game)}`); } catch (e) {
    $("#board-h").textContent = e.message;
    return;
  }
  document.title = t("gamenight — {game} leaderboard", { game: b.title });
  $("#board-h").textContent = t("{game}: leaderboard", { game: b.title });
  const ranked = b.players.filter((r) => !r.provisional);
  const provisional = b.players.filter((r) => r.provisional);
  $("#board tbody").replaceChildren(...(ranked.length ? ranked.map((r) => el("tr", {},
    el("td", {}, String(r.place)), playerCell(r), el("td", {}, fixed(r.rating, 1)),
    el("td", {}, `${fixed(r.mu, 1)} ± ${fixed(r.sigma, 1)}`), el("td", {}, String(r.games)),
  )) : [el("tr", {}, el("td", { colspan: "5", class: "muted" }, t("Nobody is ranked yet.")))]));
  const n = b.provisional_games;
  $("#provisional").hidden = !provisional.length;
  $("#provisional-note").textContent = t("Fewer than {n} rated games: not ranked yet. A newcomer's rating (μ − 3σ) is near zero or below until the uncertainty σ shrinks, so these players are listed apart, by their skill estimate μ, and join the ranking after {n} rated games.", { n });
  $("#board-provisional tbody").replaceChildren(...provisional.map((r) => el("tr", {},
    playerCell(r), el("td", {}, `${fixed(r.mu, 1)}?`), el("td", {}, `± ${fixed(r.sigma, 1)}`), el("td", {}, String(r.games)))));
}

await initLanguage();  // the page's language first: everything below is drawn in it
if (path[0] === "players" && path[1]) profilePage(path[1]);
else if (path[0] === "leaderboard" && path[1]) leaderboardPage(path[1]);
else accountPage();
