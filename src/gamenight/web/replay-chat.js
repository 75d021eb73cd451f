// The table's chat beside a replay, only when every person at the table chose to keep it
// in (issue 14, item 4); lines are text nodes, never markup.
import { api, el, $, t } from "/static/common.js";

export async function showReplayChat(tableId) {
  let chat;
  try { chat = await api(`/api/tables/${tableId}/replay/chat`); } catch (_) { return; }
  if (!chat.shared || !chat.lines.length) return;
  const lines = chat.lines.map((l) => el("div", { class: "chat-line" }, el("strong", {}, l.name), ": ", el("span", { class: "chat-text" }, l.text)));
  $("aside").append(el("section", { class: "panel", id: "replay-chat", "aria-labelledby": "replay-chat-h" },
    el("h3", { id: "replay-chat-h" }, t("Chat")), el("div", { id: "chat-lines" }, lines)));
}
