// The tournament page: while games are still to be played, fetch the report
// again every few seconds and swap it in.
const boot = JSON.parse(document.getElementById("boot").textContent);
const report = document.getElementById("report");

async function refresh() {
  const response = await fetch(boot.fragment_url);
  if (response.ok) {
    report.innerHTML = await response.text();
    const running = response.headers.get("X-Tournament-Running") === "1";
    report.dataset.running = String(running);
    report.dataset.refreshed = String(Number(report.dataset.refreshed || 0) + 1);
    if (!running) return;
  }
  setTimeout(refresh, 3000);
}

if (boot.running) setTimeout(refresh, 3000);
