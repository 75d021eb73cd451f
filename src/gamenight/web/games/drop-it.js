// Drop It: aim along the top (mouse or keys), rotate (wheel or keys), drop; the fall is
// animated from the server's trajectory frames and the result is explained.
import { api, el, svgEl } from "/static/common.js";

export const howto = `
<p>Take turns dropping one of your pieces into the upright board. Move it along the top
and turn it, then let go: it falls and settles by real physics.</p>
<p>Your drop scores the <b>highest level</b> it reaches (1–8) plus every <b>bonus circle</b>
it overlaps (+1, +2, +3) — but only if it breaks no rule:</p>
<ul><li>it may not touch a piece of the <b>same shape</b>,</li>
<li>nor a piece of the <b>same colour</b>,</li>
<li>nor an <b>edge mark</b> crossed out with its colour (or shape),</li>
<li>nor stick out <b>above the top</b>.</li></ul>
<p>A broken rule scores 0. When all pieces are in, the highest total wins.
Mouse: move to aim, wheel to turn, click to drop. Keys: <kbd>←</kbd><kbd>→</kbd> move
(<kbd>Shift</kbd> faster), <kbd>↑</kbd><kbd>↓</kbd> or <kbd>Q</kbd><kbd>E</kbd> turn,
<kbd>[</kbd><kbd>]</kbd> choose a piece, <kbd>Enter</kbd> drop.</p>`;

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

// Shapes are built as SVG nodes (never markup strings from data).
function shapeSvg(id, x, y, a, stroke = "#222", width = 1, extra = {}) {
  const o = B.outlines[kindOf(id)];
  const fill = B.fill[colourOf(id)] || "#999";
  const paint = { fill, "fill-opacity": 0.9, stroke, "stroke-width": width, ...extra };
  if (!o.vertices.length) {
    return svgEl("circle", { cx: X(x).toFixed(1), cy: Y(y).toFixed(1), r: (o.radius * B.scale).toFixed(1), ...paint });
  }
  const c = Math.cos(a), s = Math.sin(a);
  const pts = o.vertices.map(([vx, vy]) => `${X(x + vx * c - vy * s).toFixed(1)},${Y(y + vx * s + vy * c).toFixed(1)}`).join(" ");
  return svgEl("polygon", { points: pts, ...paint });
}

function piecesSvg(pieces, last) {
  const lastId = last && last.piece;
  const touching = new Set((last && last.touching) || []);
  const bad = last && last.violations && last.violations.length;
  return pieces.map((p) => {
    if (p.id === lastId) return shapeSvg(p.id, p.x, p.y, p.angle, bad ? "#c00000" : "#00a000", 4, { "data-last": "1" });
    if (touching.has(p.id)) return shapeSvg(p.id, p.x, p.y, p.angle, "#ff7f00", 3);
    return shapeSvg(p.id, p.x, p.y, p.angle);
  });
}

function bonusOverlay() {
  return B.board.bonus.map((c) => svgEl("circle", { cx: X(c.center[0]), cy: Y(c.center[1]), r: c.radius * B.scale, fill: "none", stroke: "#08306b", "stroke-width": 1.5, "stroke-dasharray": "4 3" }));
}

// The board picture comes from the server as SVG text: parsed as an SVG document (no
// scripts run from it) and its nodes imported, once.
let boardRoot = null;
function boardBackground() {
  if (!boardRoot) {
    const root = new DOMParser().parseFromString(B.svg, "image/svg+xml").documentElement;
    if (root.nodeName !== "svg") return null;
    for (const bad of root.querySelectorAll("script, foreignObject")) bad.remove();
    boardRoot = root;
  }
  const node = document.importNode(boardRoot, true);
  node.setAttribute("width", B.width);
  node.setAttribute("height", B.height);
  return node;
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

function canDrop(msg) { return msg.asked && msg.view.phase === "drop" && !sent; }

function explain(last) {
  if (!last) return el("p", { class: "muted" }, "No piece dropped yet.");
  const parts = [];
  parts.push(el("div", {}, el("strong", {}, last.piece), ` reached level ${last.level}`,
    last.bonus && last.bonus.length ? ` and covered bonus circle${last.bonus.length > 1 ? "s" : ""} ${last.bonus.join(", ")}` : ", no bonus circle"));
  const names = { SHAPE: "touched a piece of the same shape", COLOUR: "touched a piece of the same colour", EDGE: "touched a forbidden edge mark", HEIGHT: "sticks out above the top" };
  if (last.violations.length) {
    for (const v of last.violations) parts.push(el("div", { class: "pill bad" }, `broke ${v.rule}: ${names[v.rule] || ""} (${v.with.join(", ")})`));
  } else parts.push(el("div", { class: "pill ok" }, "broke no rule"));
  if ("awarded" in last) parts.push(el("div", {}, el("strong", { id: "awarded" }, `${last.awarded} point${last.awarded === 1 ? "" : "s"}`),
    ` (raw ${last.raw_points} = level ${last.level} + bonus ${last.raw_points - last.level})${last.joker_used ? ", a joker was spent" : ""}`));
  else parts.push(el("div", {}, `raw ${last.raw_points} points: decide on the joker`));
  if (!last.settled) parts.push(el("div", { class: "muted" }, "the pile did not settle in time"));
  return el("div", { id: "result" }, parts);
}

function draw() {
  const msg = lastMsg, ctx = lastCtx, view = msg.view;
  root.innerHTML = "";
  const me = msg.seat;
  const head = el("div", { class: "panel row" },
    el("strong", {}, `Drop ${Math.min(view.turn + 1, view.turns)} of ${view.turns}`),
    ...view.sides.map((s) => el("span", { class: `pill ${s.side === view.active_side ? "warn" : ""}`, "data-side": s.side },
      `${s.seats.map((x) => ctx.names[x]).join(" + ")} (${s.colours.join("+")}): ${s.total}${view.jokers_variant ? ` · jokers ${s.jokers}` : ""}`)),
    view.phase === "over" ? el("span", { class: "pill ok" }, "game over")
      : el("span", {}, msg.asked ? el("strong", {}, view.phase === "joker" ? "your joker decision" : "your drop") : `${ctx.names[view.actors[0]]} drops`));
  root.append(head);

  const svg = svgEl("svg");
  svg.setAttribute("viewBox", `0 0 ${B.width} ${B.height}`);
  svg.setAttribute("id", "board");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "the Drop It board");
  svg.style.width = "100%"; svg.style.maxHeight = "78vh"; svg.style.touchAction = "none";
  let pieces = view.pieces;
  let last = view.last;
  const anim = animating && animating.turn === (view.last && view.last.turn) ? animating : null;
  if (anim) {
    const f = view.frames;
    const t = animTime(anim);
    let i = 0;
    while (i < f.steps.length - 1 && f.steps[i] * B.dt < t) i++;
    pieces = f.pieces.map((id, k) => ({ id, x: f.poses[i][k][0], y: f.poses[i][k][1], angle: f.poses[i][k][2] }));
    last = null;
  }
  if (canDrop(msg)) {
    const kinds = kindsLeft(mySupply(view));
    if (!aim.piece || !kinds.some(([k]) => k === aim.piece)) aim.piece = kinds.length ? kinds[0][0] : null;
  }
  svg.append(svgEl("g", {}, boardBackground()), svgEl("g", { id: "pieces" }, piecesSvg(pieces, last)),
    ...bonusOverlay(), svgEl("g", { id: "ghost-layer" }, anim ? null : ghostSvg(msg)));
  const wrap = el("div", { class: "panel", style: "padding:.3rem" }, svg);
  root.append(wrap);
  if (canDrop(msg)) hookAim(svg);

  const controls = el("div", { class: "panel" });
  if (canDrop(msg)) {
    const kinds = kindsLeft(mySupply(view));
    controls.append(el("h3", {}, "Your pieces"), el("div", { class: "row", id: "supply" }, kinds.map(([k, n]) =>
      el("button", { type: "button", class: k === aim.piece ? "primary" : "", "data-piece": k, onclick: () => { aim.piece = k; draw(); } }, `${k} ×${n}`))));
    controls.append(el("div", { class: "row", style: "margin-top:.5rem" },
      el("button", { type: "button", onclick: () => turn(-15) }, "⟲ turn"),
      el("button", { type: "button", onclick: () => turn(15) }, "turn ⟳"),
      el("span", { class: "muted", id: "aim-text" }, aimText()),
      el("button", { type: "button", class: "primary big", id: "drop-btn", onclick: doDrop }, "Drop")));
  } else if (msg.asked && view.phase === "joker") {
    controls.append(el("p", {}, "Your drop broke a rule. Spend a joker to score it anyway?"),
      el("div", { class: "row" },
        el("button", { type: "button", class: "primary", id: "joker-spend", onclick: () => ctx.act({ type: "joker", spend: true }) }, "Spend a joker"),
        el("button", { type: "button", id: "joker-keep", onclick: () => ctx.act({ type: "joker", spend: false }) }, "Keep it")));
  } else if (me === null || me === undefined) {
    controls.append(el("p", { class: "muted" }, "You are watching."));
  } else if (view.phase !== "over") {
    controls.append(el("p", { class: "muted" }, "Waiting for the other side's drop…"));
  }
  root.append(controls);
  root.append(el("div", { class: "panel" }, el("h3", {}, "Last drop"), anim ? el("p", { class: "muted" }, "falling…") : explain(view.last)));
}

function ghostSvg(msg) {
  if (!canDrop(msg) || !aim.piece) return null;
  const gy = B.board.height + 18;
  return svgEl("g", {}, svgEl("g", { opacity: 0.75, id: "ghost" }, shapeSvg(aim.piece, aim.x, gy, aim.angle)),
    svgEl("line", { x1: X(aim.x), y1: Y(gy), x2: X(aim.x), y2: Y(0), stroke: "#555", "stroke-dasharray": "3 5" }));
}

function aimText() { return `x ${aim.x.toFixed(1)} mm · angle ${((aim.angle * 180) / Math.PI).toFixed(0)}°`; }

function updateGhost() {
  const layer = document.getElementById("ghost-layer");
  if (layer && lastMsg) layer.replaceChildren(...[ghostSvg(lastMsg)].filter(Boolean));
  const text = document.getElementById("aim-text");
  if (text) text.textContent = aimText();
}

function svgPoint(svg, ev) {
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}

function hookAim(svg) {
  svg.addEventListener("pointermove", (ev) => {
    const p = svgPoint(svg, ev);
    aim.x = Math.max(0, Math.min(B.board.width, p.x / B.scale - B.margin));
    redrawGhost();
  });
  svg.addEventListener("wheel", (ev) => { ev.preventDefault(); turn(ev.deltaY > 0 ? 15 : -15); }, { passive: false });
  svg.addEventListener("click", (ev) => {
    const p = svgPoint(svg, ev);
    aim.x = Math.max(0, Math.min(B.board.width, p.x / B.scale - B.margin));
    doDrop();
  });
}

function redrawGhost() { updateGhost(); }

function turn(deg) { aim.angle = (aim.angle + (deg * Math.PI) / 180 + 2 * Math.PI) % (2 * Math.PI); updateGhost(); }

function doDrop() {
  if (!lastMsg || !canDrop(lastMsg) || !aim.piece) return;
  sent = true;
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

function animate() {
  if (!animating) return;
  if (animTime(animating) > trajectorySeconds(lastMsg.view.frames)) { animating = null; draw(); return; }
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

export function describeEvent(e, names) {
  if (e.kind === "scored") return `${e.piece}: ${e.awarded} point${e.awarded === 1 ? "" : "s"}${e.joker_used ? " (joker)" : ""}, side total ${e.total}`;
  if (e.kind === "dropped") return `${names[e.seat]} dropped ${e.piece}: level ${e.level}${e.violations.length ? ", broke " + e.violations.map((v) => v.rule).join(", ") : ""}`;
  if (e.kind === "game_over") return `game over: totals ${e.totals.join(" / ")}`;
  return null;
}

export function resultDetails(msg) {
  return el("p", { class: "muted" }, `Final totals by side: ${msg.view.sides.map((s) => `${s.colours.join("+")} ${s.total}`).join(", ")}.`);
}
