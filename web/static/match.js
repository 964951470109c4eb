// The match page: draws one frame at a time, live from Server-Sent Events or
// replayed from the recorded frames, with the controls, the seat views and
// the event log kept in step.
import { h, seatColour } from "./svg.js";

const boot = JSON.parse(document.getElementById("boot").textContent);
const $ = (id) => document.getElementById(id);
const board = $("board");
const model = {
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
};
window.sheepfold = model; // for tests and the curious: everything the page holds
// Set before the first await: a module that awaits at its top level can still
// be running after the page's load event, and the model must be there by then.
const game = await import(`./games/${boot.game}.js`);

// An aborted match says so, and why, before anything else the page says.
function notice(message) {
  const box = $("notice");
  const text = model.status === "aborted"
    ? [abortedText(), message].filter(Boolean).join(" ") : message || "";
  box.hidden = !text;
  box.textContent = text;
}

// ------------------------------------------------------------ seats and bots

// A tournament's game names the bot in each seat (boot.bots); any other match
// has seats alone. A name is shown as text, its control and bidi characters
// as escapes (see `visible`), so it neither writes markup nor turns words round.
function botName(seat) {
  const name = Array.isArray(boot.bots) ? boot.bots[seat] : null;
  return typeof name === "string" && name ? visible(name) : null;
}

// A name cut at 40 characters, for the places that name seats beside other
// words (the scores, the turn, a seat's view); the line above the board has it whole.
function cut(name) {
  const head = [...name].slice(0, 40).join("");
  return head.length < name.length ? `${head}…` : head;
}

// "seat 1", or "seat 1 (greedy)" for a tournament's game.
function seatText(seat, word = "seat") {
  const name = botName(seat);
  return name === null ? `${word} ${seat}` : `${word} ${seat} (${cut(name)})`;
}

function botNode(seat, whole = false) {
  const name = botName(seat);
  if (name === null) return null;
  return h("bdi", { class: "bot", title: whole ? null : name }, whole ? name : cut(name));
}

// Above the board: the tournament the game is of, and each seat's bot.
function drawSeatBots() {
  const line = $("seat-bots");
  if (!Array.isArray(boot.bots) || !boot.tournament) return;
  const seats = [];
  for (let seat = 0; seat < boot.players; seat++) {
    if (seats.length) seats.push(", ");
    seats.push(h("span", { class: "seat-bot", "data-seat": seat },
      h("span", { class: "dot", style: `background:${seatColour(seat)}` }),
      ` seat ${seat} `, botNode(seat, true) || "(no bot stored)"));
  }
  line.replaceChildren("Game of the tournament ",
    h("a", { href: boot.tournament.url }, visible(boot.tournament.name)), ": ", ...seats);
  line.hidden = false;
}

function abortedText() {
  const reason = model.endReason ? `: ${model.endReason}` : "";
  return `The match ended without a result (aborted)${reason}.`;
}

// ------------------------------------------------------------ drawing

let pending = false;
function render() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => {
    pending = false;
    draw();
  });
}

function draw() {
  const frames = model.frames;
  const last = Math.max(0, frames.length - 1);
  model.index = Math.min(model.index, last);
  const frame = frames[model.index];
  const slider = $("slider");
  slider.max = String(last);
  slider.value = String(model.index);
  // A live page that lost its stream does not know the match is still running.
  const shown = model.live && !model.connected && document.body.dataset.stream === "retrying"
    ? "reconnecting" : model.status;
  $("status").textContent = shown;
  $("status").dataset.status = shown;
  document.body.dataset.status = model.status;
  $("follow-wrap").hidden = !model.live;
  $("view-wrap").hidden = model.live;
  if (!frame) {
    $("move-label").textContent = model.live ? "waiting for the first move" : "no moves to show";
    return;
  }
  $("move-label").textContent = `move ${frame.move} of ${frames[last].move}`;
  const isLast = model.index === last;
  const result = isLast ? model.result : null;
  board.dataset.move = frame.move;
  board.dataset.view = model.view;
  board.dataset.game = boot.game;
  const drawn = game.draw(board, frame.observation, {
    players: boot.players,
    view: model.view,
    seats: frame.seats || null,
    result,
    room: room(),
    // The position before this move (null at the first frame the page holds),
    // for a board that marks what the move changed.
    previous: model.index > 0 ? frames[model.index - 1].observation : null,
  });
  // A board that would not read in the room above the controls (Sheep &
  // Garden late in a match on a 375x667 phone) is drawn to its column's width,
  // taller than the window: the page scrolls, and the controls, at the end of
  // the page, cover no part of it once scrolled to its foot.
  if (drawn && drawn.tall) board.style.maxHeight = "none";
  board.dataset.tall = drawn && drawn.tall ? "true" : "false";
  drawTurn(frame, result);
  drawScores(frame, result);
  drawLog();
  drawPrivate(frame);
  tickClock(); // at once: between its ticks it would name the seat before
}

// The room the board has on the page, in CSS pixels: its column's width and
// its largest height. A board may lay itself out to suit it (a phone's narrow
// column), and is drawn again when the window changes width. The height is
// the stylesheet's, or less where the controls, which stay at the foot of the
// window, would cover the board's foot: on a 375x667 phone they hid Stubborn
// Sheep's scores under the ring.
function room() {
  board.style.maxHeight = "";
  const styled = parseFloat(getComputedStyle(board).maxHeight) || window.innerHeight;
  const top = board.getBoundingClientRect().top + window.scrollY;
  const free = window.innerHeight - top - $("controls").offsetHeight - 8;
  const height = Math.max(200, Math.min(styled, free));
  board.style.maxHeight = `${height}px`;
  return { width: board.parentElement.clientWidth, height };
}
let roomWidth = null;
window.addEventListener("resize", () => {
  const width = board.parentElement.clientWidth;
  if (width !== roomWidth) render();
  roomWidth = width;
});

function drawTurn(frame, result) {
  const turn = $("turn");
  turn.replaceChildren();
  if (model.status === "aborted" && model.index === model.frames.length - 1) {
    turn.append(h("strong", {}, "Aborted here: no result"));
  } else if (model.status === "waiting") {
    // No seat has answered yet: some have not even joined. "Seat 1 to move"
    // said a bot was deciding while the match waited for its players.
    turn.append(h("strong", { "data-waiting": "" }, "Waiting for its seats to join"));
    if (frame.to_move !== null && frame.to_move !== undefined) {
      turn.append(h("div", { class: "muted" }, `${seatText(frame.to_move)} moves first`));
    }
  } else if (frame.to_move === null || frame.to_move === undefined) {
    turn.append(h("strong", {}, result || model.status === "finished" ? "Game over" : "No one to move"));
    // A solo match's final result carries its rulebook's title ("Woolly disaster").
    if (result && result.solo_title) {
      turn.append(h("div", { class: "solo-title", "data-solo-title": "" }, "Solo rating: ",
        h("strong", {}, result.solo_title)));
    }
  } else {
    turn.append(
      h("span", { class: "dot", style: `background:${seatColour(frame.to_move)}` }),
      h("strong", { "data-to-move": frame.to_move }, `${seatText(frame.to_move, "Seat")} to move`),
    );
  }
  // A live frame has no action label (Watch sends events): its first event says what happened.
  const label = frame.label || (frame.events[0] ? frame.events[0].text : "");
  if (label && frame.move > 0) {
    turn.append(h("div", { class: "muted" }, `move ${frame.move}: `,
      frame.label && frame.seat !== null && frame.seat !== undefined ? `${seatText(frame.seat)} ` : "",
      label, frame.forced ? " (forced)" : ""));
  }
}

function drawScores(frame, result) {
  const table = $("scores");
  const { columns, rows } = game.scores(frame.observation, boot.players);
  const head = h("tr", {}, h("th", {}, Array.isArray(boot.bots) ? "seat, bot" : "seat"), columns.map((c) => h("th", {}, c)),
    result ? h("th", {}, "final") : null);
  const body = rows.map((cells, seat) =>
    h("tr", { "data-seat": seat, class: frame.to_move === seat ? "to-move" : "" },
      h("td", {}, h("span", { class: "dot", style: `background:${seatColour(seat)}` }), ` ${seat}`,
        botNode(seat) ? [" ", botNode(seat)] : null),
      cells.map((c) => h("td", {}, String(c))),
      result ? h("td", { class: "final", "data-final-score": result.scores[seat] },
        `${result.scores[seat]}${result.ranks[seat] === 1 ? " ★" : ""}`) : null));
  table.replaceChildren(h("thead", {}, head), h("tbody", {}, body));
}

function drawLog() {
  const log = $("log");
  const items = [];
  // The last 80 events up to the current move: enough context, cheap to redraw.
  for (let i = model.index; i >= 0 && items.length < 80; i--) {
    const frame = model.frames[i];
    for (let j = frame.events.length - 1; j >= 0 && items.length < 80; j--) {
      const event = frame.events[j];
      items.push(h("li", {
        class: (i === model.index ? "current " : "") + (event.to !== null && event.to !== undefined ? "private" : ""),
        "data-move": frame.move,
      }, h("span", { class: "mv" }, String(frame.move)), " ", event.text,
      event.to !== null && event.to !== undefined ? h("span", { class: "only" }, ` ${seatText(event.to)} only`) : null));
    }
  }
  log.replaceChildren(...items);
}

function drawPrivate(frame) {
  const box = $("private");
  box.replaceChildren();
  if (model.view === "public") return;
  const views = model.view === "all" ? (frame.seats || []).map((o, seat) => [seat, o])
    : [[Number(model.view.slice(5)), frame.observation]];
  for (const [seat, obs] of views) {
    const part = game.privatePart ? game.privatePart(obs, seat) : null;
    if (part) box.append(part);
  }
}

// ------------------------------------------------------------ clock

// Timed by this page from the moment it saw the move that opened the decision
// (the server sends no clock), and shown only while a decision is open: the
// stream is up, the match running and someone to move.
function tickClock() {
  const clock = $("clock");
  const per = boot.clock && boot.clock.decision_seconds ? boot.clock.decision_seconds : null;
  const last = model.frames[model.frames.length - 1];
  const open = model.live && model.connected && model.status === "running" && last
    && last.to_move !== null && last.to_move !== undefined;
  const limit = per ? ` (limit ${per} s)` : "";
  if (!open) {
    clock.textContent = !model.live && per ? `clock: ${per} s per decision` : "";
    delete clock.dataset.seconds;
  } else if (model.decisionSeen === null) {
    clock.textContent = `seat ${last.to_move} is deciding${limit}`;
    delete clock.dataset.seconds;
  } else {
    const spent = (performance.now() - model.decisionSeen) / 1000;
    clock.textContent = `seat ${last.to_move} deciding for ${spent.toFixed(1)} s${limit}, as this page saw it`;
    clock.dataset.seconds = spent.toFixed(1);
  }
}
setInterval(tickClock, 200);

// ------------------------------------------------------------ navigation

function go(index, fromUser = true) {
  if (!model.frames.length) return;
  model.index = Math.max(0, Math.min(index, model.frames.length - 1));
  if (fromUser && model.live) $("follow").checked = model.index === model.frames.length - 1;
  if (!model.live) history.replaceState(null, "", `#move=${model.frames[model.index].move}`);
  render();
}

function stop() {
  if (model.playing) clearInterval(model.playing);
  model.playing = null;
  $("play").textContent = "play";
}

function play() {
  if (model.playing) return stop();
  if (model.index >= model.frames.length - 1) go(0);
  $("play").textContent = "pause";
  model.playing = setInterval(() => {
    if (model.index >= model.frames.length - 1) return stop();
    go(model.index + 1);
  }, 1000 / Number($("speed").value));
}

$("first").onclick = () => go(0);
$("prev").onclick = () => go(model.index - 1);
$("next").onclick = () => go(model.index + 1);
$("last").onclick = () => go(model.frames.length - 1);
$("play").onclick = play;
$("speed").onchange = () => { if (model.playing) { stop(); play(); } };
$("slider").oninput = (e) => go(Number(e.target.value));
document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLInputElement && e.target.type !== "range") return;
  const keys = { ArrowLeft: -1, ArrowRight: 1 };
  if (e.key in keys) { e.preventDefault(); go(model.index + keys[e.key]); }
  else if (e.key === "Home") { e.preventDefault(); go(0); }
  else if (e.key === "End") { e.preventDefault(); go(model.frames.length - 1); }
  else if (e.key === " ") { e.preventDefault(); play(); }
});

// Frames are found by their move number: a page that followed a match live
// holds the moves from when it opened, so positions are not move numbers.
function indexOfMove(move) {
  return model.frames.findIndex((frame) => frame.move === move);
}

function goMove(move, fromUser = true) {
  const index = indexOfMove(move);
  if (index >= 0) go(index, fromUser);
}

function moveFromHash() {
  const match = /^#move=(.*)$/.exec(location.hash);
  if (!match) return null;
  let asked = match[1];
  try {
    asked = decodeURIComponent(asked);
  } catch {
    // "%zz" is no move either: said below, as any other.
  }
  const first = model.frames.length ? model.frames[0].move : 0;
  const last = model.frames.length ? model.frames[model.frames.length - 1].move : 0;
  if (!/^\d+$/.test(asked) || indexOfMove(Number(asked)) < 0) {
    notice(`There is no move "${quoted(asked)}" in this match: its moves are ${first} to ${last}.`);
    return null;
  }
  notice("");
  return Number(asked);
}
// What a link asked for, as the notice quotes it: its first 40 characters (as
// the viewer quotes `?move=`), and a control character (U+202E turns the
// notice's words around) as its escape, so a link cannot write the page's text.
function quoted(asked) {
  const cut = [...asked].slice(0, 40).join("");
  const shown = visible(cut);
  return cut.length < asked.length ? `${shown}…` : shown;
}
// `text` with its control and bidi characters written as escapes.
function visible(text) {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
window.addEventListener("hashchange", () => {
  const move = moveFromHash();
  if (move !== null && move !== model.frames[model.index]?.move) goMove(move, false);
});

// ------------------------------------------------------------ views

function fillViews() {
  const select = $("view");
  const options = [["public", "spectator (public)"]];
  for (let seat = 0; seat < boot.players; seat++) options.push([`seat-${seat}`, `what ${seatText(seat)} saw`]);
  options.push(["all", "all cards"]);
  select.replaceChildren(...options.map(([value, label]) => h("option", { value }, label)));
  select.value = model.view;
  select.onchange = async () => {
    await loadFrames(select.value);
  };
}

// Every frame of the finished match in `view`, staying at the move shown.
async function loadFrames(view) {
  const shown = model.frames.length ? model.frames[model.index].move : null;
  let data = null;
  let response = null;
  try {
    response = await fetch(`${boot.frames_url}?view=${encodeURIComponent(view)}`);
    data = await response.json();
  } catch {
    notice(`Could not load the ${view} view: the viewer does not answer.`);
    return false;
  }
  if (!response.ok) {
    const why = data.error || `could not load the ${view} view`;
    notice(model.status === "aborted" ? `Its moves cannot be shown: ${why}.` : why);
    return false;
  }
  model.frames = data.frames;
  model.view = view;
  if (model.status !== "aborted") model.result = data.result || model.result; // aborted: no scores
  board.dataset.frames = model.frames.length;
  if (shown !== null && indexOfMove(shown) >= 0) model.index = indexOfMove(shown);
  render();
  return true;
}

// ------------------------------------------------------------ live

// Waits between attempts; a test may set its own before the page loads.
const RETRY_SECONDS = window.sheepfoldRetrySeconds || [1, 2, 4, 8, 15, 30];
let retries = 0;

// The match is over: the page becomes its replay, at the move it showed.
async function showReplay() {
  model.live = false;
  model.connected = false;
  fillViews();
  render();
  if (!(await loadFrames("public"))) return;
  if (model.frames.length) go(model.index, false);
}

// The live stream open now (null: none), and the retry waiting to be made.
let stream = null;
let pendingRetry = null;

function follow() {
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
    retries = 0;
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
        if (!first && model.status === "waiting") model.status = "running"; // a move was played
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
  const wait = RETRY_SECONDS[Math.min(retries, RETRY_SECONDS.length - 1)];
  retries += 1;
  notice(`The live stream ended: ${reason}. Reconnecting in ${wait} s.`);
  render();
  clearTimeout(pendingRetry);
  pendingRetry = setTimeout(reconnect, wait * 1000);
}

async function reconnect() {
  pendingRetry = null;
  if (document.hidden) return; // it follows again once shown
  let info = null;
  try {
    const response = await fetch(boot.info_url, { cache: "no-store" });
    info = response.ok ? await response.json() : null;
    if (!response.ok && response.status < 500) {
      // The match is gone (a restarted server forgets it): nothing to follow.
      const data = await response.json().catch(() => ({}));
      model.live = false;
      model.status = "gone";
      notice(`The match can no longer be followed: ${data.error || response.statusText}.`);
      render();
      return;
    }
  } catch {
    info = null;
  }
  if (!info) return lost("the viewer or the game server does not answer");
  notice("");
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

drawSeatBots();
if (model.live) {
  if (document.hidden) {
    document.body.dataset.stream = "paused";
    render();
  } else follow();
} else {
  notice("");
  fillViews();
  render(); // the badge and controls, even when no frame can be shown
  if (await loadFrames("public")) {
    const fromHash = moveFromHash();
    const start = fromHash !== null ? fromHash : boot.move !== null && boot.move !== undefined ? boot.move : 0;
    goMove(start, false);
  }
}
tickClock();
