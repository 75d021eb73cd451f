// Drop or Stop in the lobby: its picture, its decks and the options players choose.
import { svg, N_ } from "/static/common.js";

export const variants = [
  { id: "standard", title: N_("Standard deck"), sentence: N_("Cards 1 to 5, seven of each, and four FLEX cards."), options: {} },
  { id: "descending", title: N_("Gentle deck"), sentence: N_("More low cards than high ones: easier to stay under 11."), options: { deck: "descending" } },
  { id: "1to6", title: N_("Deck with sixes"), sentence: N_("Cards 1 to 6 and three FLEX: every draw is a bigger risk."), options: { deck: "1to6" } },
];

export const playerOptions = [
  { name: "wins_to_win", label: N_("Round wins to win"), sentence: N_("How many rounds a player must win to win the game.") },
  { name: "target", label: N_("Target total"), sentence: N_("The highest total that does not go over.") },
];

function card(x, rot, text, fill) {
  const g = svg("g", { transform: `translate(${x} 10) rotate(${rot} 24 34)` });
  g.append(svg("rect", { width: 48, height: 68, rx: 6, fill, stroke: "#333", "stroke-width": 1.5 }));
  if (text) g.append(svg("text", { x: 24, y: 44, "font-size": text.length > 2 ? 14 : 26, "font-weight": 700, "text-anchor": "middle" }, text));
  else g.append(svg("path", { d: "M7 7h34v54H7z", fill: "none", stroke: "#fff", "stroke-width": 2, "stroke-dasharray": "4 3" }));
  return g;
}

export function picture() {
  const box = svg("svg", { viewBox: "0 0 160 90", width: 160, height: 90, "aria-hidden": "true" });
  box.append(card(18, -10, "", "#2f5fb3"), card(56, 0, "5", "#fff"), card(94, 10, "1|5", "#fff3c4"));
  return box;
}
