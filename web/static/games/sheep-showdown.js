// Sheep Showdown: the meadow grid of cards, the dogs, and each flock.
import { blend, h, inkOn, legible, reset, s, scaleIn, seatColour, short, text, widthOf } from "../svg.js";

const CELL = 68;
const PAD = 28;
const CARD = "SHEEP_SHOWDOWN_CARD_";
// A dog stands in its card's top right corner, as large as the room above
// the card's name leaves it (the name is larger where the board is drawn
// small: a phone, six seats), and no larger than DOG_R.
const DOG_R = 16;

// A dog's radius and its centre in its cell, with the card's name `name` units high.
function dogPlace(name) {
  const ring = 4 + 1.5; // the dashed ring round the dog to move, and its line
  // The ears reach 1.05 r above the centre; the ring r + 5.5 below it.
  const r = Math.max(10, Math.min(DOG_R, (CELL - 8 - name - 2 - 5 - ring) / 2.05));
  return { r, x: CELL - r - ring, y: 5 + 1.05 * r };
}

const EMPTY_FILL = "#8fbf6a";

const LOOK = {
  EMPTY: { fill: "none", label: "" },
  SHEEP_1: { fill: "#fbf7ea", label: "1", sheep: 1 },
  SHEEP_2: { fill: "#fbf7ea", label: "2", sheep: 2 },
  SHEEP_3: { fill: "#fbf7ea", label: "3", sheep: 3 },
  SHEEP_5: { fill: "#fff1c9", label: "5", sheep: 5 },
  SHEPHERD: { fill: "#c99a5b", label: "shepherd", glyph: "⚑" },
  ROCKET: { fill: "#e4794f", label: "rocket", glyph: "➶" },
  BLOCKING: { fill: "#9aa7b3", label: "blocker", glyph: "▣" },
  SLIDING: { fill: "#8fc3e8", label: "slide", glyph: "≋" },
  BOMB: { fill: "#4a4a4a", label: "bomb", glyph: "✸", ink: "#ffd36b" },
  WOLF: { fill: "#6d6a75", label: "wolf", glyph: "W", ink: "#fff" },
  BLOCKED: { fill: "#cdd3d9", label: "blocked", glyph: "✕" },
};

// A card's name in words, as the board writes it on the card ("sheep 2" for
// the card marked "2"): the board in words (words/sheep-showdown.js) tells it.
export function cardName(card) {
  const kind = short(card, CARD);
  if (kind === "EMPTY") return "empty";
  const look = LOOK[kind];
  if (!look) return kind.toLowerCase().replaceAll("_", " ");
  return look.sheep ? `sheep ${look.label}` : look.label;
}

// Whether `dog` is the one to move (the board rings it; the words say so).
export function dogToMove(obs, dog) {
  return obs.to_move === dog.owner && (obs.decision_dog === undefined || obs.decision_dog === dog.dog);
}

// `f(size)`: a font size legible at the scale the board is drawn; `dogged`:
// a dog stands on the card (in its top right corner).
function card(kind, x, y, size, f, dogged = false) {
  const look = LOOK[kind] || { fill: "#eee", label: kind };
  const g = s("g", { class: "card" });
  if (kind === "EMPTY") {
    g.append(s("rect", { x: x + 4, y: y + 4, width: size - 8, height: size - 8, rx: 8,
      fill: EMPTY_FILL, stroke: "#7aa85a", "stroke-dasharray": "4 4" }));
    return g;
  }
  g.append(s("rect", { x: x + 4, y: y + 4, width: size - 8, height: size - 8, rx: 8,
    fill: look.fill, stroke: "#5b5443", "stroke-width": 1.5 }));
  if (look.sheep) {
    // A little sheep: fluffy body, dark head, and the value.
    const cx = x + size / 2, cy = y + size / 2 + 6;
    for (const [dx, dy] of [[-9, 0], [0, -5], [9, 0], [-4, 5], [5, 5]]) {
      g.append(s("circle", { cx: cx + dx * 0.9, cy: cy + dy * 0.9, r: 8, fill: "#ffffff", stroke: "#b9b09a" }));
    }
    g.append(s("ellipse", { cx: cx + 15, cy: cy - 4, rx: 5, ry: 4, fill: "#3b3a36" }));
    // Its value at the least text size too, and inside the card's corner.
    const value = f(16);
    g.append(text(x + 15, y + Math.max(17, 7 + value / 2), look.label, { class: "card-value", "font-size": value, "font-weight": 700, fill: "#5b4a1f" }));
  } else {
    // Beside a dog rather than under it, where one stands on the card.
    g.append(text(x + (dogged ? 18 : size / 2), y + size / 2 - 5, look.glyph, { "font-size": 24, fill: look.ink || "#2d2a22" }));
    // The name along the card's foot, squeezed to the card's width where the
    // size a phone needs makes it wider ("shepherd").
    const name = f(10), room = size - 14;
    g.append(text(x + size / 2, y + size - 8 - name / 2, look.label, {
      class: "card-name", "font-size": name, fill: look.ink || "#2d2a22",
      ...(widthOf(look.label, name) > room ? { textLength: room, lengthAdjust: "spacingAndGlyphs" } : {}),
    }));
  }
  return g;
}

export function draw(svg, obs, ctx) {
  const size = obs.size || 7;
  const width = PAD * 2 + size * CELL;
  const height = PAD * 2 + size * CELL + 24;
  const f = (points) => legible(points, scaleIn(ctx.room, width, height));
  reset(svg, width, height);
  svg.append(s("rect", { x: 0, y: 0, width, height, fill: "#a9d18e", rx: 14 }));
  // The end is said in this line, not over the grid: the final position stays in sight.
  svg.append(text(width / 2, 14, `round ${obs.round} of ${obs.rounds} · turn ${obs.turn}` +
    (obs.double_trouble ? " · Double Trouble" : "") + (ctx.result ? " · game over" : ""),
  { "font-size": f(13), fill: "#2c4a1e", "font-weight": ctx.result ? 700 : null, class: "board-title" }));
  const grid = obs.grid || [];
  const dogged = new Set((obs.dogs || []).filter((dog) => dog.cell).map((dog) => `${dog.cell.row},${dog.cell.col}`));
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      const kind = short(grid[row * size + col], CARD);
      const x = PAD + col * CELL, y = PAD + row * CELL;
      const cell = s("g", { class: "cell", "data-row": row, "data-col": col, "data-card": kind });
      cell.append(card(kind, x, y, CELL, f, dogged.has(`${row},${col}`)));
      svg.append(cell);
    }
  }
  for (let i = 0; i < size; i++) {
    svg.append(text(PAD + i * CELL + CELL / 2, PAD + size * CELL + 12, String.fromCharCode(97 + i), { class: "axis", "font-size": f(11), fill: "#2c4a1e" }));
    svg.append(text(PAD / 2, PAD + i * CELL + CELL / 2, String(i + 1), { class: "axis", "font-size": f(11), fill: "#2c4a1e" }));
  }
  // A dog stands in its card's top right corner, a little smaller than the
  // card's middle: there it covers neither the card's name along its foot
  // ("shepherd") nor a sheep's value in its top left corner. Drawn over the
  // middle it hid most of the name, on a laptop and on a phone. Dogs sharing
  // a cell (one out of the round, one in) are fanned out leftwards.
  const seen = {};
  const place = dogPlace(f(10));
  for (const dog of obs.dogs || []) {
    if (!dog.cell) continue;
    const key = `${dog.cell.row},${dog.cell.col}`;
    const k = (seen[key] = (seen[key] || 0) + 1) - 1;
    const r = place.r, e = r / 20; // the ears and the cross as drawn at r 20
    const cx = PAD + dog.cell.col * CELL + place.x - 1.6 * r * k;
    const cy = PAD + dog.cell.row * CELL + place.y + 0.8 * r * k;
    const moving = dogToMove(obs, dog);
    // A dog out of the round is faded and crossed, its number over the cross
    // and at full strength: a "✕" over the number of a dog at 45% opacity
    // left the end of a six-seat match six faded dogs no one could tell apart.
    const faded = dog.out ? 0.45 : 1;
    const body = s("g", { opacity: faded },
      s("circle", { cx, cy, r, fill: seatColour(dog.owner), stroke: "#1d1d1d", "stroke-width": 2 }),
      s("ellipse", { cx: cx - 13 * e, cy: cy - 12 * e, rx: 6 * e, ry: 9 * e, fill: seatColour(dog.owner), stroke: "#1d1d1d", "stroke-width": 1.5 }),
      s("ellipse", { cx: cx + 13 * e, cy: cy - 12 * e, rx: 6 * e, ry: 9 * e, fill: seatColour(dog.owner), stroke: "#1d1d1d", "stroke-width": 1.5 }));
    const c = 15 * e;
    const cross = dog.out ? s("path", { class: "dog-cross", d: `M ${cx - c} ${cy - c} L ${cx + c} ${cy + c} M ${cx + c} ${cy - c} L ${cx - c} ${cy + c}`, stroke: "#111", "stroke-width": 3, "stroke-linecap": "round", opacity: 0.7 }) : null;
    // The number in black or white, whichever reads better on the dog as
    // drawn (a faded one over its card), outlined in the other.
    const kind = short(grid[dog.cell.row * size + dog.cell.col], CARD);
    const ink = inkOn(blend(seatColour(dog.owner), kind === "EMPTY" ? EMPTY_FILL : (LOOK[kind] || { fill: "#eee" }).fill, faded));
    svg.append(s("g", {
      class: "dog", "data-dog": dog.dog, "data-owner": dog.owner, "data-row": dog.cell.row,
      "data-col": dog.cell.col, "data-out": dog.out ? "true" : "false",
    },
    moving ? s("circle", { cx, cy, r: r + 4, fill: "none", stroke: "#fff", "stroke-width": 3, "stroke-dasharray": "5 3" }) : null,
    body, cross,
    text(cx, cy + 1, `${dog.dog}`, { class: "dog-number", "font-size": f(14), "font-weight": 700, fill: ink, stroke: ink === "#fff" ? "#1d1d1d" : "#fff", "stroke-width": 3, "paint-order": "stroke" })));
  }
}

export function scores(obs, players) {
  const rows = [];
  for (let seat = 0; seat < players; seat++) {
    rows.push([
      (obs.totals || [])[seat] ?? 0,
      (obs.flock_sizes || [])[seat] ?? 0,
      (obs.players_in || [])[seat] ? "in" : "out",
    ]);
  }
  return { columns: ["total", "flock", "round"], rows };
}

export function privatePart(obs, seat) {
  const flock = obs.own_flock || [];
  const row = s("svg", { class: "hand", viewBox: `0 0 ${Math.max(1, flock.length) * 48 + 8} 56`, width: Math.max(1, flock.length) * 48 + 8, height: 56 });
  flock.forEach((name, i) => {
    const kind = short(name, CARD);
    const g = s("g", { class: "hand-card", "data-seat": seat, "data-card": kind });
    // The hand is drawn at its own size (its width is its viewBox's): scale 1.
    g.append(card(kind, 4 + i * 48, 0, 56, (points) => legible(points, 1)));
    row.append(g);
  });
  return h("div", { class: "private-seat", "data-seat": seat },
    h("span", { class: "dot", style: `background:${seatColour(seat)}` }),
    ` seat ${seat}'s flock (${flock.length})`, h("br"), row);
}
