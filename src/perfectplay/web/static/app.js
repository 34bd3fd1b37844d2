"use strict";
// perfectplay's page, built from GET /api/games, the one list of games (the registry, in its
// order, then the served game): this file loads every game's board code, makes one tab per
// seed problem (kind "seed"), each game's result from /api/games/GAME/analyze and play
// through /api/games/GAME/play, and hands the list to explore.js, which makes the tabs of
// the explored games (kind "catalog" and "served"). The server does all the solving; this
// file only draws and sends clicks.
//
// Every tab is built the same way from the game's entry: its input (numbers or a board as
// text), the options it shows as controls, Analyze, the seed's stepper when the game has
// one, and Play for a two-player game. A game that wants its own pictures ships board code
// in its package (its registry entry's script, page.js, served at /page/GAME.js, listed as
// the game's "script"); that code registers its views in perfectplay.boards[GAME]. A seed
// problem's views:
//   tools(game)        an element shown under the intro (say, the editor's brush)
//   paint(ch, game)    what a click on the editor's cell ch makes it (a click-to-edit board)
//   unique             characters the editor keeps once (painting one moves it)
//   analyzeBody(body)  the analyze body as this game's tab sends it
//   view(d, game)      the analysis drawn (default: the text drawing)
//   head(d)            a line before the explanation
//   board(d, play)     the play board (default: the server's drawing, moves listed below)
// and may use the helpers in perfectplay (el, gridTable, viridis, cellName, ...).

const $ = (id) => document.getElementById(id);

async function api(game, what, body) {
  const response = await fetch(`/api/games/${game}/${what}`, {
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

// The text colour that reads best on a viridis colour (black on its light end, white on
// its dark one): WCAG's relative luminance against the 0.179 that splits the two.
function viridisInk(t) {
  const [r, g, b] = viridis(t).match(/\d+/g).map(Number).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.179 ? "#000" : "#fff";
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
      // a wall is its dark colour alone (no character drawn in it, unreadable there)
      const wall = /\bwall\b/.test(spec.cls || "");
      const td = el("td", {class: spec.cls || "", "data-cell": cellName(r, c)},
        wall ? "" : spec.text || "");
      if (wall && !spec.title) td.title = `${cellName(r, c)}: a wall`;
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

function legalByName(d) {
  const out = {};
  for (const mv of d.moves) out[mv.name] = mv;
  return out;
}

// Boards drawn by the server's play tables: strip the column header and row numbers.
function boardRows(text) {
  const rows = text.split("\n");
  if (rows.length && /^\s+[a-z]/.test(rows[0])) rows.shift();
  return rows.map((l) => l.replace(/^\s*\d+ /, ""));
}

// A play board of cells named like a1: each legal cell is clicked to play it; "pass" and
// "wait" moves are buttons.
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

// The server's own drawing of a position: any game plays in it (its moves are listed under
// the board, each clicked to play it).
const textBoard = (d) => el("pre", {class: "board"}, d.board);

// -- a tab's input, options and bodies ----------------------------------------------------------
function inputBody(game) {
  if (game.page.values) {
    return {row: $(`${game.name}-row`).value.trim().split(/[\s,]+/).filter((x) => x !== "")
      .map(Number)};
  }
  return {text: $(`${game.name}-text`).value};
}

function controlsBody(game) {
  const body = {};
  for (const c of game.page.controls) {
    const input = $(`${game.name}-${c.name}`);
    if (c.kind === "bool") body[c.name] = input.checked;
    else if (c.kind === "int" || c.kind === "float") body[c.name] = Number(input.value);
    else body[c.name] = input.value;
  }
  return body;
}

// The options the tab starts with but shows no control for (Coins asks for the line).
function startOptions(game) {
  const out = {...game.page.start};
  delete out.text; delete out.row;
  return out;
}

function control(game, c) {
  const id = `${game.name}-${c.name}`;
  const label = el("label", {title: c.help});
  const start = c.name in game.page.start ? game.page.start[c.name] : c.default;
  let input;
  if (c.kind === "bool") {
    input = el("input", {type: "checkbox", id});
    input.checked = Boolean(start);
    label.appendChild(input);
    label.appendChild(document.createTextNode(` ${c.help || c.name}`));
    return label;
  }
  if (c.choices.length) {
    input = el("select", {id});
    for (const choice of c.choices) input.appendChild(el("option", {}, choice));
  } else {
    input = el("input", {id, type: c.kind === "str" ? "text" : "number", size: 6});
  }
  input.value = String(start);
  label.appendChild(document.createTextNode(`${c.name} `));
  label.appendChild(input);
  return label;
}

// -- editors: the textarea is the board; clicks edit it ----------------------------------------
function editor(game, board) {
  const area = $(`${game}-text`), holder = $(`${game}-editor`), unique = board.unique || "";
  function draw() {
    const rows = lines(area.value);
    if (/^\s*\d+\s+\d+\s*$/.test(rows[0] || "")) rows.shift();  // an "R C" line
    const cols = Math.max(0, ...rows.map((l) => l.length));
    holder.replaceChildren(gridTable(rows.length, cols, (r, c) => {
      const ch = rows[r][c] || ".";
      return {text: ch === "." ? "" : ch, cls: ch === "#" ? "wall" : "free",
        onclick: () => {
          const grid = rows.map((l) => l.padEnd(cols, ".").split(""));
          const ch2 = board.paint(grid[r][c], game);
          if (unique.includes(ch2)) {  // one of each: move it here
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
// A seed game's value as a colour word: a word (win, lose, ...) as it is; a number (Coins'
// margin over the rest) by the board code's finalValue(d, mv) when it has one (the points
// so far counted, so the colour agrees with the verdict), else none.
function seedValue(d, mv, board) {
  if (typeof mv.value === "string") return mv.value.toLowerCase();
  return board.finalValue ? board.finalValue(d, mv) : null;
}

class Play {
  constructor(game, holder, instance, humans, strength, board, code = {}) {
    Object.assign(this, {game, holder, instance, humans, strength, board, code});
    this.moves = [];
    this.redo = [];
    this.better = {};
  }

  body(moves, humans = this.humans) {
    return {...this.instance, moves, humans, strength: this.strength, seed: 1};
  }

  // The position after this.moves, drawn; the tab is busy (data-loading, its words) while
  // the server answers, and its board takes no click meanwhile.
  async refresh() {
    this.busy(true);
    try {
      this.data = await api(this.game, "play", this.body(this.moves));
      this.moves = this.data.history.map((h) => h.name);
      showError(this.game, "");
      this.render();
      saveSeedHash(this);
    } catch (error) { showError(this.game, error); }
    this.busy(false);
  }

  busy(on) {
    const note = $(`${this.game}-loading`);
    if (on) {
      this.holder.dataset.loading = "1";
      this.holder.setAttribute("aria-busy", "true");
      if (note) note.textContent = "Loading the position …";
    } else {
      delete this.holder.dataset.loading;
      this.holder.removeAttribute("aria-busy");
      if (note) note.textContent = "";
    }
  }

  play(name) {
    if (this.redo.length && this.redo[this.redo.length - 1] === name) this.redo.pop();
    else this.redo = [];
    this.moves.push(name);
    this.refresh();
  }

  // Back to the human's last move (the computer's replies after it undone too); redo
  // plays the human's move again and the computer answers it anew.
  undo() {
    const history = this.data ? [...this.data.history] : [];
    while (history.length && history[history.length - 1].by === "computer") history.pop();
    if (history.length) this.redo.push(history.pop().name);
    this.moves = history.map((h) => h.name);
    this.refresh();
  }

  redoMove() {
    if (!this.redo.length) return;
    this.moves = [...this.moves, this.redo.pop()];
    this.refresh();
  }

  // moves typed by their names, comma- or space-separated, from the start
  paste(text) {
    this.moves = text.split(/[\s,]+/).filter((x) => x !== "");
    this.redo = [];
    this.refresh();
  }

  // Why a marked mistake was one: the value before and after it, and the better move
  // (fetched once: the position before it, with both sides human so nothing is answered).
  why(k, p) {
    const key = this.data.history.slice(0, k).map((h) => h.name).join(",");
    if (!(key in this.better)) {
      this.better[key] = null;
      const moves = key ? key.split(",") : [];
      api(this.game, "play", this.body(moves, [0, 1])).then((answer) => {
        this.better[key] = answer.moves.filter((m) => m.best).map((m) => m.name).slice(0, 3);
        this.render();
      }).catch(() => { this.better[key] = []; });
    }
    const better = this.better[key];
    return ` — why: it turned "${p.before}" into "${p.after}"${better && better.length
      ? `; ${better.join(" or ")} would keep "${p.before}"` : ""}`;
  }

  moveItem(d, mv, key = "") {
    const value = seedValue(d, mv, this.code);
    const li = el("li", {class: mv.best ? "best" : "", title: mv.describe, tabindex: "0",
      "data-move": mv.name}, `${mv.name}: ${mv.describe}`);
    if (key) li.append(" ", el("kbd", {class: "key", title: `key ${key}`}, key));
    const colours = value && window.perfectplay.valueColours
      ? window.perfectplay.valueColours(value) : null;
    if (colours) {
      li.classList.add(`v-${value}`);
      li.style.background = colours.background;
      li.style.color = colours.color;
      li.appendChild(el("span", {class: "mark"}, ` ${colours.mark}`));
    }
    li.onclick = () => this.play(mv.name);
    li.onkeydown = (e) => { if (e.key === "Enter") this.play(mv.name); };
    return li;
  }

  render() {
    const d = this.data, box = this.holder;
    const focused = box.contains(document.activeElement) ? document.activeElement : null;
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
      box.appendChild(this.historyList(d.history));
    } else {
      box.appendChild(el("p", {}, `${d.to_move} to move: ${d.describe}`));
      const list = el("ol", {class: "moves"});
      const keys = window.perfectplay.keyMap ? window.perfectplay.keyMap(d.moves) : {};
      const keyOf = Object.fromEntries(Object.entries(keys).map(([k, name]) => [name, k]));
      for (const mv of d.moves) list.appendChild(this.moveItem(d, mv, keyOf[mv.name] || ""));
      box.appendChild(list);
      if (d.history.length) box.appendChild(this.historyList(d.history));
    }
    if (window.perfectplay.legend) {
      box.appendChild(window.perfectplay.legend(typeof (d.moves[0] || {}).value === "number"));
    }
    const bar = el("p");
    bar.appendChild(el("button", {class: "undo", onclick: () => this.undo()}, "Undo"));
    bar.appendChild(el("button", {class: "redo", onclick: () => this.redoMove()}, "Redo"));
    bar.appendChild(el("button", {class: "restart", onclick: () => {
      this.moves = []; this.redo = []; this.refresh(); }}, "Restart"));
    box.appendChild(bar);
    const typed = el("p", {class: "paste"});
    const input = el("input", {class: "typed", size: 30, "aria-label": "moves by name",
      placeholder: "moves by name, comma-separated"});
    input.value = this.moves.join(", ");
    typed.append(input, el("button", {class: "go", onclick: () => this.paste(input.value)},
      "Go to"));
    box.appendChild(typed);
    if (focused) {  // the focus kept: the same move, else the first one
      const again = focused.dataset && focused.dataset.move
        ? [...box.querySelectorAll("[data-move]")].find((x) => x.dataset.move ===
          focused.dataset.move) : null;
      const first = box.querySelector("ol.moves li, .coinrow button:not([disabled])");
      if (again || first) (again || first).focus({preventScroll: true});
    }
  }

  historyList(history) {
    const list = el("ol", {class: "history"});
    history.forEach((p, k) => {
      const li = el("li", {class: p.mistake ? "mistake" : ""},
        `${p.mover} ${p.name}: ${p.before} -> ${p.after}${p.mistake ? "  (mistake)" : ""}`);
      if (p.mistake) li.appendChild(el("span", {class: "why"}, this.why(k, p)));
      list.appendChild(li);
    });
    return list;
  }
}

// The seed tab's game as the page's URL (#seed=GAME&input=...&moves=a,b&side=0), so a
// position is shared by its address.
function saveSeedHash(play) {
  const input = "row" in play.instance ? play.instance.row.join(" ") : play.instance.text;
  const parts = [`seed=${encodeURIComponent(play.game)}`,
    `input=${encodeURIComponent(input || "")}`, `side=${play.humans[0]}`];
  if (play.moves.length) parts.push(`moves=${encodeURIComponent(play.moves.join(","))}`);
  history.replaceState(null, "", `#${parts.join("&")}`);
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

// -- analyze -------------------------------------------------------------------------------------
// A seed tab's wait shown in words (its loading line, the tab marked busy); null: done.
function waiting(name, words) {
  const note = $(`${name}-loading`), sec = $(`tab-${name}`);
  if (note) note.textContent = words || "";
  if (!sec) return;
  if (words) sec.setAttribute("aria-busy", "true"); else sec.removeAttribute("aria-busy");
}

async function analyze(game) {
  const name = game.name, board = boards[name] || {};
  waiting(name, "Solving …");
  try {
    let body = {...startOptions(game), ...inputBody(game), ...controlsBody(game)};
    if (board.analyzeBody) body = board.analyzeBody(body, game);
    const d = await api(name, "analyze", body);
    showError(name, "");
    $(`${name}-map`).replaceChildren(board.view ? board.view(d, game)
      : el("pre", {class: "drawing"}, d.drawing));
    $(`${name}-explain`).textContent = (board.head ? board.head(d) : "") + d.explanation;
  } catch (error) { showError(name, error); }
  waiting(name, null);
}

// -- the seed's own method, step by step ---------------------------------------------------------
// /api/GAME/analyze with method "seed" and trace: the seed's steps, each with the cells it
// touched and their new values; the board shows every value set so far, this step's cells
// outlined. A game without a board (Coins) steps through a table: rows i, columns j >= i.
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
    const table = this.grid === null;
    return gridTable(rows, cols, (r, c) => {
      const key = `${r},${c}`, ch = this.grid ? (this.grid[r] || "")[c] || "." : ".";
      if (table && c < r) return {cls: "empty"};
      if (ch === "#") return {cls: "wall"};
      const base = table || /[0-9.\-]/.test(ch) ? "" : ch;  // walls, E, X, O, pieces
      const v = value.has(key) ? String(value.get(key)) : base;
      return {text: v, cls: (now.has(key) ? "now " : "") + (value.has(key) ? "set" : "free")};
    }, table ? (c) => String(c + 1) : letters);
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
  const name = game.name;
  waiting(name, "Running the seed's method …");
  try {
    const d = await api(name, "analyze", {method: "seed", trace: true, ...inputBody(game),
      ...controlsBody(game)});
    showError(name, "");
    const stepper = new Stepper(name, d);
    window.currentStepper = stepper;
    if (stepper.seed.steps.length) stepper.render();
    else $(`${name}-trace`).replaceChildren(el("p", {}, stepper.seed.cost));
  } catch (error) { showError(name, error); }
  waiting(name, null);
}

function startPlay(game, moves = []) {
  const name = game.name, code = boards[name] || {}, board = code.board || textBoard;
  const instance = {...inputBody(game), ...controlsBody(game)};
  const play = new Play(name, $(`${name}-game`), instance, [Number($(`${name}-side`).value)],
    Number($(`${name}-strength`).value), board, code);
  play.moves = moves;
  window.currentPlay = play;
  plays[name] = play;
  play.refresh();
}

// The seed games' plays by game, for their keys.
const plays = {};

// A key on a seed tab in play: a move's key plays it (the keys explore.js gives a
// position's moves: each name when all are one letter, else 1..9), the arrows step through
// the history; typing in a box is left alone.
function seedKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (/^(INPUT|TEXTAREA|SELECT)$/.test((event.target || {}).tagName || "")) return;
  const sec = document.querySelector(".tab.active[data-game]");
  const play = sec && plays[sec.dataset.game];
  if (!play || !play.data || play.holder.dataset.loading) return;
  if (event.key === "ArrowLeft") play.undo();
  else if (event.key === "ArrowRight") play.redoMove();
  else {
    const keys = play.data.over ? {} : window.perfectplay.keyMap(play.data.moves);
    const name = keys[event.key.toLowerCase()];
    if (!name) return;
    play.play(name);
  }
  event.preventDefault();
}

// A shared seed position (#seed=GAME&input=...&side=0&moves=a,b): its tab opened, its
// input filled and its moves played.
function openSeedHash(games) {
  const want = {};
  for (const part of location.hash.replace(/^#/, "").split("&")) {
    const k = part.indexOf("=");
    if (k > 0) want[part.slice(0, k)] = decodeURIComponent(part.slice(k + 1));
  }
  const game = games.find((g) => g.name === want.seed);
  if (!game || !game.play) return false;
  document.querySelector(`#tabs button[data-tab="${game.name}"]`).click();
  if (want.input !== undefined) {
    const input = $(game.page.values ? `${game.name}-row` : `${game.name}-text`);
    input.value = want.input;
    input.dispatchEvent(new Event("input"));
  }
  if (want.side === "0" || want.side === "1") $(`${game.name}-side`).value = want.side;
  startPlay(game, (want.moves || "").split(",").filter((x) => x));
  return true;
}

// -- a tab per game ------------------------------------------------------------------------------
function button(id, text, onclick, title = "") {
  const b = el("button", title ? {id, title} : {id}, text);
  b.onclick = onclick;
  return b;
}

function select(id, options) {
  const s = el("select", {id});
  options.forEach(([value, text]) => s.appendChild(el("option", {value}, text)));
  return s;
}

function section(game) {
  const name = game.name, page = game.page, board = boards[name] || {};
  const sec = el("section", {id: `tab-${name}`, class: "tab", "data-game": name});
  sec.appendChild(el("h2", {}, game.title));
  const intro = el("p", {class: "intro"}, page.intro);
  if (board.paint) intro.appendChild(document.createTextNode(" Click a cell to edit."));
  sec.appendChild(intro);
  if (board.tools) sec.appendChild(board.tools(game));
  const left = el("div"), right = el("div");
  if (page.values) {
    const label = el("label", {}, `${page.value_name[0].toUpperCase()}${page.value_name.slice(1)}s `);
    label.appendChild(el("input", {id: `${name}-row`, size: 40,
      value: (page.start.row || []).join(" ")}));
    left.appendChild(label);
  } else {
    const area = el("textarea", {id: `${name}-text`, rows: 9, cols: 24, title: game.input});
    area.value = page.start.text || "";
    left.appendChild(area);
    if (board.paint) left.appendChild(el("div", {id: `${name}-editor`, class: "editor"}));
  }
  const options = el("div", {class: "options"});
  page.controls.forEach((c) => options.appendChild(control(game, c)));
  left.appendChild(options);
  const bar = el("div", {class: "controls"});
  bar.appendChild(button(`${name}-analyze`, "Analyze", () => analyze(game)));
  if (page.seed) {
    bar.appendChild(button(`${name}-seed`, "Step through the seed's method",
      () => seedTrace(game), "the seed's own method, step by step"));
  }
  left.appendChild(bar);
  if (game.play) {
    const play = el("div", {class: "controls"});
    const side = el("label", {}, "You play ");
    side.appendChild(select(`${name}-side`, page.sides.map((s, k) => [String(k), s])));
    const strength = el("label", {}, " Computer ");
    strength.appendChild(select(`${name}-strength`,
      [["1", "perfect"], ["0.7", "strong"], ["0.3", "weak"]]));
    play.append(side, strength, button(`${name}-play`, "Play", () => startPlay(game)));
    left.appendChild(play);
  }
  right.appendChild(el("div", {id: `${name}-error`, class: "error"}));
  right.appendChild(el("p", {id: `${name}-loading`, class: "loading", role: "status",
    "aria-live": "polite"}));
  right.appendChild(el("div", {id: `${name}-map`, class: "map"}));
  right.appendChild(el("pre", {id: `${name}-explain`}));
  right.appendChild(el("div", {id: `${name}-trace`, class: "trace"}));
  right.appendChild(el("div", {id: `${name}-game`, class: "game"}));
  const columns = el("div", {class: "columns"});
  columns.append(left, right);
  sec.appendChild(columns);
  return sec;
}

function loadScript(src) {
  return new Promise((resolve) => {
    const s = el("script", {src});
    s.onload = resolve;
    s.onerror = resolve;  // no board code: the plain tab
    document.head.appendChild(s);
  });
}

const boards = {};
window.perfectplay = {boards, el, gridTable, gridBoard, textBoard, viridis, viridisInk, cellName,
  letters,
  lines, legalByName, boardRows, historyChart, loadScript};

async function main() {
  const list = (await (await fetch("/api/games")).json()).games;
  window.perfectplay.gameList = list;  // explore.js builds the explored games' tabs from it
  await Promise.all(list.filter((g) => g.script).map((g) => loadScript(g.script)));
  const games = list.filter((g) => g.kind === "seed");
  const tabs = $("tabs"), holder = $("games");
  games.forEach((game, k) => {
    const tab = el("button", {"data-tab": game.name}, game.page.tab);
    const sec = section(game);
    tab.onclick = () => {
      document.querySelectorAll("nav button, .tab").forEach((x) => x.classList.remove("active"));
      tab.classList.add("active");
      sec.classList.add("active");
    };
    if (k === 0 && !/^#(play|seed)=/.test(location.hash)) {  // explore.js opens #play=
      tab.classList.add("active"); sec.classList.add("active");
    }
    tabs.appendChild(tab);
    holder.appendChild(sec);
    const board = boards[game.name] || {};
    if (board.paint && !game.page.values) editor(game.name, board);
  });
  if (/^#seed=/.test(location.hash)) openSeedHash(games);
  document.addEventListener("keydown", seedKey);
  document.body.dataset.ready = "1";
}

main();
