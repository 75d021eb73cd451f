// Arne in the lobby: its picture, its variants and the options players choose, in player
// words. Every other option is a designer's setting, shown only under "Advanced".
import { svg, N_ } from "/static/common.js";
import { cardFace } from "/static/games/arne-cards.js";

export const variants = [
  { id: "normal", title: N_("Normal"), sentence: N_("The highest display wins."), options: {}, players: [2, 6] },
  { id: "losing", title: N_("Losing game"), sentence: N_("The lowest display wins: give your cards away."), options: { mode: "losing" }, players: [2, 6] },
  { id: "team", title: N_("Team game"), sentence: N_("Teams of two share a colour and add their scores."), options: { variant: "team" }, players: [4, 12], even: true },
  { id: "dummy", title: N_("Dummy game"), sentence: N_("One extra colour belongs to nobody; Reverse! takes it over."), options: { variant: "dummy" }, players: [2, 5] },
  { id: "learning", title: N_("Learning game"), sentence: N_("Fewer cards, no doubler: a first game to learn the cards."), options: { learning: true }, players: [2, 6] },
];

// Options a player may want, with words; the rest go under "Advanced (designers)".
export const playerOptions = [
  { name: "hand_size", label: N_("Cards in hand"), sentence: N_("Cards dealt to each player at the start.") },
  { name: "series_games", label: N_("Games in a row"), sentence: N_("Play several games; the totals decide.") },
];

export function picture() {
  const box = svg("svg", { viewBox: "0 0 160 90", width: 160, height: 90, "aria-hidden": "true" });
  [["red P500", -14, 20], ["blue MINUS200", 0, 58], ["CHAMELEON", 12, 96]].forEach(([name, rot, x]) => {
    box.append(svg("g", { transform: `translate(${x} 8) rotate(${rot} 25 35)` }, cardFace(name, { width: 50 })));
  });
  return box;
}
