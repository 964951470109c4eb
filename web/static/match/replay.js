// Replaying a match: the buttons, the slider, the keys and the link's #move
// that step through its frames, and the seat views whose frames it loads.
import { fetchJson, retryWait, waitToRetry } from "../retry.js";
import { h } from "../svg.js";
import { $, board, boot, indexOfMove, model, notice } from "./model.js";
import { quoted, seatText } from "./names.js";
import { render } from "./draw.js";

export function go(index, fromUser = true) {
  if (!model.frames.length) return;
  model.index = Math.max(0, Math.min(index, model.frames.length - 1));
  if (fromUser && model.live) $("follow").checked = model.index === model.frames.length - 1;
  if (!model.live) nameMoveInAddress();
  render();
}

// The address names the move shown, so that it can be shared as it is. A
// browser lets a page change its address only so often (Chromium 200 times in
// 10 s, ignoring the rest; Safari throws past its own limit): played at 30
// moves a second, or swept along with the slider, the address stopped
// following at whatever move it had reached. So it changes at once up to
// ADDRESS_BURST times, then twice a second at most, the move shown last
// always written.
const ADDRESS_BURST = 40;
const ADDRESS_PER_SECOND = 2;
let addressTokens = ADDRESS_BURST;
let addressCounted = performance.now();
let addressLater = null;

function nameMoveInAddress() {
  const now = performance.now();
  addressTokens = Math.min(ADDRESS_BURST, addressTokens + ((now - addressCounted) / 1000) * ADDRESS_PER_SECOND);
  addressCounted = now;
  if (addressLater !== null) return; // written when it is due, with the move shown then
  if (addressTokens < 1) {
    addressLater = setTimeout(() => {
      addressLater = null;
      nameMoveInAddress();
    }, ((1 - addressTokens) / ADDRESS_PER_SECOND) * 1000);
    return;
  }
  addressTokens -= 1;
  if (!model.live && model.frames.length) history.replaceState(null, "", `#move=${model.frames[model.index].move}`);
}

function stop() {
  if (model.playing) clearInterval(model.playing);
  model.playing = null;
  $("play").textContent = "play";
  render(); // the move it stopped at, read out (draw.js: not while playing)
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
$("last").onclick = () => goLast();
$("play").onclick = play;
$("speed").onchange = () => { if (model.playing) { stop(); play(); } };
$("slider").oninput = (e) => go(Number(e.target.value));
// Ticked again on a live page: to the latest move at once (it waited for the
// next move to arrive, which a bot deciding may take seconds to send).
$("follow").onchange = (e) => { if (e.target.checked) goLast(); };
document.addEventListener("keydown", (e) => {
  // A list and a text field keep their keys; so does a tick box its space. Its
  // arrows are the replay's: with "follow live" just unticked by a click, ←
  // stepped nothing, and a live page could not be stepped back by its keys.
  const tickBox = e.target instanceof HTMLInputElement && e.target.type === "checkbox";
  if (e.target instanceof HTMLSelectElement || e.target instanceof HTMLTextAreaElement) return;
  if (e.target instanceof HTMLInputElement && e.target.type !== "range" && !tickBox) return;
  if (tickBox && e.key === " ") return;
  // The browser's own (Alt+Left: back; Ctrl+Home: the page's top): taken as
  // the replay's, they stepped the match and the browser did not go back.
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const keys = { ArrowLeft: -1, ArrowRight: 1 };
  if (e.key in keys) { e.preventDefault(); go(model.index + keys[e.key]); }
  else if (e.key === "Home") { e.preventDefault(); go(0); }
  else if (e.key === "End") { e.preventDefault(); goLast(); }
  // Held down, space repeats its keydown: played and paused by turns, the
  // replay ended up playing or not by chance.
  else if (e.key === " ") { e.preventDefault(); if (!e.repeat) play(); }
});

export function goLast(fromUser = true) {
  go(model.frames.length - 1, fromUser);
}

export function goMove(move, fromUser = true) {
  const index = indexOfMove(move);
  if (index >= 0) go(index, fromUser);
}

export function moveFromHash(hash = location.hash) {
  const match = /^#move=(.*)$/.exec(hash);
  if (!match) return null;
  let asked = match[1];
  try {
    asked = decodeURIComponent(asked);
  } catch {
    // "%zz" is no move either: said below, as any other.
  }
  return heldMove(asked);
}

// The move `?move=N` asked for (the viewer checked it is a whole number), when
// the page holds it; one past the end is said as `#move=N` says it, and the
// page opens at the end (it was a 400 page, and `#move=N` the end).
export function moveFromQuery() {
  return boot.move === null || boot.move === undefined ? null : heldMove(String(boot.move));
}

// Move `asked`, when the page holds it; else null, and the notice says so.
function heldMove(asked) {
  const first = model.frames.length ? model.frames[0].move : 0;
  const last = model.frames.length ? model.frames[model.frames.length - 1].move : 0;
  if (!/^\d+$/.test(asked) || indexOfMove(Number(asked)) < 0) {
    notice(`There is no move "${quoted(asked)}" in this match: its moves are ${first} to ${last}.`);
    return null;
  }
  notice("");
  return Number(asked);
}

// A link's move on a live page, as the link gave it ("%33" or "3"): the page
// holds the moves from its latest on, and the replay only once the match is
// over. It opened at the latest move and said nothing, as if the link had
// named no move; a #move= typed meanwhile was told the moves the page held
// were the match's ("its moves are 17 to 26").
export function notLive(linked) {
  let asked = linked;
  try {
    asked = decodeURIComponent(asked);
  } catch {
    // "%zz": quoted as it is
  }
  notice(`Move "${quoted(asked)}" is not shown: this match is not over yet, and its page ` +
    "follows it live from its latest move; every move is in its replay once the match is over.");
}

// The hash the change made, not the address now: the page's own deferred
// write of the move shown (nameMoveInAddress) may land between a change and
// this handler, and the change was then taken for the move already shown.
window.addEventListener("hashchange", (event) => {
  const hash = new URL(event.newURL).hash;
  // A live page goes to a move it holds, and says why it cannot to another.
  const held = /^#move=(\d+)$/.exec(hash);
  if (model.live && !(held && indexOfMove(Number(held[1])) >= 0)) {
    if (/^#move=/.test(hash)) notLive(hash.slice("#move=".length));
    return;
  }
  const move = moveFromHash(hash);
  if (move !== null && move !== model.frames[model.index]?.move) goMove(move, false);
});

// ------------------------------------------------------------ views

export function fillViews() {
  const select = $("view");
  const options = [["public", "spectator (public)"]];
  for (let seat = 0; seat < boot.players; seat++) options.push([`seat-${seat}`, `what ${seatText(seat)} saw`]);
  options.push(["all", "all cards"]);
  select.replaceChildren(...options.map(([value, label]) => h("option", { value }, label)));
  select.value = model.view;
  select.onchange = () => loadFrames(select.value);
}

// Whether the notice says why the last view could not be loaded: said until
// a view loads.
let viewRefused = false;
// The latest view asked for: one asked for while another waits to be tried
// again takes its place.
let asked = 0;

// Every frame of the finished match in `view`, staying at the move shown:
// true once shown, false when refused (the notice says why), null when
// another view was asked for meanwhile. While the viewer or the game server
// is away it tries again, less and less often (it once said so and never
// asked again), the view list naming the view still shown meanwhile.
export async function loadFrames(view) {
  const mine = ++asked;
  const url = `${boot.frames_url}?view=${encodeURIComponent(view)}`;
  let data = await fetchJson(url);
  for (let retries = 0; data.error && data.again; retries += 1) {
    if (mine !== asked) return null;
    const wait = retryWait(retries);
    $("view").value = model.view;
    const error = data.error;
    viewRefused = true;
    await waitToRetry(wait, (when) => {
      // Unless another view was asked for meanwhile: its notice stands.
      if (mine === asked) notice(`Could not load the ${view} view: ${error}; trying again ${when}.`);
    });
    if (mine !== asked) return null;
    data = await fetchJson(url);
  }
  if (mine !== asked) return null;
  if (data.error) {
    // Refused: the list names the view still shown, not the one asked for,
    // which the board once seemed to be.
    $("view").value = model.view;
    notice(model.status === "aborted" ? `Its moves cannot be shown: ${data.error}.` : data.error);
    viewRefused = true;
    return false;
  }
  if (viewRefused) notice("");
  viewRefused = false;
  const shown = model.frames.length ? model.frames[model.index].move : null;
  model.frames = data.frames;
  model.view = view;
  $("view").value = view;
  if (model.status !== "aborted") model.result = data.result || model.result; // aborted: no scores
  board.dataset.frames = model.frames.length;
  if (shown !== null && indexOfMove(shown) >= 0) model.index = indexOfMove(shown);
  render();
  return true;
}
