// Stubborn Sheep in words: the turn and the piles, each area round the ring
// with its sheep, each fence with where its icons send the sheep, and each
// seat's points and hand, as the board draws them.
import { short } from "../../svg.js";
import { count, listed } from "../../words.js";
import { middleLines } from "../stubborn-sheep.js";
import { item, shownOwn } from "./common.js";

const colourOf = (c) => short(c, "STUBBORN_SHEEP_COLOUR_").toLowerCase();
// As the event log names a sheep: "red sheep 27".
const sheepWords = (sheep) => `${colourOf(sheep.colour)} sheep ${sheep.id}`;

function areaWords(area, obs, ctx) {
  const kind = area.owner >= 0 ? `${ctx.seatName(area.owner)}'s pen` : "meadow";
  const sheep = area.sheep || [];
  return `area ${area.index}, ${kind}: ${sheep.length ? listed(sheep.map(sheepWords)) : "no sheep"}`
    + (obs.wolf_area === area.index ? "; the wolf is here" : "");
}

function fenceWords(fence, obs, ctx) {
  const jumps = (fence.jumps || []).map((jump) => `${colourOf(jump.colour)} to area ${jump.to_area}`);
  return `fence ${fence.index} of ${ctx.seatName(fence.owner)}, between area ${fence.left_area} and area ${fence.right_area}`
    + `${fence.height > 1 ? `, height ${fence.height}` : ""}: ${jumps.length ? jumps.join(", ") : "no card"}`
    + (obs.activation && obs.activation.fence === fence.index ? " (being activated)" : "");
}

// A fence card in a hand: its four icons, top to bottom.
const handCard = (card) => `card ${card.id}: ${(card.icons || []).map((icon) =>
  `${colourOf(icon.colour)} ${short(icon.side, "STUBBORN_SHEEP_SIDE_").toLowerCase()}`).join(", ")}`;

export function describe(obs, ctx) {
  const lines = middleLines(obs);
  const seats = [];
  for (let seat = 0; seat < ctx.players; seat++) {
    const p = (obs.seats || [])[seat] || {};
    const scored = (p.scored || []).filter((pile) => (pile.sheep || []).length)
      .map((pile) => `${pile.sheep.length} ${colourOf(pile.colour)}`);
    const own = shownOwn(obs, ctx, seat);
    seats.push(item(`${ctx.seatName(seat)}: ${count(p.points ?? 0, "point")}, ${count(p.sets ?? 0, "set")}, `
      + `${count(p.hand_size ?? 0, "fence card")} in hand; scored ${listed(scored)}`,
    [own ? `fence cards in hand: ${listed((own.hand || []).map(handCard))}` : null]));
  }
  const areas = obs.areas || [];
  const fences = obs.fences || [];
  return [
    // The board's "seat 1: picks the sheep that jumps", the seat named as the page names it.
    `${lines.turn.replaceAll(" · ", ", ")}; ${lines.decides.replace(`seat ${lines.deciding}:`, `${ctx.seatName(lines.deciding)}:`)}`,
    lines.piles.replaceAll(" · ", ", "),
    item(`areas round the ring, clockwise from the top: ${areas.length}`, areas.map((area) => areaWords(area, obs, ctx))),
    item(`fences: ${fences.length}`, fences.map((fence) => fenceWords(fence, obs, ctx))),
    ...seats,
  ];
}
