// "The board in words" under the board: the position the page shows, told by
// the game's describer (games/words/<game>.js) from the observation the
// drawing drew. Built only while its details are open (a live match redraws
// several times a second, and closed details cost nothing) and emptied when
// they close; never read out by itself (the polite status line reads moves).
import { h } from "../svg.js";
import { list } from "../games/words/common.js";
import { $, boot, model } from "./model.js";

const details = $("board-words");
const words = $("board-words-list");
let shown = null; // the observation and drawing context last drawn
let describer = null;

export function tellBoard(observation, ctx) {
  shown = observation ? { observation, ctx } : null;
  if (details.open) fill();
}

details.addEventListener("toggle", () => {
  if (details.open) fill();
  else words.replaceChildren();
});

async function fill() {
  describer ??= await import(`../games/words/${boot.game}.js`);
  if (!details.open) return;
  if (!shown) {
    words.replaceChildren(h("p", { class: "muted" }, "no move to show"));
    return;
  }
  // The view as the view list names it ("what seat 0 saw"); a live page
  // shows the spectators' alone.
  const view = model.live ? null : $("view").selectedOptions[0];
  const seen = h("p", { class: "muted" }, `view: ${view ? view.textContent : "spectator (public)"}`);
  words.replaceChildren(seen, list(describer.describe(shown.observation, shown.ctx)));
}
