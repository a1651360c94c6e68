// Live verdicts: the server sends the caller's submissions as server-sent events; each row of the
// table is updated in place (no build step, no library).
(function () {
  var table = document.getElementById("submissions");
  if (!table || !window.EventSource) return;
  var only = table.getAttribute("data-only");
  var source = new EventSource(table.getAttribute("data-live"));
  source.addEventListener("submissions", function (event) {
    JSON.parse(event.data).forEach(function (s) {
      if (only && String(s.id) !== only) return;
      var row = document.getElementById("s" + s.id);
      if (!row) return;
      var verdict = s.verdict && !s.queued ? s.verdict : (s.done !== null ? "judging" : "queued");
      if (s.score !== null && s.score !== undefined) verdict += " " + s.score;
      row.querySelector(".verdict").textContent = verdict;
      row.querySelector(".tests").textContent = s.done !== null ? s.done + "/" + s.total : "";
      row.querySelector(".cpu").textContent = s.cpu_ms + " ms";
      row.querySelector(".memory").textContent = s.memory_mib !== null ? s.memory_mib + " MiB" : "";
    });
  });
})();
