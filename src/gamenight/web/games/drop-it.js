// Drop It: aim along the top (mouse or keys), rotate (wheel or keys), drop; the fall is
// animated from the server's trajectory frames and the result is explained.
import { api, el, fixed, svg, t, tn, N_ } from "/static/common.js";
import { coachAdvice, coachPanel } from "/static/games/coach.js";
import { playingUntil } from "/static/moment.js";
import { showRule } from "/static/rules.js";

// How to play at this table (the rules themselves are the rules panel's, rules.js).
export const pageHelp = t("Mouse: move to aim, wheel to turn, click to drop. Phone: tap to aim, tap *Drop* (or the same spot again) to confirm. Keys: `←` `→` move (`Shift` faster), `↑` `↓` or `Q` `E` turn, `[` `]` choose a piece, `Enter` drop. While you aim, a warning shows where the piece would land on an edge mark of its own. Right-click a piece for its rule.");

// Colours never carry meaning alone: each colour has a mark drawn on its pieces.
const COLOUR_MARKS = { red: "●", yellow: "★", blue: "■", green: "▲" };

let B = null;           // board data from the server
let aim = { x: 120, angle: 0, piece: null };
let lastMsg = null, lastCtx = null, root = null;
let animating = null;   // {turn, start}
let shownTurn = -1;
let sent = false;

export async function init(rootEl, info) {
  B = await api(`/api/games/drop-it/page-data?table=${encodeURIComponent(info.id)}`);
  aim.x = B.board.width / 2;
}

const X = (x) => (x + B.margin) * B.scale;
const Y = (y) => (B.board.height + B.top_space - y) * B.scale;

function kindOf(id) { return id.split("-")[1]; }
function colourOf(id) { return id.split("-")[0]; }

/** A piece as an SVG element at board coordinates (x, y) turned by `a` radians. */
function shapeEl(id, x, y, a, stroke = "#222", width = 1, extra = {}) {
  const o = B.outlines[kindOf(id)];
  const colour = colourOf(id);
  const fill = B.fill[colour] || "#999";
  const g = svg("g", extra);
  if (!o.vertices.length) {
    g.append(svg("circle", { cx: X(x).toFixed(1), cy: Y(y).toFixed(1), r: (o.radius * B.scale).toFixed(1), fill, "fill-opacity": 0.9, stroke, "stroke-width": width }));
  } else {
    const c = Math.cos(a), s = Math.sin(a);
    const pts = o.vertices.map(([vx, vy]) => `${X(x + vx * c - vy * s).toFixed(1)},${Y(y + vx * s + vy * c).toFixed(1)}`).join(" ");
    g.append(svg("polygon", { points: pts, fill, "fill-opacity": 0.9, stroke, "stroke-width": width }));
  }
  g.append(svg("text", { x: X(x).toFixed(1), y: (Y(y) + 6).toFixed(1), "font-size": 16, "text-anchor": "middle", fill: colour === "yellow" ? "#111" : "#fff" }, COLOUR_MARKS[colour] || ""));
  return g;
}

/** A piece kind ("red-circle") drawn on its own, for the picker. */
function pieceIcon(kind, size = 44) {
  const o = B.outlines[kind.split("-")[1]];
  const colour = kind.split("-")[0];
  const r = o.vertices.length ? Math.max(...o.vertices.map(([vx, vy]) => Math.hypot(vx, vy))) : o.radius;
  const k = (size / 2 - 3) / r;
  const pic = svg("svg", { width: size, height: size, viewBox: `${-size / 2} ${-size / 2} ${size} ${size}`, "aria-hidden": "true" });
  const fill = B.fill[colour] || "#999";
  if (!o.vertices.length) pic.append(svg("circle", { cx: 0, cy: 0, r: o.radius * k, fill, stroke: "#222" }));
  else pic.append(svg("polygon", { points: o.vertices.map(([vx, vy]) => `${(vx * k).toFixed(1)},${(-vy * k).toFixed(1)}`).join(" "), fill, stroke: "#222" }));
  pic.append(svg("text", { x: 0, y: 5, "font-size": 13, "text-anchor": "middle", fill: colour === "yellow" ? "#111" : "#fff" }, COLOUR_MARKS[colour] || ""));
  return pic;
}

function piecesLayer(pieces, last) {
  const lastId = last && last.piece;
  const touching = new Set((last && last.touching) || []);
  const bad = last && last.violations && last.violations.length;
  const layer = svg("g", { id: "pieces" });
  for (const p of pieces) {
    if (p.id === lastId) layer.append(shapeEl(p.id, p.x, p.y, p.angle, bad ? "#c00000" : "#00a000", 4, { "data-last": "1", "data-piece-id": p.id }));
    else if (touching.has(p.id)) layer.append(shapeEl(p.id, p.x, p.y, p.angle, "#ff7f00", 3, { "data-piece-id": p.id }));
    else layer.append(shapeEl(p.id, p.x, p.y, p.angle, "#222", 1, { "data-piece-id": p.id }));
  }
  return layer;
}

function bonusLayer() {
  // (its inside takes clicks too: they aim at it, as anywhere on the board)
  return svg("g", { "aria-hidden": "true" }, B.board.bonus.map((c) => svg("circle", { cx: X(c.center[0]), cy: Y(c.center[1]), r: c.radius * B.scale, fill: "none", stroke: "#08306b", "stroke-width": 1.5, "stroke-dasharray": "4 3", "pointer-events": "all", "data-bonus": c.id })));
}

/** Words for a piece id or kind: "red circle". */
// Each piece kind of each colour in words, one message each (a German adjective agrees with its noun).
const PIECE_WORDS = {
  "red-circle": N_("red circle"), "red-square": N_("red square"), "red-triangle": N_("red triangle"), "red-diamond": N_("red diamond"),
  "yellow-circle": N_("yellow circle"), "yellow-square": N_("yellow square"), "yellow-triangle": N_("yellow triangle"), "yellow-diamond": N_("yellow diamond"),
  "blue-circle": N_("blue circle"), "blue-square": N_("blue square"), "blue-triangle": N_("blue triangle"), "blue-diamond": N_("blue diamond"),
  "green-circle": N_("green circle"), "green-square": N_("green square"), "green-triangle": N_("green triangle"), "green-diamond": N_("green diamond"),
};
const COLOUR_WORDS = { red: N_("red"), yellow: N_("yellow"), blue: N_("blue"), green: N_("green") };
/** An edge mark's symbol in words: a colour ("green") in the page's language, a shape as drawn. */
function markSymbol(symbol) { return COLOUR_WORDS[symbol] ? t(COLOUR_WORDS[symbol]) : SHAPE_WORDS[symbol] ? t(SHAPE_WORDS[symbol]) : symbol; }
const SHAPE_WORDS = { circle: N_("circle"), square: N_("square"), triangle: N_("triangle"), diamond: N_("diamond") };

function pieceWords(id) {
  const [c, k] = id.split("-");
  const key = [c, k].join("-");
  return k ? (PIECE_WORDS[key] ? t(PIECE_WORDS[key]) : `${c} ${k}`) : id;
}

function mySupply(view) {
  if (view.side === null || view.side === undefined) return [];
  return view.sides[view.side].supply;
}

function kindsLeft(supply) {
  const seen = new Map();
  for (const id of supply) { const k = id.split("-").slice(0, 2).join("-"); seen.set(k, (seen.get(k) || 0) + 1); }
  return [...seen.entries()];
}

/** "Why not?" (issue 46): the kinds of your colours already all on the board; a click on
 * one asks the server, which answers with the rules' reason. */
function usedUp(view) {
  if (view.side === null || view.side === undefined) return [];
  const left = new Set(kindsLeft(mySupply(view)).map(([k]) => k));
  const mine = new Set(view.sides[view.side].colours || []);
  const gone = (view.pieces || []).map((p) => p.id.split("-").slice(0, 2).join("-")).filter((k) => mine.has(k.split("-")[0]) && !left.has(k));
  return [...new Set(gone)].sort();
}

function canDrop(msg) { return msg.asked && msg.view.phase === "drop" && !sent; }

// A bonus circle by its size, on a level or not (an adjective agrees with its noun).
const BONUS_WORDS = {
  small: [N_("the small bonus circle on level {level} (+{points})"), N_("the small bonus circle (+{points})")],
  medium: [N_("the medium bonus circle on level {level} (+{points})"), N_("the medium bonus circle (+{points})")],
  large: [N_("the large bonus circle on level {level} (+{points})"), N_("the large bonus circle (+{points})")],
  "": [N_("the bonus circle on level {level} (+{points})"), N_("the bonus circle (+{points})")],
};

/** A bonus circle as the rulebook names it: "the small bonus circle on level 6 (+3)". */
function bonusWords(id) {
  const c = B && B.board.bonus.find((b) => b.id === id);
  if (!c) return t("a bonus circle");
  const [onLevel, anywhere] = BONUS_WORDS[c.size || ""] || BONUS_WORDS[""];
  return c.level ? t(onLevel, { level: c.level, points: c.points }) : t(anywhere, { points: c.points });
}

/** "a", "a and b", "a, b and c" */
function andList(words) { return words.length > 1 ? `${words.slice(0, -1).join(", ")}${t(" and ")}${words[words.length - 1]}` : words[0] || ""; }

/** A side in player words: its player, or its team's players ("Ann and Cleo"). */
function sideName(side, names, view) {
  const s = view && view.sides && view.sides[side];
  if (!s) return names[side] || t("player {n}", { n: side + 1 });
  return andList(s.seats.map((x) => names[x] || t("player {n}", { n: x + 1 })));
}

function explain(last) {
  if (!last) return el("p", { class: "muted" }, t("No piece dropped yet."));
  const parts = [];
  parts.push(el("div", {}, el("strong", {}, pieceWords(last.piece)), ` ${t("reached level {level}", { level: last.level })}`,
    last.bonus && last.bonus.length ? ` ${t("and covered {circles}", { circles: andList(last.bonus.map(bonusWords)) })}` : t(", no bonus circle")));
  if (last.violations.length) {
    for (const v of last.violations) parts.push(el("div", { class: "pill bad" }, t("broke the {rule} rule: {why}", { rule: t(RULE_WORDS[v.rule] || v.rule), why: ruleWords(v) })));
  } else parts.push(el("div", { class: "pill ok" }, t("broke no rule")));
  const sum = t("level {level} + bonus {bonus}", { level: last.level, bonus: last.raw_points - last.level });
  if ("awarded" in last) {
    const lost = last.awarded !== last.raw_points ? `: ${t("it would have scored {points} ({sum})", { points: last.raw_points, sum })}` : ` (${sum})`;
    parts.push(el("div", {}, el("strong", { id: "awarded" }, tn("{n} point", "{n} points", last.awarded)),
      `${lost}${last.joker_used ? t(", a joker was spent") : ""}`));
  } else parts.push(el("div", {}, t("{points} points with a joker ({sum}), 0 without: the joker is to be decided", { points: last.raw_points, sum })));
  if (!last.settled) parts.push(el("div", { class: "muted" }, t("the pile did not settle in time")));
  return el("div", { id: "result" }, parts);
}

let boardImage = null;  // the server's board picture as an image URL (never parsed as markup)

function sideWords(s, ctx) {
  return `${andList(s.seats.map((x) => ctx.names[x]))} (${s.colours.map((c) => `${COLOUR_MARKS[c] || ""} ${COLOUR_WORDS[c] ? t(COLOUR_WORDS[c]) : c}`).join(", ")})`;
}

function drawBoard(msg, pieces, last, anim) {
  if (!boardImage) boardImage = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(B.svg)}`;
  const board = svg("svg", { viewBox: `0 0 ${B.width} ${B.height}`, id: "board", role: "img",
    "aria-label": tn("the Drop It board with {n} piece", "the Drop It board with {n} pieces", pieces.length), class: "board" });
  board.append(svg("image", { href: boardImage, x: 0, y: 0, width: B.width, height: B.height }));
  board.append(piecesLayer(pieces, last), bonusLayer(), svg("g", { id: "coach-ghosts" }, anim ? [] : coachGhosts(msg)),
    svg("g", { id: "ghost-layer" }, anim ? [] : ghostEls(msg)));
  return board;
}

/** The coach's best drops as numbered ghosts where each piece came to rest in the planner's
 * simulation (dashed, see-through: they are not on the board). */
function coachGhosts(msg) {
  const advice = coachAdvice(msg);
  if (!advice || !canDrop(msg)) return [];
  return advice.options.filter((o) => o.rest).map((o, i) => svg("g", { class: "coach-ghost", "data-rank": i + 1 },
    shapeEl(o.piece, o.rest.x, o.rest.y, o.rest.angle, "#111", 2, { opacity: 0.45, "stroke-dasharray": "5 3" }),
    svg("circle", { cx: X(o.rest.x) + 14, cy: Y(o.rest.y) - 14, r: 9, fill: "#fff", stroke: "#111" }),
    svg("text", { x: X(o.rest.x) + 14, y: Y(o.rest.y) - 10, "font-size": 12, "font-weight": 700, "text-anchor": "middle" }, String(i + 1))));
}

function dropWords(a) { return t("{piece} at {x} mm, turned {angle}°", { piece: pieceWords(a.piece), x: a.x.toFixed(0), angle: ((a.angle * 180) / Math.PI).toFixed(0) }); }

/** The coach's review of one decision, in words (the replay page). */
export function reviewWords(advice, played) {
  const joker = (a) => (a.spend ? t("Spend the joker") : t("Keep the joker"));
  if (advice.joker) return { played: joker(played), options: [joker(advice.joker)] };
  return { played: dropWords(played), options: advice.options.map((o) => `${dropWords(o.action)} — ${t("{points} points expected", { points: fixed(o.points, 1) })}`) };
}

/** The coach's words: each drop with its expected points; a button aims it for you. */
function coachDrops(advice) {
  if (advice.joker) return el("span", { class: "odds best", id: "coach-joker" }, advice.joker.spend ? t("The planner would spend its joker.") : t("The planner would keep its joker."));
  const list = el("ol", { class: "coach-plays", id: "coach-drops" });
  for (const [i, o] of advice.options.entries()) {
    const a = o.action;
    const words = dropWords(a);
    list.append(el("li", { class: `odds${i === 0 ? " best" : ""}`, "data-rank": i + 1 },
      el("strong", {}, words), ` — ${t("{points} points expected", { points: fixed(o.points, 1) })} `,
      el("button", { type: "button", class: "coach-aim", "aria-label": t("aim {drop}", { drop: words }),
        onclick: () => { aim = { piece: a.piece, x: a.x, angle: a.angle }; armed = false; draw(); } }, t("aim here"))));
  }
  return [el("span", { class: "muted" }, t("The planner's best drops ({n} simulations; ghosts on the board):", { n: advice.simulations })), list];
}

function drawControls(msg, ctx) {
  const view = msg.view, me = msg.seat;
  const controls = el("div", { class: "panel dropbar", id: "controls", "data-focus-home": me === null || me === undefined ? false : "" });
  if (canDrop(msg)) {
    const kinds = kindsLeft(mySupply(view));
    controls.append(el("div", { class: "row", id: "supply", role: "radiogroup", "aria-label": t("your pieces") }, kinds.map(([k, n]) =>
      el("button", { type: "button", class: `piece ${k === aim.piece ? "chosen" : ""}`, "data-piece": k, role: "radio", "aria-checked": String(k === aim.piece),
        "aria-label": t("{piece}, {n} left", { piece: pieceWords(k), n }), title: t("{piece} ({n} left)", { piece: pieceWords(k), n }), onclick: () => { aim.piece = k; armed = false; draw(); },
        oncontextmenu: (ev) => { ev.preventDefault(); showRule(kindOf(k)); } },  // its rule in the rules panel
      pieceIcon(k), el("span", { class: "count" }, `×${n}`))),
    ...usedUp(view).map((k) => el("button", { type: "button", class: "piece unavailable", "data-piece": k, role: "radio", "aria-checked": "false", "aria-disabled": "true",
      "aria-label": t("{piece}, none left: click to see why", { piece: pieceWords(k) }), title: t("{piece}: none left", { piece: pieceWords(k) }),
      onclick: () => ctx.act({ type: "drop", piece: k, x: Number(aim.x.toFixed(2)), angle: Number(aim.angle.toFixed(4)), depth: 0 }) },
    pieceIcon(k), el("span", { class: "count" }, "×0")))));
    controls.append(el("div", { class: "row spaced" },
      el("button", { type: "button", class: "turnbtn", "aria-label": t("turn left"), onclick: () => turn(-15) }, "⟲"),
      el("button", { type: "button", class: "turnbtn", "data-turn": "right", "aria-label": t("turn right"), onclick: () => turn(15) }, "⟳"),
      el("span", { class: "muted", id: "aim-text" }, aimText()),
      el("button", { type: "button", class: "primary big", id: "drop-btn", onclick: doDrop }, t("Drop"))));
    const warning = riskWords();
    controls.append(el("div", { class: "edge-warning", id: "edge-warning", role: "status", hidden: !warning }, warning));
  } else if (msg.asked && view.phase === "joker") {
    controls.append(el("p", {}, t("Your drop broke a rule. Spend a joker to score it anyway?")),
      el("div", { class: "row" },
        el("button", { type: "button", class: "primary", id: "joker-spend", onclick: () => ctx.act({ type: "joker", spend: true }) }, t("Spend a joker")),
        el("button", { type: "button", id: "joker-keep", onclick: () => ctx.act({ type: "joker", spend: false }) }, t("Keep it"))));
  } else if (me === null || me === undefined) {
    controls.append(el("p", { class: "muted" }, t("You are watching.")));
    return controls;
  } else if (view.phase !== "over") {
    const who = ctx.names[view.actors[0]] || t("the next player");
    controls.append(el("p", { class: "muted" }, view.phase === "joker" ? t("Waiting for {name}'s joker decision…", { name: who }) : t("Waiting for {name}'s drop…", { name: who })));
  } else controls.append(el("p", {}, t("All pieces are in.")));
  if (view.phase !== "over") controls.append(coachPanel(msg, ctx, draw, coachDrops, ` ${t("shows the planner's best drops on your turn")}`));
  return controls;
}

function draw() {
  const msg = lastMsg, ctx = lastCtx, view = msg.view;
  const head = el("div", { class: "panel" },
    el("div", { class: "row" }, el("strong", {}, t("Drop {number} of {total}", { number: Math.min(view.turn + 1, view.turns), total: view.turns })),
      ...view.sides.map((s) => el("span", { class: `pill ${s.side === view.active_side ? "warn" : ""}`, "data-side": s.side },
        `${sideWords(s, ctx)}: ${tn("{n} point", "{n} points", s.total)}${view.jokers_variant ? ` · ${tn("{n} joker", "{n} jokers", s.jokers)}` : ""}`))),
    el("div", { class: "now", id: "who-acts" }, view.phase === "over" ? t("Game over.")
      : msg.asked ? (view.phase === "joker" ? t("Your joker decision.") : t("Your drop: aim along the top, then drop.")) : t("{name} drops…", { name: ctx.names[view.actors[0]] })));
  let pieces = view.pieces;
  let last = view.last;
  const anim = animating && animating.turn === (view.last && view.last.turn) ? animating : null;
  if (anim) {
    const f = view.frames;
    const time = animTime(anim);
    let i = 0;
    while (i < f.steps.length - 1 && f.steps[i] * B.dt < time) i++;
    pieces = f.pieces.map((id, k) => ({ id, x: f.poses[i][k][0], y: f.poses[i][k][1], angle: f.poses[i][k][2] }));
    last = null;
  }
  if (canDrop(msg)) {
    const kinds = kindsLeft(mySupply(view));
    if (!aim.piece || !kinds.some(([k]) => k === aim.piece)) {  // a new piece: aimed off its own marks
      aim.piece = kinds.length ? kinds[0][0] : null;
      if (aim.piece) aim.x = safeX(aim.piece, aim.angle, view.pieces);
    }
  }
  const board = drawBoard(msg, pieces, last, anim);
  if (canDrop(msg)) hookAim(board);
  root.replaceChildren(head,
    el("div", { class: "boardwrap" }, el("div", { class: "panel boardpanel" }, board), drawControls(msg, ctx)),
    el("div", { class: "panel" }, el("h3", {}, t("Last drop")), anim ? el("p", { class: "muted" }, t("falling…")) : explain(view.last)));
}

// The edge rule (D21) before the drop: a piece touching an edge mark of its own colour (or
// shape, on the shape face) scores 0. Where the column under the aim is still empty the piece
// falls onto the floor, so the page can tell which marks it would land on.
const TOUCH_MM = 0.5;   // N5: touching is within half a millimetre
const WARN_MM = 1;      // the warning: a little room for a piece that settles aside
const DEFAULT_MM = 5;   // the default aim keeps well clear

function reach(id) {
  const o = B.outlines[kindOf(id)];
  return o.vertices.length ? Math.max(...o.vertices.map(([vx, vy]) => Math.hypot(vx, vy))) : o.radius;
}

/** Where a piece dropped at (x, angle) would come to rest if it fell straight onto the floor:
 * its span along the floor and its height; null when a piece already lies in the way. */
function restGuess(kind, x, angle, pieces) {
  const o = B.outlines[kindOf(kind)];
  const W = B.board.width;
  let lo, hi, h;
  if (!o.vertices.length) { lo = x - o.radius; hi = x + o.radius; h = 2 * o.radius; }
  else {
    const c = Math.cos(angle), s = Math.sin(angle);
    const xs = o.vertices.map(([vx, vy]) => x + vx * c - vy * s), ys = o.vertices.map(([vx, vy]) => vx * s + vy * c);
    lo = Math.min(...xs); hi = Math.max(...xs); h = Math.max(...ys) - Math.min(...ys);
  }
  if (lo < 0) { hi -= lo; lo = 0; }          // the walls push it inside
  if (hi > W) { lo -= hi - W; hi = W; }
  if (pieces.some((p) => p.x + reach(p.id) > lo && p.x - reach(p.id) < hi)) return null;
  return { lo, hi, h, circle: !o.vertices.length, cx: (lo + hi) / 2, r: o.radius };
}

function cellTouched(g, cell, room) {
  const near = TOUCH_MM + room;
  const [[ax, ay], [bx, by]] = [cell.a, cell.b];
  if (ay === by) {  // a floor mark: a circle touches the floor at one point, a polygon along its span
    const x0 = Math.min(ax, bx), x1 = Math.max(ax, bx);
    if (g.circle) return Math.hypot(Math.max(0, x0 - g.cx, g.cx - x1), g.r) - g.r <= near;
    return g.lo <= x1 + near && g.hi >= x0 - near;
  }
  const atWall = ax <= 0 ? g.lo <= near : g.hi >= B.board.width - near;  // a wall mark
  return atWall && Math.min(ay, by) <= g.h;
}

/** The edge marks the piece would likely land on (empty when none, or when nobody can tell). */
function edgeRisk(kind, x, angle, pieces, room = WARN_MM) {
  if (!B || !B.cells || !kind) return [];
  const g = restGuess(kind, x, angle, pieces);
  if (!g) return [];
  const [colour, shape] = kind.split("-");
  return B.cells.filter((c) => c.symbol && (c.symbol === colour || c.symbol === shape) && cellTouched(g, c, room));
}

/** The aim nearest the middle where the piece lands on no mark of its own (the default). */
function safeX(kind, angle, pieces) {
  const mid = B.board.width / 2;
  for (let d = 0; d <= mid; d += 1) {
    for (const x of [mid + d, mid - d]) if (!edgeRisk(kind, x, angle, pieces, DEFAULT_MM).length) return x;
  }
  return mid;
}

function markWords(cell) {
  const side = cell.id.split("-")[0];
  const symbol = markSymbol(cell.symbol);
  if (side === "bottom") return t("the {symbol} mark on the floor", { symbol });
  return side === "left" ? t("the {symbol} mark on the left wall", { symbol }) : t("the {symbol} mark on the right wall", { symbol });
}

function riskWords() {
  if (!lastMsg || !canDrop(lastMsg)) return "";
  const risk = edgeRisk(aim.piece, aim.x, aim.angle, lastMsg.view.pieces);
  if (!risk.length) return "";
  const mark = markWords(risk[0]);
  return lastMsg.view.edge_mode === "shape" ? `⚠ ${t("Here it would likely land on {mark}: a piece touching an edge mark of its own shape scores 0.", { mark })}`
    : `⚠ ${t("Here it would likely land on {mark}: a piece touching an edge mark of its own colour scores 0.", { mark })}`;
}

function ghostEls(msg) {
  if (!canDrop(msg) || !aim.piece) return [];
  const gy = B.board.height + 18;
  const risky = edgeRisk(aim.piece, aim.x, aim.angle, msg.view.pieces).length > 0;
  return [svg("g", { opacity: armed ? 0.95 : 0.75, id: "ghost" }, shapeEl(aim.piece, aim.x, gy, aim.angle, armed ? "#2f6fde" : risky ? "#c00000" : "#222", armed || risky ? 3 : 1)),
    svg("line", { x1: X(aim.x), y1: Y(gy), x2: X(aim.x), y2: Y(0), stroke: risky ? "#c00000" : "#555", "stroke-dasharray": "3 5" })];
}

function aimText() {
  const where = aim.x < B.board.width / 3 ? t("left") : aim.x > (2 * B.board.width) / 3 ? t("right") : t("middle");
  return `${armed ? `${t("tap again or Drop")} · ` : ""}${t("{where}, {x} mm · turned {angle}°", { where, x: aim.x.toFixed(0), angle: ((aim.angle * 180) / Math.PI).toFixed(0) })}`;
}

function updateGhost() {
  const layer = document.getElementById("ghost-layer");
  if (layer && lastMsg) layer.replaceChildren(...ghostEls(lastMsg));
  const text = document.getElementById("aim-text");
  if (text) text.textContent = aimText();
  const warn = document.getElementById("edge-warning");
  if (warn) { warn.textContent = riskWords(); warn.hidden = !warn.textContent; }
}

function svgPoint(board, ev) {
  const pt = board.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  return pt.matrixTransform(board.getScreenCTM().inverse());
}

// A mouse aims by moving and drops with a click. A finger cannot hover: the first tap aims
// (the ghost turns blue), a second tap near the same spot, or the Drop button, confirms.
let armed = false;
const CONFIRM_MM = 15;

function hookAim(board) {
  const xOf = (ev) => Math.max(0, Math.min(B.board.width, svgPoint(board, ev).x / B.scale - B.margin));
  board.addEventListener("pointermove", (ev) => {
    if (ev.pointerType !== "mouse") return;
    aim.x = xOf(ev);
    redrawGhost();
  });
  board.addEventListener("wheel", (ev) => { ev.preventDefault(); turn(ev.deltaY > 0 ? 15 : -15); }, { passive: false });
  board.addEventListener("pointerup", (ev) => {
    const x = xOf(ev);
    if (ev.pointerType === "mouse") { aim.x = x; doDrop(); return; }
    if (armed && Math.abs(x - aim.x) <= CONFIRM_MM) { doDrop(); return; }
    aim.x = x; armed = true;
    redrawGhost();
  });
}

function redrawGhost() { updateGhost(); }

function turn(deg) { aim.angle = (aim.angle + (deg * Math.PI) / 180 + 2 * Math.PI) % (2 * Math.PI); updateGhost(); }

function doDrop() {
  if (!lastMsg || !canDrop(lastMsg) || !aim.piece) return;
  sent = true; armed = false;
  lastCtx.act({ type: "drop", piece: aim.piece, x: Number(aim.x.toFixed(2)), angle: Number(aim.angle.toFixed(4)), depth: 0 });
  draw();
}

export function onRefused() { sent = false; if (lastMsg) draw(); }

// A drop that takes long to settle (up to the physics timeout) is played faster, so
// nobody waits more than a few seconds to see where it ended.
const MAX_ANIMATION_S = 3;

/** Seconds of simulated time shown so far by an animation. */
function animTime(anim) { return ((performance.now() - anim.start) / 1000) * anim.speed; }

/** Seconds of simulated time a drop's trajectory frames cover (0 without frames). */
function trajectorySeconds(f) { return f && f.steps.length ? f.steps[f.steps.length - 1] * B.dt : 0; }

let landed = null;  // resolves the wait of the page (results, "seen") when the fall ends

function land() { animating = null; draw(); if (landed) { landed(); landed = null; } }

function animate() {
  if (!animating) return;
  if (animTime(animating) > trajectorySeconds(lastMsg.view.frames)) { land(); return; }
  draw();
  requestAnimationFrame(animate);
}

export function render(rootEl, msg, ctx) {
  root = rootEl; lastCtx = ctx;
  const prevVersion = lastMsg ? lastMsg.version : -1;
  lastMsg = msg;
  if (msg.version !== prevVersion) sent = false;
  const last = msg.view.last;
  if (last && last.turn !== shownTurn) {
    const first = shownTurn === -1 && prevVersion === -1;
    shownTurn = last.turn;
    if (!first && msg.view.frames && msg.view.frames.steps.length) {
      const speed = Math.max(1, trajectorySeconds(msg.view.frames) / MAX_ANIMATION_S);
      animating = { turn: last.turn, start: performance.now(), speed };
      document.body.dataset.animated = String(Number(document.body.dataset.animated || 0) + 1);
      if (landed) landed();
      playingUntil(new Promise((ok) => { landed = ok; }), () => { if (animating) land(); });
      requestAnimationFrame(animate);
      return;
    }
  }
  if (!animating) draw();
}

document.addEventListener("keydown", (ev) => {
  if (!lastMsg || !canDrop(lastMsg) || ev.target.tagName === "INPUT") return;
  const step = ev.shiftKey ? 10 : 2;
  const k = ev.key;
  if (k === "ArrowLeft") { aim.x = Math.max(0, aim.x - step); updateGhost(); ev.preventDefault(); }
  else if (k === "ArrowRight") { aim.x = Math.min(B.board.width, aim.x + step); updateGhost(); ev.preventDefault(); }
  else if (k === "ArrowUp" || k === "e" || k === "E") { turn(ev.shiftKey ? 5 : 15); ev.preventDefault(); }
  else if (k === "ArrowDown" || k === "q" || k === "Q") { turn(ev.shiftKey ? -5 : -15); ev.preventDefault(); }
  else if (k === "[" || k === "]") {
    const kinds = kindsLeft(mySupply(lastMsg.view)).map(([x]) => x);
    const i = kinds.indexOf(aim.piece);
    aim.piece = kinds[(i + (k === "]" ? 1 : kinds.length - 1)) % kinds.length];
    draw();
  } else if (k === "Enter" || k === " ") { if (ev.target.tagName !== "BUTTON") { doDrop(); ev.preventDefault(); } }
});

const RULE_WORDS = { SHAPE: N_("shape"), COLOUR: N_("colour"), EDGE: N_("edge"), HEIGHT: N_("height") };

function ownMark(view = lastMsg && lastMsg.view) { return view && view.edge_mode === "shape" ? "shape" : "colour"; }

/** Each broken rule in plain words, e.g. "touched the red edge mark on the floor". */
function ruleWords(v, view) {
  const cell = (id) => {
    const c = B && B.cells ? B.cells.find((x) => x.id === id) : null;
    const side = id.split("-")[0];
    const where = side === "bottom" ? "floor" : side === "left" ? "left" : "right";
    if (!(c && c.symbol)) return { floor: t("an edge mark on the floor"), left: t("an edge mark on the left wall"), right: t("an edge mark on the right wall") }[where];
    const symbol = markSymbol(c.symbol);
    return { floor: t("the {symbol} edge mark on the floor", { symbol }), left: t("the {symbol} edge mark on the left wall", { symbol }),
      right: t("the {symbol} edge mark on the right wall", { symbol }) }[where];
  };
  const which = v.with.length ? ` (${v.with.map(pieceWords).join(", ")})` : "";
  switch (v.rule) {
    case "SHAPE": return `${t("touched a piece of the same shape")}${which}`;
    case "COLOUR": return `${t("touched a piece of the same colour")}${which}`;
    case "EDGE": {
      const marks = v.with.length ? v.with.map(cell).join(t(" and ")) : t("an edge mark");
      return ownMark(view) === "shape" ? t("touched {marks}, and a piece may not touch an edge mark of its own shape", { marks })
        : t("touched {marks}, and a piece may not touch an edge mark of its own colour", { marks });
    }
    case "HEIGHT": return t("sticks out above the top");
    default: return t("broke the {rule} rule", { rule: v.rule.toLowerCase() });
  }
}

function ruleList(violations) {
  const words = violations.map((v) => (RULE_WORDS[v.rule] ? t(RULE_WORDS[v.rule]) : v.rule.toLowerCase()));
  return words.length > 1 ? t("{rules} and {last} rules", { rules: words.slice(0, -1).join(", "), last: words[words.length - 1] }) : t("{rule} rule", { rule: words[0] });
}

/** A log line in a sentence. */
export function describeEvent(e, names, view) {
  if (e.kind === "scored") {
    const points = e.awarded === 0 ? t("No points") : tn("{n} point", "{n} points", e.awarded);
    const many = view && view.sides[e.side]?.seats.length > 1;
    const said = { points, piece: pieceWords(e.piece), side: sideName(e.side, names, view), total: e.total };
    const line = e.joker_used
      ? (many ? t("{points} for the {piece} (a joker was spent); {side} now have {total}.", said) : t("{points} for the {piece} (a joker was spent); {side} now has {total}.", said))
      : many ? t("{points} for the {piece}; {side} now have {total}.", said) : t("{points} for the {piece}; {side} now has {total}.", said);
    return line;
  }
  if (e.kind === "dropped") {
    const said = { name: names[e.seat], piece: pieceWords(e.piece), level: e.level };
    if (!e.violations.length) return t("{name} drops a {piece}: level {level}.", said);
    return t("{name} drops a {piece}: level {level}, breaks the {rules}: it {why}.", { ...said, rules: ruleList(e.violations), why: e.violations.map((v) => ruleWords(v, view)).join("; ") });
  }
  if (e.kind === "game_over") return t("Game over: {totals}.", { totals: e.totals.map((total, side) => `${sideName(side, names, view)} ${total}`).join(", ") });
  return null;
}

export function resultDetails(msg, names = []) {
  const v = msg.view;
  return el("p", { class: "muted", id: "final-totals" }, t("Final totals: {totals}.", { totals: v.sides.map((s) => `${sideName(s.side, names, v)} (${s.colours.map((c) => (COLOUR_WORDS[c] ? t(COLOUR_WORDS[c]) : c)).join(t(" and "))}) ${s.total}`).join(", ") }));
}
