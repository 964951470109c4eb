// The board in words, shared by each game's describer (words/<game>.js): a
// describer gives a list of items, each a line of words or a line with a
// list of its own under it, and `list` makes the nested lists under the board.
import { h } from "../../svg.js";

// One line of the account, and the lines under it (none: a line alone).
export function item(words, under = []) {
  return { words, under: under.filter((line) => line !== null && line !== undefined) };
}

export function list(items) {
  return h("ul", {}, items.filter(Boolean).map((line) => typeof line === "string"
    ? h("li", {}, line)
    : h("li", {}, line.words, line.under.length ? list(line.under) : null)));
}

// The observation of `seat` itself where the view shown draws it (its own
// hand, its hidden cards): the seat's own view, or every seat's in "all
// cards"; null where the view shows the public alone.
export function shownOwn(obs, ctx, seat) {
  if (ctx.view === "all") return (ctx.seats || [])[seat] || null;
  return ctx.view === `seat-${seat}` ? obs : null;
}
