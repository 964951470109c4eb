// Sheep & Garden: the landscape of placed tiles, the display to choose from,
// and the objective cards.
import { count } from "../words.js";
import { h, LEAST_TEXT_PX, legible, reset, s, scaleIn, seatColour, squeezeTo, text, widthOf } from "../svg.js";

const T = 96;
const TERRAIN = { l: "#5aa6de", c: "#c79a6e", f: "#e7a2c4", g: "#8cc56a", r: "#8cc56a" };
// A piece is a quarter of a tile across: a tile is often under 60 px on a
// laptop screen, and its letter must still read.
// Text at 4.5:1 or more on what it is drawn on: the axis' numbers were
// #6b7b5e on the landscape's green (3.6:1), a face-down objective card's
// words white on #6d7f5c (3.9:1), and a card's holders in their seat's
// colour on cream (red 4.1:1, yellow 2:1; the words name the seat, the
// card's edge keeps its colour).
const AXIS_INK = "#4f5d45";
const FACE_DOWN = "#5a6b4a";
const PIECE = 13;
const LETTER = 17;

// A piece's radius and its letter's size on a board drawn at `scale`: as
// drawn on a laptop, or larger where its letter would show under
// LEAST_TEXT_PX (a phone draws a tile about 30 px across, and the letter was
// 6 px high). The radius keeps the letter inside its disc, and four pieces
// two by two inside their tile: on a tile under 27 px the letter is smaller.
function pieceSize(scale) {
  const r = Math.min((T - 3) / 4, Math.max(PIECE, 0.62 * legible(LETTER, scale)));
  return { r, letter: Math.min(legible(LETTER, scale), r / 0.62) };
}
const OBJECTS = [
  ["sheep", "#ffffff", "S"], ["cows", "#7a4a2a", "C"], ["humans", "#f0c58a", "H"],
  ["trees", "#2e7d32", "T"], ["houses", "#b33c2a", "⌂"], ["fish", "#1b5fa0", "F"],
];

// The two corners of edge segment k (0..11) of a tile at the origin.
function segment(k) {
  const third = T / 3;
  if (k < 3) return [[k * third, 0], [(k + 1) * third, 0]];
  if (k < 6) return [[T, (k - 3) * third], [T, (k - 2) * third]];
  if (k < 9) return [[T - (k - 6) * third, T], [T - (k - 5) * third, T]];
  return [[0, T - (k - 9) * third], [0, T - (k - 8) * third]];
}

// Where each object of a tile's areas sits: in a row near its area's segments
// (the middle for an area inside the tile), then pushed apart where two areas'
// rows meet, such as a pond's fish and the grass around it.
function pieces(areas, r) {
  const inside = areas.some((area) => !area.segments.length && OBJECTS.some(([key]) => area[key]));
  const gap = 2 * r + 1;
  // Three to a row, fewer where grown pieces would not fit three across.
  const perRow = Math.max(1, Math.min(3, Math.floor((T - 2) / gap)));
  const placed = [];
  for (const area of areas) {
    let px = T / 2, py = T / 2;
    if (area.segments.length) {
      const pts = area.segments.map((k) => { const [[a, b], [c2, d]] = segment(k); return [(a + c2) / 2, (b + d) / 2]; });
      px = T / 2 + (pts.reduce((v, p) => v + p[0], 0) / pts.length - T / 2) * 0.62;
      py = T / 2 + (pts.reduce((v, p) => v + p[1], 0) / pts.length - T / 2) * 0.62;
      // Grass all round an inner area: its row goes to the top band, not on the inner one's.
      if (inside && Math.hypot(px - T / 2, py - T / 2) < r) py = T * 0.17;
    }
    const objects = OBJECTS.flatMap((object) => Array(area[object[0]] || 0).fill(object));
    objects.forEach((object, n) => {
      const row = Math.floor(n / perRow), inRow = Math.min(perRow, objects.length - row * perRow);
      placed.push({ object, x: px + (n % perRow - (inRow - 1) / 2) * gap, y: py + row * gap });
    });
  }
  spread(placed, gap, r + 1, T - r - 1);
  // Pushing alone leaves pieces in a line overlapping when they are grown
  // (three in a column of a tile two pieces high): a grid then.
  if (crowded(placed, gap)) toSlots(placed, gap, r + 1, T - r - 1);
  return placed;
}

function crowded(points, gap) {
  return points.some((a, i) => points.slice(i + 1).some((b) => Math.hypot(b.x - a.x, b.y - a.y) < gap - 0.5));
}

// Moves each point to a slot of a grid (at least `gap` apart within [lo, hi]),
// nearest first, when there are slots enough.
function toSlots(points, gap, lo, hi) {
  const n = Math.max(1, Math.floor((hi - lo) / gap) + 1);
  const at = (i) => (n === 1 ? (lo + hi) / 2 : lo + (i * (hi - lo)) / (n - 1));
  const free = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) free.push({ x: at(i), y: at(j) });
  if (free.length < points.length) return;
  const left = new Set(points);
  while (left.size) {
    let best = null;
    for (const p of left) {
      for (const slot of free) {
        const d = Math.hypot(slot.x - p.x, slot.y - p.y);
        if (!best || d < best.d) best = { p, slot, d };
      }
    }
    best.p.x = best.slot.x; best.p.y = best.slot.y;
    left.delete(best.p);
    free.splice(free.indexOf(best.slot), 1);
  }
}

// Moves overlapping points apart (at least `gap` between centres where the
// room allows), keeping each within [lo, hi] on both axes.
function spread(points, gap, lo, hi) {
  for (let round = 0; round < 40; round++) {
    let moved = false;
    points.forEach((a, i) => points.slice(i + 1).forEach((b) => {
      const d = Math.hypot(b.x - a.x, b.y - a.y);
      if (d >= gap - 0.5) return;
      const [ux, uy] = d < 0.01 ? [1, 0] : [(b.x - a.x) / d, (b.y - a.y) / d];
      const push = (gap - d) / 2;
      a.x -= ux * push; a.y -= uy * push;
      b.x += ux * push; b.y += uy * push;
      moved = true;
    }));
    for (const p of points) {
      p.x = Math.min(hi, Math.max(lo, p.x));
      p.y = Math.min(hi, Math.max(lo, p.y));
    }
    if (!moved) return;
  }
}

function tileNode(face, x, y, rotation, attrs, piece) {
  const g = s("g", { class: "tile", ...attrs, transform: `translate(${x} ${y})` });
  const inner = s("g", { transform: `rotate(${90 * rotation} ${T / 2} ${T / 2})` });
  g.append(inner);
  const letters = (face && face.segments) || "gggggggggggg";
  inner.append(s("rect", { x: 0, y: 0, width: T, height: T, fill: "#8cc56a" }));
  // Each edge segment colours a band reaching 40% into the tile; an area inside
  // the tile (no edge) fills the middle.
  const c = T / 2, depth = 0.4;
  const inward = ([x, y]) => [c + (x - c) * (1 - depth * 2 + 0.2), c + (y - c) * (1 - depth * 2 + 0.2)];
  for (let k = 0; k < 12; k++) {
    const [p1, p2] = segment(k);
    const [q2, q1] = [inward(p2), inward(p1)];
    inner.append(s("polygon", { points: `${p1} ${p2} ${q2} ${q1}`, fill: TERRAIN[letters[k]] || "#ccc" }));
  }
  for (const area of (face && face.areas) || []) {
    if (!area.segments.length) {
      inner.append(s("rect", { x: T * 0.32, y: T * 0.32, width: T * 0.36, height: T * 0.36, rx: 8,
        fill: TERRAIN[{ lake: "l", city: "c", garden: "f", grass: "g" }[area.terrain]] || "#ccc", stroke: "#0002" }));
    }
  }
  for (const road of (face && face.roads) || []) {
    const ends = road.segments.map((k) => { const [[a, b], [c2, d]] = segment(k); return [(a + c2) / 2, (b + d) / 2]; });
    const path = ends.length === 2 ? `M ${ends[0][0]} ${ends[0][1]} Q ${T / 2} ${T / 2} ${ends[1][0]} ${ends[1][1]}` : `M ${ends[0][0]} ${ends[0][1]} L ${T / 2} ${T / 2}`;
    inner.append(s("path", { d: path, stroke: "#e9e2cf", "stroke-width": 7, fill: "none" }));
    inner.append(s("path", { d: path, stroke: "#8f8676", "stroke-width": 1.5, fill: "none", "stroke-dasharray": "4 3" }));
  }
  for (const at of pieces((face && face.areas) || [], piece.r)) {
    const [key, colour, glyph] = at.object;
    // Upright whatever the tile's rotation.
    inner.append(s("g", { transform: `rotate(${-90 * rotation} ${at.x} ${at.y})`, class: "object", "data-object": key },
      s("circle", { cx: at.x, cy: at.y, r: piece.r, fill: colour, stroke: "#222", "stroke-width": 1.2 }),
      text(at.x, at.y + piece.letter / LETTER, glyph, { "font-size": piece.letter, "font-weight": 700, fill: key === "sheep" || key === "humans" ? "#222" : "#fff" })));
  }
  g.append(s("rect", { x: 0, y: 0, width: T, height: T, fill: "none", stroke: "#4b5d3a", "stroke-width": 1.5 }));
  return g;
}

// `words` in lines of at most `width` characters, broken between words (a
// card's text was cut at its 52nd character: "in complet" / "e gardens").
// A word longer than a line has a line of its own.
function wrap(words, width) {
  const lines = [];
  for (const word of String(words).split(/\s+/).filter(Boolean)) {
    const last = lines.length ? lines[lines.length - 1] : null;
    if (last !== null && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

// A text's attributes that squeeze `words` into `room` units where they would
// run wider.
function squeezed(words, size, bold, room) {
  return widthOf(words, size, bold) > room ? { textLength: room, lengthAdjust: "spacingAndGlyphs" } : {};
}

// The width of the column of the display and the objectives.
const COLUMN = 3 * (T + 10) + 10;

// An objective card's lines, `width` units wide, with type of the sizes `f`
// gives: its name, whose cards (on the name's line when both fit), its text
// broken to the width; and the card's height.
function cardLines(o, width, f) {
  const name = o.card ? o.name + (o.revealed ? " (hidden)" : "") : "face down";
  const holders = `seat ${(o.holders || []).join("+")}${o.enemy ? " (enemy)" : ""}`;
  const [big, small, tiny] = [f(14), f(11), f(10)];
  const apart = widthOf(name, big, true) + widthOf(holders, tiny) + 16 <= width - 20;
  const text = o.card ? wrap(o.text, Math.min(52, Math.floor((width - 20) / widthOf("n", small)))) : [];
  const nameY = 6 + big * 0.6, holdersY = apart ? nameY : nameY + big * 0.6 + tiny * 0.7;
  const textY = (apart ? nameY + big * 0.6 : holdersY + tiny * 0.6) + 4 + small * 0.65;
  const height = Math.max(60, textY + text.length * small * 1.27 + 2);
  return { name, holders, apart, text, sizes: [big, small, tiny], nameY, holdersY, textY, height };
}

// Where the display's tiles, the objectives' heading (its middle) and the
// objective cards go, below the display's heading's middle: each heading has
// room for its type, which grows on a phone (a fixed 14 units let the cards
// cover "objectives" and the display's tiles touch their heading). An empty
// display (the deck spent) keeps no row for its tiles: its empty band, a
// tile high, stood between the two headings.
function headed(f, displayed) {
  const half = 0.6 * f(16);
  const tiles = half + 4, heading = tiles + (displayed ? T + 16 : 8) + half;
  return { tiles, heading, cards: heading + half + 4 };
}

// Where the landscape (`landW` by `landH`) and the column of the display and
// the `objectives` go, and the size of the whole: beside each other, or the
// column under the landscape when that is drawn larger in `room` (CSS
// pixels). `f` gives the type's sizes, which the cards' heights follow;
// `displayed` is whether the display shows tiles.
function arrange(landW, landH, objectives, displayed, room, f) {
  const column = (perRow, cardW) => {
    const rows = Math.ceil(objectives.length / perRow);
    const heights = objectives.map((o) => cardLines(o, cardW, f).height);
    let total = 0;
    for (let r = 0; r < rows; r++) total += Math.max(...heights.filter((_, i) => i % rows === r)) + 8;
    return 30 + headed(f, displayed).cards + total;
  };
  const beside = {
    width: landW + 40 + COLUMN + 20, height: Math.max(landH + 40, 30 + column(1, COLUMN - 10) + 20),
    cx: landW + 40, cy: 30, columns: 1, cardW: COLUMN - 10,
  };
  beside.ox = 20;
  beside.oy0 = 20 + (beside.height - 40 - landH) / 2;
  if (!room || !(room.width > 0)) return beside;
  const columns = landW >= 2 * COLUMN ? 2 : 1;
  const width = Math.max(landW, columns * COLUMN) + 40;
  // Under the landscape the cards share its width.
  const cardW = (width - 40) / columns - 10;
  const below = {
    width, height: 20 + landH + 20 + column(columns, cardW) + 20,
    ox: 20 + (width - 40 - landW) / 2, oy0: 20, cx: 20, cy: 20 + landH + 30, columns, cardW,
  };
  const scale = (size) => scaleIn(room, size.width, size.height);
  return scale(below) > scale(beside) * 1.1 ? below : beside;
}

// The layout of `arrange` in `room`, and the type's sizes and the scale it is
// drawn at. The type grows where the board is drawn small (a phone), and the
// cards' heights with it: laid out again with the sizes the last layout's
// scale asks for until the scale settles (four rounds left the type 0.6%
// under the least on a 375x667 phone).
function fit(landW, landH, shown, displayed, room) {
  let f = (points) => points;
  let layout = arrange(landW, landH, shown, displayed, room, f);
  let scale = scaleIn(room, layout.width, layout.height);
  for (let round = 0; round < 12; round++) {
    const asked = scale;
    f = (points) => legible(points, asked);
    layout = arrange(landW, landH, shown, displayed, room, f);
    scale = scaleIn(room, layout.width, layout.height);
    if (scale > asked * 0.9999) break;
  }
  return { layout, f, scale };
}

// Whether the pieces' letters, on a board drawn at `scale`, show at the least size.
function reads(scale) {
  return pieceSize(scale).letter * scale >= LEAST_TEXT_PX - 0.01;
}

export function draw(svg, obs, ctx) {
  const faces = Object.fromEntries((obs.faces || []).map((f) => [f.tile, f]));
  const placed = obs.placed || [];
  const xs = placed.map((p) => p.x || 0), ys = placed.map((p) => p.y || 0);
  // Half a tile of margin round the landscape: a whole one cost the tiles an
  // eighth of their size late in a game, when the landscape is tallest.
  const minx = Math.min(0, ...xs) - 0.5, maxx = Math.max(0, ...xs) + 0.5;
  const miny = Math.min(0, ...ys) - 0.5, maxy = Math.max(0, ...ys) + 0.5;
  const landW = (maxx - minx + 1) * T, landH = (maxy - miny + 1) * T;
  const objectives = obs.objectives || [];
  const display = obs.display || [];
  // The landscape on the left and the display and the objectives in a column
  // beside it; or, when that draws everything larger in the room the page
  // gives the board (a phone's narrow column), the display and the objectives
  // under the landscape, the objectives two abreast where there is room.
  // Where even that draws the pieces' letters under the least size (a
  // 375x667 phone late in a match: tiles under 27 px), the board is drawn to
  // the column's width alone, in one column, taller than the window, and the
  // page scrolls.
  const shown = objectives.map((o) => reveal(o, ctx));
  const displayed = display.length > 0;
  let fitted = fit(landW, landH, shown, displayed, ctx.room);
  const tall = Boolean(ctx.room && ctx.room.height) && !reads(fitted.scale);
  if (tall) fitted = fit(landW, landH, shown, displayed, { width: ctx.room.width });
  const { layout, f } = fitted;
  const { width, height, ox, oy0, cx, cy, columns, cardW } = layout;
  const piece = pieceSize(fitted.scale);
  reset(svg, width, height);
  svg.append(s("rect", { x: 0, y: 0, width, height, fill: "#e9efe0", rx: 14 }));
  svg.append(s("rect", { x: ox, y: oy0, width: landW, height: landH, fill: "#dfe8d2", rx: 8 }));
  // The cells' numbers in the margin, x above each column and y left of each
  // row, as the moves and the event log give them ("at (4,3)").
  for (let x = minx + 0.5; x <= maxx - 0.5; x++) {
    svg.append(text(ox + (x - minx + 0.5) * T, oy0 + T / 4, String(x), { class: "axis", "data-axis-x": x, "font-size": Math.min(T * 0.42, f(20)), fill: AXIS_INK }));
  }
  for (let y = miny + 0.5; y <= maxy - 0.5; y++) {
    svg.append(text(ox + T / 4, oy0 + (y - miny + 0.5) * T, String(y), { class: "axis", "data-axis-y": y, "font-size": Math.min(T * 0.42, f(20)), fill: AXIS_INK }));
  }
  placed.forEach((p, i) => {
    svg.append(tileNode(faces[p.tile], ox + ((p.x || 0) - minx) * T, oy0 + ((p.y || 0) - miny) * T, p.rotation || 0,
      { "data-tile": p.tile, "data-x": p.x || 0, "data-y": p.y || 0, "data-rotation": p.rotation || 0, "data-order": i }, piece));
  });
  if (placed.length) {
    const last = placed[placed.length - 1];
    svg.append(s("rect", { x: ox + ((last.x || 0) - minx) * T + 2, y: oy0 + ((last.y || 0) - miny) * T + 2, width: T - 4, height: T - 4, fill: "none", stroke: "#fff", "stroke-width": 3, "stroke-dasharray": "6 4" }));
  }
  const at = headed(f, displayed);
  // A heading longer than the room to the board's edge is squeezed to it: the
  // column beside a phone's landscape cut "over: all tiles placed" off.
  const heading = (y, words) => svg.append(text(cx, y, words, { "text-anchor": "start", "font-size": f(16),
    "font-weight": 700, fill: "#2c4a1e", ...squeezed(words, f(16), true, width - 10 - cx) }));
  heading(cy, `display · deck ${obs.deck_size}` + (obs.finished ? ` · over: ${obs.end_reason}` : ""));
  display.forEach((tile, i) => {
    svg.append(tileNode(faces[tile], cx + i * (T + 10), cy + at.tiles, 0, { "data-display-tile": tile, class: "tile shown" }, piece));
  });
  heading(cy + at.heading, "objectives");
  const rows = Math.ceil(shown.length / columns);
  const cards = shown.map((o) => cardLines(o, cardW, f));
  const rowTop = [cy + at.cards];
  for (let r = 0; r < rows; r++) rowTop.push(rowTop[r] + Math.max(...cards.filter((_, i) => i % rows === r).map((c) => c.height)) + 8);
  shown.forEach((o, i) => {
    const x = cx + Math.floor(i / rows) * (cardW + 10), oy = rowTop[i % rows];
    const holder = (o.holders || [])[0];
    const card = cards[i], [big, small, tiny] = card.sizes;
    const squeeze = (words, size, bold) => squeezed(words, size, bold, cardW - 20);
    svg.append(s("g", { class: "objective", "data-objective-slot": o.slot, "data-card": o.revealed ? "" : o.card || "", "data-revealed": o.revealed ? o.card : "", "data-face-up": o.face_up ? "true" : "false", "data-holders": (o.holders || []).join(",") },
      s("rect", { x, y: oy, width: cardW, height: card.height, rx: 8, fill: o.card ? "#fffaf0" : FACE_DOWN, stroke: seatColour(holder), "stroke-width": 3, "stroke-dasharray": o.face_up ? "" : "6 3" }),
      text(x + 10, oy + card.nameY, card.name, { class: "objective-name", "text-anchor": "start", "font-size": big, "font-weight": 700, fill: o.card ? "#2d2a22" : "#fff", ...squeeze(card.name, big, true) }),
      card.text.map((line, k) =>
        text(x + 10, oy + card.textY + k * small * 1.27, line, { class: "objective-text", "text-anchor": "start", "font-size": small, fill: "#4a4538" })),
      text(card.apart ? x + cardW - 10 : x + 10, oy + card.holdersY, card.holders, { class: "objective-holders", "text-anchor": card.apart ? "end" : "start", "font-size": tiny, fill: o.card ? "#2d2a22" : "#fff" })));
  });
  // A line of a card's text is broken by a guess at its width, which a line
  // of wide letters outruns: drawn, it is squeezed to the card where it would
  // stick out of it (by up to 8 px, on a laptop too).
  for (const line of svg.querySelectorAll(".objective-text")) squeezeTo(line, cardW - 20);
  return { tall };
}

// "All cards": a face-down objective shows its card, from its holder's view.
export function reveal(o, ctx) {
  if (o.card || !ctx.seats) return o;
  const holder = (o.holders || [])[0];
  const seen = ((ctx.seats[holder] || {}).objectives || []).find((x) => x.slot === o.slot);
  return seen && seen.card ? { ...seen, revealed: true } : o;
}

export function scores(obs, players) {
  const rows = [];
  for (let seat = 0; seat < players; seat++) {
    const mine = (obs.objectives || []).filter((o) => (o.holders || []).includes(seat));
    rows.push([`${mine.filter((o) => o.face_up).length} of ${mine.length}`]);
  }
  return { columns: ["objectives shown"], rows };
}

export function privatePart(obs, seat) {
  const mine = (obs.objectives || []).filter((o) => (o.holders || []).includes(seat) && !o.face_up && o.card);
  return h("div", { class: "private-seat", "data-seat": seat },
    h("span", { class: "dot", style: `background:${seatColour(seat)}` }),
    ` seat ${seat}'s hidden objectives: `,
    mine.length ? mine.map((o) => h("span", { class: "hand-card objective-card", "data-card": o.card, "data-seat": seat }, o.name)) : "none");
}

// The scoring at the end, from the finished match's result (its details list
// every seat's cards, as the rulebook has them written on the scoring board):
// each seat's cards with what each counted and scored, and a solo match's
// enemy. Only a result holds them: no position before the end shows a
// face-down card to the public.
export function finalPart(result, players) {
  const details = result && result.details;
  if (!details || !Array.isArray(details.seats)) return null;
  const parts = details.seats.slice(0, players).map((seat, i) =>
    cardsTable(seat, { "data-final-seat": i }, [h("span", { class: "dot", style: `background:${seatColour(i)}` }), ` seat ${i}`]));
  if (details.enemy) parts.push(cardsTable(details.enemy, { "data-final-enemy": "" }, ["the enemy"]));
  return h("div", { class: "final-cards" }, h("h2", { class: "side-heading" }, "Objective cards scored"), parts);
}

function cardsTable(holder, attrs, who) {
  const cards = Array.isArray(holder.objectives) ? holder.objectives : [];
  return h("table", { class: "final-seat", ...attrs },
    h("caption", {}, who, `: ${count(holder.total, "point")}`),
    h("thead", {}, h("tr", {}, h("th", {}, "card"), h("th", {}, "count"), h("th", {}, "points"))),
    h("tbody", {}, cards.map((o) => h("tr", { "data-final-card": o.card, "data-points": o.points },
      h("td", {}, h("span", { class: "card-name" }, o.name),
        (o.shared_with || []).length ? h("span", { class: "muted shared" }, ` shared with seat ${o.shared_with.join(", ")}`) : null),
      h("td", {}, String(o.count)), h("td", {}, String(o.points))))));
}
