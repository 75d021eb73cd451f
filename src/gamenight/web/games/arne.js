// Arne: whose turn and who may answer now, every display with its stacks, the discard pile,
// your hand in a bar that stays on screen, targets that light up once a card is picked.
import { el, plural } from "/static/common.js";
import { coachPanel, percent } from "/static/games/coach.js";
import { reducedMotion } from "/static/moment.js";
import { animateMoves, announceFinal, playScoring } from "/static/games/arne-moment.js";
import { BLACK, COLOURS, cardFace, cardRule, cardWords, colourWord, legend, parse } from "/static/games/arne-cards.js";
import { showRule } from "/static/rules.js";

// How to play at this table (the rules themselves are the rules panel's, rules.js).
export const pageHelp = "Click a glowing card in your hand, then a lit target (a stack, a display, a player), or a button under your hand. When you may answer, your playable black cards glow: click one, or *Pass* (key `P`); *Pass in advance* or *always pass* skip the question. On your own turn `P` lets the others answer first (your turn is not skipped). Keys: `1`–`9` pick a card, `Enter` confirms, `Esc` cancels, `?` shows the rule of the card in focus. Right-click a card for its rule.";

const CARD_OF = {
  x3: "X3", take_random: "TAKE_RANDOM", demand_points: "DEMAND_POINTS", demand_black: "DEMAND_BLACK",
  draw_three: "DRAW_THREE", pass_hands: "PASS_HANDS", swap_places: "SWAP_PLACES", thief_discard: "THIEF",
  thief_stack: "THIEF", crush: "CRUSH", lock: "LOCK", stop: "STOP", reverse: "REVERSE", chameleon: "CHAMELEON",
};
const OWN_WINDOW = "Your turn: play a card now, or let the others answer first (then you play).";
const STAGES = { colour: "choosing colours", window: "answering", white: "playing a white card", give: "handing over cards", final: "final round", over: "game over" };

let selected = null;     // a hand card name
let filters = {};        // picked target fields
let lastMsg = null, lastCtx = null, root = null;
let folded = false;      // the hand bar folded to its first line (a phone's screen is short)
let shownTargets = null; // the pick whose lit targets were brought into view

function cardOf(a) {
  if (a.type === "play_point") return `${a.colour} ${a.card}`;
  if (a.type === "minus200") return `${a.colour} MINUS200`;
  if (a.type === "give") return a.colour ? `${a.colour} ${a.card}` : a.card;
  return CARD_OF[a.type] || null;
}

function legal(msg) { return msg.actions || []; }
function nameOf(ctx, p) { return ctx.names[p] || `player ${p + 1}`; }

function displayWords(view, names, d) {
  if (d === -1) return "the discard pile";
  const disp = view.displays[d];
  if (!disp || disp.owner_seat === null) return "the dummy display";
  return `${names(view.seats[disp.owner_seat].player)}'s display`;
}

function stackWords(view, names, d, s) {
  const st = view.displays[d]?.stacks[s];
  return st ? `${names(view.seats[view.displays[d].owner_seat ?? 0]?.player) ?? ""}'s ${cardWords(st.base)}`.replace(/^'s /, "the dummy's ") : `stack ${s + 1} of ${displayWords(view, names, d)}`;
}

/** An action in player words, e.g. "Crush Bob's red 500". */
function label(a, names, view) {
  const disp = (d) => displayWords(view, names, d);
  const stack = (d, s) => (view.displays[d] && view.displays[d].owner_seat === null ? `the dummy's ${cardWords(view.displays[d].stacks[s]?.base || "")}` : stackWords(view, names, d, s));
  switch (a.type) {
    case "pass": return "Pass";
    case "choose_colour": return `Take ${COLOURS[a.colour]?.symbol || ""} ${colourWord(a.colour)}`;
    case "play_point": return `${cardWords(`${a.colour} ${a.card}`)} into ${a.display === -1 ? "the discard pile" : disp(a.display)}`;
    case "x3": return `Tripler on ${stack(a.display, a.stack)}`;
    case "take_random": return `Take a random card from ${names(a.target)}`;
    case "demand_points": return `Demand 2 ${colourWord(a.colour)} point cards from ${names(a.target)} into ${disp(a.display)}`;
    case "demand_black": return `Demand 2 black cards from ${names(a.target)}`;
    case "draw_three": return "Draw three cards";
    case "pass_hands": return "Everybody passes their hand on";
    case "swap_places": return `Swap places with ${names(a.target)}`;
    case "give": return `Hand over ${a.colour ? cardWords(`${a.colour} ${a.card}`) : cardWords(a.card)}`;
    case "minus200": return `${colourWord(a.colour)} −200 into ${disp(a.display)}`;
    case "chameleon": return `Chameleon with ${cardWords(`${a.colour} ${a.card}`)} into ${disp(a.display)}`;
    case "thief_discard": return "Thief: take the top card of the discard pile";
    case "thief_stack": return `Thief: steal ${stack(a.display, a.stack)}`;
    case "crush": return `Crush ${stack(a.display, a.stack)}`;
    case "lock": return `Lock ${stack(a.display, a.stack)}`;
    case "stop": return "Stop! (you play next)";
    case "reverse": return "Reverse! (the direction turns)";
    default: return a.type.replace(/_/g, " ");
  }
}

/** The coach: the hard bot's three most searched plays, e.g. "Red 500 into your display —
 * chosen in 41% of searches, wins 63%". */
function coachList(advice, names, view) {
  const list = el("ol", { class: "coach-plays", id: "coach-plays" });
  for (const [i, o] of advice.options.entries()) {
    const odds = o.value === null ? "your only play"
      : `chosen in ${percent(o.share)} of ${advice.iterations} searches, ${advice.players === 2 ? "wins" : "standing"} ${percent(o.value)}`;
    list.append(el("li", { class: `odds${i === 0 ? " best" : ""}`, "data-action": o.action.type }, el("strong", {}, label(o.action, names, view)), ` — ${odds}`));
  }
  const note = advice.players === 2 ? "" : " (standing: 100% first place, 0% last)";
  return [el("span", { class: "muted" }, `The hard bot's view${note}:`), list];
}

/** The coach's review of one decision, in words (the replay page). */
export function reviewWords(advice, played, view, names) {
  const n = (p) => names[p] || `player ${p + 1}`;
  const odds = (o) => (o.value === null ? "the only play"
    : `chosen in ${percent(o.share)} of searches, ${advice.players === 2 ? "wins" : "standing"} ${percent(o.value)}`);
  return { played: label(played, n, view), options: advice.options.map((o) => `${label(o.action, n, view)} — ${odds(o)}`) };
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
  if (!acts.length) delete filters[field];
  draw();
}

function send(a) { selected = null; filters = {}; lastCtx.act(a); }

// "Why not?" (issue 46): a card or target the rules do not offer now stays clickable while
// you have a decision, and the click asks the server, which answers with the rules' reason.
const CARD_ACTION = {
  X3: { type: "x3", display: -1, stack: -1 }, TAKE_RANDOM: { type: "take_random", target: -1 },
  DEMAND_POINTS: { type: "demand_points", target: -1, colour: "", display: -1 }, DEMAND_BLACK: { type: "demand_black", target: -1 },
  DRAW_THREE: { type: "draw_three" }, PASS_HANDS: { type: "pass_hands" }, SWAP_PLACES: { type: "swap_places", target: -1 },
  THIEF: { type: "thief_discard" }, CRUSH: { type: "crush", display: -1, stack: -1 }, LOCK: { type: "lock", display: -1, stack: -1 },
  STOP: { type: "stop" }, REVERSE: { type: "reverse" },
};

/** The action a click on an unavailable hand card asks about (no particular target). */
function cardQuestion(c, view) {
  const { colour, type } = parse(c);
  if (view.give) return { type: "give", card: type, colour: colour || "" };
  if (type === "MINUS200") return { type: "minus200", colour, display: -1 };
  if (type === "CHAMELEON") {
    const base = (view.hand || []).map(parse).find((p) => p.colour && (p.type.startsWith("P") || p.type === "X2" || p.type === "MINUS200"));
    return { type: "chameleon", card: base ? base.type : "", colour: base ? base.colour : "", display: -1 };
  }
  if (colour) return { type: "play_point", card: type, colour, display: -1 };
  return CARD_ACTION[type] || null;
}

function askWhy(a) { if (a) lastCtx.act(a); }

/** With a card picked, a target it may not go to: ask about that target. */
function whyTarget(fields) {
  if (!selected) return false;
  const template = legal(lastMsg).find((a) => cardOf(a) === selected && Object.keys(fields).every((k) => k in a));
  if (!template) return false;
  askWhy({ ...template, ...fields });
  return true;
}

function whyAttrs(on, fields, title = "not possible now: click to see why") {
  if (!on) return {};
  const fn = (ev) => { if (ev.target.closest && ev.target.closest("[data-stack]") && !("stack" in fields)) return; if (ev.stopPropagation && "stack" in fields) ev.stopPropagation(); whyTarget(fields); };
  return { role: "button", tabindex: "0", "aria-disabled": "true", title, onclick: fn,
    onkeydown: (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); fn(ev); } } };
}

function couldTarget(field) { return !!selected && legal(lastMsg).some((a) => cardOf(a) === selected && field in a); }

function targetable(field, value) {
  if (!selected) return false;
  return candidates(lastMsg).some((a) => a[field] === value);
}

/** Click and Enter/Space on a lit target. */
function targetAttrs(on, fn) {
  if (!on) return {};
  return { tabindex: "0", role: "button", onclick: fn, onkeydown: (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); fn(ev); } } };
}

function colourTag(c) {
  if (!c) return el("span", { class: "ctag none" }, "no colour yet");
  const info = COLOURS[c] || { fill: "#888", symbol: "?", name: c };
  return el("span", { class: `ctag${info.dark ? " dark" : ""}`, style: `background:${info.fill}` }, `${info.symbol} ${info.name}`);
}

function whoActsLine(view, names, msg) {
  if (view.over) return "The game is over.";
  const me = msg.seat;
  const you = (p) => (p === me ? "you" : names(p));
  if (view.window) {
    const kind = view.window.kind;
    const whose = view.active === me ? "your" : `${names(view.active)}'s`;
    if (kind === "main" && view.window.holder === me && view.active === me) return OWN_WINDOW;
    const when = kind === "main" ? `at the start of ${whose} turn` : kind === "pre" ? `before ${whose} card takes effect` : `after ${whose} card`;
    return view.window.holder === me ? `You may answer with a black card (${when}).` : `${names(view.window.holder)} may answer with a black card (${when}).`;
  }
  if (view.give) return `${you(view.give.target) === "you" ? "You hand" : `${names(view.give.target)} hands`} ${plural(view.give.left, "card")} to ${you(view.give.to)}.`;
  if (view.final_round) return view.to_act === me ? "Final round: play one black card, or pass." : `Final round: ${names(view.to_act)} may play one black card.`;
  if (view.phase === "colour") return view.to_act === me ? "Choose your colour." : `${names(view.to_act)} chooses a colour.`;
  if (view.to_act === me) return "Your turn: play a white card.";
  return `${names(view.to_act)} plays a white card.`;
}

function drawHead(view, names, msg) {
  const stage = view.final_round ? `still to play: ${view.final_round.map(names).join(", ")}` : STAGES[view.phase] || "";
  const head = el("div", { class: "panel", id: "arne-head" },
    el("div", { class: "row" },
      el("strong", {}, view.over ? "Game over" : view.final_round ? "Final round" : `${view.active === msg.seat ? "Your" : `${names(view.active)}'s`} turn`),
      el("span", {}, view.direction === 1 ? "↻ clockwise" : "↺ counter-clockwise"),
      el("span", { class: "muted" }, `${plural(view.draw_pile, "card")} to draw`),
      stage && !view.over ? el("span", { class: "pill" }, stage) : "",
      view.pending ? el("span", { class: "pill warn" }, view.pending.kind === "STOP" ? `Stop! ${names(view.pending.player)} plays next` : `Reverse! by ${names(view.pending.player)}`) : ""),
    el("div", { id: "who-acts", class: "now" }, whoActsLine(view, names, msg)));
  if (view.in_play) {
    head.append(el("div", { class: "row in-play" }, cardFace(view.in_play.card, { width: 34 }),
      el("span", {}, `${names(view.active)} plays: ${label(view.in_play.action, names, view)}`)));
  }
  return head;
}

function drawPlayers(view, names, me) {
  const players = el("div", { class: "seats", id: "players-row" });
  view.seats.forEach((s) => {
    const p = s.player;
    const isTarget = targetable("target", p);
    players.append(el("div", {
      class: `seat ${p === me ? "me" : ""} ${p === view.to_act ? "turn" : ""} ${isTarget ? "target" : ""}`, "data-player": p,
      ...targetAttrs(isTarget, () => pick("target", p)),
      ...whyAttrs(!isTarget && couldTarget("target"), { target: p }),
    }, el("div", {}, colourTag(s.colour), " ", el("strong", {}, names(p)), p === me ? " (you)" : ""),
    el("div", { class: "muted" }, `${plural(s.hand_size, "card")} in hand · score now ${view.scores[p]}${view.totals[p] ? ` · total ${view.totals[p]}` : ""}`)));
  });
  // "Players" is the page's list of who is here (table.js); this one is the game's.
  return el("div", { class: "panel" }, el("h3", {}, "Hands and scores"), players);
}

function drawDisplays(view, names, msg) {
  const displays = el("div", { class: "panel", id: "displays" }, el("h3", {}, "Displays"));
  const grid = el("div", { class: "displays" });
  for (const d of view.displays) {
    const owner = d.owner_seat === null ? "Dummy" : names(view.seats[d.owner_seat].player);
    const dTarget = targetable("display", d.display) && !couldTarget("stack");  // stacks lit instead: no button in a button
    const box = el("div", { class: `display ${dTarget ? "target" : ""}`, "data-display": d.display,
      ...targetAttrs(dTarget, (ev) => { if (!ev.target.closest || !ev.target.closest("[data-stack]")) pick("display", d.display); }),
      ...whyAttrs(!dTarget && couldTarget("display") && !couldTarget("stack"), { display: d.display }) },
    el("div", { class: "row" }, el("strong", {}, `${owner}${d.owner_seat !== null && view.seats[d.owner_seat].player === msg.seat ? " (you)" : ""}`), colourTag(d.colour), el("span", { class: "score" }, `${d.score} points`)));
    const stacks = el("div", { class: "cards" });
    d.stacks.forEach((st, i) => {
      const sTarget = selected && candidates(msg).some((a) => a.display === d.display && a.stack === i);
      const marks = ["chameleon", "x3", "crush", "lock"].filter((k) => st[k]);
      const wrap = el("span", { "data-stack": i, class: `stack ${sTarget ? "target" : ""}`,
        title: `${cardWords(st.base)}${marks.length ? ` — ${marks.join(", ")}` : ""}`,
        ...targetAttrs(sTarget, () => { filters.display = d.display; pick("stack", i); }),
        ...whyAttrs(!sTarget && couldTarget("stack"), { display: d.display, stack: i }) });
      wrap.append(cardFace(st.base, { width: 40, marks: st, label: `${cardWords(st.base)}${marks.length ? `, ${marks.join(", ")}` : ""}` }));
      stacks.append(wrap);
    });
    if (!d.stacks.length) stacks.append(el("span", { class: "muted empty" }, "no cards yet"));
    box.append(stacks);
    grid.append(box);
  }
  const discardTarget = targetable("display", -1);
  const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
  grid.append(el("div", { class: `display discard ${discardTarget ? "target" : ""}`, "data-display": "-1", ...targetAttrs(discardTarget, () => pick("display", -1)) },
    el("strong", {}, "Discard pile"), el("div", { class: "cards" }, top ? [cardFace(top, { width: 40 }), el("span", { class: "muted" }, plural(view.discard.length, "card"))]
      : el("span", { class: "muted empty" }, "empty"))));
  displays.append(grid, legend());
  return displays;
}

function choose(c) { selected = selected === c ? null : c; filters = {}; autoSend(); }

function drawHandBar(view, names, msg, ctx) {
  const me = msg.seat;
  const acts = legal(msg);
  const mayAnswer = msg.asked && !!view.window && acts.some((a) => a.type === "pass");
  const ownTurn = mayAnswer && acts.some((a) => cardOf(a) && !BLACK.has(parse(cardOf(a)).type));  // your white card may go now
  const bar = el("div", { class: `panel handbar ${msg.asked ? "asked" : ""} ${mayAnswer ? "answer" : ""}`, id: "handbar", "data-focus-home": "" });
  // The hand and its choices; the coach beside them on a wide screen, under them otherwise
  // (app.css): a bar as tall as both covered the displays at 1280x800.
  const main = el("div", { class: "bar-main" });
  if (view.window && !view.over) {
    const banner = el("div", { class: `window-banner ${mayAnswer ? "mine" : ""}`, id: "window" },
      el("strong", {}, !mayAnswer ? `${names(view.window.holder)} may answer.`
        : ownTurn ? OWN_WINDOW : "You may answer: play a glowing black card, or pass."),
      msg.deadline ? el("span", { class: "pill warn countdown", id: "window-timer" }, ` ${Math.max(0, Math.round(msg.deadline - msg.now))} s`) : "");
    // On your own turn passing only lets the black cards answer first: the turn comes back.
    if (mayAnswer) banner.append(el("button", { type: "button", class: "primary", id: "pass", onclick: () => send({ type: "pass" }),
      title: ownTurn ? "This does not skip your turn: the others may answer with a black card first, then you play your white card." : "Play no black card now" },
    ownTurn ? "Let the others answer first (P)" : "Pass (P)"));
    else if (!view.over && msg.seat !== null) {
      const on = msg.you && msg.you.pass_ahead;
      const turn = msg.you && msg.you.pass_turn;
      banner.append(el("button", { type: "button", id: "pass-ahead", "aria-pressed": String(!!on),
        onclick: () => ctx.send({ type: "pass_ahead", on: !on }) }, on ? "Passing in advance ✓ (undo)" : "Pass in advance"),
      " ", el("button", { type: "button", id: "pass-turn", "aria-pressed": String(!!turn),
        title: "Pass in every window until the next player's turn",
        onclick: () => ctx.send({ type: "pass_ahead", on: !turn, turn: true }) }, turn ? "Passing this turn ✓ (undo)" : "Pass this turn"));
    }
    // "Wait!" (issue 45): anyone still to answer may ask for the full time, holding a card
    // or not; the others see who asked, as a hesitation at a real table.
    const holds = msg.holds || [];
    if (msg.seat !== null && !view.over && !holds.includes(msg.seat) && !(msg.you && (msg.you.pass_ahead || msg.you.pass_turn))) {
      banner.append(" ", el("button", { type: "button", id: "wait", title: "Ask for the full time to answer (anyone may, holding a card or not)",
        onclick: () => ctx.send({ type: "wait" }) }, "Wait! (W)"));
    }
    if (holds.length) banner.append(el("span", { class: "muted", id: "holds" }, ` ${holds.map((p) => (p === msg.seat ? "you" : names(p))).join(" and ")} asked to wait.`));
    main.append(banner);
  }
  const hand = el("div", { class: "cards hand", id: "hand", role: "list", "aria-label": "your hand" });
  const playable = new Set(acts.map(cardOf).filter(Boolean));
  for (const [i, c] of (view.hand || []).entries()) {
    const can = playable.has(c);
    const black = BLACK.has(parse(c).type);
    const node = el("span", {
      class: `card handcard ${can ? "playable" : msg.asked ? "idle" : ""} ${selected === c ? "sel" : ""} ${black ? "black" : ""}`,
      role: "listitem", "data-card": c, "data-i": i, "data-black": black ? "1" : false, title: `${cardWords(c)}: ${cardRule(c)}`,
      oncontextmenu: (ev) => { ev.preventDefault(); showRule(parse(c).type); },  // its entry in the rules panel
    });
    const why = !can && acts.length > 0;  // yours to decide now, but not this card: it says why
    const face = el("span", can ? { role: "button", tabindex: "0", "aria-pressed": String(selected === c), "aria-label": cardWords(c), onclick: () => choose(c),
      onkeydown: (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); choose(c); } } }
      : why ? { role: "button", tabindex: "0", "aria-disabled": "true", class: "unavailable", "aria-label": `${cardWords(c)}: not possible now, click to see why`,
        onclick: () => askWhy(cardQuestion(c, view)), onkeydown: (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); askWhy(cardQuestion(c, view)); } } } : {});
    face.append(cardFace(c));
    node.append(face);
    hand.append(node);
  }
  if (!(view.hand || []).length) {
    hand.removeAttribute("role"); // an empty list is no list (axe: aria-required-children)
    hand.append(el("span", { class: "muted" }, view.over ? "the game is over" : "no cards in hand"));
  }
  const choices = el("div", { class: "row", id: "choices" });
  for (const a of acts.filter((x) => !cardOf(x) && x.type !== "pass")) {
    const colourBtn = a.type === "choose_colour";
    choices.append(el("button", { type: "button", class: colourBtn ? "colour-choice" : "", "data-action": a.type,
      style: colourBtn ? `border-color:${COLOURS[a.colour]?.fill};border-width:3px` : false, onclick: () => send(a) }, label(a, names, view)));
  }
  let hintLine = null; // its own line above the row: in a phone's sideways row its end was cut off
  if (selected) {
    const cands = candidates(msg);
    const colours = [...new Set(cands.map((a) => a.colour).filter((c) => c !== undefined))];
    if (colours.length > 1 && cands.some((a) => a.type === "demand_points")) {
      for (const c of colours) choices.append(el("button", { type: "button", style: `border-color:${COLOURS[c]?.fill};border-width:3px`, onclick: () => pick("colour", c) }, `${COLOURS[c]?.symbol || ""} ${colourWord(c)}`));
    }
    hintLine = el("div", { class: "hint", id: "choice-hint" }, `${cardWords(selected)}: ${cands.length > 1 ? "pick a lit target or a button" : "confirm"}`);
    // Cancel before the ways to play (on a phone first of all, app.css): the row scrolls sideways.
    choices.append(el("button", { type: "button", id: "cancel", onclick: () => { selected = null; filters = {}; draw(); } }, "Cancel (Esc)"));
    for (const a of cands.slice(0, 12)) choices.append(el("button", { type: "button", class: "choice", onclick: () => send(a) }, label(a, names, view)));
    if (cands.length > 12) choices.append(el("span", { class: "muted" }, `and ${cands.length - 12} more: pick a lit target`));
  } else if (!view.window && msg.asked && acts.some((a) => a.type === "pass")) {
    choices.append(el("button", { type: "button", id: "pass", onclick: () => send({ type: "pass" }) }, "Pass"));
  }
  const head = msg.asked ? el("strong", {}, view.give ? "Choose a card to hand over" : mayAnswer ? "" : "Your move") : el("span", { class: "muted" }, "Your hand");
  const fold = el("button", { type: "button", id: "hand-fold", class: "fold", "aria-expanded": String(!folded),
    onclick: () => { folded = !folded; draw(); } }, folded ? "Show hand ▴" : "Hide hand ▾");
  if (folded) bar.classList.add("folded");
  main.append(el("div", { class: "row bar-head" }, head, fold,
    el("label", { class: "muted autopass" }, el("input", { type: "checkbox", id: "auto-pass", checked: !!(msg.you && msg.you.auto_pass),
      onchange: (ev) => ctx.send({ type: "auto_pass", on: ev.target.checked }) }), " always pass when I may answer")), hand, ...(hintLine ? [hintLine] : []), choices);
  if (view.team_hands) {
    for (const [p, cards] of Object.entries(view.team_hands)) {
      main.append(el("div", { class: "row team" }, el("span", { class: "muted" }, `${names(Number(p))}'s hand (your team-mate):`), ...cards.map((c) => cardFace(c, { width: 28 }))));
    }
  }
  bar.append(main, coachPanel(msg, ctx, draw, (advice) => coachList(advice, names, view)));
  void me;
  return bar;
}

function draw() {
  const msg = lastMsg, ctx = lastCtx, view = msg.view;
  const names = (p) => nameOf(ctx, p);
  root.dataset.active = view.active;
  root.dataset.me = msg.seat ?? "";
  root.dataset.window = view.window ? view.window.kind : "";
  const parts = [drawHead(view, names, msg), drawPlayers(view, names, msg.seat), drawDisplays(view, names, msg)];
  if (msg.seat !== null && msg.seat !== undefined && view.hand) parts.push(drawHandBar(view, names, msg, ctx));
  root.replaceChildren(...parts);  // focus comes back to the same card or target (table.js)
  showPlayable(root.querySelector("#hand"));
  const picking = selected ? `${selected} ${JSON.stringify(filters)}` : null;
  if (picking && picking !== shownTargets) showTargets();
  shownTargets = picking;
}

/** On a narrow screen the hand scrolls sideways: bring the first card you may play (the
 * selected one first) into view, so a glowing black card is never hidden off the edge. */
function showPlayable(hand) {
  if (!hand || hand.scrollWidth <= hand.clientWidth) return;
  const card = hand.querySelector(".handcard.sel") || hand.querySelector(".handcard.playable.black") || hand.querySelector(".handcard.playable");
  if (!card) return;
  const left = card.offsetLeft - hand.offsetLeft;
  if (left < hand.scrollLeft || left + card.offsetWidth > hand.scrollLeft + hand.clientWidth) hand.scrollLeft = Math.max(0, left - 8);
}

/** A card was picked: its lit targets (a display, a stack, a player) may lie under the hand bar
 * pinned to the bottom of the screen. Scroll them into the space above the bar: all of them if
 * they fit, else the first one. */
function showTargets() {
  const bar = root.querySelector("#handbar");
  const targets = [...root.querySelectorAll(".target")].map((t) => t.getBoundingClientRect()).filter((r) => r.height);
  if (!bar || !targets.length) return;
  const pad = 8;
  const floor = Math.min(bar.getBoundingClientRect().top, window.innerHeight) - pad;  // the bar's top edge
  const all = { top: Math.min(...targets.map((r) => r.top)), bottom: Math.max(...targets.map((r) => r.bottom)) };
  const span = all.bottom - all.top <= floor - pad ? all : targets[0];
  let dy = 0;
  if (span.bottom > floor) dy = span.bottom - floor;
  if (span.top - dy < pad) dy = span.top - pad;
  if (Math.abs(dy) > 1) window.scrollBy({ top: dy, behavior: reducedMotion() ? "auto" : "smooth" });
}

function autoSend() {
  const cands = candidates(lastMsg);
  if (cands.length === 1 && !["display", "stack", "target"].some((k) => k in cands[0])) { send(cands[0]); return; }
  draw();
}

export function render(rootEl, msg, ctx) {
  root = rootEl; lastCtx = ctx;
  const prev = lastMsg && lastMsg.seat === msg.seat ? lastMsg.view : null;  // null: nothing seen live yet
  if (lastMsg && msg.version !== lastMsg.version) { selected = null; filters = {}; }
  lastMsg = msg;
  if (selected && !legal(msg).some((a) => cardOf(a) === selected)) { selected = null; filters = {}; }
  draw();
  if (prev && prev !== msg.view) moments(prev, msg, ctx);
}

/** The moments of an update seen live: cards flying in, the final round, the count. */
function moments(prev, msg, ctx) {
  const names = (p) => nameOf(ctx, p);
  animateMoves(root, prev, msg);
  announceFinal(prev, msg.view, names);
  const scored = (msg.events || []).find((e) => e.kind === "scored");
  if (scored) playScoring(msg.view.game_no === prev.game_no ? msg.view : prev, names, msg.seat, scored.scores);
}

document.addEventListener("keydown", (ev) => {
  if (!lastMsg || ev.target.tagName === "INPUT" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if ((ev.key === "p" || ev.key === "P") && lastMsg.asked && legal(lastMsg).some((a) => a.type === "pass")) send({ type: "pass" });
  else if ((ev.key === "w" || ev.key === "W") && document.getElementById("wait")) lastCtx.send({ type: "wait" });
  else if (ev.key === "Escape") { selected = null; filters = {}; draw(); }
  else if (ev.key === "?") {  // the rule of the card in focus (or the one picked) in the rules panel
    const card = document.activeElement?.closest?.("[data-card]")?.dataset.card || selected;
    ev.preventDefault();
    showRule(card ? parse(card).type : null);
  }
  else if (/^[1-9]$/.test(ev.key) && lastMsg.view.hand) {
    const c = lastMsg.view.hand[Number(ev.key) - 1];
    if (c && legal(lastMsg).some((a) => cardOf(a) === c)) { selected = c; filters = {}; autoSend(); }
    else if (c && legal(lastMsg).length) askWhy(cardQuestion(c, lastMsg.view));  // why not (issue 46)
  }
});

function stackOf(view, d, s) { return view && view.displays[d] && view.displays[d].stacks[s] ? view.displays[d].stacks[s].base : null; }

/** A log line in a sentence, or null for events nobody needs to read. */
export function describeEvent(e, names, view) {
  const n = (p) => names[p] ?? `player ${p + 1}`;
  const disp = (d) => {
    if (d === -1) return "the discard pile";
    const owner = view && view.displays[d] ? view.displays[d].owner_seat : d;
    return owner === null ? "the dummy display" : view ? `${n(view.seats[owner].player)}'s display` : `display ${d + 1}`;
  };
  const on = (a) => {
    const base = stackOf(view, a.display, a.stack);
    const owner = disp(a.display).replace(/ display$/, "");
    return base ? `${owner} ${cardWords(base)}` : `a stack in ${disp(a.display)}`;
  };
  switch (e.kind) {
    case "game": return e.game_no > 1 ? `Game ${e.game_no} begins.` : "The game begins.";
    case "colour": return `${e.seats.map((s) => (view ? n(view.seats[s].player) : n(s))).join(" and ")} ${e.seats.length > 1 ? "take" : "takes"} ${colourWord(e.colour)}.`;
    case "dummy": return `The dummy plays ${colourWord(e.colour)}.`;
    case "dealt": return `Cards are dealt; ${plural(e.draw_pile, "card")} left to draw.`;
    case "turn": return `${n(e.player)}'s turn.`;
    case "drew": return e.count ? `${n(e.player)} draws ${plural(e.count, "card")}.` : `${n(e.player)} cannot draw: the pile is empty.`;
    case "declared": {
      const a = e.action || {};
      if (a.type === "play_point") return `${n(e.player)} lays ${cardWords(e.card)} ${a.display === -1 ? "on the discard pile" : `into ${disp(a.display)}`}.`;
      if (a.type === "x3") return `${n(e.player)} plays a Tripler on ${on(a)}.`;
      if (!view || !("target" in a || "colour" in a)) return `${n(e.player)} plays ${cardWords(e.card)}.`;
      return `${n(e.player)} plays ${cardWords(e.card)}: ${label(a, n, view)}.`;
    }
    case "black": return `${n(e.player)} answers with ${blackWords(e, n, on, disp)}.`;
    case "no_white": return `${n(e.player)} has no white card to play.`;
    case "took_random": return e.moved ? `${n(e.player)} takes a random card from ${n(e.target)}.` : `${n(e.target)} has no card to take.`;
    case "gave_point": return `${n(e.target)} hands ${n(e.player)} ${cardWords(e.card)} for ${disp(e.display)}.`;
    case "gave_black": return `${n(e.target)} hands ${n(e.player)} a black card.`;
    case "swapped": return `${n(e.player)} and ${n(e.target)} swap places.`;
    case "hands_passed": return `Everybody passes their hand ${e.direction === 1 ? "clockwise" : "counter-clockwise"}.`;
    case "final_round": return `The draw pile is empty: final round, each player once (${e.order.map(n).join(", ")}).`;
    case "scored": return `Scores: ${e.scores.map((s, p) => `${n(p)} ${s}`).join(", ")}.`;
    case "over": return `Game over: ${e.winners.map(n).join(" and ")} ${e.winners.length > 1 ? "win" : "wins"}.`;
    case "pass": return { text: `${n(e.player)} passes.`, quiet: true, who: n(e.player) };
    default: return null;
  }
}

function blackWords(e, n, on, disp) {
  const a = e.action || {};
  switch (a.type) {
    case "minus200": return `${colourWord(a.colour)} −200 into ${disp(a.display)}`;
    case "chameleon": return `Chameleon carrying ${cardWords(`${a.colour} ${a.card}`)} into ${disp(a.display)}`;
    case "crush": return `Crush on ${on(a)}`;
    case "lock": return `Lock on ${on(a)}`;
    case "thief_discard": return `Thief, taking ${e.card ? cardWords(e.card) : "the top card"} from the discard pile`;
    case "thief_stack": return `Thief, stealing a stack from ${disp(a.display)}`;
    case "stop": return "Stop! and plays next";
    case "reverse": return "Reverse!";
    default: return a.type || "a black card";
  }
}

export function resultDetails(msg, names) {
  const v = msg.view;
  const box = el("div", { class: "final-displays" });
  for (const d of v.displays) {
    const owner = d.owner_seat === null ? "Dummy" : names[v.seats[d.owner_seat].player];
    box.append(el("div", { class: "row" }, el("strong", {}, owner), colourTag(d.colour), el("span", {}, `${d.score} points`),
      el("span", { class: "cards" }, d.stacks.map((st) => cardFace(st.base, { width: 26, marks: st })))));
  }
  return box;
}

/** Cards of a hand as small faces (the replay's "reveal all hands"). */
export function handFaces(hand) { return el("span", { class: "cards" }, hand.map((c) => cardFace(c, { width: 30 }))); }
