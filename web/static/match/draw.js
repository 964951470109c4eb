// The match page's drawing: the board (by the game's module), the turn, the
// scores, the event log, the seats' private parts and the decision clock, all
// of the frame the page stands at.
import { h, seatColour } from "../svg.js";
import { $, board, boot, game, model } from "./model.js";
import { botNode, seatText } from "./names.js";
import { listed, ordinal } from "../words.js";
import { tellBoard } from "./board-words.js";
import { sayLatest } from "./announce.js";

let pending = false;
export function render() {
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
  // One move held (a live page just opened mid-match): nothing to slide
  // through, and a range of one value drew its thumb at the start, as if the
  // page showed the match's first move rather than its latest.
  slider.classList.toggle("lone", frames.length < 2);
  // A live page that lost its stream does not know the match is still running.
  const shown = model.live && !model.connected && document.body.dataset.stream === "retrying"
    ? "reconnecting" : model.status;
  $("status").textContent = shown;
  $("status").dataset.status = shown;
  document.body.dataset.status = model.status;
  $("follow-wrap").hidden = !model.live;
  // A match the game server forgot has no replay: a view list with no view in
  // it stood empty at the foot of the page.
  $("view-wrap").hidden = model.live || model.status === "gone";
  if (!frame) {
    $("move-label").textContent = model.live ? "waiting for the first move" : "no moves to show";
    tellBoard(null);
    drawLog();
    return;
  }
  $("move-label").textContent = `move ${frame.move} of ${frames[last].move}`;
  // Named for a screen reader: the slider's value is the frame's index, and
  // the board's drawing has no words of its own for one.
  slider.setAttribute("aria-valuetext", $("move-label").textContent);
  board.setAttribute("aria-label", `${boot.title} board, ${$("move-label").textContent}`);
  const isLast = model.index === last;
  const result = isLast ? model.result : null;
  board.dataset.move = frame.move;
  board.dataset.view = model.view;
  board.dataset.game = boot.game;
  // Before the board: on a phone the turn line stands above it, and the
  // board's room is measured under this move's line, not the last one's.
  drawTurn(frame, result);
  const ctx = {
    players: boot.players,
    view: model.view,
    seats: frame.seats || null,
    result,
    room: room(),
    // The position before this move (null at the first frame the page holds),
    // for a board that marks what the move changed.
    previous: model.index > 0 ? frames[model.index - 1].observation : null,
  };
  const drawn = game.draw(board, frame.observation, ctx);
  tellBoard(frame.observation, { ...ctx, seatName: seatText });
  // A board that would not read in the room above the controls (Sheep &
  // Garden late in a match on a 375x667 phone) is drawn to its column's width,
  // taller than the window: the page scrolls, and the controls, at the end of
  // the page, cover no part of it once scrolled to its foot.
  if (drawn && drawn.tall) board.style.maxHeight = "none";
  board.dataset.tall = drawn && drawn.tall ? "true" : "false";
  drawScores(frame, result);
  drawFinal(result);
  drawLog(result);
  drawPrivate(frame);
  tickClock(); // at once: between its ticks it would name the seat before
  announce(result);
}

// The turn line (who is to move, the move shown) and, at the end, the final
// scores, read out politely by a screen reader: a live match's moves and each step
// once said nothing unless the reader went looking. Written only when it
// changed (a redraw of the same move, the window resized, is not read again)
// and not while the replay plays, which would queue a move every tick: its
// pause reads the move it stopped at. The clock, which ticks, is left out.
let announced = "";
function announce(result) {
  if (model.playing) return;
  const scores = result && Array.isArray(result.scores)
    ? `final scores: ${result.scores.map((score, seat) => `${seatText(seat)} ${score}`
      + (Array.isArray(result.ranks) && boot.players > 1 ? ` (${ordinal(result.ranks[seat])})` : "")).join(", ")}`
    : "";
  const lines = $("turn").innerText.split("\n").map((line) => line.replace(/\s+/g, " ").trim());
  const text = [...lines, scores].filter(Boolean).join(". ");
  if (text === announced) return;
  announced = text;
  sayLatest(text);
}

// The room the board has on the page, in CSS pixels: its column's width and
// its largest height. A board may lay itself out to suit it (a phone's narrow
// column), and is drawn again when the window changes width. The height is
// the stylesheet's, or less where the controls, which stay at the foot of the
// window, would cover the board's foot: on a 375x667 phone they hid Stubborn
// Sheep's scores under the ring.
function room() {
  placeTurn();
  board.style.maxHeight = "";
  const styled = parseFloat(getComputedStyle(board).maxHeight) || window.innerHeight;
  const top = board.getBoundingClientRect().top + window.scrollY;
  const free = window.innerHeight - top - $("controls").offsetHeight - 8;
  const height = Math.max(200, Math.min(styled, free));
  board.style.maxHeight = `${height}px`;
  return { width: board.parentElement.clientWidth, height };
}
// On a phone the turn line ("Seat 2 to move", "Game over") stands above the
// board: in the side panel, under the board, it was behind the controls held
// at the window's foot, read only by scrolling down. The board's room is
// measured under it. On a wider window it heads the side panel.
const narrow = window.matchMedia("(max-width: 800px)");
function placeTurn() {
  const turn = $("turn");
  if (narrow.matches) {
    if (turn.parentElement.classList.contains("side")) document.querySelector(".match").before(turn);
  } else if (!turn.parentElement.classList.contains("side")) {
    document.querySelector("aside.side").prepend(turn);
  }
}
let roomWidth = null;
window.addEventListener("resize", () => {
  const width = board.parentElement.clientWidth;
  if (width !== roomWidth) render();
  roomWidth = width;
});
// Where an aborted match stopped: its last frame still names the seat that was
// to move, but nobody is.
function abortedHere() {
  return model.status === "aborted" && model.index === model.frames.length - 1;
}

// The match the game server forgot while the page followed it (a server with
// no database restarted): its last frame names a seat to move that never will.
function goneHere() {
  return model.status === "gone" && model.index === model.frames.length - 1;
}

function drawTurn(frame, result) {
  const turn = $("turn");
  turn.replaceChildren();
  if (abortedHere()) {
    turn.append(h("strong", {}, "Aborted here: no result"));
  } else if (goneHere()) {
    // It said "Seat 1 to move" under a notice that the match was gone.
    turn.append(h("strong", { "data-gone": "" }, "Followed up to here: the game server no longer has this match"));
  } else if (model.status === "waiting") {
    // No seat has answered yet: some have not even joined. "Seat 1 to move"
    // said a bot was deciding while the match waited for its players.
    // Some seats joined (the game server said so when the page last asked):
    // the ones still awaited are named, as a spectator waiting on one late
    // bot could not tell which it was.
    const missing = model.seats.filter((info) => info && info.joined === false).map((info) => info.seat);
    const joined = model.seats.filter((info) => info && info.joined === true).length;
    if (joined && missing.length) {
      turn.append(h("strong", { "data-waiting": missing.join(" ") },
        `Waiting for ${listed(missing.map((seat) => seatText(seat)))} to join`));
      turn.append(h("div", { class: "muted", "data-joined": joined }, `${joined} of ${boot.players} seats joined`));
    } else turn.append(h("strong", { "data-waiting": "" }, "Waiting for its seats to join"));
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
  // Every seat's place, as the result ranks it (ties share one): the final
  // column once starred the winners alone, and a tie-break (Stubborn Sheep's
  // complete sets) can rank two equal scores apart. A solo match's one seat
  // is first whatever it scored: neither ranked nor starred (its rulebook's
  // title says how it went). A disqualified seat is never a winner: every
  // seat disqualified, all share rank 1 and the result names no winner (each
  // was starred, as if all had won).
  const ranked = result && boot.players > 1 && Array.isArray(result.ranks);
  const head = h("tr", {}, h("th", {}, Array.isArray(boot.bots) ? "seat, bot" : "seat"), columns.map((c) => h("th", {}, c)),
    result ? h("th", {}, "final") : null, ranked ? h("th", {}, "rank") : null);
  const deciding = abortedHere() || goneHere() ? null : frame.to_move;
  const body = rows.map((cells, seat) =>
    h("tr", { "data-seat": seat, class: deciding === seat ? "to-move" : "" },
      h("td", {}, h("span", { class: "dot", style: `background:${seatColour(seat)}` }), ` ${seat}`,
        botNode(seat) ? [" ", botNode(seat)] : null,
        away(seat) ? [" ", h("span", { class: "badge away", "data-away": "", title: "its bot left the match" }, "disconnected")] : null,
        disqualified(seat, result) ? [" ", h("span", { class: "badge away", "data-disqualified": "",
          title: "its bot missed too many deadlines: its moves were played for it" }, "disqualified")] : null,
        failedWord(seat, result) ? [" ", h("span", { class: "badge away", "data-failure": failure(seat),
          title: "the tournament ranks a seat that failed last" }, failedWord(seat, result))] : null),
      cells.map((c) => h("td", {}, String(c))),
      result ? h("td", { class: "final", "data-final-score": result.scores[seat] },
        `${result.scores[seat]}${ranked && result.ranks[seat] === 1 && !disqualified(seat, result) ? " ★" : ""}`) : null,
      ranked ? h("td", { class: "rank", "data-rank": result.ranks[seat] }, ordinal(result.ranks[seat])) : null));
  table.replaceChildren(h("thead", {}, head), h("tbody", {}, body));
  fitNames(table);
}

// A bot name in the scores breaks between its words; where the table is
// still wider than its column (a word of ten letters beside Stubborn Sheep's
// five figures on a phone), every name in it breaks anywhere: the scores once
// reached past a 360 px phone's edge, the page wider than the screen and the
// ranks cut off. Still too wide, the table is drawn tight (narrower cells,
// smaller headings and badges): six "disqualified" badges in the seat column
// made a 320 px phone's scores 53 px wider than their panel.
function fitNames(table) {
  table.classList.remove("tight");
  const side = table.parentElement;
  const style = getComputedStyle(side);
  const room = side.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const fits = () => table.getBoundingClientRect().width <= room + 0.5;
  if (fits()) return;
  const names = table.querySelectorAll("bdi.bot:not(.long-word)");
  for (const name of names) name.classList.add("long-word");
  if (names.length && fits()) return;
  table.classList.add("tight");
}

// A seat the game server disqualified (its bot missed too many deadlines),
// as the result says it at the end, or the game server when the page last
// asked, at the latest move of a live match: the end read "14 3rd" as if the
// seat had played its match out.
function disqualified(seat, result) {
  const latest = model.live && model.index === model.frames.length - 1;
  const seats = result && Array.isArray(result.seats) ? result.seats : latest ? model.seats : null;
  return !!(seats && seats[seat] && seats[seat].disqualified);
}

// A tournament game's failure of a seat, as its database keeps it ("crash",
// "timeout", "disqualified", "slow"; null), and the rank the tournament
// counts: a seat that failed ranks last there, whatever the game server
// ranked it. The report said "crashy 17 (crash)" and ranked it last, and the
// game's page "17 ★ 1st" and no more.
function failure(seat) {
  const held = Array.isArray(boot.failures) ? boot.failures[seat] : null;
  return held && typeof held.failure === "string" && held.failure ? held.failure : null;
}

const FAILED = { crash: "crashed", timeout: "missed a deadline", slow: "held the match up", disqualified: "disqualified" };

// The badge's word, at the end: none for a disqualification the result
// already badges.
function failedWord(seat, result) {
  const why = result ? failure(seat) : null;
  if (!why || (why === "disqualified" && disqualified(seat, result))) return null;
  return FAILED[why] || why;
}

// Under the scores of a tournament game a seat failed: every seat the
// tournament ranks otherwise than the game server did, with its rank there.
function tournamentRanks(result) {
  const seats = [...Array(boot.players).keys()];
  if (!seats.some(failure) || !Array.isArray(result.ranks)) return null;
  const moved = [];
  for (const seat of seats) {
    const held = boot.failures[seat];
    if (held && Number.isInteger(held.rank) && held.rank !== result.ranks[seat]) {
      moved.push(`${seatText(seat)} ${ordinal(held.rank)}`);
    }
  }
  return moved.length ? h("p", { class: "muted tie-break", "data-tournament-ranks": "" },
    `The tournament ranks a seat that failed last: it counts ${listed(moved)}.`) : null;
}

// A seat whose bot joined and left, while the match is live: the game server
// said so when the page last asked (the stream says nothing of it).
function away(seat) {
  const info = model.seats[seat];
  return model.live && model.status === "running" && !!info && info.joined && info.connected === false;
}

// The seat to move's bot is not connected, as the game server said it at the
// move the page holds last (an answer from before that move is out of date).
function notConnected(last) {
  const info = model.seats[last.to_move];
  return !!info && info.connected === false && model.seatsMoves === last.move;
}

// What the result says each seat scored and why (Sheep & Garden's objective
// cards), under the scores: at the last frame of a finished match alone, and
// only from its result, which a page holds once the match is over.
function drawFinal(result) {
  const over = result && model.status === "finished";
  const part = over && game.finalPart ? game.finalPart(result, boot.players) : null;
  $("final").replaceChildren(...[over ? tieBreak(result) : null, over ? tournamentRanks(result) : null, part]
    .filter(Boolean));
}

// Two seats on equal scores that the result ranks apart (neither of them
// disqualified): the game's tie-break did it, and the result names it. The
// scores read "29 2nd" over "29 ★ 1st" and said nothing of why.
function tieBreak(result) {
  const details = result.details;
  const rule = details && typeof details.tie_break === "string" ? details.tie_break : "";
  if (!rule || boot.players < 2 || !Array.isArray(result.scores) || !Array.isArray(result.ranks)) return null;
  const out = (seat) => !!(Array.isArray(result.seats) && result.seats[seat] && result.seats[seat].disqualified);
  const apart = result.scores.some((score, a) => result.scores.some((other, b) =>
    b > a && other === score && result.ranks[a] !== result.ranks[b] && !out(a) && !out(b)));
  return apart ? h("p", { class: "muted tie-break", "data-tie-break": "" },
    `Equal scores ranked apart by the tie-break: ${rule}.`) : null;
}

// The match's verdict where the game server disqualified a seat: the game's
// last event is its own verdict by points ("the game is over; winner: seat
// 1"), while the server ranks a disqualified seat last and names no winner of
// seats all disqualified. The log ended on the game's line, which read as if
// the disqualified seat had won. As `sheepfold replay` says it.
function disqualifiedVerdict(result) {
  if (!result || model.status !== "finished" || !Array.isArray(result.seats)) return null;
  const out = result.seats.filter((seat) => seat && seat.disqualified).map((seat) => seat.seat || 0);
  if (!out.length) return null;
  const winners = Array.isArray(result.winners) ? result.winners : [];
  const seats = (list) => `${list.length === 1 ? "seat" : "seats"} ${listed(list.map(String))}`;
  const named = winners.length ? `${winners.length === 1 ? "winner" : "winners"} ${seats(winners)}` : "no winner";
  return `result: ${seats(out)} disqualified, ranked last whatever ${out.length === 1 ? "its score" : "their scores"}: `
    + `${named} (the game's last line is its own verdict by points)`;
}

function drawLog(result = null) {
  const log = $("log");
  const items = [];
  // Newest first: the match's verdict above the game's last line.
  const verdict = disqualifiedVerdict(result);
  if (verdict) items.push(h("li", { class: "verdict", "data-verdict": "" }, verdict));
  // The last 80 events up to the current move: enough context, cheap to redraw.
  for (let i = Math.min(model.index, model.frames.length - 1); i >= 0 && items.length < 80; i--) {
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
  // A live page opened after the match began holds no frames before its
  // first: said under the log (its oldest end). Opened at move 14, it said
  // "no events yet", as if nothing had happened in 14 moves.
  const first = model.frames.length ? model.frames[0].move : 0;
  if (model.live && first > 0 && items.length < 80) {
    items.push(h("li", { class: "before muted" },
      `earlier events came before this page opened, at move ${first}: the replay shows them once the match is over`));
  } else if (!items.length) {
    // Nothing yet: said as the matches list says an empty list ("no live
    // match"), and gone with the first event. A live page's log was an empty
    // box until the first move, as if it had failed to load.
    items.push(h("li", { class: "empty muted" }, model.live ? "no events yet" : "no events up to this move"));
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

// Timed by this page from the moment it saw the move that opened the decision
// (the server sends no clock), and shown only while a decision is open: the
// stream is up, the match running and someone to move.
export function tickClock() {
  const clock = $("clock");
  const per = boot.clock && boot.clock.decision_seconds ? boot.clock.decision_seconds : null;
  const last = model.frames[model.frames.length - 1];
  const open = model.live && model.connected && model.status === "running" && last
    && last.to_move !== null && last.to_move !== undefined;
  const limit = per ? ` (limit ${per} s)` : "";
  if (!open) {
    clock.textContent = !model.live && per ? `clock: ${per} s per decision` : "";
    delete clock.dataset.seconds;
  } else if (notConnected(last)) {
    // Its seat's bot gone (a server restarted under a match whose bots did
    // not come back, a bot that left while the page watched), the page said
    // "is deciding" of nobody, for as long as the match stood still.
    clock.textContent = `seat ${last.to_move}'s bot is not connected${limit}`;
    delete clock.dataset.seconds;
  } else if (model.decisionSeen === null) {
    // The decision opened before the page did: how long it has run is unknown.
    clock.textContent = `seat ${last.to_move} is deciding${limit}`;
    delete clock.dataset.seconds;
  } else {
    const spent = (performance.now() - model.decisionSeen) / 1000;
    clock.textContent = `seat ${last.to_move} deciding for ${spent.toFixed(1)} s${limit}, as this page saw it`;
    clock.dataset.seconds = spent.toFixed(1);
  }
}
