// Sheep Showdown in words: the round, the meadow's cards row by row, the dogs
// and each seat's flock, as the board draws them.
import { count, listed } from "../../words.js";
import { cardName, dogToMove } from "../sheep-showdown.js";
import { item, shownOwn } from "./common.js";

// A cell as the log names it: its column's letter, its row's number ("d4").
const cellName = (row, col) => `${String.fromCharCode(97 + col)}${row + 1}`;

export function describe(obs, ctx) {
  const size = obs.size || 7;
  const grid = obs.grid || [];
  const dogs = (obs.dogs || []).filter((dog) => dog.cell);
  const dogsAt = (row, col) => dogs.filter((dog) => dog.cell.row === row && dog.cell.col === col)
    .map((dog) => ` with dog ${dog.dog}`);
  const rows = [];
  for (let row = 0; row < size; row++) {
    const cells = [];
    for (let col = 0; col < size; col++) {
      cells.push(`${cellName(row, col)} ${cardName(grid[row * size + col])}${dogsAt(row, col).join("")}`);
    }
    rows.push(`row ${row + 1}: ${cells.join("; ")}`);
  }
  const seats = [];
  for (let seat = 0; seat < ctx.players; seat++) {
    const own = shownOwn(obs, ctx, seat);
    seats.push(item(`${ctx.seatName(seat)}: total ${(obs.totals || [])[seat] ?? 0}, `
      + `flock of ${count((obs.flock_sizes || [])[seat] ?? 0, "card")}, `
      + `${(obs.players_in || [])[seat] ? "in the round" : "out of the round"}`,
    [own ? `own flock: ${listed((own.own_flock || []).map(cardName))}` : null]));
  }
  return [
    `round ${obs.round} of ${obs.rounds}, turn ${obs.turn}${obs.double_trouble ? ", Double Trouble" : ""}`
      + (ctx.result ? ", game over" : ""),
    item(`meadow of ${size} by ${size} cards, columns a to ${String.fromCharCode(96 + size)}, rows 1 to ${size}`, rows),
    item(`dogs: ${dogs.length}`, dogs.map((dog) => `dog ${dog.dog} of ${ctx.seatName(dog.owner)} on `
      + `${cellName(dog.cell.row, dog.cell.col)} (${cardName(grid[dog.cell.row * size + dog.cell.col])})`
      + (dog.out ? ", out of the round" : "") + (dogToMove(obs, dog) ? ", to move" : ""))),
    ...seats,
  ];
}
