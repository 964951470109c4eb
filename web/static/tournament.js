// The tournament page: while games are still to be played, ask for the report
// again every few seconds and swap it in when it changed (an unchanged one is
// a 304 for the ETag the page holds).
const boot = JSON.parse(document.getElementById("boot").textContent);
const report = document.getElementById("report");
let etag = boot.etag || null;

async function refresh() {
  let response = null;
  try {
    response = await fetch(boot.fragment_url, {
      cache: "no-store",
      headers: etag ? { "If-None-Match": etag } : {},
    });
  } catch {
    response = null; // the viewer is away for a moment: try again later
  }
  if (response && (response.ok || response.status === 304)) {
    if (response.status !== 304) {
      report.innerHTML = await response.text(); // the viewer's own escaped HTML
      etag = response.headers.get("ETag");
      report.dataset.refreshed = String(Number(report.dataset.refreshed || 0) + 1);
    }
    report.dataset.polled = String(Number(report.dataset.polled || 0) + 1);
    const running = response.headers.get("X-Tournament-Running") === "1";
    report.dataset.running = String(running);
    if (!running) return;
  }
  setTimeout(refresh, 3000);
}

if (boot.running) setTimeout(refresh, 3000);
