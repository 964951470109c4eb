// Stubborn Sheep: the circle of pens and meadows, the fences between them, the
// sheep in every area, and the wolf.
import { h, legible, reset, s, scaleIn, seatColour, short, text, widthOf } from "../svg.js";
import { count } from "../words.js";

const SHEEP = { BLUE: "#3f7fd6", RED: "#d8412f", YELLOW: "#f2c12e", WHITE: "#fbfbf7" };
const W = 760;
const H = 760;
const R = 285;
// The least width of a sheep on screen, in CSS pixels: a phone drew them 7 px
// across (12 on a laptop), dots whose colour one had to guess.
const SHEEP_PX = 11;
// ... and the least they are drawn in a crowded area before the board is
// drawn taller than the window (smaller still where even that leaves no room).
const SHEEP_LEAST_PX = 7.5;
// A fence icon's height: in units as a laptop draws it, and the least on
// screen in CSS pixels.
const BAR = 16.75;
const ICON_PX = 11;
const BAR_MOST = 31;
// The least length and height of a fence's arrow on screen, in CSS pixels:
// five seats' fences on a 360x640 phone drew them 6 px long.
const ARROW_PX = 9;
// The least room between two areas beside each other, in units, which a
// fence's width is: ten areas (five seats) left 36, and arrows too short.
const FENCE_ROOM = 44;
// The least width of an area on screen, in CSS pixels, that takes both its
// label lines ("meadow" over "area 7"); a smaller one takes its number alone.
const AREA_TWO_LINES_PX = 100;
// A fence card's width in a seat's hand, in CSS pixels.
const HAND_CARD = 46;

const colourOf = (c) => short(c, "STUBBORN_SHEEP_COLOUR_");
// Dark ink on the light sheep colours, white on the dark ones.
const inkOn = (colour) => colour === "YELLOW" || colour === "WHITE" ? "#3a2a14" : "#fff";

// A block arrow `length` long and `height` high centred on (x, y), pointing
// right or left: a path, not a "›" glyph, which is a hairline at any size.
function arrow(x, y, length, height, right, attrs = {}) {
  const d = right ? 1 : -1, head = Math.min(length * 0.5, height * 0.75), shaft = height * 0.38;
  const tip = x + (d * length) / 2, neck = tip - d * head, tail = x - (d * length) / 2;
  const points = [[tail, y - shaft / 2], [neck, y - shaft / 2], [neck, y - height / 2], [tip, y],
    [neck, y + height / 2], [neck, y + shaft / 2], [tail, y + shaft / 2]];
  return s("polygon", { points: points.map((p) => p.join(",")).join(" "), ...attrs });
}

function fenceCard(card, x, y, w, attrs = {}) {
  // The four printed icons: inner big, inner small, outer big, outer small.
  const g = s("g", { class: "fence-card", "data-card-id": card.id, ...attrs });
  g.append(s("rect", { x, y, width: w, height: w * 1.4, rx: 5, fill: "#b98a53", stroke: "#5a3d1c", "stroke-width": 1.5 }));
  (card.icons || []).forEach((icon, i) => {
    const right = short(icon.side, "STUBBORN_SHEEP_SIDE_") !== "LEFT";
    const iy = y + 6 + i * (w * 1.4 - 12) / 4, ih = (w * 1.4 - 16) / 4;
    g.append(s("rect", { x: x + 4, y: iy, width: w - 8, height: ih, rx: 3, fill: SHEEP[colourOf(icon.colour)] || "#ccc", stroke: "#3a2a14", "stroke-width": 0.8 }));
    g.append(arrow(x + w / 2, iy + ih / 2, w * 0.5, ih - 2, right, { fill: inkOn(colourOf(icon.colour)) }));
  });
  return g;
}

// The lines of the turn, the piles and the seats: in the middle of the ring,
// or under it when the board is drawn so small (a phone) that type big enough
// to read would run into the fences and areas round the middle.
// What the seat deciding decides, in each phase: the phase's name lower-cased
// ("seat 1: jumper", "seat 2: yellow takes two", "seat 4: over") told a
// spectator nothing.
const DECIDES = {
  ORIENT: "keeps or turns a fence",
  BLUE_BONUS: "uses a blue bonus or not",
  PLACE: "places a fence card",
  BETWEEN: "goes on or uses a bonus",
  JUMPER: "picks the sheep that jumps",
  YELLOW_TAKES_TWO: "takes 2 companions or not",
  COMPANION: "picks a companion sheep",
  BUMP: "picks the sheep to bump",
  BLUE_MODIFIER: "shortens a blue run or not",
  SCORE: "scores a group or stops",
};

export function middleLines(obs) {
  const phase = short(obs.phase, "STUBBORN_SHEEP_PHASE_");
  // The seat deciding: at setup each seat orients its own fences while the
  // turn (`current`) is still seat 0's.
  const deciding = obs.to_move ?? obs.current;
  const decides = DECIDES[phase] || phase.toLowerCase().replaceAll("_", " ");
  return {
    turn: `turn ${obs.turn}` + (obs.final_round ? ` · final round, ${obs.turns_left} left` : ""),
    deciding, decides: phase === "OVER" ? "game over" : `seat ${deciding}: ${decides}`,
    piles: `sheep pile ${obs.sheep_pile} · fences ${obs.fence_pile} · discard ${obs.discard_pile}`,
    seats: (obs.seats || []).map((seat, i) => ({
      seat: seat.seat ?? i,
      pen: (obs.areas || []).find((area) => area.owner === (seat.seat ?? i))?.index,
      points: `${count(seat.points, "pt")} · scored ${(seat.scored || []).map((p) => `${colourOf(p.colour)[0]}${(p.sheep || []).length}`).join(" ")}`,
    })),
  };
}

const areaKind = (area) => (area.owner >= 0 ? `pen ${area.owner}` : "meadow");

const UNDER_TOP = 770; // below the ring, its areas, the fences and the height ("×3") past the foot one

// Where `count` sheep go in an area (its centre `ax`, `ay` and `radius`): in
// rows `step` apart from `top` down, at most `most` to a row and as many as
// the circle is wide there, centred. `fits` says whether they all stay inside
// the circle above `foot`; the sheep that would not go on past it.
function sheepRows(count, most, { ax, ay, radius, top, foot, step }) {
  const r = step * 0.42, points = [];
  let fits = true;
  for (let y = top; points.length < count; y += step) {
    const far = Math.max(Math.abs(y - r - ay), Math.abs(y + r - ay));
    const half = far < radius ? Math.sqrt(radius * radius - far * far) - r - 1 : -1;
    const room = y + r > foot || half < 0 ? 0 : Math.floor((2 * half) / step) + 1;
    const row = Math.min(count - points.length, most === Infinity ? Math.max(room, 3) : most);
    // A short last row of a grid starts at its left, as its rows above do,
    // so it needs the room of a whole row (one sheep of four stuck out).
    const across = most === Infinity ? row : most;
    for (let j = 0; j < row; j++) points.push([ax + (j - (across - 1) / 2) * step, y]);
    if (across > room) fits = false;
  }
  return { points, fits };
}

const lineHeight = (size) => size * 1.45;

// The y of the first of an area's label lines (`lines`, drawn at y 0, each
// `apart` under the one before): `least`, or lower where a line's box would
// reach over the circle round (ax, ay) of radius `inner`.
function labelsTop(lines, ay, inner, least, apart) {
  let y = least;
  lines.forEach((node, i) => {
    const box = node.getBBox(), half = box.width / 2 + 0.5;
    if (half < inner) y = Math.max(y, ay - Math.sqrt(inner * inner - half * half) - box.y + 0.5 - i * apart);
  });
  return y;
}

// The board's height in units and the scale it is drawn at in `room`: the
// lines of the middle go under the ring where the board is drawn small.
function fitIn(room, lines) {
  const under = legible(12, scaleIn(room, W, H)) > 14;
  let height = H;
  if (under) {
    const size = legible(12, scaleIn(room, W, H + 400));
    height = UNDER_TOP + (3 + lines.seats.length) * lineHeight(size) + 12;
  }
  return { under, height, scale: scaleIn(room, W, height) };
}

// A fence icon's height in units at `scale`: ICON_PX on screen at least.
const barAt = (scale) => Math.min(Math.max(BAR, ICON_PX / scale), BAR_MOST);

export function draw(svg, obs, ctx) {
  const lines = middleLines(obs);
  const areas = obs.areas || [];
  const n = Math.max(1, areas.length);
  // A fence as long as the ring is wide and as wide as the room between its
  // two areas allows; ten areas are drawn smaller to leave it FENCE_ROOM.
  const between = 2 * R * Math.sin(Math.PI / n);
  const radius = Math.min(78, (Math.PI * R) / n * 0.78, (between - FENCE_ROOM) / 2);
  const gap = between - 2 * radius;
  const fw = Math.max(26, Math.min(44, gap - 6));
  // Where the room the page gives (a phone's window under its controls)
  // would draw the fences' arrows under ARROW_PX, or a crowded area's sheep
  // under SHEEP_LEAST_PX, the board is drawn to its column's width alone,
  // taller than the window, and the page scrolls.
  const fitted = fitIn(ctx.room, lines);
  const arrowPx = (scale) => Math.min(fw - 12, barAt(scale) - 4) * scale;
  const wider = ctx.room && ctx.room.height ? fitIn({ width: ctx.room.width }, lines) : fitted;
  const grows = wider.scale > fitted.scale;
  const geometry = { lines, areas, n, radius, fw };
  if (grows && arrowPx(fitted.scale) < ARROW_PX) {
    drawAt(svg, obs, wider, geometry);
    return { tall: true };
  }
  const least = drawAt(svg, obs, fitted, geometry);
  if (grows && least < SHEEP_LEAST_PX) {
    drawAt(svg, obs, wider, geometry);
    return { tall: true };
  }
  return { tall: false };
}

// Draws the board at `fitted`'s scale; gives the least width of a sheep on
// screen, in CSS pixels.
function drawAt(svg, obs, fitted, { lines, areas, n, radius, fw }) {
  const { under, height, scale } = fitted;
  const oneLine = 2 * radius * scale < AREA_TWO_LINES_PX;
  let least = Infinity;
  const f = (size) => legible(size, scale);
  reset(svg, W, height);
  svg.append(s("rect", { x: 0, y: 0, width: W, height, fill: "#b7d79a", rx: 14 }));
  const cx = W / 2, cy = H / 2;
  // Each area's label lines: their words, y from the ring's middle down, bold.
  const labelsAt = new Map();
  svg.append(s("circle", { cx, cy, r: R, fill: "none", stroke: "#8db36d", "stroke-width": 60 }));
  const angleOfArea = (i) => ((i + 0.5) / n) * 2 * Math.PI - Math.PI / 2;
  const angleOfFence = (i) => (i / n) * 2 * Math.PI - Math.PI / 2;
  const centres = areas.map((_, i) => [cx + R * Math.cos(angleOfArea(i)), cy + R * Math.sin(angleOfArea(i))]);
  areas.forEach((area, i) => {
    const a = angleOfArea(i);
    const ax = cx + R * Math.cos(a), ay = cy + R * Math.sin(a);
    const pen = area.owner >= 0;
    const g = s("g", {
      class: "area", "data-area": area.index, "data-owner": area.owner,
      "data-sheep": (area.sheep || []).map((sh) => sh.id).join(","),
    });
    g.append(s("circle", { cx: ax, cy: ay, r: radius, fill: pen ? "#efe6cf" : "#7fb85a", stroke: pen ? seatColour(area.owner) : "#5d8f3f", "stroke-width": pen ? 5 : 2 }));
    // What it is, then its number: the event log and the move labels name
    // areas by number ("jumps from area 7 to area 8"), pens included.
    // Measured where they are drawn, they go as near the circle's top as
    // leaves them inside it: "meadow" at its top ran onto the fences beside.
    // An area drawn small (five seats on a phone) keeps its number alone:
    // the two lines took half its circle there, and a crowded area's sheep
    // were 6 px across. Its fill and ring still say meadow or pen, and the
    // seats' lines under the ring say whose pen it is.
    const label = f(11);
    const number = text(ax, 0, `area ${area.index}`, { class: "area-label", "font-size": label, fill: "#1f3f12", "font-weight": oneLine ? 700 : null });
    // In the ink, the pen's ring in its owner's colour: "pen 2" in seat 2's
    // yellow on the pen's cream was 1.8:1 (red 3.4, blue 3.9), under the
    // 4.5:1 small text needs; the words name the seat already.
    const kind = oneLine ? null : text(ax, 0, areaKind(area), { class: "area-kind", "font-size": label, "font-weight": 700, fill: "#1f3f12" });
    const labels = kind ? [kind, number] : [number];
    g.append(...labels);
    svg.append(g);
    const inner = radius - (pen ? 3 : 1.5);
    const first = labelsTop(labels, ay, inner, ay - radius + 5 + label / 2, label * 1.15);
    labels.forEach((node, k) => node.setAttribute("y", first + k * label * 1.15));
    const last = first + (labels.length - 1) * label * 1.15;
    labelsAt.set(area.index, labels.map((node, k) => [node.textContent, first + k * label * 1.15 - cy, node === kind || oneLine]));
    const sheep = area.sheep || [];
    const per = Math.max(3, Math.ceil(Math.sqrt(sheep.length)));
    // A sheep is 0.84 of a step across: larger where the board is drawn small,
    // as far as the area holds its rows.
    const want = Math.max(18, SHEEP_PX / (0.84 * scale));
    const step = Math.min(want, (radius * 1.3) / per);
    // The sheep start under the labels, however large the labels are drawn.
    const top = Math.max(oneLine ? -Infinity : ay - radius * 0.35 + 10, last + label * 0.6 + step * 0.5);
    // The wolf stands above its word, higher as the word is drawn larger.
    const word = f(10), wy = ay + radius - Math.max(0, word - 11);
    const wolf = obs.wolf_area === area.index;
    const foot = wolf ? wy - 50 : ay + radius - 2;
    // Rows as wide as the circle holds where `per` to a row runs past it, and
    // the sheep smaller as far as they must be to stay inside it: a 375x667
    // phone draws them large beside labels as large, and a full area's rows
    // ran over its circle onto the fences.
    // The sheep stay clear of the circle's line, which a pen draws thick.
    // A grid's rows as wide as the crowded area's circle held drew ten
    // sheep 8 px across where rows of four and three hold them at 11: such
    // rows are tried from SHEEP_PX down, and taken where they draw larger.
    const rows = (k) => ({ ...sheepRows(sheep.length, Infinity, { ax, ay, radius: inner, top: top - (step - k) / 2, foot, step: k }), step: k });
    let at = sheepRows(sheep.length, per, { ax, ay, radius: inner, top, foot, step });
    for (let k = want; k > 2 && !(at.fits && k <= step); k *= 0.94) {
      const tried = rows(k);
      if (tried.fits) at = tried;
      if (tried.fits) break;
    }
    for (let k = step * 0.94; !at.fits && k > 2; k *= 0.94) at = rows(k);
    if (sheep.length) least = Math.min(least, (at.step ?? step) * 0.84 * scale);
    sheep.forEach((sh, k) => {
      const [sx, sy] = at.points[k];
      g.append(s("circle", { class: "sheep", "data-sheep-id": sh.id, "data-colour": colourOf(sh.colour), cx: sx, cy: sy, r: (at.step ?? step) * 0.42, fill: SHEEP[colourOf(sh.colour)] || "#ccc", stroke: "#2d2d2d", "stroke-width": 1 }));
    });
    if (wolf) {
      g.append(s("g", { class: "wolf", "data-wolf-area": area.index },
        s("path", { d: `M ${ax - 16} ${wy - 34} l 6 -14 l 6 8 l 8 0 l 6 -8 l 6 14 l -6 18 l -20 0 z`, fill: "#4a4650", stroke: "#111" }),
        s("circle", { cx: ax - 5, cy: wy - 30, r: 2, fill: "#ffd400" }),
        s("circle", { cx: ax + 5, cy: wy - 30, r: 2, fill: "#ffd400" }),
        text(ax, ay + radius - 4 - word / 2, "wolf", { "font-size": word, fill: "#111" })));
    }
  });
  // A fence is longer where the board is drawn small, so that each icon is at
  // least ICON_PX high on screen (a phone drew them 8 px high, their arrows 6),
  // as far as the fence at the ring's foot stays clear of the lines under it.
  const bar = barAt(scale);
  const fh = 4 * bar + 8 + 3 * 3;
  for (const fence of obs.fences || []) {
    const a = angleOfFence(fence.index);
    const fx = cx + R * Math.cos(a), fy = cy + R * Math.sin(a);
    const deg = (a * 180) / Math.PI + 90;
    const active = obs.activation && obs.activation.fence === fence.index;
    const g = s("g", {
      class: "fence", "data-fence": fence.index, "data-owner": fence.owner,
      "data-card-id": fence.card ? fence.card.id : "", "data-orientation": short(fence.orientation, "STUBBORN_SHEEP_ORIENTATION_"),
      "data-height": fence.height, transform: `rotate(${deg} ${fx} ${fy})`,
    });
    g.append(s("rect", { x: fx - fw / 2, y: fy - fh / 2, width: fw, height: fh, rx: 5, fill: "#7b5530", stroke: active ? "#fff" : seatColour(fence.owner), "stroke-width": active ? 4 : 3 }));
    (fence.jumps || []).forEach((jump, k) => {
      const by = fy - fh / 2 + 4 + k * (bar + 3), colour = colourOf(jump.colour);
      g.append(s("rect", { x: fx - fw / 2 + 4, y: by, width: fw - 8, height: bar, rx: 3, fill: SHEEP[colour] || "#ccc", stroke: "#2a1a08", "stroke-width": 0.8 }));
      // Right is clockwise, towards right_area, whatever the fence's angle.
      const toRight = jump.to_area === fence.right_area;
      g.append(arrow(fx, by + bar / 2, fw - 12, bar - 4, toRight,
        { class: "jump-arrow", "data-to-area": jump.to_area, fill: inkOn(colour) }));
    });
    svg.append(g);
    if (fence.height > 1) {
      // Upright, beside the fence's outer end, on whichever side (or past
      // the end) keeps it off the areas: a phone's long fences put it over
      // the sheep and the words of the area clockwise of the fence.
      const size = f(14), label = `×${fence.height}`, half = widthOf(label, size, true) / 2;
      const out = [Math.cos(a), Math.sin(a)], along = [-Math.sin(a), Math.cos(a)];
      const at = (radial, side) => [fx + out[0] * radial + along[0] * side, fy + out[1] * radial + along[1] * side];
      const beside = fw / 2 + 4 + half, end = fh / 2 - size * 0.6;
      const places = [at(end, beside), at(end, -beside), at(fh / 2 + 3 + Math.max(half, size * 0.6), 0)];
      const foot = under ? UNDER_TOP - 4 : height;
      const clear = ([x, y]) => x - half >= 0 && x + half <= W && y - size * 0.6 >= 0 && y + size * 0.6 <= foot
        && centres.every(([ax, ay]) => Math.hypot(Math.max(Math.abs(x - ax) - half, 0), Math.max(Math.abs(y - ay) - size * 0.6, 0)) > radius + 3);
      const [lx, ly] = places.find(clear) ?? places[0];
      svg.append(text(lx, ly, label, { class: "fence-height", "data-fence": fence.index, "font-size": size, "font-weight": 700, fill: "#222" }));
    }
  }
  // Each fence's number, as the event log names it ("fence 8 icon 2: ..."):
  // upright, just inside the ring from the fence's inner end, far enough that
  // the words clear the fence whatever its angle, and over every fence.
  const label = f(11);
  for (const fence of obs.fences || []) {
    const a = angleOfFence(fence.index);
    const words = `fence ${fence.index}`, half = widthOf(words, label, true) / 2;
    let inward = R - fh / 2 - 8 - (half + 2) * Math.abs(Math.cos(a)) - (label / 2 + 1) * Math.abs(Math.sin(a));
    // Further in while it would reach either area beside the fence, whose
    // labels sit on the side facing the middle (ten areas leave little room).
    // Its box clears theirs too: a word wider than its area ("meadow" on a
    // 375x667 phone) reaches past the circle.
    const reach = radius + Math.max(half, label / 2) + 2;
    const beside = [[a - Math.PI / n, areas[(fence.index + n - 1) % n]], [a + Math.PI / n, areas[fence.index % n]]];
    const near = (r) => beside.some(([b, area]) => {
      const x = r * Math.cos(a), y = r * Math.sin(a), bx = R * Math.cos(b), by = R * Math.sin(b);
      if (Math.hypot(x - bx, y - by) < reach) return true;
      return area && labelsAt.get(area.index).some(([words2, ly, bold]) =>
        Math.abs(x - bx) < half + widthOf(words2, label, bold) / 2 + 2 && Math.abs(y - ly) < label * 1.2 + 2);
    });
    while (near(inward) && inward > R / 2) inward -= 2;
    svg.append(text(cx + inward * Math.cos(a), cy + inward * Math.sin(a), words, {
      class: "fence-label", "data-fence": fence.index, "font-size": label, "font-weight": 700, fill: "#3a2a14",
    }));
  }
  const small = f(12);
  // In the middle: the turn, the seat deciding, the piles, then a line per
  // seat; under the ring the same lines, one after another.
  const y = under ? (k) => UNDER_TOP + (k + 0.5) * lineHeight(small) : (k) => cy + [-40, -16, 10][k];
  const seatY = under ? (i) => y(3 + i) : (i) => cy + 40 + i * Math.max(20, lineHeight(small));
  svg.append(text(cx, y(0), lines.turn, { class: "turn-line", "font-size": f(16), "font-weight": 700, fill: "#1f3f12" }));
  svg.append(text(cx, y(1), lines.decides, { "font-size": f(14), fill: "#1f3f12", class: "deciding", "data-seat": lines.deciding }));
  svg.append(text(cx, y(2), lines.piles, { class: "piles", "font-size": small, fill: "#1f3f12" }));
  // Each seat by its number, and where the areas are labelled by number
  // alone, its pen's: the seat's colour alone said whose pen was whose.
  const seatWords = ({ seat, pen, points }) => `seat ${seat}` + (oneLine && pen !== undefined ? ` · pen area ${pen}` : "") + ` · ${points}`;
  const left = cx - Math.max(110, Math.max(0, ...lines.seats.map((line) => widthOf(seatWords(line), small))) / 2 + 12);
  lines.seats.forEach((line, i) => {
    const { seat } = line, words = seatWords(line);
    svg.append(s("circle", { cx: left, cy: seatY(i), r: Math.max(6, small / 2.2), fill: seatColour(seat) }));
    svg.append(text(left + Math.max(12, small), seatY(i), words, { "text-anchor": "start", "font-size": small, "data-seat-points": seat, fill: "#1f3f12" }));
  });
  return least;
}

export function scores(obs, players) {
  const rows = [];
  for (let seat = 0; seat < players; seat++) {
    const p = (obs.seats || [])[seat] || {};
    rows.push([p.points ?? 0, p.sets ?? 0, p.hand_size ?? 0]);
  }
  return { columns: ["points", "sets", "hand"], rows };
}

export function privatePart(obs, seat) {
  const hand = obs.hand || [];
  // At one unit a pixel, each icon as high as a fence's on the board at least
  // (a card 38 px wide drew them 9 px high, their arrows 7).
  const width = Math.max(1, hand.length) * (HAND_CARD + 6) + 8, height = HAND_CARD * 1.4 + 6;
  const row = s("svg", { class: "hand", width, height, viewBox: `0 0 ${width} ${height}` });
  hand.forEach((card, i) => row.append(fenceCard(card, 6 + i * (HAND_CARD + 6), 3, HAND_CARD, { class: "fence-card hand-card", "data-seat": seat })));
  return h("div", { class: "private-seat", "data-seat": seat },
    h("span", { class: "dot", style: `background:${seatColour(seat)}` }), ` seat ${seat}'s fence cards (${hand.length})`,
    // An empty hand draws no empty row of a card's height.
    hand.length ? [h("br"), row] : null);
}
