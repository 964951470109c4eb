// Tiny helpers to build SVG and HTML without a framework.
const SVG_NS = "http://www.w3.org/2000/svg";

// One colour per seat: Sheep Showdown seats six players.
export const SEAT_COLOURS = ["#d9482b", "#2f6fcf", "#e0a400", "#7a3fb5", "#1f9e6e", "#c2368a"];

export function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null) continue;
    if (key === "class") node.className = value;
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}

export function text(x, y, content, attrs = {}) {
  return s("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", ...attrs }, content);
}

// "SHEEP_SHOWDOWN_CARD_SHEEP_1" -> "SHEEP_1" given the prefix "SHEEP_SHOWDOWN_CARD_".
export function short(name, prefix) {
  return typeof name === "string" && name.startsWith(prefix) ? name.slice(prefix.length) : String(name);
}

export function seatColour(seat) {
  return seat === null || seat === undefined || seat < 0 ? "#8aa37b" : SEAT_COLOURS[seat % SEAT_COLOURS.length];
}

// "#rrggbb" as [r, g, b], 0 to 255.
function channels(colour) {
  return [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
}

// WCAG's relative luminance of [r, g, b].
function luminance(rgb) {
  const [r, g, b] = rgb.map((v) => {
    v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

// `top` ("#rrggbb") at `alpha` over `under`, as [r, g, b].
export function blend(top, under, alpha) {
  const [a, b] = [channels(top), channels(under)];
  return a.map((v, i) => alpha * v + (1 - alpha) * b[i]);
}

// Black or white, whichever reads better on `ground` ("#rrggbb" or [r, g, b]):
// one of them is always 4.58:1 or more. White alone was 2.2:1 on seat 2's
// yellow and 4.28:1 on seat 0's red.
export function inkOn(ground) {
  const l = luminance(typeof ground === "string" ? channels(ground) : ground);
  return (1.05 / (l + 0.05)) >= ((l + 0.05) / 0.05) ? "#fff" : "#000";
}

// Sets the viewBox and clears the svg for a fresh drawing.
export function reset(svg, width, height) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("data-width", width);
  return svg;
}

// The least height, in CSS pixels on screen, of a board's text. A board is
// drawn to fit its room, so on a phone (390 px) its labels of 10 or 11 units
// came out 4 to 6 px high: area, fence and cell numbers no one could read.
export const LEAST_TEXT_PX = 10.5;

// How many CSS pixels a unit of a `width` by `height` drawing takes in `room`
// (the board's column and its largest height, in CSS pixels); 1 with no room.
export function scaleIn(room, width, height) {
  if (!room || !(room.width > 0)) return 1;
  return Math.min(room.width / width, (room.height || Infinity) / height);
}

// A font size, in units of a drawing shown at `scale`: `size`, or larger where
// `size` would show under LEAST_TEXT_PX.
export function legible(size, scale) {
  return Math.max(size, LEAST_TEXT_PX / scale);
}

// About how wide `content` is set in `size` units (bold a little wider): a
// layout's guess, before the text is drawn.
export function widthOf(content, size, bold = false) {
  return String(content).length * size * (bold ? 0.62 : 0.56);
}

// Squeezes a drawn text to `room` units where it runs wider, as measured
// where it is drawn (a guess at its width, as widthOf gives, can fall short).
export function squeezeTo(node, room) {
  if (node.getComputedTextLength() > room) {
    node.setAttribute("textLength", room);
    node.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
  return node;
}
