// Live pages, no build step, no library. Every page: the contest's clock counts down, says "scoreboard
// frozen" from the contest file's freeze time and as the server says the coach froze, unfroze or
// finalized, moments are written in the reader's time zone, and the clarifications' badge follows what
// the server says of them. The submissions tables: the server sends the caller's submissions as
// server-sent events; each row is updated in place, a new one added on top, a submission's own page
// fetches its judgement's account when it comes. The scoreboard and the clarifications page: told that
// something changed, they fetch themselves again (filtered by the server, as the page is) and swap
// what changed.
(function () {
  "use strict";

  function pad(number) {
    return (number < 10 ? "0" : "") + number;
  }

  function span(ms) {
    var seconds = Math.max(0, Math.ceil(ms / 1000));
    return Math.floor(seconds / 3600) + ":" + pad(Math.floor(seconds % 3600 / 60)) + ":" + pad(seconds % 60);
  }

  // (the server's words for the same moments: serve/scoreboard.py, clock_text)
  function clockText(clock, now) {
    if (clock.final) return "final results";
    if (now < clock.start) return "starts in " + span(clock.start - now);
    if (now >= clock.end) return "contest over";
    return span(clock.end - now) + " left";
  }

  // The freeze as the server says it (serve/scoreboard.py, Clock.shown's "freeze"): "frozen-next-final",
  // the contestants' freeze in force and the contest file's freeze to come (epoch ms, "" for none).
  function freezeOf(said) {
    var parts = said.split("-");
    return {frozen: parts[0] ? Number(parts[0]) : null, next: parts[1] ? Number(parts[1]) : null,
            final: parts[2] === "1"};
  }

  // The header's clock and its "scoreboard frozen"; called again when the stream changes the freeze
  // (liveClock).
  var tick = function () {};

  function countDown() {
    var shown = document.getElementById("clock");
    if (!shown) return;
    var mark = document.getElementById("frozen");
    var offset = Number(shown.getAttribute("data-now")) - Date.now();  // the server's clock, not the reader's
    tick = function () {
      var clock = freezeOf(shown.getAttribute("data-freeze"));
      clock.start = Number(shown.getAttribute("data-start"));
      clock.end = Number(shown.getAttribute("data-end"));
      var now = Date.now() + offset;
      var text = clockText(clock, now);
      if (shown.textContent !== text) shown.textContent = text;
      var frozen = !clock.final && (clock.frozen !== null || (clock.next !== null && now >= clock.next));
      if (mark && mark.hidden === frozen) mark.hidden = !frozen;
      // (a page's "Starts ... ends ..." turns to "Started", "ended" as the moments pass: breaker 54b saw
      // "ends" on a page left open across the end)
      // (a page's parts shown before the start, the problems list and the submit form's choice, are
      // fetched again once it has come: breaker 55b saw "not started yet" and an empty choice stay)
      var waiting = document.querySelectorAll("[data-at-start]");
      if (waiting.length && now >= clock.start + 1000) {
        var ids = [];
        for (var k = 0; k < waiting.length; k++) {
          waiting[k].removeAttribute("data-at-start");
          ids.push(waiting[k].id);
        }
        swapped(ids);
      }
      var words = document.querySelectorAll("[data-passed]");
      for (var i = 0; i < words.length; i++) {
        if (now >= Number(words[i].getAttribute("data-at")) && words[i].textContent !== words[i].getAttribute("data-passed")) {
          words[i].textContent = words[i].getAttribute("data-passed");
        }
      }
    };
    tick();
    setInterval(tick, 1000);
  }

  function localTimes(root) {
    var found = root.querySelectorAll("time[datetime]");
    for (var i = 0; i < found.length; i++) {
      var when = new Date(found[i].getAttribute("datetime"));
      if (!isNaN(when.getTime())) {
        found[i].textContent = when.toLocaleString([], {month: "short", day: "numeric", hour: "2-digit",
                                                        minute: "2-digit"});
      }
    }
  }

  function cell(row, text, name) {
    var td = document.createElement("td");
    if (name) td.className = name;
    td.textContent = text;
    row.appendChild(td);
    return td;
  }

  function added(table, s) {  // (the columns of templates/rows.html)
    var row = document.createElement("tr");
    row.id = "s" + s.id;
    var link = document.createElement("a");
    link.href = "/submissions/" + s.id;
    link.textContent = s.id;
    cell(row, "").appendChild(link);
    if (table.getAttribute("data-coach") === "1") {  // (a <bdi>, as the page's: a team's name keeps its direction)
      var name = document.createElement("bdi");
      name.textContent = s.team;
      cell(row, "", "team").appendChild(name);
    }
    var problem = cell(row, " " + s.problem_name);
    var letter = document.createElement("span");
    letter.className = "letter";
    letter.textContent = s.problem_letter;
    problem.insertBefore(letter, problem.firstChild);
    cell(row, "", "verdict");
    cell(row, "", "tests");
    cell(row, s.minute);
    cell(row, s.language_name);
    cell(row, "", "cpu");
    cell(row, "", "memory");
    table.tBodies[0].insertBefore(row, table.tBodies[0].firstChild);
    return row;
  }

  // This page's elements `ids` as the server shows them now (it filters them for the caller, as it did).
  function swapped(ids) {
    fetch(location.pathname, {credentials: "same-origin"}).then(function (answer) { return answer.text(); })
      .then(function (html) {
        var page = new DOMParser().parseFromString(html, "text/html");
        ids.forEach(function (id) {
          var fresh = page.getElementById(id);
          var now = document.getElementById(id);
          if (fresh && now) {
            now.replaceWith(fresh);
            localTimes(fresh);
            countedTexts(fresh);
          }
        });
      });
  }

  // One stream a page: its submissions' states, or the scoreboard's "it changed", or neither; and the
  // caller's clarifications when they change from what the page showed (body's data-clarified).
  function stream() {
    var table = document.getElementById("submissions");
    var board = document.getElementById("scoreboard") || document.getElementById("teams");
    var shown = document.body.getAttribute("data-clarified");
    if (!table && !board && !shown) return null;
    var url = table ? table.getAttribute("data-live") : board ? board.getAttribute("data-live") : "/events?submissions=0";
    if (shown) url += (url.indexOf("?") < 0 ? "?" : "&") + "clarifications=" + encodeURIComponent(shown);
    var clock = document.getElementById("clock");
    if (clock) url += (url.indexOf("?") < 0 ? "?" : "&") + "clock=" + encodeURIComponent(clock.getAttribute("data-freeze"));
    return new EventSource(url);
  }

  // A live change a screen reader says (the page's role=status region): a verdict that arrives, new
  // clarifications, a text grown too long. Breaker 54b F6: verdicts and badges changed in silence,
  // and the character count was read out at every keystroke.
  function announce(text) {
    var region = document.getElementById("announced");
    if (region) region.textContent = text;
  }

  function liveSubmissions(source) {
    var table = document.getElementById("submissions");
    if (!table) return;
    var only = table.getAttribute("data-only");
    var team = table.getAttribute("data-team");  // (the coach's list of one team's submissions)
    var judged = table.getAttribute("data-judged") === "1";
    source.addEventListener("submissions", function (event) {
      JSON.parse(event.data).reverse().forEach(function (s) {
        if (only && String(s.id) !== only) return;
        if (team && String(s.team_id) !== team) return;
        var row = document.getElementById("s" + s.id) || (only ? null : added(table, s));
        if (!row) return;
        var verdict = row.querySelector(".verdict");
        if (!s.queued && verdict.textContent !== s.verdict_text) {
          announce("Submission " + s.id + (s.problem_letter ? ", problem " + s.problem_letter : "") + ": " + s.verdict_text);
        }
        verdict.textContent = s.verdict_text;
        if (s.verdict_words) verdict.title = s.verdict_words; else verdict.removeAttribute("title");
        row.querySelector(".tests").textContent = s.tests_text;
        row.querySelector(".cpu").textContent = s.cpu_text;
        row.querySelector(".memory").textContent = s.memory_text;
        if (only && !s.queued && !judged) swapped(["judgement"]);  // (a CE's message, a coach's tests)
        if (only) judged = !s.queued;
      });
    });
  }

  // The scoreboard as the server shows it now, and what it says of the freeze (its times, the board's
  // note, the coach's actions); on the problems page, its times.
  function boardShown() {
    var ids = document.getElementById("board-state") ? ["board-state", "scoreboard"] :
      document.getElementById("teams") ? ["teams"] : ["times"];
    if (document.getElementById(ids[0])) swapped(ids);
  }

  function liveBoard(source) {  // (the scoreboard, and the coach's Teams page: breaker 55d F3)
    if (!document.getElementById("scoreboard") && !document.getElementById("teams")) return;
    source.addEventListener("board", boardShown);
  }

  // The freeze changed (the coach's action, or the contest file's freeze time came): the header says
  // it at once, the page's parts that say it are fetched again, and a stream opened again says it.
  function liveClock(source) {
    source.addEventListener("clock", function (event) {
      var shown = document.getElementById("clock");
      if (!shown) return;
      shown.setAttribute("data-freeze", event.data);
      tick();
      boardShown();
    });
  }

  function liveClarifications(source) {
    source.addEventListener("clarifications", function (event) {
      document.body.setAttribute("data-clarified", event.data);
      if (document.getElementById("threads")) {  // the clarifications page: the list as it is now (read)
        swapped(["threads", "unread"]);
        return;
      }
      var badge = document.getElementById("unread");
      var unread = Number(event.data.split("-")[0]);
      if (!badge) return;
      if (unread > Number(badge.textContent.split(" ")[0] || 0)) announce(unread + " " + badge.getAttribute("data-word") + " clarification(s)");
      badge.textContent = unread + " " + badge.getAttribute("data-word");
      badge.hidden = unread === 0;
    });
  }

  // The submit form: what the server would refuse at once is said before anything is sent (a file and
  // a pasted source together, a source over the limit, which the server would not even read), and
  // the pasted source stays where it is.
  function checkedSubmit() {
    var form = document.getElementById("submit");
    if (!form) return;
    var limit = Number(form.getAttribute("data-limit"));
    form.addEventListener("submit", function (event) {
      var file = form.querySelector("#file").files[0];
      var pasted = form.querySelector("#source").value;
      var refused = "";
      if (file && pasted.trim()) {
        refused = "a file and a pasted source: send one of them (to send the file, empty the pasted source)";
      } else if (file && !/\.zip$/i.test(file.name) && file.size > limit) {
        refused = "the file is over " + Math.floor(limit / 1024) + " KiB";
      } else if (!file && new Blob([pasted]).size > limit) {
        refused = "the source is over " + Math.floor(limit / 1024) + " KiB";
      }
      if (refused) {
        event.preventDefault();
        document.getElementById("refused").textContent = refused;
      }
    });
  }

  // A clarification's text areas (data-max): a live count of the characters, red past the most the
  // server takes (it refuses more and gives the text back); no maxlength, which cut a paste silently.
  function countedTexts(root) {
    var areas = root.querySelectorAll("textarea[data-max]");
    Array.prototype.forEach.call(areas, function (area) {
      var most = Number(area.getAttribute("data-max"));
      var count = document.createElement("span");
      count.className = "count";
      area.parentNode.appendChild(count);
      function update() {
        var used = Array.from(area.value.replace(/\r\n/g, "\n").trim()).length;  // (as the server counts)
        count.textContent = used + " / " + most + " characters" + (used > most ? ": too long, shorten it" : "");
        if (used > most && !count.classList.contains("over")) announce("Too long: at most " + most + " characters");
        count.classList.toggle("over", used > most);
      }
      area.addEventListener("input", update);
      update();
    });
  }

  countDown();
  checkedSubmit();
  countedTexts(document);
  localTimes(document);
  // A stream that fails to reconnect for LOST_AFTER ms (the server is down, or the network) says so at
  // the top of the page until it is back (breaker 54b: the pages looked live while the server was down);
  // the browser keeps reconnecting by itself, and the stream's first events say the state now.
  var LOST_AFTER = 4000;

  function lostSign(source) {
    var timer = null;
    function back() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      var note = document.getElementById("lost");
      if (note) {
        note.remove();
        announce("Connection to the judge is back");
      }
    }
    source.addEventListener("open", back);
    // what is true now: the server down, or up with this page's session over (logged out, a new
    // password: breaker 55d F2), or up with the stream ended; a page's GET sends a caller with no
    // session to the login page
    function check() {
      fetch(location.pathname, {credentials: "same-origin", redirect: "manual"}).then(function (answer) {
        return answer.type === "opaqueredirect" || answer.status === 401 || answer.status === 403 ?
          "You are logged out (your session ended): log in again to see this page updated." :
          "Live updates stopped: reload the page to see it updated.";
      }, function () {
        return "No connection to the judge: this page is not being updated. Trying again…";
      }).then(function (text) {
        if (source.readyState === EventSource.OPEN) return;
        var note = document.getElementById("lost") || document.createElement("p");
        note.id = "lost";
        note.setAttribute("role", "alert");
        note.textContent = text;
        if (/logged out/.test(text)) {
          var link = document.createElement("a");
          link.href = "/login";
          link.textContent = " Log in";
          note.appendChild(link);
        }
        if (!note.parentNode) document.body.insertBefore(note, document.body.firstChild);
      });
    }
    source.addEventListener("error", function () {
      // a stream the browser will not reopen (the server answered it, its session gone: breaker 55e
      // F1 saw "No connection" stay once the server was back) is looked at again now
      if (source.readyState === EventSource.CLOSED && document.getElementById("lost")) {
        check();
        return;
      }
      if (timer !== null || document.getElementById("lost")) return;
      timer = setTimeout(function () {
        timer = null;
        if (source.readyState !== EventSource.OPEN) check();
      }, LOST_AFTER);
    });
  }

  // The page's stream, its listeners on it. Ended by the server to make room for a newer stream of the
  // session (a fifth tab), it says "crowded": closed, not reconnected (each reconnect ended the next
  // oldest, without end: breaker 47c), and opened again when the tab is looked at once more, which
  // gives it what changed meanwhile (the stream's first events say the state now).
  function live() {
    var source = stream();
    if (!source) return;
    lostSign(source);
    liveSubmissions(source);
    liveBoard(source);
    liveClock(source);
    liveClarifications(source);
    source.addEventListener("crowded", function () {
      source.close();
      var note = document.createElement("p");
      note.id = "crowded";
      note.setAttribute("role", "status");
      note.textContent = "Live updates paused: this page is open in too many tabs. They resume when you come " +
        "back to this tab.";
      document.body.insertBefore(note, document.body.firstChild);
      function again() {
        if (document.visibilityState !== "visible") return;
        document.removeEventListener("visibilitychange", again);
        window.removeEventListener("focus", again);
        note.remove();
        live();
      }
      document.addEventListener("visibilitychange", again);
      window.addEventListener("focus", again);
    });
  }

  if (window.EventSource) live();
})();
