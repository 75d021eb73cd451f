// Arne: your hand, every display with its stacks, the discard pile, direction and turn,
// target picking by clicking, the reaction window with its timer, the live score preview.
import { el, svgEl } from "/static/common.js";

export const howto = `
<p>Build the best display of your colour. On your turn you draw a card, then play one
<b>white</b> card: a point card (onto a display, or discard it), <b>×3</b> on a stack, or an
action against a player (take a random card, demand cards, draw three, pass hands, swap
places).</p>
<p><b>Black</b> cards can be played out of turn whenever you hold <b>priority</b> in a
<b>reaction window</b>: −200, Chameleon, Thief, Crush, Lock, Stop, Reverse. A window opens at
the start of a turn, before some white actions resolve and after each one. Priority goes round
the table; after any black card everybody gets a fresh chance to answer.</p>
<p>The orange banner shows an open window and whose priority it is, with a timer. Answer with
a black card or <b>Pass</b>. You can <b>pass in advance</b> (cancelled if someone plays a
black card) or switch on <b>always pass</b>. When the draw pile is empty there is a final
round, then displays are scored: the live score is shown next to each player.</p>
<p>Click a card in your hand, then click its target (a stack, a display, a player or a
colour), or use the buttons listed under your hand. <kbd>P</kbd> passes.</p>`;

const COLOURS = { red: "#d62828", green: "#2a9d3a", yellow: "#e0b000", blue: "#1f6feb", c5: "#7b3fb5", c6: "#f07c00", purple: "#7b3fb5", orange: "#f07c00" };
const BLACK = new Set(["MINUS200", "STOP", "CRUSH", "REVERSE", "CHAMELEON", "THIEF", "LOCK"]);
const SHORT = { P50: "50", P100: "100", P200: "200", P500: "500", P1000: "1000", X2: "×2", X3: "×3", MINUS200: "−200",
  STOP: "STOP", CRUSH: "CRUSH", REVERSE: "REV", CHAMELEON: "CHAM", THIEF: "THIEF", LOCK: "LOCK",
  TAKE_RANDOM: "TAKE", DEMAND_POINTS: "DEM P", DEMAND_BLACK: "DEM B", DRAW_THREE: "DRAW 3", PASS_HANDS: "PASS←", SWAP_PLACES: "SWAP" };
const CARD_OF = {
  x3: "X3", take_random: "TAKE_RANDOM", demand_points: "DEMAND_POINTS", demand_black: "DEMAND_BLACK",
  draw_three: "DRAW_THREE", pass_hands: "PASS_HANDS", swap_places: "SWAP_PLACES", thief_discard: "THIEF",
  thief_stack: "THIEF", crush: "CRUSH", lock: "LOCK", stop: "STOP", reverse: "REVERSE", chameleon: "CHAMELEON",
};

let selected = null;     // a hand card name
let filters = {};        // picked target fields
let lastMsg = null, lastCtx = null, root = null;

function cardOf(a) {
  if (a.type === "play_point") return `${a.colour} ${a.card}`;
  if (a.type === "minus200") return `${a.colour} MINUS200`;
  if (a.type === "give") return a.colour ? `${a.colour} ${a.card}` : a.card;
  return CARD_OF[a.type] || null;
}

function parse(name) {
  const parts = name.split(" ");
  return parts.length === 2 ? { colour: parts[0], type: parts[1] } : { colour: null, type: parts[0] };
}

function colourName(view, c) {
  const names = Object.fromEntries((lastMsg?.table?.options?.colour_names) || [["c5", "purple"], ["c6", "orange"]]);
  return names[c] || c;
}

function cardSvg(name, { small = false, marks = "" } = {}) {
  const { colour, type } = parse(name);
  const black = BLACK.has(type);
  const w = small ? 34 : 50, h = small ? 48 : 70;
  const short = SHORT[type] || type;
  const band = colour ? COLOURS[colour] || "#888" : black ? "#000" : "#bbb";
  const tall = type.startsWith("P") || type === "X2" || type === "X3" || type === "MINUS200";
  return svgEl("svg", { width: w, height: h, viewBox: "0 0 50 70", role: "img", "aria-label": name },
    svgEl("rect", { x: 1, y: 1, width: 48, height: 68, rx: 5, fill: black ? "#222" : "#fff", stroke: "#333", "stroke-width": 1.5 }),
    svgEl("rect", { x: 1, y: 1, width: 48, height: 12, rx: 5, fill: band }),
    svgEl("text", { x: 25, y: tall ? 44 : 42, "font-size": short.length > 4 ? 10 : 15, "font-weight": 700, "text-anchor": "middle", fill: black ? "#fff" : "#111" }, short),
    marks ? svgEl("text", { x: 25, y: 64, "font-size": 9, "text-anchor": "middle", fill: "#c00" }, marks) : null);
}

function legal(msg) { return msg.actions || []; }

function label(a, ctx, view) {
  const n = (p) => ctx.names[p] || `player ${p + 1}`;
  const disp = (d) => (d === -1 ? "the discard pile" : d >= view.players ? "the dummy display" : `${n(view.seats[d].player)}'s display`);
  switch (a.type) {
    case "pass": return "Pass";
    case "choose_colour": return `Take colour ${colourName(view, a.colour)}`;
    case "play_point": return `${a.colour} ${a.card} → ${disp(a.display)}`;
    case "x3": return `×3 on ${disp(a.display)}, stack ${a.stack + 1}`;
    case "take_random": return `Take a random card from ${n(a.target)}`;
    case "demand_points": return `Demand ${colourName(view, a.colour)} points from ${n(a.target)} into ${disp(a.display)}`;
    case "demand_black": return `Demand 2 black cards from ${n(a.target)}`;
    case "draw_three": return "Draw three cards";
    case "pass_hands": return "Everybody passes their hand on";
    case "swap_places": return `Swap places with ${n(a.target)}`;
    case "give": return `Give ${a.colour ? a.colour + " " : ""}${a.card}`;
    case "minus200": return `−200 (${a.colour}) → ${disp(a.display)}`;
    case "chameleon": return `Chameleon carrying ${a.colour} ${a.card} → ${disp(a.display)}`;
    case "thief_discard": return "Thief: take the top of the discard pile";
    case "thief_stack": return `Thief: steal stack ${a.stack + 1} of ${disp(a.display)}`;
    case "crush": return `Crush stack ${a.stack + 1} of ${disp(a.display)}`;
    case "lock": return `Lock stack ${a.stack + 1} of ${disp(a.display)}`;
    case "stop": return "STOP!";
    case "reverse": return "REVERSE!";
    default: return JSON.stringify(a);
  }
}

function candidates(msg) {
  let acts = legal(msg).filter((a) => (selected ? cardOf(a) === selected : false));
  for (const [k, v] of Object.entries(filters)) acts = acts.filter((a) => a[k] === v);
  return acts;
}

function pick(field, value) {
  filters[field] = value;
  const acts = candidates(lastMsg);
  if (acts.length === 1) { send(acts[0]); return; }
  if (!acts.length) { delete filters[field]; }
  draw();
}

function send(a) { selected = null; filters = {}; lastCtx.act(a); }

function targetable(field, value, extraField, extraValue) {
  if (!selected) return false;
  return candidates(lastMsg).some((a) => a[field] === value && (extraField === undefined || a[extraField] === extraValue));
}

function draw() {
  const msg = lastMsg, ctx = lastCtx, view = msg.view;
  const me = msg.seat;
  root.innerHTML = "";
  const n = (p) => ctx.names[p] || `player ${p + 1}`;
  const acts = legal(msg);
  root.dataset.active = view.active;
  root.dataset.me = me ?? "";
  root.dataset.window = view.window ? view.window.kind : "";

  // Head: turn, direction, draw pile, phase.
  root.append(el("div", { class: "panel row" },
    el("strong", {}, view.over ? "game over" : `${n(view.active)}'s turn`),
    el("span", {}, view.direction === 1 ? "direction ↻ clockwise" : "direction ↺ counter-clockwise"),
    el("span", { class: "muted" }, `draw pile ${view.draw_pile} · phase ${view.phase}${view.final_round ? " (final round)" : ""}`),
    view.pending ? el("span", { class: "pill" }, `${view.pending.kind} by ${n(view.pending.player)}`) : ""));

  // The reaction window: who holds priority, and my controls.
  if (view.window) {
    const mine = msg.asked && acts.some((a) => a.type === "pass");
    const banner = el("div", { class: `window-banner ${mine ? "mine" : ""}`, id: "window" },
      el("strong", {}, `Reaction window open (${view.window.kind}) — `),
      mine ? el("strong", {}, "you hold priority: play a black card or pass") : `${n(view.window.holder)} holds priority`,
      msg.deadline ? el("span", { class: "pill warn", id: "window-timer", "data-deadline": msg.deadline - msg.now }, ` ${Math.max(0, Math.round(msg.deadline - msg.now))} s`) : "");
    const row = el("div", { class: "row", style: "margin-top:.4rem" });
    if (mine) row.append(el("button", { type: "button", class: "primary", id: "pass", onclick: () => send({ type: "pass" }) }, "Pass (P)"));
    else if (me !== null && me !== undefined && !view.over) {
      const on = msg.you && msg.you.pass_ahead;
      row.append(el("button", { type: "button", id: "pass-ahead", "aria-pressed": String(!!on),
        onclick: () => ctx.send({ type: "pass_ahead", on: !on }) }, on ? "Passing in advance ✓ (undo)" : "Pass in advance"));
    }
    banner.append(row);
    root.append(banner);
  }
  if (me !== null && me !== undefined) {
    root.append(el("label", { class: "row muted" }, el("input", { type: "checkbox", id: "auto-pass", checked: !!(msg.you && msg.you.auto_pass),
      onchange: (ev) => ctx.send({ type: "auto_pass", on: ev.target.checked }) }), "always pass in reaction windows"));
  }
  if (view.in_play) root.append(el("div", { class: "panel" }, "In play: ", el("strong", {}, view.in_play.card), ` (${label(view.in_play.action, ctx, view)})`));
  if (view.give) root.append(el("div", { class: "panel" }, `${n(view.give.target)} hands ${view.give.left} ${view.give.cards} card(s) to ${n(view.give.to)}`));

  // Players round the table with live score; click to target.
  const players = el("div", { class: "seats", id: "players-row" });
  view.seats.forEach((s) => {
    const p = s.player;
    const isTarget = targetable("target", p);
    players.append(el("div", {
      class: `seat ${p === me ? "me" : ""} ${p === view.to_act ? "turn" : ""} ${isTarget ? "target" : ""}`,
      "data-player": p, tabindex: isTarget ? "0" : false,
      onclick: isTarget ? () => pick("target", p) : null,
      onkeydown: isTarget ? (ev) => { if (ev.key === "Enter") pick("target", p); } : null,
    }, el("div", {}, el("span", { class: "pill", style: `background:${COLOURS[s.colour] || "#ccc"};color:#fff` }, s.colour ? colourName(view, s.colour) : "—"), " ", el("strong", {}, n(p)), p === me ? " (you)" : ""),
    el("div", { class: "muted" }, `${s.hand_size} cards · live score ${view.scores[p]}${view.totals[p] ? ` · total ${view.totals[p]}` : ""}`)));
  });
  root.append(el("div", { class: "panel" }, el("h3", {}, "Players"), players));

  // Displays with stacks.
  const displays = el("div", { class: "panel" }, el("h3", {}, "Displays"));
  for (const d of view.displays) {
    const owner = d.owner_seat === null ? "dummy" : n(view.seats[d.owner_seat].player);
    const dTarget = targetable("display", d.display);
    const box = el("div", { class: `seat ${dTarget ? "target" : ""}`, style: "margin:.3rem 0", "data-display": d.display,
      onclick: dTarget ? (ev) => { if (!ev.target.closest("[data-stack]")) pick("display", d.display); } : null },
    el("div", {}, el("strong", {}, `${owner}'s display`), ` (${d.colour ? colourName(view, d.colour) : "no colour"}) — score ${d.score}`));
    const stacks = el("div", { class: "cards" });
    d.stacks.forEach((st, i) => {
      const sTarget = selected && candidates(msg).some((a) => a.display === d.display && a.stack === i);
      const marks = [st.chameleon ? "CH" : "", st.x3 ? "×3" : "", st.crush ? "CR" : "", st.lock ? "LK" : ""].filter(Boolean).join(" ");
      const wrap = el("span", { "data-stack": i, class: sTarget ? "target" : "", tabindex: sTarget ? "0" : false, title: `${st.base}${marks ? " " + marks : ""}`,
        onclick: sTarget ? () => { filters.display = d.display; pick("stack", i); } : null,
        onkeydown: sTarget ? (ev) => { if (ev.key === "Enter") { filters.display = d.display; pick("stack", i); } } : null });
      wrap.append(cardSvg(st.base, { small: true, marks }));
      stacks.append(wrap);
    });
    if (!d.stacks.length) stacks.append(el("span", { class: "muted" }, "empty"));
    box.append(stacks);
    displays.append(box);
  }
  const discardTarget = targetable("display", -1);
  displays.append(el("div", { class: `seat ${discardTarget ? "target" : ""}`, "data-display": "-1", onclick: discardTarget ? () => pick("display", -1) : null },
    el("strong", {}, "Discard pile: "), view.discard.length ? cardSvg(view.discard[view.discard.length - 1], { small: true }) : el("span", { class: "muted" }, "empty"),
    el("span", { class: "muted" }, ` ${view.discard.length} card(s)`)));
  root.append(displays);

  // My hand and my choices.
  if (me !== null && me !== undefined) {
    const hand = el("div", { class: "cards", id: "hand" });
    const playable = new Set(acts.map(cardOf).filter(Boolean));
    for (const [i, c] of (view.hand || []).entries()) {
      const can = playable.has(c);
      const node = el("span", { class: `${can ? "playable" : ""} ${selected === c ? "sel" : ""}`, tabindex: can ? "0" : false, "data-card": c, "data-i": i, "data-black": BLACK.has(parse(c).type) ? "1" : false,
        onclick: can ? () => { selected = selected === c ? null : c; filters = {}; autoSend(); } : null,
        onkeydown: can ? (ev) => { if (ev.key === "Enter") { selected = c; filters = {}; autoSend(); } } : null });
      node.append(cardSvg(c));
      hand.append(node);
    }
    const choices = el("div", { class: "row", id: "choices", style: "margin-top:.5rem" });
    const free = acts.filter((a) => !cardOf(a) && a.type !== "pass");
    for (const a of free) {
      const colourBtn = a.type === "choose_colour";
      choices.append(el("button", { type: "button", class: colourBtn ? "colour-choice" : "", "data-action": a.type, style: colourBtn ? `border-color:${COLOURS[a.colour]};border-width:3px` : false,
        onclick: () => send(a) }, label(a, ctx, view)));
    }
    if (selected) {
      const cands = candidates(msg);
      const colours = [...new Set(cands.map((a) => a.colour).filter((c) => c !== undefined))];
      if (colours.length > 1 && cands.some((a) => a.type === "demand_points")) {
        for (const c of colours) choices.append(el("button", { type: "button", style: `border-color:${COLOURS[c]};border-width:3px`, onclick: () => pick("colour", c) }, colourName(view, c)));
      }
      choices.append(el("span", { class: "muted" }, `${selected}: ${cands.length} way(s) to play it — click a highlighted target or a button`));
      for (const a of cands.slice(0, 40)) choices.append(el("button", { type: "button", class: "choice", onclick: () => send(a) }, label(a, ctx, view)));
      choices.append(el("button", { type: "button", onclick: () => { selected = null; filters = {}; draw(); } }, "cancel"));
    } else if (!view.window && acts.some((a) => a.type === "pass")) {
      choices.append(el("button", { type: "button", id: "pass", onclick: () => send({ type: "pass" }) }, "Pass"));
    }
    const head = msg.asked ? el("strong", {}, view.give ? "choose a card to hand over" : "your decision") : el("span", { class: "muted" }, "waiting");
    root.append(el("div", { class: "panel" }, el("h3", {}, "Your hand ", head), hand, choices,
      view.team_hands ? el("div", { class: "muted" }, `team hands: ${JSON.stringify(view.team_hands)}`) : ""));
  }
}

function autoSend() {
  const cands = candidates(lastMsg);
  if (cands.length === 1 && !["display", "stack", "target"].some((k) => k in cands[0])) { send(cands[0]); return; }
  draw();
}

export function render(rootEl, msg, ctx) {
  root = rootEl; lastCtx = ctx;
  if (lastMsg && msg.version !== lastMsg.version) { selected = null; filters = {}; }
  lastMsg = msg;
  if (selected && !legal(msg).some((a) => cardOf(a) === selected)) { selected = null; filters = {}; }
  draw();
}

document.addEventListener("keydown", (ev) => {
  if (!lastMsg || ev.target.tagName === "INPUT") return;
  if ((ev.key === "p" || ev.key === "P") && lastMsg.asked && legal(lastMsg).some((a) => a.type === "pass")) send({ type: "pass" });
  if (ev.key === "Escape") { selected = null; filters = {}; draw(); }
});

export function describeEvent(e, names) {
  const n = (p) => names[p] ?? `player ${p}`;
  const who = e.player ?? e.seat;
  const text = Object.entries(e).filter(([k]) => k !== "kind").map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : v}`).join(" ");
  return `${e.kind}${who !== undefined ? ` (${n(who)})` : ""}: ${text}`.slice(0, 160);
}

export function resultDetails(msg) {
  const v = msg.view;
  return el("p", { class: "muted" }, `Display scores: ${v.displays.map((d) => `${d.colour || "dummy"} ${d.score}`).join(", ")}.`);
}
