// The rules panel beside every table: the game's rules in player words by section, then its
// cards or pieces (GET /api/games/{game}/rules: the game's rules.py, the same text as
// `gamenight rules`), searchable as you type. showRule(key) opens it at one entry (a card's
// right-click, the "?" key). Built from text nodes only, never markup from data.
import { api, el, rich, t } from "/static/common.js";

const entries = new Map(); // entry key -> {entry, node}
let panel = null;          // the <details> that holds the panel
let search = null;         // the search box
let shown = null;          // the entry last opened by showRule

/** The rule of one card or piece in player words ("" before the rules are loaded). */
export function ruleOf(key) { return entries.get(key)?.entry.rule || ""; }

function clauses(ids) {
  return ids.length ? el("small", { class: "clauses", title: t("the clauses of the rules spec") }, ids.join(" · ")) : null;
}

function sectionNode(s) {
  return el("section", { class: "rule-section", "data-key": s.key, "aria-label": s.title },
    el("h4", {}, s.title), ...s.paragraphs.map((p) => el("p", {}, p)), clauses(s.clauses));
}

function entryNode(e) {
  return el("p", { class: "rule-entry", id: `rule-${e.key}`, "data-key": e.key, tabindex: "-1" },
    el("b", {}, e.name), `: ${e.rule} `, clauses(e.clauses));
}

/** Show only the sections and entries holding every word typed (any case). */
function filter(list, none, entriesHead) {
  const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
  let any = false, anyEntry = false;
  for (const item of list.querySelectorAll(".rule-section, .rule-entry")) {
    const text = item.textContent.toLowerCase();
    item.hidden = !words.every((w) => text.includes(w));
    if (!item.hidden) { any = true; if (item.classList.contains("rule-entry")) anyEntry = true; }
  }
  entriesHead.hidden = !anyEntry;
  none.hidden = any;
}

/** The table's settings that differ from the standard game, each with its help in the
 * page's language (GET /api/games), or null: the rules below are the standard game's, and
 * a table with a target of 15 must not read "11" without a word. */
async function settingsNode(game, options) {
  const chosen = Object.entries(options || {}).filter(([name]) => name !== "players");
  if (!chosen.length) return null;
  let known = [];
  try { known = ((await api("/api/games")).find((g) => g.name === game) || { options: [] }).options; }
  catch (_) { return null; }
  const rows = chosen.flatMap(([name, value]) => {
    const o = known.find((x) => x.name === name);
    if (!o || String(o.default) === String(value)) return [];
    return [el("li", {}, el("code", {}, `${name} = ${value}`), " ", el("small", {}, o.help))];
  });
  if (!rows.length) return null;
  return el("div", { class: "table-settings", id: "table-settings", role: "note" },
    el("h4", {}, t("This table's settings")),
    el("ul", {}, ...rows),
    el("p", { class: "muted" }, t("The rules below describe the standard game; these settings change it.")));
}

/** Fill `box` (inside the <details> panel) with the game's rules; `pageHelp` is the page's
 * own line on how to play at this table (keys, clicks), shown above the rules, and
 * `options` the table's own settings, shown above them where they differ. */
export async function initRules(box, game, pageHelp = "", options = {}) {
  panel = box.closest("details");
  let rules;
  try { rules = await api(`/api/games/${encodeURIComponent(game)}/rules`); }
  catch (e) { box.replaceChildren(el("p", { class: "muted" }, t("The rules could not be loaded: {reason}", { reason: e.message }))); return; }
  const settings = await settingsNode(game, options);
  search = el("input", { type: "search", id: "rules-search", placeholder: t("search the rules"), autocomplete: "off" });
  const none = el("p", { class: "muted", id: "rules-none", hidden: true }, t("Nothing in the rules matches."));
  const entriesHead = el("h4", { class: "rules-entries" }, rules.entries_title);
  entries.clear();
  const entryNodes = rules.entries.map((e) => {
    const node = entryNode(e);
    entries.set(e.key, { entry: e, node });
    return node;
  });
  const list = el("div", { id: "rules-list", tabindex: "0", role: "region", "aria-label": t("{game} rules", { game: rules.title }) },
    ...rules.sections.map(sectionNode), entriesHead, ...entryNodes);
  search.addEventListener("input", () => filter(list, none, entriesHead));
  const howTo = pageHelp ? rich(pageHelp) : null;
  if (howTo) howTo.className = "controls";
  box.replaceChildren(howTo, settings || "", el("label", { class: "rules-search" }, `${t("Search")} `, search), none, list);
}

/** Open the panel at the entry `key` (a card type, a piece kind); unknown or none: the
 * panel itself, at its search box. */
export function showRule(key) {
  if (!panel || !search) return;
  panel.open = true;
  if (search.value) { search.value = ""; search.dispatchEvent(new Event("input")); }
  if (shown) shown.classList.remove("hit");
  const found = key ? entries.get(key) : null;
  if (!found) { search.focus(); return; }
  shown = found.node;
  shown.classList.add("hit");
  // The entry to the top of the list, then the page as little as needed: the table stays.
  const list = shown.parentElement;
  list.scrollTop += shown.getBoundingClientRect().top - list.getBoundingClientRect().top;
  shown.scrollIntoView({ block: "nearest" });
  shown.focus({ preventScroll: true });
}
