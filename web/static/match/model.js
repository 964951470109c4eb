// What the match page holds: the match as the page got it (boot), the frames
// and where it stands in them (model), and the game's drawing module.
import { sayNow } from "./announce.js";
export const boot = JSON.parse(document.getElementById("boot").textContent);
export const $ = (id) => document.getElementById(id);
export const board = $("board");
export const model = {
  frames: [],
  index: 0,
  view: "public",
  live: boot.status === "running" || boot.status === "waiting",
  // An aborted match's result holds only why it ended: no scores to show.
  result: boot.status === "aborted" ? null : boot.result || null,
  endReason: boot.status === "aborted" && boot.result ? boot.result.end_reason || "" : "",
  status: boot.status,
  playing: null,
  // The live stream: open, or being retried after it failed.
  connected: false,
  // When this page saw the move that opened the current decision (null: the
  // decision was already open when the stream started, so its start is unknown).
  decisionSeen: null,
  // The game server's word on each seat (its bot connected, joined) as the
  // viewer last gave it, and the moves played then: a live page asks again
  // every few seconds, since its stream brings moves and not who left.
  seats: boot.seats || [],
  seatsMoves: boot.moves,
};
window.sheepfold = model; // for tests and the curious: everything the page holds
// Set before the first await: a module that awaits at its top level can still
// be running after the page's load event, and the model must be there by then.
export const game = await import(`../games/${boot.game}.js`);

// An aborted match says so, and why, before anything else the page says.
export function notice(message) {
  const box = $("notice");
  const text = model.status === "aborted"
    ? [abortedText(), message].filter(Boolean).join(" ") : message || "";
  // Read out too, once, by the page's polite status line (announce.js): a
  // live stream lost or a link's move not shown once told a screen reader
  // nothing, and a box shown only as it fills is not read by every one.
  if (text && text !== box.textContent) sayNow(text);
  box.hidden = !text;
  box.textContent = text;
}

function abortedText() {
  const reason = model.endReason ? `: ${model.endReason}` : "";
  return `The match ended without a result (aborted)${reason}.`;
}

// Frames are found by their move number: a page that followed a match live
// holds the moves from when it opened, so positions are not move numbers.
export function indexOfMove(move) {
  return model.frames.findIndex((frame) => frame.move === move);
}
