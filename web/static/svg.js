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

// Sets the viewBox and clears the svg for a fresh drawing.
export function reset(svg, width, height) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("data-width", width);
  return svg;
}
