"""The director's pages: each one HTML file with its script, no framework, for any browser on a laptop in the hall.

It asks the director's server for the boards every second. Rows of boards
whose players called the director are red, a fallen flag or a flagged play
amber, a finished match waiting for confirmation yellow with a button; a
click opens the board: its position drawn, its recent rulings, and the three
things the director may send. Every request that changes something carries the session's CSRF token;
the login page and the spectators' scores page are beside it.
"""

LOGIN_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tournament director: log in</title>
<style>body{font-family:sans-serif;margin:40px;background:#f4f1ea} label{display:block;margin:6px 0}
#problem{color:#a00}</style></head><body>
<h1>Tournament director</h1>
<p>Turnuva direktörü girişi / Director's login</p>
<label>Hesap / Account <select id="user"><option>director</option><option>deputy</option></select></label>
<label>Parola / Password <input id="password" type="password" autocomplete="current-password"></label>
<button id="login">Giriş / Log in</button>
<p id="problem"></p>
<script>
"use strict";
async function login() {
  const r = await fetch("/api/login", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({user: document.getElementById("user").value,
                          password: document.getElementById("password").value})});
  if (r.ok) { location.href = "/"; return; }
  document.getElementById("problem").textContent = r.status === 429 ?
    "Çok fazla hatalı deneme / Too many failed tries: " + await r.text() :
    "Hesap ya da parola yanlış / Wrong account or password";
}
document.getElementById("login").onclick = login;
document.getElementById("password").onkeydown = e => { if (e.key === "Enter") login(); };
</script></body></html>
"""

SCORES_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Scores</title>
<style>body{font-family:sans-serif;margin:12px;background:#f4f1ea} table{border-collapse:collapse;background:#fff}
th,td{border:1px solid #bbb;padding:4px 9px;font-size:15px} th{background:#ddd}</style></head><body>
<h1>Skorlar / Scores <span id="prefix"></span></h1>
<table id="scores"><thead><tr><th>Masa / Board</th><th>Beyaz / White</th><th>Siyah / Black</th>
<th>Skor / Score</th><th>Kazanan / Winner</th></tr></thead><tbody></tbody></table>
<script>
"use strict";
const esc = s => String(s ?? "").replace(/[&<>"']/g,
  c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
async function refresh() {
  let data;
  try { data = await (await fetch("/api/scores")).json(); } catch (e) { return; }
  document.getElementById("prefix").textContent = data.tournament;
  document.querySelector("#scores tbody").innerHTML = data.boards.map(b => {
    const p = b.players || ["?", "?"], s = b.score || ["-", "-"];
    return `<tr data-board="${esc(b.board)}"><td>${esc(b.board)}</td><td>${esc(p[0])}</td><td>${esc(p[1])}</td>
      <td>${esc(s[0])}-${esc(s[1])}${b.length ? " /" + esc(b.length) : ""}</td><td>${esc(b.winner || "")}</td></tr>`;
  }).join("");
}
refresh();
setInterval(refresh, 2000);
</script></body></html>
"""

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tournament director</title>
<style>
body{font-family:sans-serif;margin:12px;background:#f4f1ea;color:#222}
h1{font-size:20px;margin:0 0 8px} h2{font-size:16px;margin:12px 0 4px}
table{border-collapse:collapse;background:#fff} th,td{border:1px solid #bbb;padding:3px 7px;font-size:13px}
th{background:#ddd} tr.board{cursor:pointer} tr.board:hover{background:#eef}
tr.called{background:#f6b3b3} tr.flag{background:#ffd79a} tr.confirm{background:#fff3a0}
tr.offline td{color:#888} .mono{font-family:monospace;font-size:11px}
#layout{display:flex;gap:16px;align-items:flex-start} #detail{background:#fff;border:1px solid #bbb;padding:8px;
min-width:520px} button{margin:2px} #summary{margin-bottom:6px;font-size:13px}
</style></head><body>
<h1>Tournament director <span id="prefix"></span></h1>
<div id="who"><span id="user"></span> <button id="logout">Log out</button></div>
<div id="summary"></div>
<div id="layout"><div>
<table id="boards"><thead><tr><th>Board</th><th>White</th><th>Black</th><th>Score</th><th>Cube</th>
<th>Clocks</th><th>Turn</th><th>Flags</th><th>Entries</th><th>Gaps/dups</th><th>Set aside</th><th>Status</th></tr>
</thead>
<tbody></tbody></table>
<h2>Results</h2>
<table id="results"><thead><tr><th>Board</th><th>White</th><th>Black</th><th>Score</th><th>Winner</th>
<th>Head hash</th><th>Confirmed</th></tr></thead><tbody></tbody></table>
<p><a href="/results.csv">results.csv</a> &middot; <a href="/results.json">results.json</a></p>
<h2>The director's journal</h2><ul id="actions"></ul>
</div>
<div id="detail" hidden></div></div>
<script>
"use strict";
let open = null, csrf = null;
async function get(url) {
  const r = await fetch(url);
  if (r.status === 401) { location.href = "/login"; throw new Error("logged out"); }
  return r;
}
const esc = s => String(s ?? "").replace(/[&<>"']/g,
  c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
const clock = ms => ms == null ? "-" :
  Math.floor(ms / 60000) + ":" + String(Math.floor(ms / 1000) % 60).padStart(2, "0");
function clocks(c) {
  if (!c || !c.times_ms) return "-";
  const [w, b] = c.times_ms;
  return (c.running === "white" ? "<b>" + clock(w) + "</b>" : clock(w)) + " / " +
         (c.running === "black" ? "<b>" + clock(b) + "</b>" : clock(b));
}
function cube(c) { return c ? c.value + (c.owner ? " " + c.owner : "") + (c.offered ? " (offered)" : "") : "-"; }
function flags(b) {
  const f = [];
  if (b.called) f.push(b.on_the_way ? "DIRECTOR CALLED (on the way)" : "DIRECTOR CALLED");
  if (b.flag) f.push("flag fell: " + b.flag);
  if (b.stage === "illegal") f.push("illegal play");
  if (b.over && !b.confirmed) f.push("result to confirm");
  if (b.problem) f.push(b.problem);
  if (b.set_aside) f.push(b.set_aside + " message(s) set aside: " + b.last_set_aside);
  if (b.station_set_aside) f.push("the board set aside " + b.station_set_aside + " message(s) from here");
  return f.join("; ");
}
async function refresh() {
  let boards;
  try { boards = await (await get("/api/boards")).json(); } catch (e) { return; }
  const rows = boards.boards.map(b => {
    const cls = ["board", b.called ? "called" : (b.flag || b.stage === "illegal") ? "flag" :
                 (b.over && !b.confirmed) ? "confirm" : "", b.status === "offline" ? "offline" : ""].join(" ");
    const p = b.players || ["?", "?"], s = b.score || ["-", "-"];
    return `<tr class="${cls}" data-board="${esc(b.board)}"><td>${esc(b.board)}</td><td>${esc(p[0])}</td>
      <td>${esc(p[1])}</td><td>${s[0]}-${s[1]}${b.length ? " /" + b.length : ""}</td><td>${esc(cube(b.cube))}</td>
      <td>${clocks(b.clock)}</td><td>${esc(b.turn || "-")}</td><td>${esc(flags(b))}</td><td>${b.held}</td>
      <td>${b.gaps}/${b.duplicates}</td><td class="aside" title="${esc(b.last_set_aside)}">${b.set_aside}</td>
      <td>${esc(b.status)}</td></tr>`;
  });
  document.querySelector("#boards tbody").innerHTML = rows.join("");
  document.querySelectorAll("#boards tr.board").forEach(r => r.onclick = () => { open = r.dataset.board; detail(); });
  document.getElementById("prefix").textContent = boards.tournament;
  const called = boards.boards.filter(b => b.called).length;
  document.getElementById("summary").textContent = `${boards.boards.length} boards, ${called} calling the director,` +
    ` ${boards.boards.filter(b => b.over && !b.confirmed).length} results to confirm; broker ` +
    (boards.connected ? "connected" : "NOT connected");
  const results = await (await get("/results.json")).json();
  const actions = (await (await get("/api/actions")).json()).actions;
  document.getElementById("actions").innerHTML = actions.slice(0, 10).map(a =>
    `<li>${esc(a.at)} <b>${esc(a.who)}</b> ${esc(a.action)} ${esc(a.board || "")}</li>`).join("");
  document.querySelector("#results tbody").innerHTML = results.results.map(r =>
    `<tr><td>${esc(r.board)}</td><td>${esc(r.white)}</td><td>${esc(r.black)}</td>
     <td>${r.score_white}-${r.score_black}</td><td>${esc(r.winner)}</td>
     <td class="mono">${esc(r.head.slice(0, 16))}</td>
     <td>${r.confirmed ? "yes" : `<button data-confirm="${esc(r.board)}">Confirm</button>`}</td></tr>`).join("");
  document.querySelectorAll("button[data-confirm]").forEach(b => b.onclick = () =>
    post("/api/confirm", {board: b.dataset.confirm}));
  if (open) detail();
}
function drawBoard(board) {
  if (!board || typeof board !== "object") return "";
  const W = 520, H = 300, pw = 36, left = 14, bar = 20;
  const x = i => left + i * pw + (i >= 6 ? bar : 0);
  let svg = `<svg id="position" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg">
    <rect width="${W}" height="${H}" fill="#c8a46a"/>
    <rect x="${x(6) - bar}" y="0" width="${bar}" height="${H}" fill="#7a5230"/>`;
  for (let point = 1; point <= 24; point++) {
    const top = point >= 13, i = top ? point - 13 : 12 - point, px = x(i);
    const fill = point % 2 ? "#8b1e1e" : "#efe4c8";
    svg += top ? `<polygon points="${px},0 ${px + pw},0 ${px + pw / 2},${H * 0.42}" fill="${fill}"/>`
               : `<polygon points="${px},${H} ${px + pw},${H} ${px + pw / 2},${H * 0.58}" fill="${fill}"/>`;
    svg += `<text x="${px + pw / 2}" y="${top ? 11 : H - 3}" font-size="9" text-anchor="middle">${point}</text>`;
    const white = board.white[point], black = board.black[25 - point];
    const n = white || black, color = white ? "#fafafa" : "#222";
    for (let k = 0; k < Math.min(n, 5); k++) {
      const cy = top ? 30 + k * 26 : H - 30 - k * 26;
      svg += `<circle cx="${px + pw / 2}" cy="${cy}" r="12" fill="${color}" stroke="#555"/>`;
    }
    if (n > 5) svg += `<text x="${px + pw / 2}" y="${top ? 30 + 4 * 26 + 4 : H - 30 - 4 * 26 + 4}" font-size="11"
      text-anchor="middle" fill="${white ? "#000" : "#fff"}">${n}</text>`;
  }
  const bx = x(6) - bar / 2;
  const onBar = (n, y, fill, ink) => n ? `<circle cx="${bx}" cy="${y}" r="9" fill="${fill}" stroke="#555"/>` +
    `<text x="${bx}" y="${y + 4}" font-size="10" fill="${ink}" text-anchor="middle">${n}</text>` : "";
  svg += onBar(board.white[25], H / 2 + 20, "#fafafa", "#000") + onBar(board.black[25], H / 2 - 20, "#222", "#fff");
  svg += `<text x="${W - 4}" y="${H / 2}" font-size="10" text-anchor="end">` +
    `off W ${board.white[0]} B ${board.black[0]}</text>`;
  return svg + "</svg>";
}
async function detail() {
  const d = await (await get("/api/board/" + encodeURIComponent(open))).json();
  const el = document.getElementById("detail");
  el.hidden = false;
  const s = d.snapshot || {}, p = s.players || ["?", "?"];
  const rulings = (d.recent || []).slice(-12).reverse().map(r =>
    `<li>#${r.seq} ${esc(r.level)} <b>${esc(r.code)}</b> ${esc(JSON.stringify(r.params || {}))}</li>`).join("");
  const sent = (d.sent || []).slice(-5).reverse().map(m =>
    `<li>${esc(m.type)} ${esc(m.text || "")}${m.color ? esc(m.color + " " + clock(m.ms)) : ""}` +
    `${d.station_saw && d.station_saw.id === m.id ? " (seen by the station)" : ""}</li>`).join("");
  el.innerHTML = `<h2>Board ${esc(d.board)}: ${esc(p[0])} (White) - ${esc(p[1])} (Black)</h2>
    <div>Score ${(s.score || []).join("-")} of ${s.length ?? "-"}, game ${s.game ?? "-"}, ${esc(s.stage || "")},
      turn ${esc(s.turn || "-")}, dice ${esc((s.dice || []).join("-") || "-")}, cube ${esc(cube(s.cube))},
      clocks ${clocks(s.clock)}</div>
    ${drawBoard(s.board)}
    <div class="mono">${esc(s.xgid || "")}<br>
      Position ID ${esc(s.position_id || "-")} Match ID ${esc(s.match_id || "-")}
      <br>entry ${d.held}, head ${esc(d.head)}</div>
    <h2>Recent rulings</h2><ul id="rulings">${rulings}</ul>
    <h2>Send to the board</h2>
    <button id="otw">Director on the way</button>
    <input id="text" placeholder="message to the players" size="30"><button id="msg">Send message</button><br>
    <select id="color"><option>white</option><option>black</option></select>
    <input id="minutes" placeholder="m:ss" size="6"><button id="time">Correct time</button>
    <ul id="sent">${sent}</ul>`;
  el.querySelector("#otw").onclick = () => post("/api/send", {board: open, type: "on_the_way"});
  el.querySelector("#msg").onclick = () => post("/api/send", {board: open, type: "message",
    text: el.querySelector("#text").value});
  el.querySelector("#time").onclick = () => {
    const [m, sec] = el.querySelector("#minutes").value.split(":").map(Number);
    post("/api/send", {board: open, type: "time", color: el.querySelector("#color").value,
                        ms: ((m || 0) * 60 + (sec || 0)) * 1000});
  };
}
async function post(url, body) {
  const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
                              body: JSON.stringify(body)});
  if (r.status === 401) { location.href = "/login"; return; }
  if (!r.ok) alert(await r.text());
  refresh();
}
async function start() {
  const session = await (await get("/api/session")).json();
  csrf = session.csrf;
  document.getElementById("user").textContent = session.user;
  document.getElementById("logout").onclick = async () => { await post("/api/logout", {}); location.href = "/login"; };
  refresh();
  setInterval(refresh, 1000);
}
start();
</script></body></html>
"""
