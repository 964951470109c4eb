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
