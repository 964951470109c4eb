// The match page: draws one frame at a time, live from Server-Sent Events or
// replayed from the recorded frames, with the controls, the seat views and
// the event log kept in step.
import { h, seatColour } from "./svg.js";

const boot = JSON.parse(document.getElementById("boot").textContent);
const $ = (id) => document.getElementById(id);
const board = $("board");
const game = await import(`./games/${boot.game}.js`);

const model = {
  frames: [],
  index: 0,
  view: "public",
  live: boot.status === "running" || boot.status === "waiting",
  result: boot.result || null,
  status: boot.status,
  playing: null,
  decisionStarted: performance.now(),
};
window.sheepfold = model; // for tests and the curious: everything the page holds

function notice(message) {
  const box = $("notice");
  box.hidden = !message;
  box.textContent = message || "";
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
  $("status").textContent = model.status;
  $("status").dataset.status = model.status;
  document.body.dataset.status = model.status;
  $("follow-wrap").hidden = !model.live;
  $("view-wrap").hidden = model.live;
  if (!frame) {
    $("move-label").textContent = "waiting for the first move";
    return;
  }
  $("move-label").textContent = `move ${frame.move} of ${frames[last].move}`;
  const isLast = model.index === last;
  const result = isLast ? model.result : null;
  board.dataset.move = frame.move;
  board.dataset.view = model.view;
  board.dataset.game = boot.game;
  game.draw(board, frame.observation, {
    players: boot.players,
    view: model.view,
    seats: frame.seats || null,
    result,
  });
  drawTurn(frame, result);
  drawScores(frame, result);
  drawLog();
  drawPrivate(frame);
}

function drawTurn(frame, result) {
  const turn = $("turn");
  turn.replaceChildren();
  if (frame.to_move === null || frame.to_move === undefined) {
    turn.append(h("strong", {}, result || model.status === "finished" ? "Game over" : "No one to move"));
  } else {
    turn.append(
      h("span", { class: "dot", style: `background:${seatColour(frame.to_move)}` }),
      h("strong", { "data-to-move": frame.to_move }, `Seat ${frame.to_move} to move`),
    );
  }
  // A live frame has no action label (Watch sends events): its first event says what happened.
  const label = frame.label || (frame.events[0] ? frame.events[0].text : "");
  if (label && frame.move > 0) {
    turn.append(h("div", { class: "muted" }, `move ${frame.move}: `,
      frame.label && frame.seat !== null && frame.seat !== undefined ? `seat ${frame.seat} ` : "",
      label, frame.forced ? " (forced)" : ""));
  }
}

function drawScores(frame, result) {
  const table = $("scores");
  const { columns, rows } = game.scores(frame.observation, boot.players);
  const head = h("tr", {}, h("th", {}, "seat"), columns.map((c) => h("th", {}, c)),
    result ? h("th", {}, "final") : null);
  const body = rows.map((cells, seat) =>
    h("tr", { "data-seat": seat, class: frame.to_move === seat ? "to-move" : "" },
      h("td", {}, h("span", { class: "dot", style: `background:${seatColour(seat)}` }), ` ${seat}`),
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
      event.to !== null && event.to !== undefined ? h("span", { class: "only" }, ` seat ${event.to} only`) : null));
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

function tickClock() {
  const clock = $("clock");
  const per = boot.clock && boot.clock.decision_seconds ? boot.clock.decision_seconds : 10;
  if (model.live && model.status !== "finished") {
    const spent = (performance.now() - model.decisionStarted) / 1000;
    clock.textContent = `decision clock: ${spent.toFixed(1)} s of ${per} s`;
    clock.dataset.seconds = spent.toFixed(1);
  } else {
    clock.textContent = boot.clock && boot.clock.decision_seconds
      ? `clock: ${boot.clock.decision_seconds} s per decision` : "";
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

function moveFromHash() {
  const match = /^#move=(.*)$/.exec(location.hash);
  if (!match) return null;
  const last = model.frames.length - 1;
  if (!/^\d+$/.test(match[1]) || Number(match[1]) > last) {
    notice(`There is no move "${decodeURIComponent(match[1])}" in this match: its moves are 0 to ${last}.`);
    return null;
  }
  notice("");
  return Number(match[1]);
}
window.addEventListener("hashchange", () => {
  const move = moveFromHash();
  if (move !== null && move !== model.index) go(move, false);
});

// ------------------------------------------------------------ views

function fillViews() {
  const select = $("view");
  const options = [["public", "spectator (public)"]];
  for (let seat = 0; seat < boot.players; seat++) options.push([`seat-${seat}`, `what seat ${seat} saw`]);
  options.push(["all", "all cards"]);
  select.replaceChildren(...options.map(([value, label]) => h("option", { value }, label)));
  select.value = model.view;
  select.onchange = async () => {
    await loadFrames(select.value);
  };
}

async function loadFrames(view) {
  const response = await fetch(`${boot.frames_url}?view=${encodeURIComponent(view)}`);
  const data = await response.json();
  if (!response.ok) {
    notice(data.error || `could not load the ${view} view`);
    return;
  }
  model.frames = data.frames;
  model.view = view;
  model.result = data.result || model.result;
  board.dataset.frames = model.frames.length;
  render();
}

// ------------------------------------------------------------ live

function follow() {
  const source = new EventSource(boot.live_url);
  let events = [];
  let previousToMove = null;
  source.onmessage = (message) => {
    const batch = JSON.parse(message.data);
    for (const item of batch) {
      if (item.kind === "event") events.push({ text: item.text, to: null });
      else if (item.kind === "snapshot") {
        model.frames.push({
          move: item.move, seat: item.move ? previousToMove : null, label: "", forced: "",
          to_move: item.to_move, observation: item.observation, events,
        });
        previousToMove = item.to_move;
        events = [];
        model.decisionStarted = performance.now();
      } else if (item.kind === "result") {
        model.result = item.result;
        model.status = "finished";
      } else if (item.kind === "error") {
        notice(`The live stream ended: ${item.message}`);
      }
    }
    board.dataset.frames = model.frames.length;
    if ($("follow").checked) model.index = model.frames.length - 1;
    render();
  };
  source.addEventListener("end", async (message) => {
    source.close();
    if (model.status !== "finished" && JSON.parse(message.data || "{}").over) {
      // The match ended before this page could follow it: show its replay.
      model.status = "finished";
      model.live = false;
      fillViews();
      await loadFrames("public");
      return;
    }
    if (model.status === "finished") {
      model.live = false;
      fillViews();
      render();
    }
  });
  source.onerror = () => {
    if (model.status !== "finished") notice("Lost the live stream; reload the page to reconnect.");
    source.close();
  };
}

if (model.live) {
  follow();
} else {
  fillViews();
  await loadFrames("public");
  const fromHash = moveFromHash();
  const start = fromHash !== null ? fromHash : boot.move !== null && boot.move !== undefined ? boot.move : 0;
  go(start, false);
}
tickClock();
