// The matches list: live and finished, filtered by game, kept current by
// Server-Sent Events (the viewer sends the list again whenever it changes).
import { h, seatColour } from "./svg.js";
import { count } from "./words.js";

const boot = JSON.parse(document.getElementById("boot").textContent);
const filter = document.getElementById("game-filter");
const capped = document.getElementById("capped");
const status = document.getElementById("list-status");
let source = null;
// Waits between attempts once the stream fails; a test may set its own before the page loads.
const RETRY_SECONDS = window.sheepfoldRetrySeconds || [1, 2, 4, 8, 15, 30];
let retries = 0;
let retry = null;
const columns = document.querySelectorAll("table.matches thead th").length;

// When a match started: its time alone today, its date too on any other day
// (a match of yesterday's read as one of today's).
function startedAt(seconds) {
  const at = new Date(seconds * 1000);
  return at.toDateString() === new Date().toDateString() ? at.toLocaleTimeString() : at.toLocaleString();
}

function row(m) {
  const when = startedAt(m.created_at);
  const result = m.result
    ? m.result.scores.map((score, seat) => h("span", { class: "score" },
      h("span", { class: "dot", style: `background:${seatColour(seat)}` }), ` ${score}`,
      m.players > 1 && m.result.ranks[seat] === 1 ? " ★" : "")).concat(m.result.solo_title
      ? [h("span", { class: "solo-title", "data-solo-title": "" }, m.result.solo_title)] : [])
    : m.status === "waiting" ? "waiting for its seats to join"
      : m.to_move !== null && m.to_move !== undefined ? `seat ${m.to_move} to move` : "";
  return h("tr", { "data-match-id": m.match_id, "data-game": m.game, "data-status": m.status },
    h("td", { class: "id" }, h("a", { href: `/match/${encodeURIComponent(m.match_id)}` }, m.match_id)),
    h("td", { class: "game" }, m.title), h("td", { class: "players" }, count(m.players, "player")),
    h("td", { class: "status" }, h("span", { class: `badge ${m.status}` }, m.status)),
    h("td", { class: "moves" }, count(m.moves, "move")), h("td", { class: "result" }, result),
    h("td", { class: "muted when" }, when));
}

function show(matches) {
  if (matches.error) {
    status.textContent = matches.error;
    return;
  }
  const live = matches.filter((m) => m.status === "running" || m.status === "waiting");
  const done = matches.filter((m) => !(m.status === "running" || m.status === "waiting"));
  const fill = (id, list, empty) => {
    const body = document.getElementById(id);
    const none = h("tr", { class: "empty" }, h("td", { class: "muted", colspan: String(columns) }, empty));
    body.replaceChildren(...(list.length ? list.map(row) : [none]));
  };
  fill("live", live, "no live match");
  fill("finished", done, "no finished match");
  // The viewer lists the newest `limit` matches only (and every live one):
  // say so rather than look complete.
  capped.hidden = matches.length < boot.limit;
  capped.textContent = capped.hidden ? ""
    : `Showing the newest ${count(boot.limit, "match", "matches")} and every live one; older finished ones are not listed.`;
  status.textContent = `updated ${new Date().toLocaleTimeString()}`;
}

function listen() {
  if (document.hidden) return pause();
  if (source) source.close();
  clearTimeout(retry);
  const game = filter.value;
  const params = new URLSearchParams(location.search);
  if (game) params.set("game", game); else params.delete("game");
  history.replaceState(null, "", params.toString() ? `?${params}` : location.pathname);
  source = new EventSource(`/api/matches/events${game ? `?game=${encodeURIComponent(game)}` : ""}`);
  source.onmessage = (event) => {
    retries = 0;
    document.body.dataset.stream = "open";
    show(JSON.parse(event.data));
  };
  // The stream ended (the viewer stopping) or was refused (the viewer away, a
  // proxy's 502): say that the list is no longer current, and try again. The
  // browser gives up for good on a refused stream, so the page retries itself.
  source.onerror = () => {
    source.close();
    const wait = RETRY_SECONDS[Math.min(retries, RETRY_SECONDS.length - 1)];
    retries += 1;
    document.body.dataset.stream = "retrying";
    status.textContent = `not updating: the viewer does not answer; trying again in ${wait} s`;
    retry = setTimeout(listen, wait * 1000);
  };
}

// A hidden tab lets go of its stream (a browser opens at most six connections
// to one viewer, and each live page holds one); shown again, it listens again
// and gets the whole list at once.
function pause() {
  if (source) source.close();
  source = null;
  clearTimeout(retry);
  document.body.dataset.stream = "paused";
  status.textContent = "paused while the tab is hidden";
}
document.addEventListener("visibilitychange", () => (document.hidden ? pause() : listen()));

filter.value = new URLSearchParams(location.search).get("game") || "";
filter.onchange = listen;
listen();
