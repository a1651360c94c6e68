// Live pages, no build step, no library. The submissions tables: the server sends the caller's
// submissions as server-sent events; each row is updated in place, a new one added on top. The
// scoreboard: told that something was judged, it fetches itself again (filtered by the server, as
// the page is) and swaps its table.
(function () {
  if (!window.EventSource) return;
  function cell(row, text, name) {
    var td = document.createElement("td");
    if (name) td.className = name;
    td.textContent = text;
    row.appendChild(td);
    return td;
  }
  function added(table, s) {
    var row = document.createElement("tr");
    row.id = "s" + s.id;
    var link = document.createElement("a");
    link.href = "/submissions/" + s.id;
    link.textContent = s.id;
    cell(row, "").appendChild(link);
    if (table.getAttribute("data-coach") === "1") cell(row, s.team);
    cell(row, s.problem);
    cell(row, s.language);
    cell(row, s.minute);
    ["verdict", "tests", "cpu", "memory"].forEach(function (name) { cell(row, "", name); });
    table.tBodies[0].insertBefore(row, table.tBodies[0].firstChild);
    return row;
  }
  var table = document.getElementById("submissions");
  if (table) {
    var only = table.getAttribute("data-only");
    new EventSource(table.getAttribute("data-live")).addEventListener("submissions", function (event) {
      JSON.parse(event.data).reverse().forEach(function (s) {
        if (only && String(s.id) !== only) return;
        var row = document.getElementById("s" + s.id) || (only ? null : added(table, s));
        if (!row) return;
        var verdict = s.verdict && !s.queued ? s.verdict : (s.done !== null ? "judging" : "queued");
        if (s.score !== null && s.score !== undefined) verdict += " " + s.score;
        row.querySelector(".verdict").textContent = verdict;
        row.querySelector(".tests").textContent = s.done !== null ? s.done + "/" + s.total : "";
        row.querySelector(".cpu").textContent = s.cpu_ms + " ms";
        row.querySelector(".memory").textContent = s.memory_mib !== null ? s.memory_mib + " MiB" : "";
      });
    });
  }
  var board = document.getElementById("scoreboard");
  if (board) {
    new EventSource(board.getAttribute("data-live")).addEventListener("board", function () {
      fetch("/scoreboard", {credentials: "same-origin"}).then(function (answer) { return answer.text(); })
        .then(function (html) {
          var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("scoreboard");
          var now = document.getElementById("scoreboard");
          if (fresh && now) now.replaceWith(fresh);
        });
    });
  }
})();
