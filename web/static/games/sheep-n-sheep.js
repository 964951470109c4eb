// Sheep 'n' Sheep: the market of card pairs, each player's pasture, and hands.
import { h, LEAST_TEXT_PX, legible, reset, s, scaleIn, seatColour, short, text, widthOf } from "../svg.js";

const CW = 46;
const CH = 58;
const COLOURS = {
  WHITE: ["#f8f6ef", "#3a3a3a"], BLACK: ["#3b3b3f", "#ffffff"], BROWN: ["#9b6b43", "#ffffff"],
  PINK: ["#f3a9c6", "#3a1f2b"], BLUE: ["#82b5e8", "#10253d"], GREY: ["#a9abb0", "#1f1f1f"],
};
// What the seat placing cards is doing, in the rules' words: the phase's
// name, lower-cased, read "placing: same (0 placed)" to a spectator.
export const PLACING = {
  SAME: "placing cards of one number",
  RUN: "placing a run",
  DISCARD: "discarding for a free placement",
  FREE: "placing one card anywhere",
};
const ICONS = { NONE: "", BELL: "♪", HEART: "♥", STAR: "★", ONE_VP: "+1", DRAW: "+▭", UNSPECIFIED: "" };

// A card: its number, its icon in the top right corner and its value
// ("3→6": a group of exactly 3 scores 6) along its foot. `small` is the size
// of the icon and the value: 10 units, or more on a board drawn small (a
// phone), where the number moves left of the icon to leave them room.
export function cardNode(c, x, y, attrs = {}, small = 10) {
  const colour = short(c.colour, "SHEEP_N_SHEEP_COLOUR_");
  const [fill, ink] = COLOURS[colour] || ["#ddd", "#000"];
  const icon = ICONS[short(c.icon, "SHEEP_N_SHEEP_ICON_")] || "";
  const big = small > 12;
  const number = big ? Math.max(22, small * 1.15) : 22;
  const value = big ? y + CH - 5 - small / 2 : y + CH - 11;
  // A digit in bold is about 0.7 of its size wide.
  const numberAt = big ? [x + 3.5 + number * 0.35, y + 5 + number / 2] : [x + CW / 2, y + CH / 2 - 4];
  // Beside the number the icon has what room is left, squeezed into it when
  // it has two characters ("+1"), on a tint of its own: "3" and "+1" side by
  // side read as "3+1".
  const room = CW - 5 - (3.5 + number * 0.7) - 3;
  const squeeze = big && icon.length > 1 ? { textLength: room, lengthAdjust: "spacingAndGlyphs" } : {};
  const iconW = (big && icon.length > 1 ? room : widthOf(icon, small)) + 3;
  const tint = big && icon ? s("rect", { class: "icon-tint", x: x + CW - 3.5 - iconW, y: y + 4, width: iconW, height: small + 2, rx: 3, fill: ink, opacity: 0.18 }) : null;
  return s("g", { class: "snscard", "data-card-id": c.id, "data-colour": colour, "data-number": c.number, ...attrs },
    s("title", {}, `${colour.toLowerCase()} ${c.number}: a group of exactly ${c.condition} scores ${c.vp}`),
    s("rect", { x: x + 2, y: y + 2, width: CW - 4, height: CH - 4, rx: 6, fill, stroke: "#3b3325", "stroke-width": 1.2 }),
    text(numberAt[0], numberAt[1], String(c.number), { class: "card-number", "font-size": number, "font-weight": 700, fill: ink }),
    // "3→6" is about twice its size wide (the arrow is broad): squeezed into
    // the card where the size a phone needs makes it wider.
    text(x + CW / 2, value, `${c.condition}→${c.vp}`, { class: "card-value", "font-size": small, fill: ink,
      ...(2.1 * small > CW - 10 ? { textLength: CW - 10, lengthAdjust: "spacingAndGlyphs" } : {}) }),
    // In a group of their own, so that the card's one rect child is its face.
    icon ? s("g", {}, tint, text(x + CW - 5, y + 5 + small / 2, icon, { class: "card-icon", "text-anchor": "end", "font-size": small, fill: ink, ...squeeze })) : null);
}

function bounds(cards) {
  if (!cards.length) return { minx: 0, maxx: 0, miny: 0, maxy: 0 };
  const xs = cards.map((p) => p.cell.x || 0), ys = cards.map((p) => p.cell.y || 0);
  return { minx: Math.min(...xs), maxx: Math.max(...xs), miny: Math.min(...ys), maxy: Math.max(...ys) };
}

// The pastures in rows of `perRow`: each row's boxes and its height.
function rowsOf(boxes, perRow) {
  const rows = [];
  for (let i = 0; i < boxes.length; i += perRow) {
    const row = boxes.slice(i, i + perRow);
    rows.push({ first: i, width: row.reduce((a, b) => a + b.w + 14, 0), height: Math.max(...row.map((b) => b.hgt), CH * 2) });
  }
  return rows;
}

// The size of the drawing with the pastures in rows of `perRow`.
function sizeOf(boxes, marketW, perRow) {
  const rows = rowsOf(boxes, perRow);
  const width = Math.max(marketW, ...rows.map((r) => r.width)) + 20;
  const height = 40 + CH + 30 + rows.reduce((a, r) => a + r.height + 14, 0) - 14 + 20;
  return { width, height, rows };
}

// The pastures in one row, or in two, whichever draws the cards larger in the
// room the page has (`room`, in CSS pixels): one row on a laptop, mostly; two
// on a phone, where four side by side drew each card 11 px wide. Only these
// two, so that stepping through the moves seldom moves the pastures about.
function layout(boxes, marketW, room) {
  const one = sizeOf(boxes, marketW, Math.max(1, boxes.length));
  if (!room || !(room.width > 0) || boxes.length < 2) return one;
  const two = sizeOf(boxes, marketW, Math.ceil(boxes.length / 2));
  const scale = (size) => Math.min(room.width / size.width, (room.height || Infinity) / size.height);
  return scale(two) > scale(one) * 1.1 ? two : one;
}

export function draw(svg, obs, ctx) {
  const pastures = obs.pastures || [];
  const boxes = pastures.map((p) => {
    const b = bounds(p.cards);
    return { ...b, w: Math.max(3, b.maxx - b.minx + 1) * CW + 24, hgt: Math.max(2, b.maxy - b.miny + 1) * CH + 40 };
  });
  // The piles' two lines beside the market, as wide as their type is large.
  const piles = [`deck ${obs.deck_size} · stock ${obs.stock_size}`,
    `discard ${(obs.discard || []).length}` + (obs.end_triggered ? ` · last turn ${obs.last_turn}` : "")];
  const marketOf = (size) => (obs.market || []).length * (2 * CW + 18) + Math.max(190, 24 + Math.max(...piles.map((p) => widthOf(p, size))));
  const first = layout(boxes, marketOf(12), ctx.room);
  const guess = (points) => legible(points, scaleIn(ctx.room, first.width, first.height));
  const { width, height, rows } = layout(boxes, marketOf(guess(12)), ctx.room);
  const f = (points) => legible(points, scaleIn(ctx.room, width, height));
  reset(svg, width, height);
  svg.append(s("rect", { x: 0, y: 0, width, height, fill: "#cfe3b4", rx: 14 }));
  // Market
  svg.append(text(16, 18, "market", { "text-anchor": "start", "font-size": f(14), "font-weight": 700, fill: "#2c4a1e" }));
  let x = 16;
  for (const set of obs.market || []) {
    const g = s("g", { class: "market-set", "data-set": set.index });
    g.append(s("rect", { x: x - 4, y: 32, width: 2 * CW + 8, height: CH + 8, rx: 8, fill: "#e8d9b0", stroke: "#a8915a" }));
    (set.cards || []).forEach((c, i) => g.append(cardNode(c, x + i * CW, 36, { "data-set": set.index }, f(10))));
    svg.append(g);
    x += 2 * CW + 18;
  }
  const line = Math.max(18, f(12) * 1.3);
  svg.append(text(x + 4, 61 - line / 2, piles[0], { "text-anchor": "start", "font-size": f(12), fill: "#2c4a1e" }));
  svg.append(text(x + 4, 61 + line / 2, piles[1], { "text-anchor": "start", "font-size": f(12), fill: obs.end_triggered ? "#a1311a" : "#2c4a1e" }));
  // The cards this move laid in a pasture are outlined, as Sheep & Garden's
  // last tile is: the log says "placed grey 1 (#82) at (4,-2)", and a pasture
  // of twenty cards gave no sign which was new.
  const before = ctx.previous
    ? new Set((ctx.previous.pastures || []).flatMap((q) => (q.cards || []).map((c) => c.card.id)))
    : null;
  // Pastures, one box per seat, in rows; y grows upwards.
  let top = 40 + CH + 30;
  let row = 0;
  let px = 10;
  pastures.forEach((p, i) => {
    if (row + 1 < rows.length && i === rows[row + 1].first) {
      top += rows[row].height + 14;
      row += 1;
      px = 10;
    }
    const b = boxes[i];
    const seat = p.seat ?? i;
    const g = s("g", { class: "pasture", "data-seat": seat });
    g.append(s("rect", { x: px, y: top, width: b.w, height: b.hgt, rx: 10, fill: "#9fcb7b", stroke: seatColour(seat), "stroke-width": obs.to_move === seat ? 4 : 2 }));
    // The seat and its hand over the cards, squeezed into a narrow pasture's box.
    const head = `seat ${seat} · hand ${(obs.hand_sizes || [])[seat] ?? 0}`, headSize = f(12), room = b.w - 16;
    g.append(text(px + 8, top + 3 + Math.max(11, headSize * 0.6), head, {
      "text-anchor": "start", "font-size": headSize, "font-weight": 700, fill: "#1f3316",
      ...(widthOf(head, headSize, true) > room ? { textLength: room, lengthAdjust: "spacingAndGlyphs" } : {}),
    }));
    for (const placed of p.cards || []) {
      const cx = px + 12 + ((placed.cell.x || 0) - b.minx) * CW;
      const cy = top + 26 + (b.maxy - (placed.cell.y || 0)) * CH;
      const fresh = before !== null && !before.has(placed.card.id);
      g.append(cardNode(placed.card, cx, cy, { "data-seat": seat, "data-x": placed.cell.x || 0, "data-y": placed.cell.y || 0, "data-new": fresh ? "true" : null, class: "snscard placed" }, f(10)));
      if (fresh) g.append(s("rect", { class: "new-card", x: cx, y: cy, width: CW, height: CH, rx: 7, fill: "none", stroke: "#fff", "stroke-width": 3, "stroke-dasharray": "6 4" }));
    }
    svg.append(g);
    px += b.w + 14;
  });
  if (obs.placement) {
    const phase = short(obs.placement.phase, "SHEEP_N_SHEEP_PHASE_");
    const doing = PLACING[phase] || phase.toLowerCase().replaceAll("_", " ");
    svg.append(text(width - 12, 18, `${doing} · ${obs.placement.placed} placed`, { class: "placing", "text-anchor": "end", "font-size": f(12), fill: "#2c4a1e" }));
  }
}

export function scores(obs, players) {
  const rows = [];
  for (let seat = 0; seat < players; seat++) {
    const pasture = (obs.pastures || []).find((p) => (p.seat ?? 0) === seat) || { cards: [] };
    rows.push([(obs.hand_sizes || [])[seat] ?? 0, pasture.cards.length]);
  }
  return { columns: ["hand", "pasture"], rows };
}

export function privatePart(obs, seat) {
  const hand = obs.hand || [];
  const row = s("svg", { class: "hand", width: Math.max(1, hand.length) * CW + 8, height: CH + 4, viewBox: `0 0 ${Math.max(1, hand.length) * CW + 8} ${CH + 4}` });
  // Drawn at one unit a pixel: the values and icons at the least size a board
  // draws its type (10 px once).
  hand.forEach((c, i) => row.append(cardNode(c, 4 + i * CW, 2, { class: "snscard hand-card", "data-seat": seat }, LEAST_TEXT_PX)));
  return h("div", { class: "private-seat", "data-seat": seat },
    h("span", { class: "dot", style: `background:${seatColour(seat)}` }), ` seat ${seat}'s hand (${hand.length})`,
    // An empty hand draws no empty row of a card's height.
    hand.length ? [h("br"), row] : null);
}
