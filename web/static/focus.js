// The keyboard's focus kept across a redraw of part of a page (the matches
// list's rows, a running tournament's report), which takes the focused link
// out: the focus fell to the page's top, and Tab began again from the top bar.

// The link the focus stands on inside `box` (null: none, or `box` itself).
export function focusedLink(box) {
  const el = document.activeElement;
  if (!el || el === box || !box.contains(el)) return null;
  return { href: el.getAttribute("href"), text: el.textContent };
}

// The same link found again in `box` after the redraw (by its address, its
// words telling apart two links to one place); gone, `box` itself (given
// tabindex="-1"), so Tab goes on from there.
export function refocus(box, focused) {
  if (!focused) return;
  const same = [...box.querySelectorAll("a[href]")].filter((a) => a.getAttribute("href") === focused.href);
  const link = same.find((a) => a.textContent === focused.text) || same[0];
  (link || box).focus({ preventScroll: true });
}

// The elements from `el` up to `top` (left out), outermost first.
function chain(el, top) {
  const path = [];
  for (let node = el; node && node !== top; node = node.parentNode) path.unshift(node);
  return path;
}

// What an element is, to find it again in a redraw: a row or cell by its key
// (a match, a bot, a crosstable pair), anything else by its tag, id and class.
function identity(el) {
  const key = ["data-match-id", "data-bot", "data-row", "data-col"].map((name) => el.getAttribute(name)).join("\n");
  return [el.tagName, el.id, key.trim() ? key : el.getAttribute("class")].join("\n");
}

// Puts `fresh`'s nodes (a redraw of `box`, as a fragment) in place of `box`'s
// own, keeping the focused link, `focused` (focusedLink), the very same
// element where `fresh` has it in the same place (the same row of the same
// table, say): the elements it sits in stay, each taking its fresh twin's
// attributes, the fresh nodes put around them; else `box` takes `fresh`
// whole. Whether it kept the link (if not, refocus finds it again). Swapped
// whole, a focused link was taken out and a new one focused, which a screen
// reader said again at every refresh.
export function swapKeepingFocus(box, fresh, focused) {
  const link = document.activeElement;
  const held = focused && link && link !== box && box.contains(link) ? chain(link, box) : null;
  const twins = held && [...fresh.querySelectorAll("a[href]")]
    .filter((a) => a.getAttribute("href") === focused.href && a.textContent === focused.text)
    .map((a) => chain(a, fresh))
    .find((path) => path.length === held.length && path.every((el, i) => identity(el) === identity(held[i])));
  if (!twins) {
    box.replaceChildren(fresh);
    return false;
  }
  let parent = box;
  let from = fresh;
  held.forEach((kept, i) => {
    const twin = twins[i];
    const nodes = [...from.childNodes];
    const at = nodes.indexOf(twin);
    for (const node of [...parent.childNodes]) if (node !== kept) node.remove();
    kept.before(...nodes.slice(0, at));
    kept.after(...nodes.slice(at + 1));
    for (const name of kept.getAttributeNames()) if (!twin.hasAttribute(name)) kept.removeAttribute(name);
    for (const name of twin.getAttributeNames()) kept.setAttribute(name, twin.getAttribute(name));
    parent = kept;
    from = twin;
  });
  link.replaceChildren(...from.childNodes); // its words, the same
  return true;
}
