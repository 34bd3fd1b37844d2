"use strict";
// perfectplay's page: every game's result from /api/GAME/analyze and play through
// /api/GAME/play. The server does all the solving; this file only draws and sends clicks.

const $ = (id) => document.getElementById(id);

async function api(game, what, body) {
  const response = await fetch(`/api/${game}/${what}`, {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.detail || `the server answered ${response.status}`);
  return data;
}

function showError(game, error) {
  $(`${game}-error`).textContent = error ? String(error.message || error) : "";
}

function letters(c) {
  let out = "";
  c += 1;
  while (c) { const rem = (c - 1) % 26; out = String.fromCharCode(97 + rem) + out;
    c = Math.floor((c - 1) / 26); }
  return out;
}
const cellName = (r, c) => letters(c) + (r + 1);

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "onclick") node.onclick = v; else node.setAttribute(k, v);
  }
  if (text !== "") node.textContent = text;
  return node;
}

// viridis, five stops, for heat maps
const VIRIDIS = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
function viridis(t) {
  t = Math.max(0, Math.min(1, t)) * (VIRIDIS.length - 1);
  const i = Math.min(Math.floor(t), VIRIDIS.length - 2), f = t - i;
  const c = VIRIDIS[i].map((a, k) => Math.round(a + f * (VIRIDIS[i + 1][k] - a)));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

// A board as a table with column letters and row numbers; cell(r, c) -> {text, cls, title,
// onclick}.
function gridTable(rows, cols, cell, colName = letters) {
  const table = el("table", {class: "grid"});
  const head = el("tr");
  head.appendChild(el("th"));
  for (let c = 0; c < cols; c++) head.appendChild(el("th", {}, colName(c)));
  table.appendChild(head);
  for (let r = 0; r < rows; r++) {
    const tr = el("tr");
    tr.appendChild(el("th", {}, String(r + 1)));
    for (let c = 0; c < cols; c++) {
      const spec = cell(r, c);
      const td = el("td", {class: spec.cls || "", "data-cell": cellName(r, c)}, spec.text || "");
      if (spec.title) td.title = spec.title;
      if (spec.onclick) td.onclick = spec.onclick;
      if (spec.style) td.setAttribute("style", spec.style);
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
  return table;
}

const lines = (text) => text.split(/\r?\n/).filter((l) => l.trim() !== "");

// -- editors: the textarea is the board; clicks edit it ----------------------------------------
function editor(game, paint) {
  const area = $(`${game}-text`), holder = $(`${game}-editor`);
  function draw() {
    const rows = lines(area.value);
    if (/^\s*\d+\s+\d+\s*$/.test(rows[0] || "")) rows.shift();  // an "R C" line
    const cols = Math.max(0, ...rows.map((l) => l.length));
    holder.replaceChildren(gridTable(rows.length, cols, (r, c) => {
      const ch = rows[r][c] || ".";
      return {text: ch === "." ? "" : ch, cls: ch === "#" ? "wall" : "free",
        onclick: () => {
          const grid = rows.map((l) => l.padEnd(cols, ".").split(""));
          const ch2 = paint(grid[r][c]);
          if (ch2 === "E" || ch2 === "X" || ch2 === "*") {  // one of each: move it here
            grid.forEach((line) => line.forEach((x, k) => { if (x === ch2) line[k] = "."; }));
          }
          grid[r][c] = ch2;
          area.value = grid.map((l) => l.join("")).join("\n");
          draw();
        }};
    }));
  }
  area.addEventListener("input", draw);
  draw();
}

// -- play: one controller for every game -------------------------------------------------------
class Play {
  constructor(game, holder, instance, humans, strength, board) {
    Object.assign(this, {game, holder, instance, humans, strength, board});
    this.moves = [];
  }

  async refresh() {
    try {
      this.data = await api(this.game, "play", {...this.instance, moves: this.moves,
        humans: this.humans, strength: this.strength, seed: 1});
      this.moves = this.data.history.map((h) => h.name);
      showError(this.game, "");
      this.render();
    } catch (error) { showError(this.game, error); }
  }

  play(name) { this.moves.push(name); this.refresh(); }

  undo() {
    const history = this.data ? this.data.history : [];
    while (history.length && history[history.length - 1].by === "computer") history.pop();
    history.pop();
    this.moves = history.map((h) => h.name);
    this.refresh();
  }

  render() {
    const d = this.data, box = this.holder;
    box.replaceChildren();
    box.appendChild(el("h3", {}, d.title));
    box.appendChild(this.board(d, this));
    if (d.computer_moves.length) {
      box.appendChild(el("p", {class: "computer"},
        `computer played ${d.computer_moves.join(", ")}`));
    }
    if (d.over) {
      box.appendChild(el("div", {class: "verdict"}, d.verdict));
      box.appendChild(historyChart(d.history));
      box.appendChild(historyList(d.history));
    } else {
      box.appendChild(el("p", {}, `${d.to_move} to move: ${d.describe}`));
      const list = el("ol", {class: "moves"});
      for (const mv of d.moves) {
        const li = el("li", {class: mv.best ? "best" : "", title: mv.describe},
          `${mv.name}: ${mv.describe}`);
        li.onclick = () => this.play(mv.name);
        list.appendChild(li);
      }
      box.appendChild(list);
    }
    const bar = el("p");
    bar.appendChild(el("button", {class: "undo", onclick: () => this.undo()}, "Undo"));
    bar.appendChild(el("button", {class: "restart", onclick: () => {
      this.moves = []; this.refresh(); }}, "Restart"));
    box.appendChild(bar);
  }
}

function legalByName(d) {
  const out = {};
  for (const mv of d.moves) out[mv.name] = mv;
  return out;
}

// The value history as an SVG chart: each ply's value for the first player before the move;
// a mistake is a red dot where the value dropped.
function historyChart(history) {
  const ns = "http://www.w3.org/2000/svg", w = 360, h = 140, pad = 24;
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("width", w); svg.setAttribute("height", h);
  svg.setAttribute("class", "chart");
  const pts = history.map((p, k) => [k, p.chart_before]).filter((p) => p[1] !== null);
  if (history.length && history[history.length - 1].chart_after !== null) {
    pts.push([history.length, history[history.length - 1].chart_after]);
  }
  const ys = pts.map((p) => p[1]);
  const lo = Math.min(-1, ...ys), hi = Math.max(1, ...ys);
  const x = (k) => pad + (k * (w - 2 * pad)) / Math.max(1, history.length);
  const y = (v) => h - pad - ((v - lo) * (h - 2 * pad)) / (hi - lo);
  const line = document.createElementNS(ns, "polyline");
  line.setAttribute("points", pts.map((p) => `${x(p[0])},${y(p[1])}`).join(" "));
  line.setAttribute("fill", "none"); line.setAttribute("stroke", "#1565c0");
  line.setAttribute("stroke-width", "2");
  const axis = document.createElementNS(ns, "line");
  Object.entries({x1: pad, x2: w - pad, y1: y(0), y2: y(0), stroke: "#999"})
    .forEach(([k, v]) => axis.setAttribute(k, v));
  svg.appendChild(axis); svg.appendChild(line);
  history.forEach((p, k) => {
    if (!p.mistake || p.chart_before === null) return;
    const dot = document.createElementNS(ns, "circle");
    Object.entries({cx: x(k), cy: y(p.chart_before), r: 5, fill: "#b71c1c"})
      .forEach(([a, v]) => dot.setAttribute(a, v));
    svg.appendChild(dot);
  });
  const label = document.createElementNS(ns, "text");
  label.setAttribute("x", 4); label.setAttribute("y", 14); label.setAttribute("font-size", 11);
  label.textContent = "the first player's value, move by move (red: a mistake)";
  svg.appendChild(label);
  return svg;
}

function historyList(history) {
  const list = el("ol", {class: "history"});
  for (const p of history) {
    list.appendChild(el("li", {class: p.mistake ? "mistake" : ""},
      `${p.mover} ${p.name}: ${p.before} -> ${p.after}${p.mistake ? "  (mistake)" : ""}`));
  }
  return list;
}

// Boards drawn by the server's play tables: strip the column header and row numbers.
function boardRows(text) {
  const rows = text.split("\n");
  if (rows.length && /^\s+[a-z]/.test(rows[0])) rows.shift();
  return rows.map((l) => l.replace(/^\s*\d+ /, ""));
}

// -- coins -------------------------------------------------------------------------------------
function coinsRow() {
  return $("coins-row").value.trim().split(/[\s,]+/).filter((x) => x !== "").map(Number);
}

async function coinsAnalyze() {
  try {
    const d = await api("coins", "analyze", {row: coinsRow(), line: true, compare: true,
      table: coinsRow().length <= 60});
    showError("coins", "");
    $("coins-explain").textContent = d.explanation;
    const holder = $("coins-table");
    holder.replaceChildren();
    if (!d.result.table) return;
    const {P, m} = d.result.table, n = P.length;
    const top = Math.max(1, ...P.flat().filter((v) => v !== null));
    const onLine = new Set();
    let i = 0, j = n - 1;
    for (const t of d.result.line) { onLine.add(`${i},${j}`); if (t.side === "L") i++; else j--; }
    const table = el("table", {class: "heat"});
    const head = el("tr"); head.appendChild(el("th", {}, "i \\ j"));
    for (let c = 0; c < n; c++) head.appendChild(el("th", {}, String(c + 1)));
    table.appendChild(head);
    for (let r = 0; r < n; r++) {
      const tr = el("tr"); tr.appendChild(el("th", {}, String(r + 1)));
      for (let c = 0; c < n; c++) {
        if (c < r) { tr.appendChild(el("td", {class: "empty"})); continue; }
        const td = el("td", {title: `P(${r + 1},${c + 1}) = ${P[r][c]}, take coin ${m[r][c]}`},
          `${P[r][c]} ${m[r][c]}`);
        td.style.background = viridis(P[r][c] / top);
        if (onLine.has(`${r},${c}`)) td.style.outline = "3px solid #ff8f00";
        tr.appendChild(td);
      }
      table.appendChild(tr);
    }
    holder.appendChild(el("p", {}, "P(i, j) and the move m(i, j); the optimal line is outlined"));
    holder.appendChild(table);
  } catch (error) { showError("coins", error); }
}

function coinsBoard(d, game) {
  const row = game.instance.row, [lo, hi] = d.position, legal = legalByName(d);
  const box = el("div");
  const coins = el("div", {class: "coinrow"});
  row.forEach((v, k) => {
    const taken = k < lo || k >= hi;
    const side = k === lo ? "L" : k === hi - 1 ? "R" : null;
    const mv = side && Object.values(legal).find((x) => x.name.startsWith(side));
    const button = el("button", {class: taken ? "taken" : "", "data-index": k}, String(v));
    if (mv && !d.over) { button.title = mv.describe; button.onclick = () => game.play(mv.name); }
    else button.disabled = true;
    coins.appendChild(button);
  });
  box.appendChild(coins);
  box.appendChild(el("p", {class: "totals"}, d.board.split("\n")[1] || ""));
  return box;
}

// -- grid games: the Rock and the Portal -------------------------------------------------------
function mapFromAnalysis(game, d) {
  const grid = d.grid, rows = grid.length, cols = grid[0].length;
  const res = d.result;
  if (game === "rock") {
    const route = new Set(res.route.map(([r, c]) => `${r},${c}`));
    const top = Math.max(1, ...res.f.flat().filter((v) => v !== null));
    const blocked = res.blocked_cell ? res.blocked_cell.join(",") : null;
    return gridTable(rows, cols, (r, c) => {
      const ch = grid[r][c], f = res.f[r][c], key = `${r},${c}`;
      if (ch === "#") return {cls: "wall"};
      if (key === blocked) return {text: "R", cls: "block", title: "the rock's block"};
      const text = ch === "E" || ch === "X" ? ch : f === null ? "∞" : String(f);
      return {text, cls: route.has(key) ? "route" : "",
        style: f === null ? "" : `background:${viridis(f / top)};color:#fff`,
        title: f === null ? "the walker never arrives" : `${cellName(r, c)}: ${f} steps`};
    });
  }
  if (game === "portal") {
    const safe = new Set(res.safe || []), cut = new Set(res.cut || []);
    const path = new Set(res.path || []);
    return gridTable(rows, cols, (r, c) => {
      const ch = grid[r][c], name = cellName(r, c);
      if (ch === "O") return {text: "O", cls: "portal"};
      if (ch === "#") return {cls: "wall"};
      if (cut.has(name)) return {text: "X", cls: "cut", title: `${name}: walling it loses`};
      return {text: path.has(name) ? "*" : "", cls: safe.has(name) ? "safe" : "free",
        title: `${name}: safe` + (path.has(name) ? ", on a portal-to-portal path" : "")};
    });
  }
  return gridTable(rows, cols, (r, c) => {  // No: distances
    const ch = grid[r][c];
    if (ch === "#") return {cls: "wall"};
    if (ch === "*") return {text: "*", cls: "start", title: "the start piece"};
    if (/[A-Za-z]/.test(ch) && ch !== "P" || ch === "P") return {text: ch, cls: "piece"};
    return {text: ch === "-" ? "" : ch, title: ch === "-" ? "out of reach" : "moves from *"};
  });
}

async function analyzeGrid(game) {
  try {
    const body = {text: $(`${game}-text`).value};
    if (game === "portal") body.kind = $("portal-kind").value;
    if (game === "nearest") { body.block = $("nearest-block").checked; body.all = true; }
    const d = await api(game, "analyze", body);
    showError(game, "");
    $(`${game}-map`).replaceChildren(mapFromAnalysis(game, d));
    const head = game === "portal" ? `${d.result.winner} wins.\n` :
      game === "rock" ? `${d.result.value === null ? "infinite" : d.result.value}\n` : "";
    $(`${game}-explain`).textContent = head + d.explanation;
  } catch (error) { showError(game, error); }
}

function gridBoard(d, game) {
  const rows = boardRows(d.board), legal = legalByName(d);
  const box = el("div");
  box.appendChild(gridTable(rows.length, rows[0].length, (r, c) => {
    const ch = rows[r][c], name = cellName(r, c), mv = legal[name];
    const cls = {"#": "wall", "W": "walker", "R": "block", "+": "wall", "O": "portal"}[ch] || "";
    const spec = {text: ch === "." ? "" : ch, cls};
    if (mv && !d.over) {
      spec.cls += " legal"; spec.title = mv.describe;
      spec.onclick = () => game.play(mv.name);
    }
    return spec;
  }));
  for (const word of ["pass", "wait"]) {
    if (legal[word] && !d.over) {
      box.appendChild(el("button", {class: word, title: legal[word].describe,
        onclick: () => game.play(word)}, word));
    }
  }
  return box;
}

// -- the seed's own method, step by step ---------------------------------------------------------
// /api/GAME/analyze with method "seed" and trace: the seed's steps, each with the cells it
// touched and their new values; the board shows every value set so far, this step's cells
// outlined.
function seedBody(game) {
  const body = {method: "seed", trace: true};
  if (game === "coins") return {...body, row: coinsRow()};
  body.text = $(`${game}-text`).value;
  if (game === "portal") body.kind = $("portal-kind").value;
  if (game === "nearest") body.block = $("nearest-block").checked;
  return body;
}

class Stepper {
  constructor(game, data) {
    Object.assign(this, {game, seed: data.result.seed, grid: data.grid || null, k: 0});
  }

  go(k) { this.k = Math.max(0, Math.min(this.seed.steps.length - 1, k)); this.render(); }

  board() {
    const [rows, cols] = this.seed.shape, steps = this.seed.steps;
    const value = new Map(), now = new Set();
    for (let i = 0; i <= this.k; i++) {
      steps[i].cells.forEach(([r, c], j) => {
        value.set(`${r},${c}`, steps[i].values[j]);
        if (i === this.k) now.add(`${r},${c}`);
      });
    }
    const coins = this.game === "coins";
    return gridTable(rows, cols, (r, c) => {
      const key = `${r},${c}`, ch = this.grid ? (this.grid[r] || "")[c] || "." : ".";
      if (coins && c < r) return {cls: "empty"};
      if (ch === "#") return {cls: "wall"};
      const base = coins || /[0-9.\-]/.test(ch) ? "" : ch;  // walls, E, X, O, pieces
      const v = value.has(key) ? String(value.get(key)) : base;
      return {text: v, cls: (now.has(key) ? "now " : "") + (value.has(key) ? "set" : "free")};
    }, coins ? (c) => String(c + 1) : letters);
  }

  render() {
    const box = $(`${this.game}-trace`), s = this.seed, step = s.steps[this.k];
    box.replaceChildren();
    box.appendChild(el("h3", {}, `The seed's method: ${s.name}`));
    box.appendChild(el("p", {class: "cost"}, s.cost));
    const bar = el("p", {class: "stepper"});
    bar.appendChild(el("button", {class: "first", onclick: () => this.go(0)}, "First"));
    bar.appendChild(el("button", {class: "back", onclick: () => this.go(this.k - 1)}, "Back"));
    bar.appendChild(el("span", {class: "count"},
      ` step ${this.k + 1} of ${s.steps.length}${s.more_steps ? ` (+${s.more_steps} not kept)` : ""} `));
    bar.appendChild(el("button", {class: "next", onclick: () => this.go(this.k + 1)}, "Next"));
    bar.appendChild(el("button", {class: "last",
      onclick: () => this.go(s.steps.length - 1)}, "Last"));
    box.appendChild(bar);
    box.appendChild(el("p", {class: "step"}, `${step.title}: ${step.text}`));
    if (s.shape) box.appendChild(this.board());
  }
}

async function seedTrace(game) {
  try {
    const d = await api(game, "analyze", seedBody(game));
    showError(game, "");
    const stepper = new Stepper(game, d);
    window.currentStepper = stepper;
    if (stepper.seed.steps.length) stepper.render();
    else $(`${game}-trace`).replaceChildren(el("p", {}, stepper.seed.cost));
  } catch (error) { showError(game, error); }
}

// -- wiring --------------------------------------------------------------------------------------
function startPlay(game, instance, side, strength) {
  const board = game === "coins" ? coinsBoard : gridBoard;
  const play = new Play(game, $(`${game}-game`), instance, [Number(side)], strength, board);
  window.currentPlay = play;
  play.refresh();
}

document.querySelectorAll("#tabs button").forEach((button) => {
  button.onclick = () => {
    document.querySelectorAll("#tabs button, .tab").forEach((x) => x.classList.remove("active"));
    button.classList.add("active");
    $(button.dataset.tab).classList.add("active");
  };
});

$("coins-analyze").onclick = coinsAnalyze;
$("coins-play").onclick = () => startPlay("coins", {row: coinsRow()}, $("coins-side").value,
  Number($("coins-strength").value));
for (const game of ["rock", "portal", "nearest"]) {
  $(`${game}-analyze`).onclick = () => analyzeGrid(game);
}
for (const game of ["coins", "rock", "portal", "nearest"]) {
  $(`${game}-seed`).onclick = () => seedTrace(game);
}
$("rock-play").onclick = () => startPlay("rock", {text: $("rock-text").value},
  $("rock-side").value, Number($("rock-strength").value));
$("portal-play").onclick = () => startPlay("portal", {text: $("portal-text").value,
  kind: $("portal-kind").value}, $("portal-side").value, Number($("portal-strength").value));

editor("rock", (ch) => {
  const brush = $("rock-brush").value;
  return brush === "#" ? (ch === "#" ? "." : "#") : brush;
});
editor("portal", (ch) => {
  const brush = $("portal-brush").value;
  return brush === "#" ? (ch === "#" ? "." : "#") : (ch === "O" ? "." : "O");
});
const NO_CYCLE = [".", "#", "A", "B", "C", "D", "E", "*"];
editor("nearest", (ch) => NO_CYCLE[(NO_CYCLE.indexOf(ch) + 1) % NO_CYCLE.length] || ".");
