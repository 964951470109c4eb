// The tournament page: until the tournament is finished, ask for the report
// again (every few seconds while it runs, less often while it is stopped, not
// while its tab is hidden) and swap it in when it changed (an unchanged one is
// a 304 for the ETag the page holds); the state above it (running, stopped
// since ..., finished) follows the viewer's answer each time. Each crosstable cell links to its pair's
// games (#bot=A&bot=B), and each bot in the standings to its own (#bot=A),
// which the games list then shows alone.
import { h } from "./svg.js";
import { focusedLink, refocus, swapKeepingFocus } from "./focus.js";
import { count } from "./words.js";

const boot = JSON.parse(document.getElementById("boot").textContent);
const report = document.getElementById("report");
const stateLine = document.querySelector(".tournament-state");
let etag = boot.etag || null;
let state = boot.state;
// Beside the badge while the report cannot be asked for: the viewer away (or a
// proxy's error in its place). The page once said nothing, its badge reading
// "running" over a report no longer current.
const away = h("span", { id: "report-status", class: "muted report-status", hidden: "" });

// The state as the viewer words it ("stopped since 2026-12-05 05:47 UTC"): the
// word in its badge, then the rest, as the page was first drawn.
function showState(text) {
  const [word, ...rest] = text.split(" ");
  state = word;
  report.dataset.state = word;
  const since = rest.length ? [" ", h("span", { class: "since" }, rest.join(" "))] : [];
  stateLine.replaceChildren(h("span", { class: "run-state", "data-state": word },
    h("span", { class: `badge ${word}` }, word), since), " ", away);
}

// `why` the report is not updating (null: it is), and when it is asked for again.
function updating(why, wait) {
  // Said once by the polite news line as it stops updating, not at each try.
  if (why !== null && away.hidden && news) news.textContent = `not updating: ${why}`;
  away.hidden = why === null;
  away.textContent = why === null ? "" : `not updating: ${why}; trying again in ${wait} s`;
  if (why !== null) report.dataset.failed = String(Number(report.dataset.failed || 0) + 1);
}

// What an error page says (its first paragraph, as text), or its status alone.
async function refusal(response) {
  let said = null;
  try {
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    said = page.querySelector("p"); // the viewer's error page: its message
  } catch {
    // The answer broke off: its status says enough.
  }
  return `the viewer answered ${response.status}${said ? ` (${said.textContent.slice(0, 200)})` : ""}`;
}

// Seconds between asks: the report changes often while its tournament runs.
// A test may set its own for a running one (window.sheepfoldPollSeconds)
// before the page loads, as retry.js's waits.
const RUNNING_POLL_SECONDS = window.sheepfoldPollSeconds || 3;
function pollSeconds() {
  return state === "running" ? RUNNING_POLL_SECONDS : 15;
}

// The next ask's timer (null: none waiting), and whether an ask is under way.
let nextAsk = null;
let asking = false;

// Asks again in a while: not while the tab is hidden (a tab left open in the
// background asked every 3 s for as long as it ran), nor once it is finished.
function askLater() {
  clearTimeout(nextAsk);
  nextAsk = null;
  if (state !== "finished" && !document.hidden) nextAsk = setTimeout(refresh, pollSeconds() * 1000);
}

async function refresh() {
  clearTimeout(nextAsk);
  nextAsk = null;
  asking = true;
  let response = null;
  let text = null;
  try {
    response = await fetch(boot.fragment_url, {
      cache: "no-store",
      headers: etag ? { "If-None-Match": etag } : {},
    });
    // Read here, in the guard: a body broken off (the viewer stopping while
    // it answered) failed outside it, and the page never asked again.
    if (response.ok) text = await response.text();
  } catch {
    response = null; // the viewer is away for a moment: try again later
  }
  if (!response) updating("the viewer does not answer", pollSeconds());
  else if (!(response.ok || response.status === 304)) updating(await refusal(response), pollSeconds());
  else {
    updating(null);
    if (response.status !== 304) {
      const focused = focusedLink(report);
      const fresh = document.createElement("template");
      fresh.innerHTML = text; // the viewer's own escaped HTML
      linkPairs(fresh.content);
      // The focused link kept where its row is still there; else the report
      // swapped whole and the link found again (once the pair's line is
      // drawn: its "every game"), or the report focused.
      const kept = swapKeepingFocus(report, fresh.content, focused);
      etag = response.headers.get("ETag");
      report.dataset.refreshed = String(Number(report.dataset.refreshed || 0) + 1);
      showPair(false);
      if (!kept) refocus(report, focused);
      tellNews();
    }
    report.dataset.polled = String(Number(report.dataset.polled || 0) + 1);
    const stateText = response.headers.get("X-Tournament-State");
    if (stateText) showState(stateText);
  }
  asking = false;
  askLater();
}

// What changed, in a line a screen reader reads politely (the games played,
// the games playing now), written only when it differs: the report itself is
// not a live region, or every swap would be read out whole.
const news = document.getElementById("report-news");
let told = newsText();
function newsText() {
  const played = report.querySelector("[data-games-played]");
  const playing = report.querySelectorAll("#now-playing tr[data-match-id]").length;
  return [played ? count(Number(played.dataset.gamesPlayed), "game") + " played" : "",
    playing ? `${count(playing, "game")} playing now` : "no game playing now"].filter(Boolean).join(", ");
}
function tellNews() {
  const text = newsText();
  if (text === told || !news) return;
  told = text;
  news.textContent = text;
}

// Hidden: no more asks. Shown again: asks at once (the report may have
// changed many times meanwhile), then every few seconds as before.
document.addEventListener("visibilitychange", () => {
  if (document.hidden) askLater();
  else if (state !== "finished" && !asking) refresh();
});

// ------------------------------------------------------------ a pair's games

function gamesHref(...bots) {
  const params = new URLSearchParams();
  for (const bot of bots) params.append("bot", bot);
  return `#${params}`;
}

// Each score of the crosstable becomes a link to the games it was made of, and
// each bot's name in the standings to its games (a cell once gave "75.0", and
// a name "8 games", with no way to them but reading the whole list).
function linkPairs(root) {
  for (const cell of root.querySelectorAll("table.heat td[data-row][data-col]")) {
    const { row, col } = cell.dataset;
    cell.replaceChildren(h("a", { href: gamesHref(row, col), title: `the games of ${row} and ${col}` },
      cell.textContent));
  }
  // The game key, left out of a phone's table (style.css), on its link.
  for (const row of root.querySelectorAll("table.games tr[data-match-id]")) {
    const link = row.querySelector("a");
    if (link && row.cells.length) link.title = `game ${row.cells[0].textContent}`;
  }
  for (const row of root.querySelectorAll("table.standings tr[data-bot]")) {
    const cell = row.querySelector("td.bot");
    const { bot } = row.dataset;
    // Cut with "..." as the report's name was (class "name"); the whole in its title.
    if (cell) cell.replaceChildren(h("a", { class: "name", href: gamesHref(bot), title: `the games of ${bot}` }, cell.textContent));
  }
}

// The games list shows the games the address's bots all sat in (#bot=A: A's
// games; #bot=A&bot=B: the pair's; #bot=A&bot=B&bot=C: those three's, in a
// game of three seats or more) alone, under a line saying whose games they
// are, with a link back to every game. Three bots or more once showed every
// game under no line, as if the address named none.
function showPair(scroll) {
  const bots = [...new Set(new URLSearchParams(location.hash.slice(1)).getAll("bot"))].filter(Boolean);
  const table = report.querySelector("table.games");
  report.querySelector("#pair-games")?.remove();
  if (!table) return;
  const pair = bots.length ? bots : null;
  let shown = 0;
  for (const row of table.querySelectorAll("tr[data-match-id]")) {
    const seated = JSON.parse(row.dataset.bots || "[]"); // the report's own json.dumps
    row.hidden = pair !== null && !pair.every((bot) => seated.includes(bot));
    if (!row.hidden) shown += 1;
  }
  // The heading counts what is shown: "Games (3 of 24)" under a filter.
  const heading = report.querySelector("h3.games-heading");
  if (heading) {
    const all = heading.dataset.games;
    heading.textContent = pair === null ? `Games (${all})` : `Games (${shown} of ${all})`;
  }
  if (pair === null) return;
  // "A", "A and B", "A, B and C".
  const names = pair.flatMap((bot, i) => [i === 0 ? null : i === pair.length - 1 ? " and " : ", ",
    h("bdi", { class: "bot" }, bot)]);
  // A name the standings do not hold (a link's typo, a bot renamed since):
  // said so, where "Games of nobody: 0 games" read as a bot that played none.
  const field = new Set([...report.querySelectorAll("tr[data-bot]")].map((row) => row.dataset.bot));
  const strangers = field.size ? pair.filter((bot) => !field.has(bot)) : [];
  const unknown = strangers.length ? [" (", ...strangers.flatMap((bot, i) =>
    [i === 0 ? null : i === strangers.length - 1 ? " and " : ", ", h("bdi", { class: "bot" }, bot)]),
  strangers.length === 1 ? " is not a bot of this tournament)" : " are not bots of this tournament)"] : [];
  const note = h("p", { id: "pair-games", class: "pair-games", "data-pair": pair.join("\n") },
    "Games of ", names, `: ${count(shown, "game")}`, ...unknown, " · ", h("a", { href: "#" }, "every game"));
  table.before(note);
  if (scroll) note.scrollIntoView({ block: "start" });
}

window.addEventListener("hashchange", () => showPair(true));
linkPairs(report);
showPair(true);
stateLine.append(" ", away);
askLater();
