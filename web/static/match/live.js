// Following a running match live from the viewer's Server-Sent Events: the
// frames as they come, reconnecting when the stream fails, and the replay
// once the match is over.
import { $, board, boot, indexOfMove, model, notice } from "./model.js";
import { render } from "./draw.js";
import { fillViews, go, goLast, loadFrames } from "./replay.js";
import { fetchJson, retryWait } from "../retry.js";

let retries = 0;

// The match is over: the page becomes its replay, at the move it showed (or,
// over before the page saw a move, at its end, as a finished match opens).
async function showReplay() {
  model.live = false;
  model.connected = false;
  const sawMoves = model.frames.length > 0;
  fillViews();
  render();
  if (!(await loadFrames("public")) || !model.frames.length) return;
  if (sawMoves) go(model.index, false);
  else goLast(false);
}

// The live stream open now (null: none), and the retry waiting to be made.
let stream = null;
let pendingRetry = null;

export function follow() {
  if (stream) stream.close();
  const source = new EventSource(boot.live_url);
  stream = source;
  let events = [];
  let previousToMove = null;
  let first = true; // the first snapshot of a stream: its decision opened before
  let failed = null;
  source.onopen = () => {
    model.connected = true;
    document.body.dataset.stream = "open";
  };
  source.onmessage = (message) => {
    const batch = JSON.parse(message.data);
    // News puts the wait back to the first; a refusal alone (a watch limit, a
    // match that failed) is no news: counted as such, a stream refused at once
    // each time was asked for again every second, for as long as the page was open.
    if (batch.some((item) => item.kind !== "error")) retries = 0;
    model.connected = true;
    for (const item of batch) {
      if (item.kind === "event") events.push({ text: item.text, to: null });
      else if (item.kind === "snapshot") {
        const known = indexOfMove(item.move);
        const frame = {
          move: item.move, seat: item.move ? previousToMove : null, label: "", forced: "",
          to_move: item.to_move, observation: item.observation, events,
        };
        if (known >= 0) {
          // A reconnected stream starts again at a move this page holds: its
          // snapshot comes without the move's events and seat, which the page
          // saw the first time (they were once wiped from the log).
          const held = model.frames[known];
          model.frames[known] = {
            ...frame,
            seat: frame.seat ?? held.seat,
            events: frame.events.length ? frame.events : held.events,
          };
        } else model.frames.push(frame);
        // A move was played: since the stream opened, or before it (a page
        // loaded while the match waited, its stream opened moves later).
        if ((!first || item.move > 0) && model.status === "waiting") model.status = "running";
        model.decisionSeen = first ? null : performance.now();
        first = false;
        previousToMove = item.to_move;
        events = [];
      } else if (item.kind === "result") {
        // A finished match's result has a score per seat; an aborted one's
        // (nobody joined in time) has none, only why it ended.
        if (item.result.scores.length) {
          model.result = item.result;
          model.status = "finished";
        } else {
          model.result = null;
          model.endReason = item.result.end_reason || "";
          model.status = "aborted";
        }
      } else if (item.kind === "error") {
        failed = item.message || item.code;
      }
    }
    board.dataset.frames = model.frames.length;
    if ($("follow").checked) model.index = model.frames.length - 1;
    render();
  };
  source.addEventListener("end", async (message) => {
    source.close();
    if (stream === source) stream = null;
    if (model.status === "finished" || model.status === "aborted") {
      notice(""); // aborted: says so, and why
      await showReplay();
      return;
    }
    if (JSON.parse(message.data || "{}").over) {
      // Over before the stream opened: finished or aborted, the viewer says which.
      await reconnect();
      return;
    }
    lost(failed || "the stream ended before the match did");
  });
  source.onerror = () => {
    source.close();
    if (stream === source) stream = null;
    if (model.live) lost("the viewer does not answer");
  };
}

// The stream failed (a server restarting, say): try again, waiting longer
// each time, and ask the viewer where the match is first.
function lost(reason) {
  model.connected = false;
  document.body.dataset.stream = "retrying";
  const wait = retryWait(retries);
  retries += 1;
  notice(`The live stream ended: ${reason}. Reconnecting in ${wait} s.`);
  render();
  clearTimeout(pendingRetry);
  pendingRetry = setTimeout(reconnect, wait * 1000);
}

async function reconnect() {
  pendingRetry = null;
  if (document.hidden) return; // it follows again once shown
  const info = await fetchJson(boot.info_url, { cache: "no-store" });
  if (info.error && !info.again) {
    // The match is gone (a restarted server forgets it): nothing to follow.
    model.live = false;
    model.status = "gone";
    notice(`The match can no longer be followed: ${info.error}.`);
    render();
    return;
  }
  // Hidden while it asked: it asks again once shown (a stream opened now would
  // hold one of the browser's six connections to the viewer in a hidden tab).
  if (document.hidden) return;
  if (info.error) return lost("the viewer or the game server does not answer");
  notice("");
  if (Array.isArray(info.seats)) {
    model.seats = info.seats;
    model.seatsMoves = info.moves;
  }
  model.status = info.status;
  if (info.status === "finished") {
    model.result = info.result || model.result;
    await showReplay();
  } else if (info.status === "running" || info.status === "waiting") {
    follow();
  } else if (info.status === "aborted") {
    model.result = null;
    model.endReason = info.result ? info.result.end_reason || "" : "";
    notice("");
    await showReplay();
  } else {
    model.live = false;
    notice(`The match ended without a result (${info.status}).`);
    render();
  }
}

// Whether each seat's bot is connected: the stream brings moves, not a bot
// leaving, so a page went on saying a seat was deciding for as long as its
// bot was gone. Asked every few seconds while the page follows the match,
// its stream open and its tab shown (a test may set window.sheepfoldSeatSeconds).
// Not while its stream is down: each try to follow it again asks the same
// question first (reconnect), and the page asked it every 5 s besides, twice
// at once at times, of a viewer it was giving time to come back.
const SEAT_SECONDS = window.sheepfoldSeatSeconds || 5;

async function askSeats() {
  if (model.live && !document.hidden && stream && model.connected) {
    const info = await fetchJson(boot.info_url, { cache: "no-store" });
    if (!info.error && Array.isArray(info.seats)) {
      model.seats = info.seats;
      model.seatsMoves = info.moves;
      render();
    }
  }
  if (model.live) setTimeout(askSeats, SEAT_SECONDS * 1000);
}
if (model.live) setTimeout(askSeats, SEAT_SECONDS * 1000);

// A hidden tab lets go of its live stream. A browser opens at most six
// connections to one viewer and each live page (and the matches list) holds
// one for its stream, so with six such tabs open a seventh did not even load.
// Shown again, the page asks where the match is and follows it again (or
// shows its replay), as after a failed stream.
document.addEventListener("visibilitychange", () => {
  if (!model.live) return;
  if (document.hidden) {
    if (stream) stream.close();
    stream = null;
    clearTimeout(pendingRetry);
    pendingRetry = null;
    model.connected = false;
    document.body.dataset.stream = "paused";
    render();
  } else if (!stream) {
    reconnect();
  }
});
