"use strict";
// The explored games on perfectplay's page: one tab per game of GET /api/games with an
// "explore" entry (the catalog games in the registry's order, after the seed problems of
// app.js, which fetched the list; then the game `serve --game`/`--store` serves), each
// explored through GET /api/games/TARGET/position?moves=... . The server solves and
// answers; this file draws the answer and keeps the moves.
//
// A tab shows the board, drawn by the game's own board code (its entry's script, page.js
// in its package, served at /page/NAME.js and loaded by app.js, which registers
// perfectplay.boards[NAME] = {board(d, tab, hints) -> element}; else the game's drawing),
// one button a legal move named by the game, coloured by its value for the mover as
// GamesmanUni colours them (win green, lose dark red, tie and draw yellow) with a mark
// (W, L, T, D: colour is never the only signal), faded towards white by how much slower
// than the best move of its value it is (the text black or white, whichever keeps WCAG AA
// contrast), with its remoteness or, in a scored game, the mover's final margin (the
// colour and mark follow that margin, as the headline does); a legend of the colours,
// marks and numbers; the line "Player 1 should win in 13"; undo, redo, restart; keys (a
// move's key where the position has few moves, the arrows through the history, the focus
// kept on a move); a loading line for every wait; the perfect computer or two people with
// hints; the value history chart with the mistakes marked and why each was one; the
// position as the page's URL (#play=TARGET&moves=a,b) and as a typed list of moves.
//
// Board code draws with the helpers this file puts in window.perfectplay: svg (an SVG
// element), svgBadge (a move's value label on a board), svgMove (a board's click target
// for a move), readCells (a drawing of lettered columns and numbered rows read back),
// pieceBoard (an SVG board of cells: drops, a piece then its target, or anchored moves),
// cellGrid (an HTML grid), paintValue, valueColours, shownValue, shownWords, moveLabel,
// moveFade, movesByName, keyMap, legend.

(() => {
  const {el, boards} = window.perfectplay;

  // GET /api/games/TARGET/WHAT?query, its JSON (a refusal thrown with its words)
  async function getJson(target, what, params) {
    const query = new URLSearchParams(params).toString();
    const response = await fetch(`/api/games/${encodeURIComponent(target)}/${what}${
      query ? `?${query}` : ""}`);
    const data = await response.json();
    if (!response.ok) throw new Error(data.detail || `the server answered ${response.status}`);
    return data;
  }

  // The query of a position: its base position (a key, or none: the start), the moves
  // from there, and the computer's strength and seed (the server names its move).
  function positionQuery(tab) {
    const q = {};
    if (tab.base) q.p = tab.base;
    if (tab.moves.length) q.moves = tab.moves.join(",");
    if (tab.computer) { q.strength = String(tab.strength); q.seed = String(tab.seed); }
    return q;
  }

  // A live position's JSON lines (GET .../analysis: its moves' values; .../history: the
  // values of the moves played to it): each line handed to onLine as it comes; aborted by
  // signal (a new position was asked).
  async function liveLines(tab, route, onLine, signal) {
    const q = positionQuery(tab);
    if (tab.data && tab.data.points) q.points = String(tab.data.points);
    const query = new URLSearchParams(q).toString();
    const response = await fetch(`/api/games/${encodeURIComponent(tab.target)}/${route}${
      query ? `?${query}` : ""}`, {signal});
    if (!response.ok) {
      const data = await response.json();
      throw new Error(data.detail || `the server answered ${response.status}`);
    }
    const reader = response.body.getReader(), decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const {value, done} = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, {stream: true});
      let k;
      while ((k = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, k).trim();
        buffer = buffer.slice(k + 1);
        if (line) onLine(JSON.parse(line));
      }
    }
  }

  // The computer's move at a strength from 0 to 1 (see web/computer.py: 1 perfect, less
  // a random value-keeping move or, with chance 1 - strength, any move)
  const STRENGTHS = [["1", "perfect"], ["0.75", "strong"], ["0.5", "fair"],
    ["0.25", "weak"], ["0", "random"]];

  // -- a move's value as the page shows it ----------------------------------------------------
  // GamesmanUni's colours (win #008000, lose #800000, tie and draw #ffff00), each with a mark
  // (colour is never the only signal) and the words the legend gives.
  const VALUE_STYLE = {
    win: {rgb: [0, 128, 0], mark: "W", words: "a win for the player to move"},
    lose: {rgb: [128, 0, 0], mark: "L", words: "a loss for the player to move"},
    tie: {rgb: [255, 255, 0], mark: "T", words: "a tie"},
    draw: {rgb: [255, 255, 0], mark: "D", words: "a draw (play goes on for ever)"},
  };
  window.perfectplay.VALUE_STYLE = VALUE_STYLE;

  // What a move's button says: its remoteness, or in a scored game the mover's final margin
  // (the points so far and the margin from here).
  function moveLabel(d, mv) {
    if (typeof mv.margin !== "number") return mv.remoteness === null ? "" : String(mv.remoteness);
    const total = finalMargin(d, mv);
    return `${total > 0 ? "+" : ""}${total}`;
  }
  window.perfectplay.moveLabel = moveLabel;

  // A scored move's margin at the end of the game for its mover: the points so far (the
  // first player's minus the second's) from the mover's side, plus the margin from here.
  function finalMargin(d, mv) {
    return mv.margin + (d.turn === "second" ? -(d.points || 0) : (d.points || 0));
  }

  // A move's value as the page colours it: in a scored game the sign of the mover's final
  // margin (so "-2" under "should lose by 2" reads as a loss, as the headline does, though
  // from here the move only ties the rest); otherwise the solver's word.
  function shownValue(d, mv) {
    if (!mv.value || typeof mv.margin !== "number") return mv.value;
    const total = finalMargin(d, mv);
    return total > 0 ? "win" : total < 0 ? "lose" : mv.value === "draw" ? "draw" : "tie";
  }
  window.perfectplay.shownValue = shownValue;

  // A move's words: the solver's, and in a scored game with points already scored the
  // result at the end too ("lose by 2 at the end: tie in 5 from here").
  function shownWords(d, mv) {
    if (typeof mv.margin !== "number" || !mv.value || !d.points) return mv.words;
    const total = finalMargin(d, mv);
    const end = total === 0 ? "tie" : `${total > 0 ? "win" : "lose"} by ${Math.abs(total)}`;
    return `${end} at the end: ${mv.words} from here`;
  }
  window.perfectplay.shownWords = shownWords;

  // How faded a move's colour is (0.45 to 1): by what it gives up against the best move of
  // its colour. In a scored game that is points (a win by 10 full, a win by 2 faded,
  // whatever their remoteness); otherwise remoteness, as UWAPI's deltaRemoteness.
  function moveFade(d, mv) {
    let gap = mv.delta_remoteness || 0;
    if (typeof mv.margin === "number") {
      const shown = shownValue(d, mv);
      const same = (d.moves || []).filter((m) => typeof m.margin === "number" &&
        shownValue(d, m) === shown).map((m) => m.margin);
      gap = Math.max(mv.margin, ...same) - mv.margin;
    }
    return String(Math.max(0.45, 1 - 0.08 * gap));
  }
  window.perfectplay.moveFade = moveFade;

  // WCAG's relative luminance of [r, g, b] (0..255 each) and the contrast of two of them.
  function luminance(rgb) {
    const [r, g, b] = rgb.map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }
  const contrast = (a, b) => {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  window.perfectplay.contrast = contrast;

  // A value's colour faded towards white (fade 1: the full colour) and the text colour,
  // black or white, that reads best on it: the better of the two is always above 4.5:1
  // (WCAG AA), so a faded label stays as readable as a full one (opacity would not).
  function valueColours(value, fade = 1) {
    const style = VALUE_STYLE[value];
    if (!style) return null;
    const f = Math.max(0, Math.min(1, Number(fade)));
    const bg = style.rgb.map((v) => Math.round(255 - f * (255 - v)));
    const text = contrast(bg, [0, 0, 0]) >= contrast(bg, [255, 255, 255]) ? [0, 0, 0]
      : [255, 255, 255];
    const css = (c) => `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
    return {background: css(bg), color: css(text), mark: style.mark};
  }
  window.perfectplay.valueColours = valueColours;

  // An HTML element painted with a move's value: its class (v-win ...), its faded colour,
  // the readable text colour, the fade in data-fade and the value's mark.
  function paintValue(node, d, mv) {
    const value = shownValue(d, mv), fade = moveFade(d, mv);
    const colours = valueColours(value, fade);
    if (!colours) return node;
    node.classList.add(`v-${value}`);
    node.style.background = colours.background;
    node.style.color = colours.color;
    node.dataset.fade = fade;
    node.dataset.shown = value;
    return node;
  }
  window.perfectplay.paintValue = paintValue;

  // The value's mark as a small element (W, L, T, D), read aloud as the word.
  const markOf = (value) => el("span", {class: "mark", "aria-label": value, title: value},
    (VALUE_STYLE[value] || {}).mark || "");
  window.perfectplay.markOf = markOf;

  // -- SVG ---------------------------------------------------------------------------------
  const SVG = "http://www.w3.org/2000/svg";
  // An SVG element with its attributes (onclick a handler) and an optional text.
  function svg(tag, attrs = {}, text = "") {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "onclick") node.addEventListener("click", v);
      else node.setAttribute(k, v);
    }
    if (text !== "") node.textContent = text;
    return node;
  }
  window.perfectplay.svg = svg;

  // A move's value label on an SVG board: a rounded badge at (x, y) in the value's faded
  // colour with its mark and its number in the readable text colour (the badge is the
  // label's background, so the contrast test reads both). Nothing without hints.
  function svgBadge(d, mv, x, y, hints, size = 16) {
    const g = svg("g", {class: "badge"});
    if (!hints || !mv.value) return g;
    const value = shownValue(d, mv), colours = valueColours(value, moveFade(d, mv));
    const label = `${VALUE_STYLE[value].mark}${moveLabel(d, mv)}`;
    const w = Math.max(size * 1.3, size * 0.62 * label.length + 6);
    g.append(svg("rect", {class: "vshape", x: x - w / 2, y: y - size * 0.65, width: w,
      height: size * 1.3, rx: size * 0.4, fill: colours.background, stroke: "#222",
      "stroke-width": 0.8}),
    svg("text", {class: `vlabel v-${value}`, x, y: y + size * 0.35, "text-anchor": "middle",
      "font-size": size, "font-weight": "bold", fill: colours.color,
      "data-fade": moveFade(d, mv)}, label));
    return g;
  }
  window.perfectplay.svgBadge = svgBadge;

  // A clickable SVG target for a move: the move's name and value for screen readers and
  // hover, the "legal" class, a click (or Enter) plays it.
  function svgMove(node, d, tab, mv, human) {
    const title = svg("title", {}, `${mv.name}: ${shownWords(d, mv) || "its value is searched"}`);
    node.appendChild(title);
    node.dataset.move = mv.name;
    if (!human || d.over) return node;
    node.classList.add("legal");
    node.setAttribute("role", "button");
    node.addEventListener("click", () => tab.play(mv.name));
    focusable(node, () => tab.play(mv.name));
    return node;
  }

  // A board's target reached by Tab and pressed by Enter or Space, as a button is.
  function focusable(node, press) {
    node.setAttribute("tabindex", "0");
    node.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      event.stopPropagation();
      press();
    });
    return node;
  }
  window.perfectplay.svgMove = svgMove;

  // A move's button: its name, and with hints its value's mark and number on its value's
  // colour (faded by what it gives up), a best move outlined; a key to press when the game
  // has few moves (keys[name]).
  function moveButton(d, mv, label, onclick, hints, key = "") {
    const searching = mv.value === null || mv.exact === false;
    const words = shownWords(d, mv);
    const b = el("button", {class: `movebtn${mv.best && hints ? " best" : ""}${
      searching ? " searching" : ""}`, "data-move": mv.name,
    "data-value": mv.value || "", "data-remoteness": mv.remoteness === null ? ""
      : String(mv.remoteness), "data-margin": mv.margin === null ? "" : String(mv.margin),
    "data-source": mv.source || "", title: (mv.bounds ? `${words} (proven so far: ${
      mv.bounds[0]} .. ${mv.bounds[1]})` : words || "") + (typeof mv.margin === "number" &&
      label ? ` (${label} at the end, with the points so far)` : "")});
    if (searching && hints && !label) label = "…";
    if (key) b.appendChild(el("kbd", {class: "key", title: `key ${key}`}, key));
    b.appendChild(el("span", {class: "name"}, mv.name));
    if (hints && mv.value) {
      paintValue(b, d, mv);
      b.appendChild(markOf(shownValue(d, mv)));
    }
    if (hints && label) b.appendChild(el("span", {class: "rem"}, label));
    b.onclick = onclick;
    return b;
  }

  // The legend of the value colours, marks and numbers (what the hover titles say, for
  // a phone too).
  function legend(scored) {
    const box = el("div", {class: "legend", "aria-label": "what the colours mean"});
    box.appendChild(el("strong", {}, "Legend: "));
    for (const value of ["win", "lose", "tie", "draw"]) {
      const c = valueColours(value), item = el("span", {class: `swatch v-${value}`,
        "data-legend": value});
      item.style.background = c.background;
      item.style.color = c.color;
      item.textContent = `${c.mark} ${value}`;
      item.title = VALUE_STYLE[value].words;
      box.appendChild(item);
    }
    box.appendChild(el("span", {class: "legend-text"}, scored
      ? " The number: the mover's final margin in points after that move (+ ahead, − behind, "
        + "the points so far included). Paler: fewer points than the best move of its colour."
      : " The number: moves to the end of the game with perfect play (remoteness). Paler: "
        + "slower than the best move of its colour. Outlined: a best move."));
    return box;
  }
  window.perfectplay.legend = legend;

  function paramInput(tab, p, value) {
    const id = `cat-${tab.name}-${p.name}`;
    const label = el("label", {title: p.help}, `${p.name} `);
    let input;
    if (p.kind === "bool") {
      input = el("input", {type: "checkbox", id});
      input.checked = Boolean(value);
    } else {
      input = el("input", {id, size: p.kind === "int" ? 3 : 14,
        type: p.kind === "int" ? "number" : "text"});
      input.value = Array.isArray(value) ? value.join(", ") : String(value);
    }
    label.appendChild(input);
    return label;
  }

  function pyLiteral(p, input) {
    if (p.kind === "bool") return input.checked ? "True" : "False";
    if (p.kind === "int") return String(Number(input.value));
    if (p.kind === "tuple") {
      const items = input.value.split(/[\s,()]+/).filter((x) => x !== "").map(Number);
      return `(${items.join(", ")}${items.length === 1 ? "," : ""})`;
    }
    return JSON.stringify(input.value);
  }

  // A board drawn as a header of column letters and rows "N cell cell ..." then a line of
  // status, read back: {head: ["a", ...], rows: [{label: "1", cells: [".", "X", ...]}],
  // status}; null when the drawing is not of that shape. Rows keep the drawing's order.
  function readCells(text) {
    const lines = text.split("\n"), rows = [];
    let head = null;
    for (const line of lines) {
      const m = /^\s*(\d+)\s+(.*)$/.exec(line);
      if (m) rows.push({label: m[1], cells: m[2].trim().split(/\s+/)});
      else if (!rows.length && /^\s+[a-z](\s+[a-z])*\s*$/.test(line)) {
        head = line.trim().split(/\s+/);
      }
    }
    if (!head || !rows.length) return null;
    const last = lines[lines.length - 1];
    return {head, rows, status: /^\s*\d+\s/.test(last) ? "" : last.trim()};
  }
  window.perfectplay.readCells = readCells;

  // The moves of a position by name, and whether the human may click now.
  function movesByName(d, tab) {
    const byName = {};
    for (const mv of d.moves) byName[mv.name] = mv;
    return {byName, human: !tab.computer || d.turn !== tab.computer};
  }
  window.perfectplay.movesByName = movesByName;

  // An SVG board of cells read from the game's drawing (readCells), for games whose moves
  // are a cell ("b2": a drop), a cell and where it goes ("a1-a2", "a3xb2": a click on the
  // piece picks it, a click on a target plays the move), or, with o.anchor, a move named
  // from one cell (Domineering's "b3-b4" from b3). Each move's target shows its value's
  // badge (mark and number) with hints. o: {name, cell: size, square(x, y, ch, name) ->
  // element, piece(x, y, ch) -> element or null, anchor(name) -> cell, overlay(pic, at)
  // for marks over the cells (at(name) -> [x, y]), background}.
  function pieceBoard(d, tab, hints, o) {
    const cells = readCells(d.board);
    if (!cells) return el("pre", {class: "board"}, d.board);
    const moves = movesByName(d, tab), size = o.cell || 56, pad = 24;
    const drop = {}, from = {};
    for (const mv of d.moves) {
      const m = /^([a-z]+\d+)[-x]([a-z]+\d+)$/.exec(mv.name);
      if (m && !o.anchor) (from[m[1]] = from[m[1]] || {})[m[2]] = mv;
      else drop[o.anchor ? o.anchor(mv.name) : mv.name] = mv;
    }
    let picked = tab.picked && tab.picked.key === d.key ? tab.picked.cell : null;
    if (picked && !from[picked]) picked = null;
    const targets = picked ? from[picked] : {};
    const n = cells.head.length, h = cells.rows.length;
    const width = 2 * pad + n * size, height = 2 * pad + h * size;
    const pic = svg("svg", {class: `board cells ${o.name}`, "data-board": o.name,
      viewBox: `0 0 ${width} ${height}`, width, height, role: "img",
      "aria-label": `${o.name} board: ${cells.status}`});
    pic.appendChild(svg("rect", {x: 0, y: 0, width, height, rx: 8,
      fill: o.background || "#efe6d2"}));
    const place = {};
    cells.head.forEach((c, k) => pic.appendChild(svg("text", {x: pad + k * size + size / 2,
      y: pad * 0.7, "text-anchor": "middle", "font-size": 13, fill: "#212121"}, c)));
    cells.rows.forEach((row, r) => {
      pic.appendChild(svg("text", {x: pad / 2, y: pad + r * size + size / 2 + 5,
        "text-anchor": "middle", "font-size": 13, fill: "#212121"}, row.label));
      row.cells.forEach((ch, k) => {
        const name = `${cells.head[k]}${row.label}`, x = pad + k * size, y = pad + r * size;
        place[name] = [x + size / 2, y + size / 2];
        const g = svg("g", {class: ch === "." ? "square" : `square piece-${ch}`,
          "data-cell": name});
        g.appendChild(o.square(x, y, ch, name));
        const piece = o.piece ? o.piece(x + size / 2, y + size / 2, ch) : null;
        if (piece) g.appendChild(piece);
        const mv = drop[name] || targets[name];
        if (mv && !d.over) {
          g.appendChild(svgBadge(d, mv, x + size / 2, y + size / 2 + (piece ? size * 0.3 : 0),
            hints, 13));
          svgMove(g, d, tab, mv, moves.human);
        } else if (from[name] && moves.human && !d.over) {
          g.classList.add("legal", "source");
          g.dataset.pick = name;
          g.setAttribute("role", "button");
          g.appendChild(svg("rect", {class: name === picked ? "selected" : "hover", x: x + 3,
            y: y + 3, width: size - 6, height: size - 6, rx: 6, fill: "none",
            stroke: "#ff6f00", "stroke-width": 4}));
          g.appendChild(svg("title", {}, `${name}: pick this piece, then where it goes`));
          const pick = () => {
            tab.picked = name === picked ? null : {key: d.key, cell: name};
            tab.render();
          };
          g.addEventListener("click", pick);
          focusable(g, pick);
        }
        pic.appendChild(g);
      });
    });
    if (o.overlay) o.overlay(pic, (name) => place[name], size);
    const box = el("div");
    box.append(pic, el("p", {class: "status"}, picked
      ? `${cells.status}: ${picked} picked; click where it goes (or it again to drop it)`
      : cells.status));
    return box;
  }
  window.perfectplay.pieceBoard = pieceBoard;

  // A board drawn as a header of column letters and rows "N cell cell ...", whose moves
  // are cell names such as "b2" (tic-tac-toe, Othello), or start with one (Domineering's
  // "b3-b4": anchor(name) gives the cell): a grid, each cell with one legal move coloured
  // by its value and played by a click. Games register it in their web.js.
  function cellGrid(d, tab, hints, anchor = (name) => name) {
    const lines = d.board.split("\n"), rows = [];
    let head = null;
    for (const line of lines) {
      const m = /^\s*(\d+)\s+(.*)$/.exec(line);
      if (m) rows.push({label: m[1], cells: m[2].trim().split(/\s+/)});
      else if (!rows.length && /^\s+[a-z](\s+[a-z])*\s*$/.test(line)) {
        head = line.trim().split(/\s+/);
      }
    }
    if (!head || !rows.length) return el("pre", {class: "board"}, d.board);
    const byCell = {}, count = {};
    for (const mv of d.moves) {
      const cell = anchor(mv.name);
      byCell[cell] = mv;
      count[cell] = (count[cell] || 0) + 1;
    }
    const human = !tab.computer || d.turn !== tab.computer;
    const table = el("table", {class: "grid cells", "data-board": tab.game.board || tab.name});
    const top = el("tr");
    top.appendChild(el("th"));
    head.forEach((c) => top.appendChild(el("th", {}, c)));
    table.appendChild(top);
    for (const row of rows) {
      const tr = el("tr");
      tr.appendChild(el("th", {}, row.label));
      row.cells.forEach((ch, k) => {
        const name = `${head[k]}${row.label}`;
        const mv = count[name] === 1 ? byCell[name] : undefined;  // one move: a click plays it
        const cls = ch === "." ? "" : /^[A-Za-z0-9]$/.test(ch) ? `piece-${ch}` : "covered";
        const td = el("td", {"data-cell": name, class: cls}, ch === "." || cls === "covered"
          ? "" : ch);
        if (mv && !d.over) {
          td.dataset.move = mv.name;
          td.title = shownWords(d, mv) || mv.name;
          if (hints && mv.value) {
            paintValue(td, d, mv);
            td.append(markOf(shownValue(d, mv)), el("small", {}, moveLabel(d, mv)));
          }
          if (human) { td.classList.add("legal"); td.onclick = () => tab.play(mv.name); }
        }
        tr.appendChild(td);
      });
      table.appendChild(tr);
    }
    const box = el("div");
    box.appendChild(table);
    const last = lines[lines.length - 1];
    if (!/^\s*\d+\s/.test(last)) box.appendChild(el("p", {class: "status"}, last));
    return box;
  }
  window.perfectplay.cellGrid = cellGrid;

  // A history move's value before and after it, for its mover, as the page words it: in a
  // scored game the final margins (the points so far counted, as the headline and the
  // chart count them: "lose by 2 at the end"), else the solver's words; null: not known.
  function plyWords(d, p) {
    if (!p.before) return null;
    if (typeof d.margin !== "number" || p.chart_before === null || p.chart_after === null ||
      p.chart_before === undefined) return {before: p.before, after: p.after};
    const sign = p.turn === "second" ? -1 : 1;
    const end = (v) => (v === 0 ? "tie" : `${v > 0 ? "win" : "lose"} by ${Math.abs(v)}`);
    return {before: `${end(sign * p.chart_before)} at the end`,
      after: `${end(sign * p.chart_after)} at the end`};
  }

  // The keys of a position's moves, key -> move name: each move's own name when every name
  // is one character (Connect Four's columns, Kalah's houses), else 1..9 in the list's
  // order when there are at most nine moves; none for more.
  function keyMap(moves) {
    const out = {};
    const names = moves.map((m) => m.name.toLowerCase());
    if (names.every((n) => n.length === 1) && new Set(names).size === names.length) {
      moves.forEach((m, k) => { out[names[k]] = m.name; });
    } else if (moves.length <= 9) {
      moves.forEach((m, k) => { out[String(k + 1)] = m.name; });
    }
    return out;
  }
  window.perfectplay.keyMap = keyMap;

  class Tab {
    constructor(game) {
      Object.assign(this, {game, name: game.name, target: game.default, base: null,
        moves: [], redo: [], data: null, live: null, seed: Math.floor(Math.random() * 1e9)});
    }

    get mode() { return this.section.querySelector(".mode").value; }
    get hints() { return this.mode === "both" || this.section.querySelector(".hints").checked; }
    // the side the computer plays ("first" or "second"), or null for two people
    get computer() { return {first: "second", second: "first"}[this.mode] || null; }
    get strength() { return Number(this.section.querySelector(".strength").value); }

    build() {
      const g = this.game, sec = el("section", {id: `tab-cat-${this.name}`, class: "tab",
        "data-catalog": this.name});
      sec.appendChild(el("h2", {}, g.title));
      sec.appendChild(el("p", {class: "intro"}, g.rules));
      const inst = el("div", {class: "controls instance"});
      const values = parseDefaults(g);
      g.params.forEach((p) => inst.appendChild(paramInput(this, p, values[p.name])));
      if (g.params.length) {
        const open = el("button", {class: "open"}, "Open");
        open.onclick = () => this.open(this.call(), []);
        inst.appendChild(open);
        if (g.live) {
          const standard = el("button", {class: "live-open", title: "too big to solve here: "
            + "each move's value is searched live"}, `Open ${g.live} (live)`);
          standard.onclick = () => this.open(g.live, []);
          inst.appendChild(standard);
        }
        inst.appendChild(el("span", {class: "limit"}, ` the page solves: ${g.limit}`));
      }
      sec.appendChild(inst);
      const modes = el("select", {class: "mode"});
      [["first", "You play first"], ["second", "You play second"],
        ["both", "Two players, with hints"]].forEach(([v, t]) =>
        modes.appendChild(el("option", {value: v}, t)));
      modes.onchange = () => this.refresh();
      const strength = el("label", {}, "Computer ");
      const level = el("select", {class: "strength", title: "perfect: always a best move; "
        + "weaker: with chance s a random move that keeps the value, else any move"});
      STRENGTHS.forEach(([v, t]) => level.appendChild(el("option", {value: v}, t)));
      strength.appendChild(level);
      const hints = el("label", {}, " ");
      const box = el("input", {type: "checkbox", class: "hints"});
      box.checked = true;
      box.onchange = () => this.render();
      hints.append(box, document.createTextNode(" show the moves' values"));
      const bar = el("div", {class: "controls"});
      bar.append(modes, strength, hints);
      for (const [cls, text, fn] of [["undo", "Undo", () => this.undo()],
        ["redo", "Redo", () => this.redoMove()], ["restart", "Restart", () => this.restart()]]) {
        const b = el("button", {class: cls}, text);
        b.onclick = fn;
        bar.appendChild(b);
      }
      sec.appendChild(bar);
      const typed = el("div", {class: "controls"});
      const input = el("input", {class: "typed", size: 40,
        placeholder: g.paste ? `moves, or ${g.paste}` : "moves from the start by their names, comma-separated"});
      const go = el("button", {class: "go"}, "Go to");
      go.onclick = () => this.paste(input.value);
      typed.append(input, go);
      sec.appendChild(typed);
      sec.appendChild(el("div", {class: "error"}));
      sec.appendChild(el("p", {class: "loading", role: "status", "aria-live": "polite"}));
      sec.appendChild(el("p", {class: "summary"}));
      const columns = el("div", {class: "columns"});
      columns.append(el("div", {class: "board-holder", tabindex: "-1"}),
        el("div", {class: "side"}));
      sec.appendChild(columns);
      this.section = sec;
      return sec;
    }

    // the size inputs show the instance opened (a live standard board, a shared URL's)
    showParams(target) {
      const values = parseCall(this.game, target);
      for (const p of this.game.params) {
        const input = this.section.querySelector(`#cat-${this.name}-${p.name}`);
        if (!input) continue;
        const value = values[p.name];
        if (p.kind === "bool") input.checked = Boolean(value);
        else input.value = Array.isArray(value) ? value.join(", ") : String(value);
      }
    }

    call() {
      const parts = this.game.params.map((p) => `${p.name}=${pyLiteral(p,
        this.section.querySelector(`#cat-${this.name}-${p.name}`))}`);
      return parts.length ? `${this.name}(${parts.join(", ")})` : this.name;
    }

    async open(target, moves, base = null) {
      this.target = target;
      this.showParams(target);
      this.base = base;
      this.moves = moves;
      this.redo = [];
      await this.refresh();
    }

    // a pasted position: moves, or the game's own notation (the server reads it)
    // (a live search is stopped first: the one worker reads the paste)
    async paste(text) {
      const error = this.section.querySelector(".error");
      const searching = this.live;
      if (searching) { searching.abort(); this.live = null; }
      this.busy("Reading the pasted position …");
      try {
        const read = await getJson(this.target, "read", {text});
        error.textContent = "";
        await this.open(this.target, read.moves, read.key);
      } catch (e) {
        this.busy(null);
        error.textContent = String(e.message || e);
        if (searching && this.data) this.analyse(this.data);  // back to the position's
      }
    }

    restart() { this.open(this.target, [], this.base); }

    play(name) {
      if (this.redo.length && this.redo[this.redo.length - 1] === name) this.redo.pop();
      else this.redo = [];
      this.moves = [...this.moves, name];
      return this.refresh();
    }

    // the side to move after the first k moves (from the history's movers)
    turnAt(k) {
      const h = this.data.history;
      return k < h.length ? h[k].turn : this.data.turn;
    }

    undo() {
      if (!this.moves.length || !this.data) return;
      do {
        this.redo.push(this.moves.pop());
      } while (this.moves.length && this.computer && this.turnAt(this.moves.length) ===
        this.computer);
      this.refresh();
    }

    redoMove() {
      if (!this.redo.length) return;
      this.moves = [...this.moves, this.redo.pop()];
      this.refresh();
    }

    async refresh() {
      const error = this.section.querySelector(".error");
      if (this.live) this.live.abort();  // a new position: the old search stops
      if (this.historyLive) this.historyLive.abort();
      this.live = this.historyLive = null;
      this.busy(this.data ? "Loading the position …"
        : "Solving this game for the page (the first position takes a few seconds) …");
      try {
        this.data = await getJson(this.target, "position", positionQuery(this));
        error.textContent = "";
      } catch (e) {
        error.textContent = String(e.message || e);
        this.section.dataset.ply = String(this.moves.length);
        this.busy(null);
        return;
      } finally {
        this.busy(null);
      }
      this.render();
      saveHash(this);
      const d = this.data;
      if (d.live && !d.over) {
        this.section.dataset.analysed = "0";
        this.section.dataset.ply = String(this.moves.length);
        this.analyse(d);
        return;
      }
      if (await this.computerPlays(d.computer)) return;
      this.section.dataset.ply = String(this.moves.length);
      if (d.live) await this.fillHistory(d);  // a live game that is over
    }

    // the computer's move, if it is its turn (the server chose it at this strength)
    async computerPlays(name) {
      const d = this.data;
      if (d.over || !this.computer || d.turn !== this.computer || !name) return false;
      await this.play(name);
      return true;
    }

    // A live position: each move's button updated as its answer arrives (value first,
    // remoteness after, bounds while searching), then the position's value.
    async analyse(d) {
      const controller = new AbortController();
      this.live = controller;
      this.render();
      const byName = {};
      d.moves.forEach((m) => { byName[m.name] = m; });
      const sec = this.section;
      let done = null;
      await this.stream("analysis", d, {
        move: (line) => {
          Object.assign(byName[line.name], {value: line.value, margin: line.margin,
            remoteness: line.remoteness, words: line.words, exact: line.exact,
            source: line.source, bounds: line.exact ? null : [line.lower, line.upper]});
          this.render();
        },
        done: (line) => { done = line; },
      }, controller);
      if (this.data !== d || controller.signal.aborted) return;
      this.live = null;
      if (done) {
        d.summary = done.summary;
        if (done.exact) {
          Object.assign(d, {value: done.value, margin: done.margin,
            remoteness: done.remoteness});
          d.moves.forEach((m) => {
            m.best = done.best.includes(m.name);
            m.delta_remoteness = done.delta[m.name] || 0;
          });
        }
        d.analysis_seconds = done.seconds;
        d.analysis_exact = done.exact;
      }
      this.render();
      sec.dataset.analysed = done && done.exact ? "1" : "partial";
      if (done && await this.computerPlays(done.computer)) return;
      await this.fillHistory(d);
    }

    // The JSON lines of a live route for position d, each handed to handlers[line.kind]
    // while d is shown (an "error" line, or a failed request, goes to the tab's error line);
    // false when aborted (a new position was asked).
    async stream(route, d, handlers, controller) {
      try {
        await liveLines(this, route, (line) => {
          if (this.data !== d) return;
          if (line.kind === "error") throw new Error(line.detail);
          if (handlers[line.kind]) handlers[line.kind](line);
        }, controller.signal);
      } catch (e) {
        if (controller.signal.aborted) return false;
        this.section.querySelector(".error").textContent = String(e.message || e);
      }
      return !controller.signal.aborted;
    }

    // A live line's moves played from positions never analysed here (a pasted line, a
    // shared URL) have no values yet: the server analyses those positions, the latest
    // first, and each move's values replace its bare name as they come.
    async fillHistory(d) {
      if (!d.history.some((p) => !p.before && p.turn)) return;
      const controller = new AbortController();
      this.historyLive = controller;
      const sec = this.section;
      sec.dataset.history = "0";
      const ok = await this.stream("history", d, {
        ply: (line) => { d.history[line.index] = line.ply; this.render(); },
        done: (line) => { sec.dataset.history = line.complete ? "1" : "partial"; },
      }, controller);
      if (!ok) return;
      if (this.historyLive === controller) this.historyLive = null;
      this.render();
    }

    // The loading state: the tab marked busy (data-loading, aria-busy) with what it waits
    // for in words, its board and moves not clickable meanwhile; null: done.
    busy(words) {
      const sec = this.section, note = sec.querySelector(".loading");
      if (words) {
        sec.dataset.loading = "1";
        sec.setAttribute("aria-busy", "true");
        note.textContent = words;
      } else {
        delete sec.dataset.loading;
        sec.removeAttribute("aria-busy");
        note.textContent = "";
      }
    }

    // A key pressed on this tab: a move's key plays it (keyMap), the arrows step through
    // the history (left: undo, right: redo); true when the key was this tab's.
    key(event) {
      if (this.section.dataset.loading) return ["ArrowLeft", "ArrowRight"].includes(event.key)
        || event.key in (this.keys || {});
      if (event.key === "ArrowLeft") { this.undo(); return true; }
      if (event.key === "ArrowRight") { this.redoMove(); return true; }
      const name = (this.keys || {})[event.key.toLowerCase()];
      if (!name || !this.data || this.data.over) return false;
      if (this.computer && this.data.turn === this.computer) return true;
      this.play(name);
      return true;
    }

    // Why a marked mistake was one: the value it gave up, what it became, and (once the
    // position before it is fetched: a solved game's, never a live search) the better move
    // that keeps it.
    why(d, k, p) {
      const key = `${this.target}|${this.base || ""}|${d.history.slice(0, k).map((h) => h.name)
        .join(",")}`;
      this.better = this.better || {};
      if (!(key in this.better) && !d.live) {
        this.better[key] = null;
        const q = {moves: d.history.slice(0, k).map((h) => h.name).join(",")};
        if (this.base) q.p = this.base;
        getJson(this.target, "position", q).then((answer) => {
          this.better[key] = answer.moves.filter((m) => m.best).map((m) => m.name).slice(0, 3);
          if (this.data === d) this.render();
        }).catch(() => { this.better[key] = []; });
      }
      const better = this.better[key];
      return ` — why: it turned "${p.before}" into "${p.after}"${better && better.length
        ? `; ${better.join(" or ")} would keep "${p.before}"` : ""}`;
    }

    // Focus kept across a redraw: a focused move (a button or a board's cell) is focused
    // again by its name, else the first move, else the board.
    keepFocus(before) {
      if (!before.inTab || (document.body.contains(before.node) && !before.fallback)) return;
      const sec = this.section, name = before.move;
      const same = name && [...sec.querySelectorAll(`${before.tag}[data-move]`)]
        .find((x) => x.dataset.move === name && !x.disabled);
      // a piece just picked: its first target on the board (or the piece, dropped again)
      const picked = before.pick ? sec.querySelector(".board-holder .legal[data-move]") ||
        sec.querySelector(`.board-holder [data-pick="${before.pick}"]`) : null;
      const first = sec.querySelector(".movebtn:not(:disabled)");
      const target = same || picked || first || sec.querySelector(".board-holder");
      if (target) target.focus({preventScroll: true});
    }

    render() {
      const focused = document.activeElement, sec0 = this.section;
      const before = {inTab: sec0.contains(focused) && focused !== sec0, node: focused,
        move: focused && focused.dataset ? focused.dataset.move : null,
        pick: focused && focused.dataset ? focused.dataset.pick : null,
        tag: focused ? focused.tagName.toLowerCase() : "",
        fallback: focused && focused.classList.contains("board-holder")};
      this.draw();
      this.keepFocus(before);
    }

    draw() {
      const d = this.data, sec = this.section, hints = this.hints;
      sec.querySelector(".summary").textContent = d.summary;
      const human = !this.computer || d.turn !== this.computer;
      const board = boards[this.game.board || this.name];
      const holder = sec.querySelector(".board-holder");
      holder.replaceChildren(board ? board.board(d, this, hints)
        : el("pre", {class: "board"}, d.board));
      const side = sec.querySelector(".side");
      side.replaceChildren();
      if (!d.over) {
        side.appendChild(el("p", {class: "turn"}, d.turn ? `${d.turn === "first" ? "Player 1"
          : "Player 2"} to move` : "to move"));
        if (d.live) {
          side.appendChild(el("p", {class: "live"}, this.live
            ? "searching: each move's value first, then its remoteness ..."
            : d.analysis_seconds === undefined ? ""
              // stopped before every move was proven: the summary says what is, not an answer
              : `${d.analysis_exact ? "answered live in" : "stopped after"} ${
                d.analysis_seconds.toFixed(2)} s`));
        }
        const list = el("div", {class: "movelist", role: "group",
          "aria-label": "the legal moves"});
        this.keys = human ? keyMap(d.moves) : {};
        const keyOf = {};
        for (const [k, name] of Object.entries(this.keys)) keyOf[name] = k;
        for (const mv of d.moves) {
          const b = moveButton(d, mv, moveLabel(d, mv), () => this.play(mv.name), hints,
            keyOf[mv.name] || "");
          b.disabled = !human;
          list.appendChild(b);
        }
        side.appendChild(list);
      } else {
        this.keys = {};
      }
      side.appendChild(legend(d.moves.some((m) => typeof m.margin === "number") ||
        typeof d.margin === "number"));
      side.appendChild(el("p", {class: "keys-help"}, Object.keys(this.keys).length
        ? "Keys: a move's key plays it; ← undo, → redo."
        : "Keys: ← undo, → redo."));
      if (d.history.length) {
        side.appendChild(window.perfectplay.historyChart(d.history));
        const list = el("ol", {class: "history"});
        d.history.forEach((p, k) => {
          const w = plyWords(d, p);
          const li = el("li", {class: p.mistake ? "mistake" : ""},
            `${p.turn === "second" ? "Player 2" : "Player 1"} ${p.name}${w ? `: ${
              w.before} -> ${w.after}` : ""}${p.mistake ? " (mistake)" : ""}`);
          if (p.mistake && w) li.appendChild(el("span", {class: "why"}, this.why(d, k, w)));
          list.appendChild(li);
        });
        side.appendChild(list);
      }
      // the box shows the moves of a new position only: a render while an analysis streams
      // in must not wipe what the user is typing there
      const shown = this.moves.join(", ");
      if (this.typedShown !== shown) {
        sec.querySelector(".typed").value = shown;
        this.typedShown = shown;
      }
    }
  }

  // the default instance's parameters, read back from its call (the page keeps the call)
  function parseDefaults(g) { return parseCall(g, g.default); }

  // an instance's parameters read back from its call (``connect4(width=7, height=6)``),
  // each missing one its default
  function parseCall(g, call) {
    const out = {};
    g.params.forEach((p) => { out[p.name] = p.default; });
    const m = /^[^(]*\((.*)\)$/.exec(call);
    if (!m) return out;
    for (const p of g.params) {
      const re = new RegExp(`${p.name}=(\\([^)]*\\)|'[^']*'|"[^"]*"|[^,]+)`);
      const found = re.exec(m[1]);
      if (!found) continue;
      const raw = found[1].trim();
      if (p.kind === "tuple") out[p.name] = raw.replace(/[()]/g, "").split(",")
        .map((x) => x.trim()).filter((x) => x !== "");
      else if (p.kind === "bool") out[p.name] = raw === "True";
      else if (p.kind === "str") out[p.name] = raw.slice(1, -1);
      else out[p.name] = Number(raw);
    }
    return out;
  }

  function saveHash(tab) {
    const parts = [`play=${encodeURIComponent(tab.target)}`];
    if (tab.base) parts.push(`p=${encodeURIComponent(tab.base)}`);
    if (tab.moves.length) parts.push(`moves=${encodeURIComponent(tab.moves.join(","))}`);
    if (tab.mode !== "first") parts.push(`mode=${tab.mode}`);
    history.replaceState(null, "", `#${parts.join("&")}`);
  }

  function readHash() {
    const out = {};
    for (const part of location.hash.replace(/^#/, "").split("&")) {
      const k = part.indexOf("=");
      if (k > 0) out[part.slice(0, k)] = decodeURIComponent(part.slice(k + 1));
    }
    return out;
  }

  function activate(button, section) {
    document.querySelectorAll("nav button, .tab").forEach((x) => x.classList.remove("active"));
    button.classList.add("active");
    section.classList.add("active");
  }

  async function main() {
    // the explored games of app.js's list (their board code loaded there), each entry's
    // "explore" part spread on it
    const games = window.perfectplay.gameList.filter((g) => g.explore)
      .map((g) => ({...g, ...g.explore, served: g.kind === "served"}));
    const nav = document.getElementById("catalog-tabs"), holder = document.getElementById("games");
    const tabs = {};
    for (const game of games) {
      const tab = new Tab(game), sec = tab.build();
      const button = el("button", {"data-catalog": game.name}, game.title);
      button.onclick = () => {
        activate(button, sec);
        if (!tab.data) tab.refresh();
      };
      tabs[game.name] = {tab, button, sec};
      nav.appendChild(button);
      holder.appendChild(sec);
    }
    window.perfectplay.catalogTabs = tabs;
    // the keys of the shown tab (not while typing in a box)
    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (/^(INPUT|TEXTAREA|SELECT)$/.test((event.target || {}).tagName || "")) return;
      const shown = Object.values(tabs).find((x) => x.sec.classList.contains("active"));
      if (shown && shown.tab.data && shown.tab.key(event)) event.preventDefault();
    });
    const wanted = readHash();
    if (wanted.play) {
      const name = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(wanted.play);
      const entry = name && tabs[name[0]];
      if (entry) {
        activate(entry.button, entry.sec);
        if (["first", "second", "both"].includes(wanted.mode)) {
          entry.sec.querySelector(".mode").value = wanted.mode;
        }
        await entry.tab.open(wanted.play, (wanted.moves || "").split(",").filter((x) => x),
          wanted.p || null);
      }
    }
    document.body.dataset.catalogReady = "1";
  }

  // after app.js has built the seed games' tabs (its historyChart is shared)
  const start = () => (document.body.dataset.ready === "1" ? main()
    : setTimeout(start, 20));
  start();
})();
