// The page of an answer that may come a moment later (the game server away or
// not answering, 502 and 504; the viewer busy, 503) tries again by itself, as
// the viewer's other pages do: 1, 2, 4, 8, 15 and then every 30 s, and shows
// the page asked for once it answers. It once stayed as it was until reloaded
// by hand: a match's link opened while the game server restarted was a dead end.
import { retryWait, waitToRetry } from "./retry.js";

const note = document.getElementById("again");
let retries = 0;

async function tryAgain() {
  for (;;) {
    await waitToRetry(retryWait(retries), (when) => {
      note.textContent = `Trying again ${when}.`;
    });
    note.textContent = "Trying again now…";
    let status = 0;
    try {
      status = (await fetch(location.href, { method: "HEAD", cache: "no-store" })).status;
    } catch {
      status = 0; // no answer at all: the viewer itself away
    }
    if (status !== 0 && status < 500) {
      location.reload();
      return;
    }
    retries += 1;
  }
}

tryAgain();
