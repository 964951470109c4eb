// Sheep 'n' Sheep in words: the market's sets, the piles, and each seat's
// hand and pasture row by row, as the board draws them.
import { short } from "../../svg.js";
import { PLACING } from "../sheep-n-sheep.js";
import { count, listed } from "../../words.js";
import { item, shownOwn } from "./common.js";

// As the event log names a card ("blue 1 with bell (#61)"), and where a seat
// chooses it (the market, a hand) with what it scores ("(#61; a group of
// exactly 3 scores 6)").
function cardWords(c, valued = false) {
  const icon = short(c.icon, "SHEEP_N_SHEEP_ICON_").toLowerCase();
  const mark = icon === "none" || icon === "unspecified" ? "" : ` with ${icon.replace("_", "-")}`;
  const value = valued ? `; a group of exactly ${c.condition} scores ${c.vp}` : "";
  return `${short(c.colour, "SHEEP_N_SHEEP_COLOUR_").toLowerCase()} ${c.number}${mark} (#${c.id}${value})`;
}
const valued = (c) => cardWords(c, true);

// A pasture's cards in rows from the top (y grows upwards), left to right.
function rows(cards, before) {
  const ys = [...new Set(cards.map((p) => p.cell.y || 0))].sort((a, b) => b - a);
  return ys.map((y) => {
    const row = cards.filter((p) => (p.cell.y || 0) === y).sort((a, b) => (a.cell.x || 0) - (b.cell.x || 0));
    return `row y ${y}: ${row.map((p) => `(${p.cell.x || 0},${y}) ${cardWords(p.card)}`
      + (before && !before.has(p.card.id) ? " (new this move)" : "")).join(", ")}`;
  });
}

export function describe(obs, ctx) {
  const before = ctx.previous
    ? new Set((ctx.previous.pastures || []).flatMap((q) => (q.cards || []).map((c) => c.card.id)))
    : null;
  const pastures = obs.pastures || [];
  const seats = [];
  for (let seat = 0; seat < ctx.players; seat++) {
    const cards = (pastures.find((p) => (p.seat ?? 0) === seat) || { cards: [] }).cards || [];
    const own = shownOwn(obs, ctx, seat);
    const hand = own ? `hand: ${listed((own.hand || []).map(valued))}` : null;
    seats.push(item(`${ctx.seatName(seat)}${obs.to_move === seat ? " (to move)" : ""}: `
      + `${count((obs.hand_sizes || [])[seat] ?? 0, "card")} in hand, ${count(cards.length, "card")} in the pasture`,
    [hand, ...rows(cards, before)]));
  }
  const phase = obs.placement ? short(obs.placement.phase, "SHEEP_N_SHEEP_PHASE_") : null;
  const placing = phase
    ? `${ctx.seatName(obs.to_move)} is ${PLACING[phase] || phase.toLowerCase().replaceAll("_", " ")}: ${obs.placement.placed} placed`
    : null;
  return [
    item(`market: ${count((obs.market || []).length, "set")}`,
      (obs.market || []).map((set) => `set ${set.index}: ${listed((set.cards || []).map(valued))}`)),
    `deck ${obs.deck_size ?? 0}, stock ${obs.stock_size ?? 0}, discard ${(obs.discard || []).length}`
      + (obs.end_triggered ? `, the end is triggered: last turn ${obs.last_turn}` : ""),
    placing,
    "in each pasture a place (x,y) is x to the right and y upwards, its rows from the top",
    ...seats,
  ];
}
