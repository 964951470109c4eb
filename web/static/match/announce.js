// The match page's polite status line (#announce), which a screen reader reads
// out: a notice at once, the turn line the newest a second at most. A live
// match at several moves a second queued every move in a screen reader, which
// fell ever further behind the board.
const line = document.getElementById("announce");
const GAP_MS = 1000;
let saidAt = -Infinity;
let latest = "";
let later = null;

// Said at once (a notice): it is given its second too, before a text waiting
// in sayLatest takes its place.
export function sayNow(text) {
  saidAt = performance.now();
  line.textContent = text;
}

// Said after a quiet second at once, else as the second is up; a newer text
// takes the place of one still waiting.
export function sayLatest(text) {
  latest = text;
  clearTimeout(later);
  sayWhenFree();
}

function sayWhenFree() {
  const wait = saidAt + GAP_MS - performance.now();
  if (wait > 0) later = setTimeout(sayWhenFree, wait);
  else sayNow(latest);
}
