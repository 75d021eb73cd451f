// Arne: whose turn and who may answer now, every display with its stacks, the discard pile,
// your hand in a bar that stays on screen, targets that light up once a card is picked.
import { el, language, t, tn, N_ } from "/static/common.js";
import { coachPanel, percent } from "/static/games/coach.js";
import { reducedMotion } from "/static/moment.js";
import { animateMoves, announceFinal, playScoring } from "/static/games/arne-moment.js";
import { BLACK, COLOURS, MARKS, cardFace, cardRule, cardWords, colourWord, legend, parse } from "/static/games/arne-cards.js";
import { showRule } from "/static/rules.js";

// How to play at this table (the rules themselves are the rules panel's, rules.js).
export const pageHelp = t("Click a glowing card in your hand, then a lit target (a stack, a display, a player), or a button under your hand. When you may answer, your playable black cards glow: click one, or *Pass* (key `P`); *Pass in advance* or *always pass* skip the question. On your own turn `P` lets the others answer first (your turn is not skipped). Keys: `1`–`9` pick a card, `Enter` confirms, `Esc` cancels, `?` shows the rule of the card in focus. Right-click a card for its rule.");

const CARD_OF = {
  x3: "X3", take_random: "TAKE_RANDOM", demand_points: "DEMAND_POINTS", demand_black: "DEMAND_BLACK",
  draw_three: "DRAW_THREE", pass_hands: "PASS_HANDS", swap_places: "SWAP_PLACES", thief_discard: "THIEF",
  thief_stack: "THIEF", crush: "CRUSH", lock: "LOCK", stop: "STOP", reverse: "REVERSE", chameleon: "CHAMELEON",
};
const OWN_WINDOW = N_("Your turn: play a card now, or let the others answer first (then you play).");
const STAGES = { colour: N_("choosing colours"), window: N_("answering"), white: N_("playing a white card"), give: N_("handing over cards"), final: N_("final round"), over: N_("game over") };

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
function nameOf(ctx, p) { return ctx.names[p] || t("player {n}", { n: p + 1 }); }

function displayWords(view, names, d) {
  if (d === -1) return t("the discard pile");
  const disp = view.displays[d];
  if (!disp || disp.owner_seat === null) return t("the dummy display");
  return t("{name}'s display", { name: names(view.seats[disp.owner_seat].player) });
}

function stackWords(view, names, d, s) {
  const st = view.displays[d]?.stacks[s];
  if (!st) return t("stack {number} of {display}", { number: s + 1, display: displayWords(view, names, d) });
  if (view.displays[d].owner_seat === null) return t("the dummy's {card}", { card: cardWords(st.base) });
  return t("{name}'s {card}", { name: names(view.seats[view.displays[d].owner_seat].player), card: cardWords(st.base) });
}

/** An action in player words, e.g. "Crush Bob's red 500". */
function label(a, names, view) {
  const disp = (d) => displayWords(view, names, d);
  const stack = (d, s) => (view.displays[d] && view.displays[d].owner_seat === null ? t("the dummy's {card}", { card: cardWords(view.displays[d].stacks[s]?.base || "") }) : stackWords(view, names, d, s));
  switch (a.type) {
    case "pass": return t("Pass");
    case "choose_colour": return t("Take {symbol} {colour}", { symbol: COLOURS[a.colour]?.symbol || "", colour: colourWord(a.colour) });
    case "play_point": return t("{card} into {display}", { card: cardWords(`${a.colour} ${a.card}`), display: a.display === -1 ? t("the discard pile") : disp(a.display) });
    case "x3": return t("Tripler on {stack}", { stack: stack(a.display, a.stack) });
    case "take_random": return t("Take a random card from {name}", { name: names(a.target) });
    case "demand_points": return t("Demand 2 {colour} point cards from {name} into {display}", { colour: colourWord(a.colour), name: names(a.target), display: disp(a.display) });
    case "demand_black": return t("Demand 2 black cards from {name}", { name: names(a.target) });
    case "draw_three": return t("Draw three cards");
    case "pass_hands": return t("Everybody passes their hand on");
    case "swap_places": return t("Swap places with {name}", { name: names(a.target) });
    case "give": return t("Hand over {card}", { card: a.colour ? cardWords(`${a.colour} ${a.card}`) : cardWords(a.card) });
    case "minus200": return t("{colour} −200 into {display}", { colour: colourWord(a.colour), display: disp(a.display) });
    case "chameleon": return t("Chameleon with {card} into {display}", { card: cardWords(`${a.colour} ${a.card}`), display: disp(a.display) });
    case "thief_discard": return t("Thief: take the top card of the discard pile");
    case "thief_stack": return t("Thief: steal {stack}", { stack: stack(a.display, a.stack) });
    case "crush": return t("Crush {stack}", { stack: stack(a.display, a.stack) });
    case "lock": return t("Lock {stack}", { stack: stack(a.display, a.stack) });
    case "stop": return t("Stop! (you play next)");
    case "reverse": return t("Reverse! (the direction turns)");
    default: return a.type.replace(/_/g, " ");
  }
}

/** The coach: the hard bot's three most searched plays, e.g. "Red 500 into your display —
 * chosen in 41% of searches, wins 63%". */
function coachList(advice, names, view) {
  const list = el("ol", { class: "coach-plays", id: "coach-plays" });
  for (const [i, o] of advice.options.entries()) {
    const odds = o.value === null ? t("your only play")
      : advice.players === 2 ? t("chosen in {share} of {n} searches, wins {value}", { share: percent(o.share), n: advice.iterations, value: percent(o.value) })
        : t("chosen in {share} of {n} searches, standing {value}", { share: percent(o.share), n: advice.iterations, value: percent(o.value) });
    list.append(el("li", { class: `odds${i === 0 ? " best" : ""}`, "data-action": o.action.type }, el("strong", {}, label(o.action, names, view)), ` — ${odds}`));
  }
  const note = advice.players === 2 ? t("The hard bot's view:") : t("The hard bot's view (standing: 100% first place, 0% last):");
  return [el("span", { class: "muted" }, note), list];
}

/** The coach's review of one decision, in words (the replay page). */
export function reviewWords(advice, played, view, names) {
  const n = (p) => names[p] || t("player {n}", { n: p + 1 });
  const odds = (o) => (o.value === null ? t("the only play")
    : advice.players === 2 ? t("chosen in {share} of searches, wins {value}", { share: percent(o.share), value: percent(o.value) })
      : t("chosen in {share} of searches, standing {value}", { share: percent(o.share), value: percent(o.value) }));
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

function whyAttrs(on, fields, title = t("not possible now: click to see why")) {
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
  if (!c) return el("span", { class: "ctag none" }, t("no colour yet"));
  const info = COLOURS[c] || { fill: "#888", symbol: "?", name: c };
  return el("span", { class: `ctag${info.dark ? " dark" : ""}`, style: `background:${info.fill}` }, `${info.symbol} ${t(info.name)}`);
}

function whoActsLine(view, names, msg) {
  if (view.over) return t("The game is over.");
  const me = msg.seat;
  if (view.window) {
    const kind = view.window.kind;
    const mine = view.active === me;
    if (kind === "main" && view.window.holder === me && view.active === me) return t(OWN_WINDOW);
    const name = names(view.active);
    const when = kind === "main" ? (mine ? t("at the start of your turn") : t("at the start of {name}'s turn", { name }))
      : kind === "pre" ? (mine ? t("before your card takes effect") : t("before {name}'s card takes effect", { name }))
        : mine ? t("after your card") : t("after {name}'s card", { name });
    return view.window.holder === me ? t("You may answer with a black card ({when}).", { when }) : t("{name} may answer with a black card ({when}).", { name: names(view.window.holder), when });
  }
  if (view.give) {
    const cards = { n: view.give.left, to: view.give.to === me ? t("you") : names(view.give.to) };
    return view.give.target === me ? tn("You hand {n} card to {to}.", "You hand {n} cards to {to}.", view.give.left, cards)
      : tn("{name} hands {n} card to {to}.", "{name} hands {n} cards to {to}.", view.give.left, { ...cards, name: names(view.give.target) });
  }
  if (view.final_round) return view.to_act === me ? t("Final round: play one black card, or pass.") : t("Final round: {name} may play one black card.", { name: names(view.to_act) });
  if (view.phase === "colour") return view.to_act === me ? t("Choose your colour.") : t("{name} chooses a colour.", { name: names(view.to_act) });
  if (view.to_act === me) return t("Your turn: play a white card.");
  return t("{name} plays a white card.", { name: names(view.to_act) });
}

function drawHead(view, names, msg) {
  // whose turn the header names: while colours are chosen, the one choosing (it named the
  // first player, above "Choose your colour." on the page of the one choosing)
  const lead = view.phase === "colour" && view.to_act != null ? view.to_act : view.active;
  const stage = view.final_round ? t("still to play: {names}", { names: view.final_round.map(names).join(", ") }) : STAGES[view.phase] ? t(STAGES[view.phase]) : "";
  const head = el("div", { class: "panel", id: "arne-head" },
    el("div", { class: "row" },
      el("strong", {}, view.over ? t("Game over") : view.final_round ? t("Final round") : lead === msg.seat ? t("Your turn") : t("{name}'s turn", { name: names(lead) })),
      el("span", {}, view.direction === 1 ? `↻ ${t("clockwise")}` : `↺ ${t("counter-clockwise")}`),
      el("span", { class: "muted" }, tn("{n} card to draw", "{n} cards to draw", view.draw_pile)),
      stage && !view.over ? el("span", { class: "pill" }, stage) : "",
      view.pending ? el("span", { class: "pill warn" }, view.pending.kind === "STOP" ? t("Stop! {name} plays next", { name: names(view.pending.player) }) : t("Reverse! by {name}", { name: names(view.pending.player) })) : ""),
    el("div", { id: "who-acts", class: "now" }, whoActsLine(view, names, msg)));
  if (view.in_play) {
    head.append(el("div", { class: "row in-play" }, cardFace(view.in_play.card, { width: 34 }),
      el("span", {}, t("{name} plays: {play}", { name: names(view.active), play: label(view.in_play.action, names, view) }))));
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
    }, el("div", {}, colourTag(s.colour), " ", el("strong", {}, names(p)), p === me ? ` ${t("(you)")}` : ""),
    el("div", { class: "muted" }, `${tn("{n} card in hand", "{n} cards in hand", s.hand_size)} · ${t("score now {score}", { score: view.scores[p] })}${view.totals[p] ? ` · ${t("total {total}", { total: view.totals[p] })}` : ""}`)));
  });
  // "Players" is the page's list of who is here (table.js); this one is the game's.
  return el("div", { class: "panel" }, el("h3", {}, t("Hands and scores")), players);
}

function drawDisplays(view, names, msg) {
  const displays = el("div", { class: "panel", id: "displays" }, el("h3", {}, t("Displays")));
  const grid = el("div", { class: "displays" });
  for (const d of view.displays) {
    const owner = d.owner_seat === null ? t("Dummy") : names(view.seats[d.owner_seat].player);
    const dTarget = targetable("display", d.display) && !couldTarget("stack");  // stacks lit instead: no button in a button
    const box = el("div", { class: `display ${dTarget ? "target" : ""}`, "data-display": d.display,
      ...targetAttrs(dTarget, (ev) => { if (!ev.target.closest || !ev.target.closest("[data-stack]")) pick("display", d.display); }),
      ...whyAttrs(!dTarget && couldTarget("display") && !couldTarget("stack"), { display: d.display }) },
    el("div", { class: "row" }, el("strong", {}, `${owner}${d.owner_seat !== null && view.seats[d.owner_seat].player === msg.seat ? ` ${t("(you)")}` : ""}`), colourTag(d.colour), el("span", { class: "score" }, t("{score} points", { score: d.score }))));
    const stacks = el("div", { class: "cards" });
    d.stacks.forEach((st, i) => {
      const sTarget = selected && candidates(msg).some((a) => a.display === d.display && a.stack === i);
      const marks = ["chameleon", "x3", "crush", "lock"].filter((k) => st[k]).map((k) => (language() === "en" ? k : t(MARKS[k].name).toLowerCase()));
      const wrap = el("span", { "data-stack": i, class: `stack ${sTarget ? "target" : ""}`,
        title: `${cardWords(st.base)}${marks.length ? ` — ${marks.join(", ")}` : ""}`,
        ...targetAttrs(sTarget, () => { filters.display = d.display; pick("stack", i); }),
        ...whyAttrs(!sTarget && couldTarget("stack"), { display: d.display, stack: i }) });
      wrap.append(cardFace(st.base, { width: 40, marks: st, label: `${cardWords(st.base)}${marks.length ? `, ${marks.join(", ")}` : ""}` }));
      stacks.append(wrap);
    });
    if (!d.stacks.length) stacks.append(el("span", { class: "muted empty" }, t("no cards yet")));
    box.append(stacks);
    grid.append(box);
  }
  const discardTarget = targetable("display", -1);
  const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
  grid.append(el("div", { class: `display discard ${discardTarget ? "target" : ""}`, "data-display": "-1", ...targetAttrs(discardTarget, () => pick("display", -1)) },
    el("strong", {}, t("Discard pile")), el("div", { class: "cards" }, top ? [cardFace(top, { width: 40 }), el("span", { class: "muted" }, tn("{n} card", "{n} cards", view.discard.length))]
      : el("span", { class: "muted empty" }, t("empty")))));
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
      el("strong", {}, !mayAnswer ? t("{name} may answer.", { name: names(view.window.holder) })
        : ownTurn ? t(OWN_WINDOW) : t("You may answer: play a glowing black card, or pass.")),
      msg.deadline ? el("span", { class: "pill warn countdown", id: "window-timer" }, ` ${t("{s} s", { s: Math.max(0, Math.round(msg.deadline - msg.now)) })}`) : "");
    // On your own turn passing only lets the black cards answer first: the turn comes back.
    if (mayAnswer) banner.append(el("button", { type: "button", class: "primary", id: "pass", onclick: () => send({ type: "pass" }),
      title: ownTurn ? t("This does not skip your turn: the others may answer with a black card first, then you play your white card.") : t("Play no black card now") },
    ownTurn ? t("Let the others answer first (P)") : t("Pass (P)")));
    else if (!view.over && msg.seat !== null) {
      const on = msg.you && msg.you.pass_ahead;
      const turn = msg.you && msg.you.pass_turn;
      banner.append(el("button", { type: "button", id: "pass-ahead", "aria-pressed": String(!!on),
        onclick: () => ctx.send({ type: "pass_ahead", on: !on }) }, on ? t("Passing in advance ✓ (undo)") : t("Pass in advance")),
      " ", el("button", { type: "button", id: "pass-turn", "aria-pressed": String(!!turn),
        title: t("Pass in every window until the next player's turn"),
        onclick: () => ctx.send({ type: "pass_ahead", on: !turn, turn: true }) }, turn ? t("Passing this turn ✓ (undo)") : t("Pass this turn")));
    }
    // "Wait!" (issue 45): anyone still to answer may ask for the full time, holding a card
    // or not; the others see who asked, as a hesitation at a real table.
    const holds = msg.holds || [];
    if (msg.seat !== null && !view.over && !holds.includes(msg.seat) && !(msg.you && (msg.you.pass_ahead || msg.you.pass_turn))) {
      banner.append(" ", el("button", { type: "button", id: "wait", title: t("Ask for the full time to answer (anyone may, holding a card or not)"),
        onclick: () => ctx.send({ type: "wait" }) }, t("Wait! (W)")));
    }
    if (holds.length) banner.append(el("span", { class: "muted", id: "holds" }, ` ${holds.map((p) => (p === msg.seat ? "you" : names(p))).join(" and ")} asked to wait.`));
    main.append(banner);
  }
  const hand = el("div", { class: "cards hand", id: "hand", role: "list", "aria-label": t("your hand") });
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
      : why ? { role: "button", tabindex: "0", "aria-disabled": "true", class: "unavailable", "aria-label": t("{card}: not possible now, click to see why", { card: cardWords(c) }),
        onclick: () => askWhy(cardQuestion(c, view)), onkeydown: (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); askWhy(cardQuestion(c, view)); } } } : {});
    face.append(cardFace(c));
    node.append(face);
    hand.append(node);
  }
  if (!(view.hand || []).length) {
    hand.removeAttribute("role"); // an empty list is no list (axe: aria-required-children)
    hand.append(el("span", { class: "muted" }, view.over ? t("the game is over") : t("no cards in hand")));
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
    hintLine = el("div", { class: "hint", id: "choice-hint" }, `${cardWords(selected)}: ${cands.length > 1 ? t("pick a lit target or a button") : t("confirm")}`);
    // Cancel before the ways to play (on a phone first of all, app.css): the row scrolls sideways.
    choices.append(el("button", { type: "button", id: "cancel", onclick: () => { selected = null; filters = {}; draw(); } }, t("Cancel (Esc)")));
    for (const a of cands.slice(0, 12)) choices.append(el("button", { type: "button", class: "choice", onclick: () => send(a) }, label(a, names, view)));
    if (cands.length > 12) choices.append(el("span", { class: "muted" }, t("and {n} more: pick a lit target", { n: cands.length - 12 })));
  } else if (!view.window && msg.asked && acts.some((a) => a.type === "pass")) {
    choices.append(el("button", { type: "button", id: "pass", onclick: () => send({ type: "pass" }) }, t("Pass")));
  }
  const head = msg.asked ? el("strong", {}, view.give ? t("Choose a card to hand over") : mayAnswer ? "" : t("Your move")) : el("span", { class: "muted" }, t("Your hand"));
  const fold = el("button", { type: "button", id: "hand-fold", class: "fold", "aria-expanded": String(!folded),
    onclick: () => { folded = !folded; draw(); } }, folded ? t("Show hand ▴") : t("Hide hand ▾"));
  if (folded) bar.classList.add("folded");
  main.append(el("div", { class: "row bar-head" }, head, fold,
    el("label", { class: "muted autopass" }, el("input", { type: "checkbox", id: "auto-pass", checked: !!(msg.you && msg.you.auto_pass),
      onchange: (ev) => ctx.send({ type: "auto_pass", on: ev.target.checked }) }), ` ${t("always pass when I may answer")}`)), hand, ...(hintLine ? [hintLine] : []), choices);
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
  for (const row of root.querySelectorAll("#hand, #choices")) edges(row);
  const picking = selected ? `${selected} ${JSON.stringify(filters)}` : null;
  if (picking && picking !== shownTargets) showTargets();
  shownTargets = picking;
}

/** A row that scrolls sideways (a phone's hand and its ways to play) fades at the edge that
 * has more beyond it: buttons cut off at the screen's edge read as all there is. */
function edges(row) {
  const mark = () => {
    const more = row.scrollWidth - row.clientWidth;
    row.classList.toggle("more-right", more > 2 && row.scrollLeft < more - 2);
    row.classList.toggle("more-left", more > 2 && row.scrollLeft > 2);
  };
  mark();
  row.addEventListener("scroll", mark, { passive: true });
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
  const n = (p) => names[p] ?? t("player {n}", { n: p + 1 });
  const and = t(" and ");
  const disp = (d) => {
    if (d === -1) return t("the discard pile");
    const owner = view && view.displays[d] ? view.displays[d].owner_seat : d;
    return owner === null ? t("the dummy display") : view ? t("{name}'s display", { name: n(view.seats[owner].player) }) : t("display {number}", { number: d + 1 });
  };
  const on = (a) => {
    const base = stackOf(view, a.display, a.stack);
    if (!base) return t("a stack in {display}", { display: disp(a.display) });
    const owner = view && view.displays[a.display] ? view.displays[a.display].owner_seat : null;
    return owner === null ? t("the dummy's {card}", { card: cardWords(base) }) : t("{name}'s {card}", { name: n(view.seats[owner].player), card: cardWords(base) });
  };
  switch (e.kind) {
    case "game": return e.game_no > 1 ? t("Game {number} begins.", { number: e.game_no }) : t("The game begins.");
    case "colour": return tn("{names} takes {colour}.", "{names} take {colour}.", e.seats.length, { names: e.seats.map((s) => (view ? n(view.seats[s].player) : n(s))).join(and), colour: colourWord(e.colour) });
    case "dummy": return t("The dummy plays {colour}.", { colour: colourWord(e.colour) });
    case "dealt": return tn("Cards are dealt; {n} card left to draw.", "Cards are dealt; {n} cards left to draw.", e.draw_pile);
    case "turn": return t("{name}'s turn.", { name: n(e.player) });
    case "drew": return e.count ? tn("{name} draws {n} card.", "{name} draws {n} cards.", e.count, { name: n(e.player) }) : t("{name} cannot draw: the pile is empty.", { name: n(e.player) });
    case "declared": {
      const a = e.action || {};
      if (a.type === "play_point") return a.display === -1 ? t("{name} lays {card} on the discard pile.", { name: n(e.player), card: cardWords(e.card) }) : t("{name} lays {card} into {display}.", { name: n(e.player), card: cardWords(e.card), display: disp(a.display) });
      if (a.type === "x3") return t("{name} plays a Tripler on {stack}.", { name: n(e.player), stack: on(a) });
      if (!view || !("target" in a || "colour" in a)) return t("{name} plays {card}.", { name: n(e.player), card: cardWords(e.card) });
      return t("{name} plays {card}: {play}.", { name: n(e.player), card: cardWords(e.card), play: label(a, n, view) });
    }
    // (no "Reverse!." : a card's name that ends in "!" ends the sentence)
    case "black": return t("{name} answers with {card}.", { name: n(e.player), card: blackWords(e, n, on, disp) }).replace(/!\.$/, "!");
    case "no_white": return t("{name} has no white card to play.", { name: n(e.player) });
    case "took_random": return e.moved ? t("{name} takes a random card from {from}.", { name: n(e.player), from: n(e.target) }) : t("{name} has no card to take.", { name: n(e.target) });
    case "gave_point": return t("{name} hands {to} {card} for {display}.", { name: n(e.target), to: n(e.player), card: cardWords(e.card), display: disp(e.display) });
    case "gave_black": return t("{name} hands {to} a black card.", { name: n(e.target), to: n(e.player) });
    case "swapped": return t("{name} and {other} swap places.", { name: n(e.player), other: n(e.target) });
    case "hands_passed": return e.direction === 1 ? t("Everybody passes their hand clockwise.") : t("Everybody passes their hand counter-clockwise.");
    case "final_round": return t("The draw pile is empty: final round, each player once ({names}).", { names: e.order.map(n).join(", ") });
    case "scored": return t("Scores: {scores}.", { scores: e.scores.map((s, p) => `${n(p)} ${s}`).join(", ") });
    case "over": return tn("Game over: {names} wins.", "Game over: {names} win.", e.winners.length, { names: e.winners.map(n).join(and) });
    case "pass": return { text: t("{name} passes.", { name: n(e.player) }), quiet: true, who: n(e.player) };
    default: return null;
  }
}

function blackWords(e, n, on, disp) {
  const a = e.action || {};
  switch (a.type) {
    case "minus200": return t("{colour} −200 into {display}", { colour: colourWord(a.colour), display: disp(a.display) });
    case "chameleon": return t("Chameleon carrying {card} into {display}", { card: cardWords(`${a.colour} ${a.card}`), display: disp(a.display) });
    case "crush": return t("Crush on {stack}", { stack: on(a) });
    case "lock": return t("Lock on {stack}", { stack: on(a) });
    case "thief_discard": return t("Thief, taking {card} from the discard pile", { card: e.card ? cardWords(e.card) : t("the top card") });
    case "thief_stack": return t("Thief, stealing a stack from {display}", { display: disp(a.display) });
    case "stop": return t("Stop! and plays next");
    case "reverse": return t("Reverse!");
    default: return a.type || t("a black card");
  }
}

export function resultDetails(msg, names) {
  const v = msg.view;
  const box = el("div", { class: "final-displays" });
  for (const d of v.displays) {
    const owner = d.owner_seat === null ? t("Dummy") : names[v.seats[d.owner_seat].player];
    box.append(el("div", { class: "row" }, el("strong", {}, owner), colourTag(d.colour), el("span", {}, t("{score} points", { score: d.score })),
      el("span", { class: "cards" }, d.stacks.map((st) => cardFace(st.base, { width: 26, marks: st })))));
  }
  return box;
}

/** Cards of a hand as small faces (the replay's "reveal all hands"). */
export function handFaces(hand) { return el("span", { class: "cards" }, hand.map((c) => cardFace(c, { width: 30 }))); }
