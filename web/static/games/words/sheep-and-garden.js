// Sheep & Garden in words: the landscape's tiles row by row with what is on
// them, the tile laid last (the board outlines it), the display, the deck and
// each seat's objective cards, as the board draws them.
import { count, listed } from "../../words.js";
import { reveal } from "../sheep-and-garden.js";
import { item } from "./common.js";

const OBJECTS = [["sheep", "sheep", "sheep"], ["cows", "cow", "cows"], ["humans", "human", "humans"],
  ["trees", "tree", "trees"], ["houses", "house", "houses"], ["fish", "fish", "fish"]];

// "city with 1 human and 1 house; grass with 2 cows; a road": its areas with
// something on them, and its roads.
function faceWords(face) {
  if (!face) return "";
  const areas = (face.areas || []).map((area) => {
    const on = OBJECTS.filter(([key]) => area[key]).map(([key, one, many]) => count(area[key], one, many));
    return on.length ? `${area.terrain} with ${listed(on)}` : null;
  }).filter(Boolean);
  const roads = (face.roads || []).length;
  return [...areas, roads ? count(roads, "road") : null].filter(Boolean).join("; ");
}

// As the log names a tile: "tile 17 (garden by the lake)".
const tileWords = (face, tile) => `tile ${tile}${face ? ` (${face.name})` : ""}`;

function objectiveWords(o) {
  if (!o.card) return "face down";
  return `${o.name}${o.face_up ? "" : " (hidden)"}: ${o.text}`;
}

export function describe(obs, ctx) {
  const faces = Object.fromEntries((obs.faces || []).map((f) => [f.tile, f]));
  const placed = obs.placed || [];
  const last = placed.length ? placed[placed.length - 1] : null;
  // Rows from the top (y grows downwards on this board), left to right.
  const ys = [...new Set(placed.map((p) => p.y || 0))].sort((a, b) => a - b);
  const rows = ys.map((y) => item(`row y ${y}`, placed.filter((p) => (p.y || 0) === y)
    .sort((a, b) => (a.x || 0) - (b.x || 0))
    .map((p) => {
      const on = faceWords(faces[p.tile]);
      return `(${p.x || 0},${y}) ${tileWords(faces[p.tile], p.tile)} turned ${90 * (p.rotation || 0)}`
        + (p === last ? ", laid last" : "") + (on ? `: ${on}` : "");
    })));
  const shown = (obs.objectives || []).map((o) => reveal(o, ctx));
  const holders = [...Array(ctx.players).keys()].map((seat) => {
    const mine = shown.filter((o) => (o.holders || []).includes(seat));
    return item(`${ctx.seatName(seat)}: ${mine.filter((o) => o.face_up).length} of ${count(mine.length, "objective")} shown`,
      mine.map(objectiveWords));
  });
  const enemy = shown.filter((o) => o.enemy);
  const display = obs.display || [];
  return [
    item(`landscape: ${count(placed.length, "tile")} laid`
      + (last ? `, the last ${tileWords(faces[last.tile], last.tile)} at (${last.x || 0},${last.y || 0})` : "")
      + (placed.length ? "; a place (x,y) is x to the right and y downwards, a turn in degrees clockwise" : ""), rows),
    item(`display: ${display.length ? listed(display.map((tile) => tileWords(faces[tile], tile))) : "empty"}; deck ${obs.deck_size ?? 0}`
      + (obs.finished ? `; over: ${obs.end_reason}` : "")),
    ...holders,
    enemy.length ? item("the enemy's objectives", enemy.map(objectiveWords)) : null,
  ];
}
