// Arne's components drawn as SVG: card faces (colour band with a symbol, value or icon, full
// name), stack marks and the colour symbols. A card's rule in words is the game's rules.py
// (the rules panel, rules.js), written once.
import { svg, t, N_ } from "/static/common.js";
import { ruleOf } from "/static/rules.js";

// Colours never carry meaning alone: each has a symbol drawn in its band and next to names.
export const COLOURS = {
  red: { fill: "#c62828", symbol: "●", name: N_("red") },
  green: { fill: "#2e7d32", symbol: "▲", name: N_("green") },
  yellow: { fill: "#f2c200", symbol: "★", name: N_("yellow"), dark: true },
  blue: { fill: "#1565c0", symbol: "■", name: N_("blue") },
  c5: { fill: "#6a3fb5", symbol: "◆", name: N_("purple") },
  c6: { fill: "#ef6c00", symbol: "✚", name: N_("orange"), dark: true }, // white on it is 3.1:1
};

export const BLACK = new Set(["MINUS200", "STOP", "CRUSH", "REVERSE", "CHAMELEON", "THIEF", "LOCK"]);

// name on the card (one or two lines, each a message: "Take a" / "card"), big mark in the middle.
export const CARDS = {
  P50: { lines: [N_("50 points")], big: "50" },
  P100: { lines: [N_("100 points")], big: "100" },
  P200: { lines: [N_("200 points")], big: "200" },
  P500: { lines: [N_("500 points")], big: "500" },
  P1000: { lines: [N_("1000 points")], big: "1000" },
  X2: { lines: [N_("Doubler")], big: "×2" },
  X3: { lines: [N_("Tripler")], big: "×3" },
  TAKE_RANDOM: { lines: [N_("Take a"), N_("card")], icon: "take" },
  DEMAND_POINTS: { lines: [N_("Demand"), N_("2 points")], icon: "demand" },
  DEMAND_BLACK: { lines: [N_("Demand"), N_("2 black")], icon: "demand" },
  DRAW_THREE: { lines: [N_("Draw"), N_("three")], icon: "draw" },
  PASS_HANDS: { lines: [N_("Pass"), N_("hands")], icon: "pass" },
  SWAP_PLACES: { lines: [N_("Swap"), N_("places")], icon: "swap" },
  MINUS200: { lines: [N_("Minus 200")], big: "−200" },
  CHAMELEON: { lines: [N_("Chameleon")], icon: "chameleon" },
  THIEF: { lines: [N_("Thief")], icon: "thief" },
  CRUSH: { lines: [N_("Crush")], icon: "crush" },
  LOCK: { lines: [N_("Lock")], icon: "lock" },
  STOP: { lines: [N_("Stop!")], icon: "stop" },
  REVERSE: { lines: [N_("Reverse!")], icon: "reverse" },
};

export const MARKS = {
  chameleon: { icon: "chameleon", name: N_("Chameleon"), rule: N_("carried in by a chameleon: counts in this display's colour") },
  x3: { icon: "x3", name: N_("Tripler"), rule: N_("this stack counts three times") },
  crush: { icon: "crush", name: N_("Crushed"), rule: N_("this stack does not count") },
  lock: { icon: "lock", name: N_("Locked"), rule: N_("a locked crush counts again; a locked −200 no longer counts") },
};

export function parse(name) {
  const parts = name.split(" ");
  return parts.length === 2 ? { colour: parts[0], type: parts[1] } : { colour: null, type: parts[0] };
}

export function colourWord(c) { return c ? t(COLOURS[c]?.name || c) : t("no colour"); }

/** "red 500", "Chameleon", "−200 (blue)": the words for a card in a sentence. */
export function cardWords(name) {
  const { colour, type } = parse(name);
  const info = CARDS[type];
  if (!info) return name;
  if (colour && type.startsWith("P")) return `${colourWord(colour)} ${info.big}`; // PASS_HANDS has no colour
  if (type === "X2") return t("{colour} doubler", { colour: colourWord(colour) });
  if (type === "MINUS200") return `${colourWord(colour)} −200`;
  return info.lines.map((line) => t(line)).join(" ");
}

/** The card's rule in player words (from the rules panel's data: "" until it is loaded). */
export function cardRule(name) { return ruleOf(parse(name).type); }

/** An icon drawn in a 20x20 box centred at (cx, cy). */
export function icon(kind, cx, cy, colour = "#111") {
  const g = svg("g", { transform: `translate(${cx - 10} ${cy - 10})`, fill: "none", stroke: colour, "stroke-width": 2, "stroke-linecap": "round", "stroke-linejoin": "round" });
  const add = (tag, attrs) => g.append(svg(tag, attrs));
  switch (kind) {
    case "lock": add("rect", { x: 4, y: 9, width: 12, height: 9, rx: 1.5, fill: colour }); add("path", { d: "M7 9V6a3 3 0 0 1 6 0v3" }); break;
    case "crush": add("path", { d: "M4 4l12 12M16 4L4 16", "stroke-width": 3 }); break;
    case "stop": add("polygon", { points: "7,2 13,2 18,7 18,13 13,18 7,18 2,13 2,7", fill: "#c62828", stroke: "#fff" }); add("path", { d: "M6 10h8", stroke: "#fff", "stroke-width": 3 }); break;
    case "reverse": add("path", { d: "M4 7h11l-3-3M16 13H5l3 3" }); break;
    case "swap": add("path", { d: "M3 6h12l-3-3M17 14H5l3 3" }); add("circle", { cx: 10, cy: 10, r: 1.2, fill: colour }); break;
    case "pass": add("path", { d: "M3 10h13l-4-4M16 10l-4 4" }); add("rect", { x: 2, y: 3, width: 5, height: 4, rx: 1 }); break;
    case "draw": for (const i of [0, 1, 2]) add("rect", { x: 3 + i * 3, y: 3 + i * 2, width: 8, height: 11, rx: 1.5, fill: "#fff" }); break;
    case "take": add("rect", { x: 3, y: 4, width: 9, height: 12, rx: 1.5 }); add("path", { d: "M13 10h5l-2-2M18 10l-2 2" }); break;
    case "demand": add("path", { d: "M10 3v14M3 10h14", "stroke-width": 3 }); break;
    case "chameleon": add("path", { d: "M3 12c0-5 4-8 8-8s6 3 6 6-2 5-5 5c-2 0-3-1-3-3s1-2 2-2", fill: "none" }); add("circle", { cx: 13, cy: 8, r: 1, fill: colour }); break;
    case "thief": add("path", { d: "M2 8c2-2 14-2 16 0v3c-2 2-14 2-16 0z", fill: colour }); add("circle", { cx: 7, cy: 9.5, r: 1.5, fill: "#fff", stroke: "none" }); add("circle", { cx: 13, cy: 9.5, r: 1.5, fill: "#fff", stroke: "none" }); break;
    case "x3": g.append(svg("text", { x: 10, y: 15, "font-size": 13, "font-weight": 700, "text-anchor": "middle", fill: colour, stroke: "none" }, "×3")); break;
    default: break;
  }
  return g;
}

/** A card face. `marks` (a stack's attachments) are drawn as icons along the bottom. */
export function cardFace(name, { width = 56, marks = null, label = null } = {}) {
  const { colour, type } = parse(name);
  const info = CARDS[type] || { lines: [type], big: type };
  const rule = cardRule(name);
  const black = BLACK.has(type);
  const ink = black ? "#fff" : "#111";
  const c = colour ? COLOURS[colour] : null;
  const height = Math.round((width * 80) / 56);
  const face = svg("svg", { width, height, viewBox: "0 0 56 80", role: "img", class: "cardface", "aria-label": label || cardWords(name) });
  face.append(svg("title", {}, rule ? `${cardWords(name)}: ${rule}` : cardWords(name)));
  face.append(svg("rect", { x: 1, y: 1, width: 54, height: 78, rx: 6, fill: black ? "#1d1d1f" : "#fff", stroke: black ? "#000" : "#555", "stroke-width": 1.5 }));
  if (c) {
    face.append(svg("path", { d: "M1 7a6 6 0 0 1 6-6h42a6 6 0 0 1 6 6v9H1z", fill: c.fill }));
    face.append(svg("text", { x: 8, y: 13, "font-size": 10, fill: c.dark ? "#111" : "#fff" }, c.symbol));
    face.append(svg("text", { x: 48, y: 13, "font-size": 10, "text-anchor": "end", fill: c.dark ? "#111" : "#fff" }, c.symbol));
  } else if (black) {
    face.append(svg("rect", { x: 5, y: 5, width: 46, height: 4, rx: 2, fill: "#777" }));
  }
  if (info.icon) face.append(icon(info.icon, 28, 36, ink));
  else {
    const big = info.big;
    face.append(svg("text", { x: 28, y: 44, "font-size": big.length > 3 ? 17 : 22, "font-weight": 700, "text-anchor": "middle", fill: ink,
      textLength: big.length > 3 ? 46 : false, lengthAdjust: "spacingAndGlyphs" }, big));
  }
  const lines = marks && Object.keys(MARKS).some((k) => marks[k]) ? [] : info.lines;
  lines.map((line) => t(line)).forEach((line, i) => {  // each line of the name in the page's language
    const y = lines.length === 1 ? 68 : 62 + i * 10;
    face.append(svg("text", { x: 28, y, "font-size": 9, "text-anchor": "middle", fill: ink,
      textLength: line.length > 9 ? 48 : false, lengthAdjust: "spacingAndGlyphs" }, line));
  });
  if (marks) {
    const on = Object.keys(MARKS).filter((k) => marks[k]);
    if (on.length) {
      face.append(svg("rect", { x: 3, y: 52, width: 50, height: 25, rx: 4, fill: "#fffbe6", stroke: "#b58900" }));
      // marks side by side (12 px apart drew a tripled, crushed, locked stack's ×3, ✕ and
      // lock on top of each other), each a little smaller to fit the box
      const step = Math.min(18, 48 / on.length), scale = on.length > 1 ? step / 20 : 1;
      on.forEach((k, i) => {
        const at = svg("g", { transform: `translate(${28 + (i - (on.length - 1) / 2) * step} 64.5) scale(${scale})`, "data-mark": k });
        at.append(icon(MARKS[k].icon, 0, 0, k === "crush" ? "#c62828" : "#111"));
        face.append(at);
      });
    }
  }
  return face;
}

/** The legend of stack marks (the same icons as on the stacks). */
export function legend() {
  const box = document.createElement("div");
  box.className = "legend";
  box.id = "marks-legend";
  for (const m of Object.values(MARKS)) {
    const pic = svg("svg", { width: 20, height: 20, viewBox: "0 0 20 20", "aria-hidden": "true" }, icon(m.icon, 10, 10, m.icon === "crush" ? "#c62828" : "#111"));
    const item = document.createElement("span");
    item.append(pic, ` ${t(m.name)}: ${t(m.rule)}`);
    box.append(item);
  }
  return box;
}
