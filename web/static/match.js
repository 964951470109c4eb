// The match page: draws one frame at a time, live from Server-Sent Events or
// replayed from the recorded frames, with the controls, the seat views and
// the event log kept in step. Its parts, by job, are in match/: what the page
// holds (model.js), how it names seats (names.js), what it draws (draw.js),
// the replay's controls (replay.js) and the live stream (live.js).
import { boot, model, notice } from "./match/model.js";
import { drawSeatBots } from "./match/names.js";
import { render, tickClock } from "./match/draw.js";
import { fillViews, goLast, goMove, loadFrames, moveFromHash, moveFromQuery, notLive } from "./match/replay.js";
import { follow } from "./match/live.js";

setInterval(tickClock, 200);
drawSeatBots();
if (model.live) {
  // A link naming a move: a live page holds the moves from its latest on, and
  // the replay only once the match is over. It opened at the latest move and
  // said nothing, as if the link had named no move.
  const linked = /^#move=/.test(location.hash) ? location.hash.slice("#move=".length) : boot.move;
  if (linked !== null && linked !== undefined) notLive(String(linked));
  if (document.hidden) {
    document.body.dataset.stream = "paused";
    render();
  } else follow();
} else {
  notice("");
  fillViews();
  render(); // the badge and controls, even when no frame can be shown
  if (await loadFrames("public")) {
    // A link's move (#move=N, ?move=N) or else the last one: a finished match
    // opens at its end, its result shown (at move 0 a spectator saw the empty
    // start and no outcome); the start is one key (Home) or click away.
    // A move past the end (`?move=9999`, `#move=9999`) opens at the end and says so.
    const asked = /^#move=/.test(location.hash) ? moveFromHash() : moveFromQuery();
    if (asked !== null) goMove(asked, false);
    else goLast(false);
  }
}
tickClock();
