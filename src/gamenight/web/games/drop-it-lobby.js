// Drop It in the lobby: its picture and the variants players choose.
import { svg, N_ } from "/static/common.js";

export const variants = [
  { id: "standard", title: N_("Standard"), sentence: N_("Edge marks forbid touching the board's edge in a colour."), options: {}, players: [2, 4] },
  { id: "easy", title: N_("Easy edges"), sentence: N_("No edge marks: only pieces of your shape or colour are off limits."), options: { edge_mode: "none" }, players: [2, 4] },
  { id: "shape", title: N_("Shape edges"), sentence: N_("The edge marks forbid shapes instead of colours."), options: { edge_mode: "shape" }, players: [2, 4] },
  { id: "teams", title: N_("Teams"), sentence: N_("Two teams, seats alternating; each team drops for one side."), options: { teams: true }, players: [2, 6] },
  { id: "jokers", title: N_("Jokers"), sentence: N_("Two jokers per side rescue a drop that broke a rule; unused ones score 3."), options: { jokers: true }, players: [2, 4] },
];

export const playerOptions = [];

export function picture() {
  const box = svg("svg", { viewBox: "0 0 160 90", width: 160, height: 90, "aria-hidden": "true" });
  box.append(svg("rect", { x: 30, y: 4, width: 100, height: 84, fill: "#f4f8fb", stroke: "#555" }));
  box.append(svg("circle", { cx: 60, cy: 72, r: 14, fill: "#d62828", stroke: "#222" }));
  box.append(svg("polygon", { points: "78,86 104,86 91,62", fill: "#1f6feb", stroke: "#222" }));
  box.append(svg("rect", { x: 92, y: 40, width: 24, height: 24, fill: "#f2c12e", stroke: "#222", transform: "rotate(20 104 52)" }));
  box.append(svg("polygon", { points: "70,30 80,46 70,62 60,46", fill: "#2a9d3a", stroke: "#222" }));
  box.append(svg("circle", { cx: 112, cy: 20, r: 9, fill: "none", stroke: "#08306b", "stroke-dasharray": "3 2" }));
  return box;
}
