// The matches list: live and finished, filtered by game, kept current by
// Server-Sent Events (the viewer sends the list again whenever it changes).
// Past its newest `limit`, older pages (`?page=TOKEN`) list every match a
// page at a time, as they were when the page was loaded.
import { fetchJson, retryWait, waitToRetry } from "./retry.js";
import { h, seatColour } from "./svg.js";
import { focusedLink, refocus, swapKeepingFocus } from "./focus.js";
import { count } from "./words.js";

const boot = JSON.parse(document.getElementById("boot").textContent);
const filter = document.getElementById("game-filter");
const capped = document.getElementById("capped");
const status = document.getElementById("list-status");
const pager = document.getElementById("pager");
const older = document.getElementById("older");
const newer = document.getElementById("newer");
const pageNumber = document.getElementById("page-number");
// The game server's token of this page; null on the first page, the live one
// (an empty one too: `/?page=` showed the newest matches as an older page,
// not kept current).
const pageToken = new URLSearchParams(location.search).get("page") || null;
let source = null;
let retries = 0; // failed streams in a row (an older page: failed loads)
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
  // An aborted match is over without scores: its result cell was left blank.
  const result = m.result && m.result.scores.length === 0 ? "no result"
    : m.result ? m.result.scores.map((score, seat) => h("span", { class: "score" },
      h("span", { class: "dot", style: `background:${seatColour(seat)}` }), ` ${score}`,
      // Rank 1 is a winner's unless disqualified: every seat disqualified,
      // all rank 1 and none won (each was starred).
      m.players > 1 && m.result.ranks[seat] === 1 && !(m.result.disqualified || []).includes(seat) ? " ★" : "",
      // A seat the game server disqualified, badged as its match page badges it.
      (m.result.disqualified || []).includes(seat) ? [" ", h("span", { class: "badge away",
        "data-disqualified": "", title: "its bot missed too many deadlines: its moves were played for it" },
      "disqualified")] : null)).concat(m.result.solo_title
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

function fill(matches, where = "") {
  const live = matches.filter((m) => m.status === "running" || m.status === "waiting");
  const done = matches.filter((m) => !(m.status === "running" || m.status === "waiting"));
  const table = document.querySelector("table.matches");
  // The match link a keyboard user stands on, kept, the same element, where
  // its row is still in the same rows (focus.js); found again elsewhere (a
  // live match's link in the finished ones once it ends): every update (each
  // move of a live match) replaced the rows, the focus fell to the page's
  // top, and Tab began again from the top bar.
  const focused = focusedLink(table);
  let kept = false;
  const put = (id, list, empty) => {
    const body = document.getElementById(id);
    const none = h("tr", { class: "empty" }, h("td", { class: "muted", colspan: String(columns) }, empty));
    const rows = document.createDocumentFragment();
    rows.append(...(list.length ? list.map(row) : [none]));
    if (swapKeepingFocus(body, rows, focused)) kept = true;
  };
  put("live", live, `no live match${where}`);
  put("finished", done, `no finished match${where}`);
  // Its row moved (its match ended), or it is gone from the list (filtered
  // out, or past its newest): found again, or the table itself.
  if (!kept) refocus(table, focused);
}

function show(matches) {
  if (matches.error) {
    status.textContent = matches.error;
    return;
  }
  fill(matches);
  // The live list holds the newest `limit` matches only (and every live one):
  // say so, and lead on to the older ones.
  capped.hidden = matches.length < boot.limit;
  capped.textContent = capped.hidden ? ""
    : `Showing the newest ${count(boot.limit, "match", "matches")} and every live one; older ones are on the next pages.`;
  pager.hidden = capped.hidden;
  newer.hidden = true;
  older.hidden = false;
  pageNumber.textContent = "page 1";
  // The time whole on one line: a 320 px phone put its "AM" on a line alone.
  status.textContent = `updated ${new Date().toLocaleTimeString().replace(/\s/g, "\u00a0")}`;
}

// The server's tokens lead to older pages only: each page's newer neighbour
// and number are kept in the tab's session storage on the way there.
function remembered(token) {
  try {
    return JSON.parse(sessionStorage.getItem(`sheepfold.page.${token}`));
  } catch {
    return null;
  }
}

function remember(token, page) {
  try {
    sessionStorage.setItem(`sheepfold.page.${token}`, JSON.stringify(page));
  } catch {
    // Storage refused (a private window's quota): the page has no "newer" link then.
  }
}

function pageUrl(game, token) {
  const params = new URLSearchParams();
  if (game) params.set("game", game);
  if (token) params.set("page", token);
  return params.toString() ? `/?${params}` : "/";
}

// One page of matches, or why not (see fetchJson).
function fetchPage(token) {
  const params = new URLSearchParams();
  if (filter.value) params.set("game", filter.value);
  if (token) params.set("page", token);
  return fetchJson(`/api/matches/page?${params}`);
}

// Older: to the page after this one. The first page learns its token when asked.
let nextToken = null;
older.onclick = async (event) => {
  event.preventDefault();
  let next = nextToken;
  if (pageToken === null) {
    const first = await fetchPage("");
    if (first.error) {
      status.textContent = `${first.error}; try again`;
      return;
    }
    next = first.next_page;
  }
  if (!next) return;
  const here = pageToken === null ? { number: 1 } : remembered(pageToken);
  remember(next, { newer: pageToken || "", number: here ? here.number + 1 : null });
  location.href = pageUrl(filter.value, next);
};

async function showPage() {
  const here = remembered(pageToken);
  newer.hidden = false;
  newer.textContent = here ? "← newer" : "← newest";
  newer.href = pageUrl(filter.value, here ? here.newer : "");
  pageNumber.textContent = here && here.number ? `page ${here.number}` : "an older page";
  pager.hidden = false;
  older.hidden = true;
  document.body.dataset.page = "older";
  let page = await fetchPage(pageToken);
  // The viewer or the game server away for a moment: tried again, less and
  // less often, until the page loads (it once said so and never asked again).
  while (page.error && page.again) {
    const wait = retryWait(retries);
    retries += 1;
    const error = page.error;
    document.body.dataset.stream = "retrying";
    await waitToRetry(wait, (when) => {
      status.textContent = `could not load this page: ${error}; trying again ${when}`;
    });
    status.textContent = `could not load this page: ${page.error}; trying again now`;
    page = await fetchPage(pageToken);
  }
  if (page.error) {
    status.textContent = page.error;
    document.body.dataset.stream = "failed";
    return;
  }
  fill(page.matches, " on this page");
  nextToken = page.next_page;
  older.hidden = !nextToken;
  if (nextToken) older.href = pageUrl(filter.value, nextToken);
  status.textContent = `${pageNumber.textContent} of every match, as of ${new Date().toLocaleTimeString()}; the first page is kept current`;
  document.body.dataset.stream = "loaded";
}

function listen() {
  if (document.hidden) return pause();
  if (source) source.close();
  clearTimeout(retry);
  const game = filter.value;
  const params = new URLSearchParams(location.search);
  if (game) params.set("game", game); else params.delete("game");
  params.delete("page");
  history.replaceState(null, "", params.toString() ? `?${params}` : location.pathname);
  source = new EventSource(`/api/matches/events${game ? `?game=${encodeURIComponent(game)}` : ""}`);
  source.onmessage = (event) => {
    retries = 0;
    const news = document.getElementById("list-news");
    if (news.textContent) news.textContent = ""; // a later loss is told again
    document.body.dataset.stream = "open";
    show(JSON.parse(event.data));
  };
  // The stream ended (the viewer stopping) or was refused (the viewer away, a
  // proxy's 502): say that the list is no longer current, and try again. The
  // browser gives up for good on a refused stream, so the page retries itself.
  source.onerror = () => {
    source.close();
    const wait = retryWait(retries);
    retries += 1;
    document.body.dataset.stream = "retrying";
    status.textContent = `not updating: the viewer does not answer; trying again in ${wait} s`;
    // Told a screen reader once, politely, as the list stops updating: the
    // status beside the filter is no live region, since it says "updated"
    // at every update, several a second while a match is live.
    if (retries === 1) document.getElementById("list-news").textContent = "not updating: the viewer does not answer";
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

filter.value = new URLSearchParams(location.search).get("game") || "";
if (pageToken === null) {
  document.addEventListener("visibilitychange", () => (document.hidden ? pause() : listen()));
  filter.onchange = listen;
  listen();
} else {
  // A token is made for one game filter: another filter starts from its first page.
  filter.onchange = () => (location.href = pageUrl(filter.value, ""));
  showPage();
}
