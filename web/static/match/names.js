// How the match page names seats and their bots, and quotes what a link or a
// database gave it: as text, its control and bidi characters as escapes.
import { h, seatColour } from "../svg.js";
import { $, boot } from "./model.js";

// A tournament's game names the bot in each seat (boot.bots); any other match
// has seats alone. A name is shown as text, its control and bidi characters
// as escapes (see `visible`), so it neither writes markup nor turns words round.
function botName(seat) {
  const name = Array.isArray(boot.bots) ? boot.bots[seat] : null;
  return typeof name === "string" && name ? visible(name) : null;
}

// A name cut at 40 characters, for the places that name seats beside other
// words (the scores, the turn, a seat's view); the line above the board has it
// whole up to 100, the most a tournament's config allows: a longer one (from a
// database edited by hand) is cut there, its whole in its title. 10,000 letters
// once pushed the board 5,000 px down a phone's page.
const BESIDE = 40;
const WHOLE = 100;

function cut(name, most = BESIDE) {
  const head = [...name].slice(0, most).join("");
  return head.length < name.length ? `${head}…` : head;
}

// "seat 1", or "seat 1 (greedy)" for a tournament's game.
export function seatText(seat, word = "seat") {
  const name = botName(seat);
  return name === null ? `${word} ${seat}` : `${word} ${seat} (${cut(name)})`;
}

// A name breaks between its words (after a space or a hyphen), as the report
// breaks it; one with a run of letters too long for a phone's scores column
// ("long-xxxx...") breaks anywhere. Every name broke anywhere once, and the
// scores' narrow name column drew "gree" over "dy" even on a laptop.
const LONG_WORD = /[^\s-]{13,}/;

export function botNode(seat, whole = false) {
  const name = botName(seat);
  if (name === null) return null;
  const shown = cut(name, whole ? WHOLE : BESIDE);
  const title = whole && shown === name ? null : name;
  return h("bdi", { class: LONG_WORD.test(shown) ? "bot long-word" : "bot", title }, shown);
}

// Above the board: the tournament the game is of, and each seat's bot.
export function drawSeatBots() {
  const line = $("seat-bots");
  if (!Array.isArray(boot.bots) || !boot.tournament) return;
  const seats = [];
  for (let seat = 0; seat < boot.players; seat++) {
    if (seats.length) seats.push(", ");
    seats.push(h("span", { class: "seat-bot", "data-seat": seat },
      h("span", { class: "dot", style: `background:${seatColour(seat)}` }),
      ` seat ${seat} `, botNode(seat, true) || "(no bot stored)"));
  }
  const tournament = visible(boot.tournament.name);
  const shown = cut(tournament, WHOLE);
  line.replaceChildren("Game of the tournament ",
    h("a", { href: boot.tournament.url, title: shown === tournament ? null : tournament }, shown),
    ": ", ...seats);
  line.hidden = false;
}

// What a link asked for, as the notice quotes it: its first 40 characters (as
// the viewer quotes `?move=`), and a control character (U+202E turns the
// notice's words around) as its escape, so a link cannot write the page's text.
export function quoted(asked) {
  const head = [...asked].slice(0, 40).join("");
  const shown = visible(head);
  return head.length < asked.length ? `${shown}…` : shown;
}

// `text` with its control and bidi characters written as escapes (tab,
// newline and return too: in a name none is a space); the report and the
// tournaments list escape the same set (tournament/html_text.py).
function visible(text) {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
