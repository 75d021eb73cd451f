// The coach's switch, shared by the games' tables: shown only to a seat whose every other
// seat is a bot (never in a replay, never to a spectator); the advice is asked once per
// table version, in the server's worker pool, and drawn by the game (`show`).
import { api, el, t } from "/static/common.js";

let on = localStorage.getItem("gamenight.coach") === "1";
let forVersion = -1;   // the version the advice was asked for
let advice = null;     // the server's advice for `forVersion`, once it came
let trouble = null;    // why the last ask failed ("busy"): said, and asked again shortly
let tries = 0;         // asks for `forVersion` so far
let retrying = null;   // the version asked again after a failure
const MAX_TRIES = 5;

/** May this seat have a coach here? Every other seat is a bot and the game is live. */
export function coachAllowed(msg) {
  if (msg.seat === null || msg.seat === undefined || msg.table.status === "replay" || msg.table.tutorial) return false;
  const others = msg.table.seats.filter((s) => s.seat !== msg.seat);
  return others.length > 0 && others.every((s) => s.kind === "bot");
}

/** The advice for this very position, or null (switched off, not asked yet, or still thinking). */
export function coachAdvice(msg) {
  return on && coachAllowed(msg) && msg.asked && forVersion === msg.version ? advice : null;
}

/** "41%" */
export function percent(x) { return `${Math.round(100 * x)}%`; }

/** The switch and, when on, `show(advice)` (or "thinking…"); `redraw()` draws the table again. */
export function coachPanel(msg, ctx, redraw, show, idle = ` ${t("shows the hard bot's view on your turn")}`) {
  if (!coachAllowed(msg)) return "";
  const toggle = el("label", { class: "coach-switch" }, el("input", { type: "checkbox", id: "coach", checked: on,
    onchange: (ev) => { on = ev.target.checked; localStorage.setItem("gamenight.coach", on ? "1" : "0"); redraw(); } }), ` ${t("Coach")}`);
  const box = el("div", { class: "coach", id: "coach-advice", "aria-live": "polite" }, toggle);
  if (!on) return box;
  if (!msg.asked) { box.append(el("span", { class: "muted" }, idle)); return box; }
  if (forVersion === msg.version && advice) { box.append(...[show(advice)].flat()); return box; }
  box.append(el("span", { class: "muted", id: "coach-thinking" }, trouble ? ` ${trouble}` : ` ${t("thinking…")}`));
  if (forVersion !== msg.version) {
    if (retrying !== msg.version) { tries = 0; trouble = null; }  // (a retry keeps its count)
    retrying = null;
    forVersion = msg.version; advice = null; tries += 1;
    const asked = msg.version;
    api(`/api/tables/${ctx.tableId}/coach`).then((r) => {
      if (r.version !== asked || forVersion !== asked) return;
      advice = r.advice; trouble = null;
      redraw();
    }).catch((e) => {
      // A busy server (429: the person's coach budget, or its workers) is not a reason to
      // switch the coach off (it was, before issue 45): say so and ask again in a moment.
      if (forVersion !== asked) return;
      if (tries >= MAX_TRIES) { trouble = t("the coach could not answer: {reason}", { reason: e.message }); redraw(); return; }
      trouble = t("the coach is busy; asking again…");
      redraw();
      setTimeout(() => { if (forVersion === asked) { forVersion = -1; retrying = asked; redraw(); } }, 1500 * tries);
    });
  }
  return box;
}
