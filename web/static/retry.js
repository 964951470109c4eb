// Waits between attempts at what failed for a moment (the viewer or the game
// server away, a proxy's 502): 1, 2, 4, 8, 15 and then every 30 s, so a page
// left open while the server is away asks twice a minute, not in a loop. A
// test may set its own (window.sheepfoldRetrySeconds) before the page loads.
const RETRY_SECONDS = window.sheepfoldRetrySeconds || [1, 2, 4, 8, 15, 30];

// Seconds to wait before trying again once `retries` retries failed already.
export function retryWait(retries) {
  return RETRY_SECONDS[Math.min(retries, RETRY_SECONDS.length - 1)];
}

// The JSON at `url`, or `error` saying why not and `again` whether the same
// request may be answered a moment later: none came (the viewer away, an
// answer broken off) or the viewer or a proxy failed (5xx); a 4xx says what
// is wrong with the request itself. `init` is fetch's own (its cache, say).
export async function fetchJson(url, init = {}) {
  let response = null;
  try {
    response = await fetch(url, init);
    const data = await response.json();
    if (response.ok) return data;
    return { error: data.error || `the viewer answered ${response.status}`, again: response.status >= 500 };
  } catch {
    // No JSON (a proxy's error page) is said by its status alone.
    if (!response || response.ok) return { error: "the viewer does not answer", again: true };
    return { error: `the viewer answered ${response.status}`, again: response.status >= 500 };
  }
}

// Resolves after `seconds`, and then only once the tab is shown: a page left
// in a background tab while the viewer is away asks nothing (it once went on
// asking twice a minute for as long as it was open), and asks at once when
// its tab is shown again, as the tournament page and a live match do.
// `say(when)` puts when the next try comes into the page's notice: "in N s"
// at once, then "when this tab is shown" if the wait ends while it is hidden
// (the notice went on saying "in N s" for as long as the tab stayed hidden).
export async function waitToRetry(seconds, say = () => {}) {
  say(`in ${seconds} s`);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  if (!document.hidden) return;
  say("when this tab is shown");
  await new Promise((resolve) => {
    const shown = () => {
      if (document.hidden) return;
      document.removeEventListener("visibilitychange", shown);
      resolve();
    };
    document.addEventListener("visibilitychange", shown);
  });
}
