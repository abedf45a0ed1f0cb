"""The director's pages: each one HTML file with its script, no framework, for any browser on a laptop in the hall.

It asks the director's server for the boards every second. Rows of boards
whose players called the director are red, with a banner and a beep (WebAudio) when a board starts calling; a
fallen flag or a flagged play amber, a finished match waiting for confirmation yellow with a button; a
click opens the board: its position drawn, its recent rulings in words, and the three
things the director may send. With a tournament book it shows the brackets (or the round robin) and the
standings and takes the director's registrations, draw, assignments and corrections. Turkish or English, by a
switch the browser remembers. Every request that changes something carries the session's CSRF token;
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
h1{font-size:20px;margin:0 0 8px} h2{font-size:16px;margin:12px 0 4px} h3{font-size:14px;margin:6px 0 3px}
table{border-collapse:collapse;background:#fff} th,td{border:1px solid #bbb;padding:3px 7px;font-size:13px}
th{background:#ddd} tr.board{cursor:pointer} tr.board:hover{background:#eef}
tr.called{background:#f6b3b3} tr.flag{background:#ffd79a} tr.confirm{background:#fff3a0}
tr.offline td{color:#888} .mono{font-family:monospace;font-size:11px}
#layout{display:flex;gap:16px;align-items:flex-start} #detail{background:#fff;border:1px solid #bbb;padding:8px;
min-width:520px} button{margin:2px} #summary{margin-bottom:6px;font-size:13px}
#alarm{background:#c00;color:#fff;font-weight:bold;padding:6px 10px;margin:6px 0;animation:blink 1s infinite}
@keyframes blink{50%{opacity:.55}}
#tournament{background:#fff;border:1px solid #bbb;padding:8px;margin:8px 0}
.brackets{display:flex;flex-direction:column;gap:6px} .bracket{display:flex;gap:10px;align-items:center}
.round{display:flex;flex-direction:column;gap:4px;min-width:150px}
.match{border:1px solid #888;border-radius:4px;padding:2px 5px;font-size:12px;background:#fafafa}
.match.ready{border-color:#2a7;background:#effaf2} .match .id{color:#666;font-size:10px} .won{font-weight:bold}
.open{color:#888;font-style:italic} #book-problem{color:#a00} .forms div{margin:3px 0}
</style></head><body>
<h1><span data-t="title">Tournament director</span> <span id="prefix"></span></h1>
<div id="who"><span id="user"></span> <button id="logout" data-t="logout">Log out</button>
<label><span data-t="language">Language</span> <select id="lang"><option value="tr">Türkçe</option>
<option value="en">English</option></select></label></div>
<div id="alarm" hidden></div>
<div id="summary"></div>
<div id="layout"><div>
<table id="boards"><thead><tr><th data-t="board">Board</th><th data-t="white">White</th><th data-t="black">Black</th>
<th data-t="score">Score</th><th data-t="cube">Cube</th><th data-t="clocks">Clocks</th><th data-t="turn">Turn</th>
<th data-t="flags">Flags</th><th data-t="entries">Entries</th><th data-t="gaps">Gaps/dups</th>
<th data-t="aside">Set aside</th><th data-t="status">Status</th></tr></thead>
<tbody></tbody></table>
<div id="tournament" hidden>
<h2><span data-t="tournament">Tournament</span>: <span id="event"></span></h2>
<div id="book-problem"></div>
<div class="forms">
<div id="before-draw"><input id="p-name" data-ph="name" placeholder="name" size="16">
<input id="p-club" data-ph="club" placeholder="club" size="12"><input id="p-rating" data-ph="rating"
placeholder="rating" size="6"><button id="register" data-t="register">Register</button>
<label><input type="checkbox" id="seeded"> <span data-t="seeded">seeded by rating</span></label>
<button id="draw" data-t="draw">Draw</button><ol id="players"></ol></div>
<div id="after-draw" hidden>
<div><span data-t="assign_label">Put a match on a board</span>: <select id="a-match"></select>
<input id="a-board" data-ph="board_no" placeholder="board" size="5"><button id="assign" data-t="assign">Assign</button>
</div>
<div><span data-t="correct_label">Correct a result</span>: <select id="c-match"></select>
<select id="c-winner"></select><input id="c-score" placeholder="3-1" size="5">
<input id="c-reason" data-ph="reason" placeholder="reason" size="24">
<button id="correct" data-t="correct">Correct</button></div>
</div></div>
<div id="brackets" class="brackets"></div>
<h3 data-t="standings">Standings</h3>
<table id="standings"><thead><tr><th>#</th><th data-t="player">Player</th><th data-t="wins">Wins</th>
<th data-t="losses">Losses</th><th data-t="points">Points</th></tr></thead><tbody></tbody></table>
<p><a id="sheet" href="/sheet.html?lang=en" target="_blank" data-t="sheet">Printable bracket sheet</a> &middot;
<a href="/tournament.csv">tournament.csv</a> &middot; <a href="/tournament.json">tournament.json</a></p>
<h3 data-t="book">The tournament book</h3><ul id="book-actions"></ul>
</div>
<h2 data-t="results">Results</h2>
<table id="results"><thead><tr><th data-t="board">Board</th><th data-t="white">White</th><th data-t="black">Black</th>
<th data-t="score">Score</th><th data-t="winner">Winner</th><th data-t="head">Head hash</th>
<th data-t="confirmed">Confirmed</th></tr></thead><tbody></tbody></table>
<p><a href="/results.csv">results.csv</a> &middot; <a href="/results.json">results.json</a></p>
<h2 data-t="journal">The director's journal</h2><ul id="actions"></ul>
</div>
<div id="detail" hidden></div></div>
<script>
"use strict";
const T = {
  en: {title: "Tournament director", logout: "Log out", language: "Language", board: "Board", white: "White",
    black: "Black", score: "Score", cube: "Cube", clocks: "Clocks", turn: "Turn", flags: "Flags", entries: "Entries",
    gaps: "Gaps/dups", aside: "Set aside", status: "Status", results: "Results", winner: "Winner",
    head: "Head hash", confirmed: "Confirmed", journal: "The director's journal", tournament: "Tournament",
    register: "Register", seeded: "seeded by rating", draw: "Draw", assign_label: "Put a match on a board",
    assign: "Assign", correct_label: "Correct a result", correct: "Correct", standings: "Standings",
    player: "Player", wins: "Wins", losses: "Losses", points: "Points", sheet: "Printable bracket sheet",
    book: "The tournament book", name: "name", club: "club", rating: "rating", board_no: "board",
    reason: "reason", called: "DIRECTOR CALLED", on_the_way: "on the way", flag_fell: "flag fell",
    illegal: "illegal play", to_confirm: "result to confirm", aside_n: "message(s) set aside",
    station_aside: "message(s) from here set aside by the board", calling: "calling the director",
    boards: "boards", results_to_confirm: "results to confirm", broker: "broker", connected: "connected",
    not_connected: "NOT connected", yes: "yes", confirm: "Confirm", rulings: "Recent rulings",
    join_qr: "The board's join code (QR, for its camera)",
    send: "Send to the board", otw: "Director on the way", message: "message to the players",
    send_msg: "Send message", time: "Correct time", seen: "seen by the station", alarm: "Board {b} calls the director",
    game: "game", dice: "dice", of: "of", entry: "entry", withdrawn: "withdrawn"},
  tr: {title: "Başhakem", logout: "Çıkış", language: "Dil", board: "Masa", white: "Beyaz", black: "Siyah",
    score: "Skor", cube: "Küp", clocks: "Saatler", turn: "Sıra", flags: "Uyarılar", entries: "Kayıt",
    gaps: "Boşluk/tekrar", aside: "Ayrılan", status: "Durum", results: "Sonuçlar", winner: "Kazanan",
    head: "Son kayıt özeti", confirmed: "Onaylandı", journal: "Başhakemin kayıt defteri", tournament: "Turnuva",
    register: "Kaydet", seeded: "puana göre seri başı", draw: "Kura çek", assign_label: "Maçı masaya ver",
    assign: "Ver", correct_label: "Sonucu düzelt", correct: "Düzelt", standings: "Sıralama", player: "Oyuncu",
    wins: "Galibiyet", losses: "Mağlubiyet", points: "Puan", sheet: "Yazdırılacak eşleşme tablosu",
    book: "Turnuva defteri", name: "ad", club: "kulüp", rating: "puan", board_no: "masa", reason: "gerekçe",
    called: "HAKEM ÇAĞRILDI", on_the_way: "hakem yolda", flag_fell: "süre bitti", illegal: "kural dışı hamle",
    to_confirm: "onay bekleyen sonuç", aside_n: "mesaj ayrıldı", station_aside: "mesaj masa tarafından ayrıldı",
    calling: "hakem çağırıyor", boards: "masa", results_to_confirm: "onay bekleyen sonuç", broker: "aracı",
    connected: "bağlı", not_connected: "BAĞLI DEĞİL", yes: "evet", confirm: "Onayla", rulings: "Son kararlar",
    join_qr: "Masanın katılım kodu (QR, kamerası için)",
    send: "Masaya gönder", otw: "Hakem yolda", message: "oyunculara mesaj", send_msg: "Mesajı gönder",
    time: "Süreyi düzelt", seen: "masa gördü", alarm: "{b} numaralı masa hakem çağırıyor", game: "oyun",
    dice: "zar", of: "/", entry: "kayıt", withdrawn: "çekildi"}
};
let lang = localStorage.getItem("tavla-lang") || ((navigator.language || "").startsWith("tr") ? "tr" : "en");
const t = key => (T[lang] || T.en)[key] || T.en[key] || key;
let open = null, csrf = null, calling = new Set(), beeps = 0, audio = null, tour = null;
function applyLang() {
  document.documentElement.lang = lang;
  document.getElementById("lang").value = lang;
  document.querySelectorAll("[data-t]").forEach(el => el.textContent = t(el.dataset.t));
  document.querySelectorAll("[data-ph]").forEach(el => el.placeholder = t(el.dataset.ph));
  document.getElementById("sheet").href = "/sheet.html?lang=" + lang;
}
function beep() {
  beeps += 1;
  document.body.dataset.beeps = beeps;
  try {
    audio = audio || new AudioContext();
    audio.resume();
    const osc = audio.createOscillator(), gain = audio.createGain();
    osc.frequency.value = 880;
    gain.gain.value = 0.2;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.35);
  } catch (e) { /* no sound here: the red banner stays */ }
}
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
  if (b.called) f.push(t("called") + (b.on_the_way ? " (" + t("on_the_way") + ")" : ""));
  if (b.flag) f.push(t("flag_fell") + ": " + b.flag);
  if (b.stage === "illegal") f.push(t("illegal"));
  if (b.over && !b.confirmed) f.push(t("to_confirm"));
  if (b.problem) f.push(b.problem);
  if (b.set_aside) f.push(b.set_aside + " " + t("aside_n") + ": " + b.last_set_aside);
  if (b.station_set_aside) f.push(b.station_set_aside + " " + t("station_aside"));
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
  const now = new Set(boards.boards.filter(b => b.called && !b.on_the_way).map(b => b.board));
  if ([...now].some(b => !calling.has(b))) beep();
  calling = now;
  const alarm = document.getElementById("alarm");
  alarm.hidden = now.size === 0;
  alarm.textContent = [...now].map(b => t("alarm").replace("{b}", b)).join(" · ");
  const called = boards.boards.filter(b => b.called).length;
  document.getElementById("summary").textContent = `${boards.boards.length} ${t("boards")}, ${called} ` +
    `${t("calling")}, ${boards.boards.filter(b => b.over && !b.confirmed).length} ${t("results_to_confirm")}; ` +
    `${t("broker")} ` + (boards.connected ? t("connected") : t("not_connected"));
  const results = await (await get("/results.json")).json();
  const actions = (await (await get("/api/actions")).json()).actions;
  document.getElementById("actions").innerHTML = actions.slice(0, 10).map(a =>
    `<li>${esc(a.at)} <b>${esc(a.who)}</b> ${esc(a.action)} ${esc(a.board || "")}</li>`).join("");
  document.querySelector("#results tbody").innerHTML = results.results.map(r =>
    `<tr><td>${esc(r.board)}</td><td>${esc(r.white)}</td><td>${esc(r.black)}</td>
     <td>${r.score_white}-${r.score_black}</td><td>${esc(r.winner)}</td>
     <td class="mono">${esc(r.head.slice(0, 16))}</td>
     <td>${r.confirmed ? t("yes") : `<button data-confirm="${esc(r.board)}">${esc(t("confirm"))}</button>`}</td></tr>`
  ).join("");
  document.querySelectorAll("button[data-confirm]").forEach(b => b.onclick = () =>
    post("/api/confirm", {board: b.dataset.confirm}));
  await tournament();
  if (open) detail();
}
function fill(select, options) {
  const key = JSON.stringify(options);
  if (select.dataset.key === key) return;
  const chosen = select.value;
  select.dataset.key = key;
  select.innerHTML = options.map(([v, text]) => `<option value="${esc(v)}">${esc(text)}</option>`).join("");
  if (options.some(([v]) => v === chosen)) select.value = chosen;
}
async function tournament() {
  tour = await (await get("/api/tournament")).json();
  const box = document.getElementById("tournament");
  box.hidden = !tour.book;
  if (!tour.book) return;
  document.getElementById("event").textContent = tour.event;
  document.getElementById("book-problem").textContent = tour.problem || "";
  document.getElementById("before-draw").hidden = tour.drawn;
  document.getElementById("after-draw").hidden = !tour.drawn;
  document.getElementById("players").innerHTML = tour.players.map(p =>
    `<li>${esc(p.name)} ${esc(p.club)} ${p.rating ?? ""}${p.withdrawn ? " (" + esc(t("withdrawn")) + ")" : ""}</li>`
  ).join("");
  const words = tour.words[lang] || tour.words.en;
  const html = [];
  for (const bracket of ["main", "consolation", "last_chance", "round_robin"]) {
    const ms = tour.matches.filter(m => m.bracket === bracket);
    if (!ms.length) continue;
    const rounds = [...new Set(ms.map(m => m.round))];
    html.push(`<h3>${esc(words[bracket])}</h3><div class="bracket" data-bracket="${bracket}">` + rounds.map(r =>
      `<div class="round"><b>${esc(words.round)} ${r}</b>` + ms.filter(m => m.round === r).map(m => {
        const names = m.places[lang] || m.places.en;
        const line = (name, i) => `<div class="${m.players[i] === null ? "open" :
          m.winner && m.players[i] === m.winner ? "won" : ""}">${esc(name)}</div>`;
        return `<div class="match${m.playable ? " ready" : ""}" data-match="${esc(m.id)}"><div class="id">` +
          `${esc(m.id)}${m.score ? " " + m.score.join("-") : ""}${m.board ? " · " + esc(words.board) + " " +
          esc(m.board) : ""}</div>${names.map(line).join("")}</div>`;
      }).join("") + "</div>").join("") +
      (tour.champions[bracket] ? `<div class="round"><b>${esc(words.champion)}</b><div class="match won">` +
       `${esc(tour.champions[bracket])}</div></div>` : "") + "</div>");
  }
  document.getElementById("brackets").innerHTML = html.join("");
  document.querySelector("#standings tbody").innerHTML = tour.standings.map((s, i) =>
    `<tr><td>${i + 1}</td><td>${esc(s.player)}</td><td>${s.wins}</td><td>${s.losses}</td><td>${s.points}</td></tr>`
  ).join("");
  const label = m => `${m.id}: ${(m.places[lang] || m.places.en).join(" - ")}`;
  fill(document.getElementById("a-match"), tour.matches.filter(m => m.playable).map(m => [m.id, label(m)]));
  fill(document.getElementById("c-match"), tour.matches.filter(m => m.score).map(m => [m.id, label(m)]));
  const chosen = tour.matches.find(m => m.id === document.getElementById("c-match").value);
  fill(document.getElementById("c-winner"), chosen ?
    chosen.players.map((p, i) => [p, (chosen.places[lang] || chosen.places.en)[i]]) : []);
  document.getElementById("book-actions").innerHTML = tour.actions.slice(0, 12).map(a =>
    `<li>${esc(a.at)} <b>${esc(a.by)}</b> ${esc(a.do)} ${esc(a.match || a.name || "")}` +
    `${a.board ? " → " + esc(a.board) : ""}${a.reason ? ": " + esc(a.reason) : ""}</li>`).join("");
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
  const typed = {text: (el.querySelector("#text") || {}).value || "",
                 minutes: (el.querySelector("#minutes") || {}).value || ""};
  const s = d.snapshot || {}, p = s.players || ["?", "?"];
  const rulings = (d.recent || []).slice(-12).reverse().map(r =>
    `<li title="${esc(r.code)}">#${r.seq} ${esc((r.text || {})[lang] || r.code)}</li>`).join("");
  const sent = (d.sent || []).slice(-5).reverse().map(m =>
    `<li>${esc(m.type)} ${esc(m.text || (m.setup ? m.setup.match : ""))}` +
    `${m.color ? esc(m.color + " " + clock(m.ms)) : ""}` +
    `${d.station_saw && d.station_saw.id === m.id ? " (" + esc(t("seen")) + ")" : ""}</li>`).join("");
  el.innerHTML = `<h2>${esc(t("board"))} ${esc(d.board)}: ${esc(p[0])} (${esc(t("white"))}) - ${esc(p[1])}
      (${esc(t("black"))})</h2>
    <div>${esc(t("score"))} ${(s.score || []).join("-")} ${esc(t("of"))} ${s.length ?? "-"}, ${esc(t("game"))}
      ${s.game ?? "-"}, ${esc(s.stage || "")}, ${esc(t("turn"))} ${esc(s.turn || "-")}, ${esc(t("dice"))}
      ${esc((s.dice || []).join("-") || "-")}, ${esc(t("cube"))} ${esc(cube(s.cube))}, ${clocks(s.clock)}</div>
    ${drawBoard(s.board)}
    <div class="mono">${esc(s.xgid || "")}<br>
      Position ID ${esc(s.position_id || "-")} Match ID ${esc(s.match_id || "-")}
      <br>${esc(t("entry"))} ${d.held}, head ${esc(d.head)}</div>
    <a href="/join/${encodeURIComponent(d.board)}.png" target="_blank" rel="noopener">${esc(t("join_qr"))}</a>
    <h2>${esc(t("rulings"))}</h2><ul id="rulings">${rulings}</ul>
    <h2>${esc(t("send"))}</h2>
    <button id="otw">${esc(t("otw"))}</button>
    <input id="text" placeholder="${esc(t("message"))}" size="30"><button id="msg">${esc(t("send_msg"))}</button><br>
    <select id="color"><option>white</option><option>black</option></select>
    <input id="minutes" placeholder="m:ss" size="6"><button id="time">${esc(t("time"))}</button>
    <ul id="sent">${sent}</ul>`;
  el.querySelector("#text").value = typed.text;
  el.querySelector("#minutes").value = typed.minutes;
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
  if (r.status === 401) { location.href = "/login"; return false; }
  if (!r.ok) alert(await r.text());
  refresh();
  return r.ok;
}
const value = id => document.getElementById(id).value.trim();
async function act(body, clear) {
  if (await post("/api/tournament", body)) clear.forEach(id => document.getElementById(id).value = "");
}
async function start() {
  const session = await (await get("/api/session")).json();
  csrf = session.csrf;
  document.getElementById("user").textContent = session.user;
  document.getElementById("logout").onclick = async () => { await post("/api/logout", {}); location.href = "/login"; };
  document.getElementById("lang").onchange = e => {
    lang = e.target.value;
    localStorage.setItem("tavla-lang", lang);
    applyLang();
    refresh();
  };
  document.getElementById("register").onclick = () => act({do: "register", name: value("p-name"),
    club: value("p-club"), rating: value("p-rating") || null}, ["p-name", "p-club", "p-rating"]);
  document.getElementById("draw").onclick = () => act({do: "draw",
    seeded: document.getElementById("seeded").checked}, []);
  document.getElementById("assign").onclick = () => act({do: "assign", match: value("a-match"),
    board: value("a-board")}, ["a-board"]);
  document.getElementById("c-match").onchange = () => tournament();
  document.getElementById("correct").onclick = () => {
    const score = value("c-score").split("-").map(Number);
    act({do: "correct", match: value("c-match"), winner: value("c-winner"), score: score,
         reason: value("c-reason")}, ["c-score", "c-reason"]);
  };
  applyLang();
  refresh();
  setInterval(refresh, 1000);
}
start();
</script></body></html>
"""
