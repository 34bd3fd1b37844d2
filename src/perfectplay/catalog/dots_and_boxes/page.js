"use strict";
// Dots and Boxes' board on perfectplay's page (this game's board code, found through its
// registry entry's script, served at /page/dots_and_boxes.js, shared by every tab that
// shows the game): the dots, the lines drawn, each box filled in its owner's colour with
// its letter (A the first player, B the second), and the score. The lines come from the
// game's drawing (dots as +, lines as --- and |, complete boxes as #); who owns a box is
// not in a position (its value is the margin still to come), so it is found by replaying
// the moves shown in the history: the player whose line completed a box owns it. Each line
// still free shows its move's value (mark and final margin) and is drawn by a click.
(() => {
  const {el, svg, svgBadge, svgMove, movesByName, letters} = window.perfectplay;
  const STEP = 70, PAD = 30;
  const OWNER = {A: {fill: "#bbdefb", ink: "#0d47a1", who: "Player 1 (A)"},
    B: {fill: "#ffe0b2", ink: "#8a3b00", who: "Player 2 (B)"}};

  // The drawing read back: rows x cols boxes, the lines drawn (by name, "a1-b1"), the
  // complete boxes ("c,r" from the bottom left, 0-based).
  function parse(text) {
    const lines = text.split("\n"), dotRows = [];
    lines.forEach((line, k) => {
      const m = /^\s*(\d+) \+/.exec(line);
      if (m) dotRows.push({row: Number(m[1]), k, at: line.indexOf("+")});
    });
    const cols = (lines[dotRows[0].k].length - dotRows[0].at - 1) / 4;
    const rows = dotRows.length - 1, drawn = new Set(), done = new Set();
    for (const {row, k, at} of dotRows) {
      const text = lines[k];
      for (let c = 0; c < cols; c++) {
        if (text.slice(at + 4 * c + 1, at + 4 * c + 4) === "---") {
          drawn.add(`${letters(c)}${row}-${letters(c + 1)}${row}`);
        }
      }
      if (row === 1) continue;
      const between = lines[k + 1] || "";
      for (let c = 0; c <= cols; c++) {
        if (between[at + 4 * c] === "|") drawn.add(`${letters(c)}${row - 1}-${letters(c)}${row}`);
        if (c < cols && between[at + 4 * c + 2] === "#") done.add(`${c},${row - 2}`);
      }
    }
    return {rows, cols, drawn, done};
  }

  // The four lines of box (c, r) (0-based from the bottom left).
  function sides(c, r) {
    const d = (cc, rr) => `${letters(cc)}${rr + 1}`;
    return [`${d(c, r)}-${d(c + 1, r)}`, `${d(c, r + 1)}-${d(c + 1, r + 1)}`,
      `${d(c, r)}-${d(c, r + 1)}`, `${d(c + 1, r)}-${d(c + 1, r + 1)}`];
  }

  // Who owns each complete box, "c,r" -> "A" or "B", by replaying the history's moves from
  // the lines drawn before them (those of a pasted position have no known owner: "?").
  function owners(d, b) {
    const played = d.history.map((p) => p.name), shown = new Set(b.drawn);
    played.forEach((name) => shown.delete(name));
    const out = {};
    const complete = (c, r) => sides(c, r).every((s) => shown.has(s));
    for (const key of b.done) {
      const [c, r] = key.split(",").map(Number);
      if (complete(c, r)) out[key] = "?";
    }
    d.history.forEach((p) => {
      shown.add(p.name);
      for (let r = 0; r < b.rows; r++) {
        for (let c = 0; c < b.cols; c++) {
          if (!out[`${c},${r}`] && complete(c, r)) out[`${c},${r}`] = p.turn === "second" ? "B" : "A";
        }
      }
    });
    return out;
  }

  // The picture's point of dot (c, r), r from the bottom.
  const at = (b, c, r) => [PAD + c * STEP, PAD + (b.rows - r) * STEP];

  function line(d, tab, hints, b, name, moves) {
    const [p, q] = name.split("-").map((dot) => [dot.charCodeAt(0) - 97, Number(dot.slice(1)) - 1]);
    const [x1, y1] = at(b, ...p), [x2, y2] = at(b, ...q);
    const g = svg("g", {class: b.drawn.has(name) ? "line drawn" : "line", "data-line": name});
    if (b.drawn.has(name)) {
      g.appendChild(svg("line", {x1, y1, x2, y2, stroke: "#212121", "stroke-width": 6,
        "stroke-linecap": "round"}));
      return g;
    }
    const mv = moves.byName[name];
    g.appendChild(svg("line", {x1, y1, x2, y2, stroke: "#9e9e9e", "stroke-width": 2,
      "stroke-dasharray": "4 6"}));
    if (!mv || d.over) return g;
    g.appendChild(svg("line", {class: "hover", x1, y1, x2, y2, stroke: "#212121",
      "stroke-width": 6}));
    g.appendChild(svg("line", {x1, y1, x2, y2, stroke: "transparent", "stroke-width": 22}));
    g.appendChild(svgBadge(d, mv, (x1 + x2) / 2, (y1 + y2) / 2, hints, 12));
    return svgMove(g, d, tab, mv, moves.human);
  }

  function box(b, c, r, owner) {
    const [x, y] = at(b, c, r + 1), style = OWNER[owner];
    const g = svg("g", {class: `box owner-${owner}`, "data-box": `${letters(c)}${r + 1}`});
    g.appendChild(svg("rect", {x: x + 4, y: y + 4, width: STEP - 8, height: STEP - 8,
      fill: style ? style.fill : "#e0e0e0"}));
    g.appendChild(svg("text", {x: x + STEP / 2, y: y + STEP / 2 + 10, "text-anchor": "middle",
      "font-size": 28, "font-weight": "bold", fill: style ? style.ink : "#212121"}, owner));
    return g;
  }

  function board(d, tab, hints) {
    const b = parse(d.board), own = owners(d, b), moves = movesByName(d, tab);
    const width = 2 * PAD + b.cols * STEP, height = 2 * PAD + b.rows * STEP;
    const pic = svg("svg", {class: "board dots", "data-board": "dots_and_boxes",
      viewBox: `0 0 ${width} ${height}`, width, height, role: "img",
      "aria-label": "Dots and Boxes board"});
    pic.appendChild(svg("rect", {x: 0, y: 0, width, height, fill: "#fffdf5", rx: 8}));
    for (const [key, owner] of Object.entries(own)) {
      const [c, r] = key.split(",").map(Number);
      pic.appendChild(box(b, c, r, owner));
    }
    const names = [];
    for (let r = 0; r <= b.rows; r++) {
      for (let c = 0; c <= b.cols; c++) {
        const dot = `${letters(c)}${r + 1}`;
        if (c < b.cols) names.push(`${dot}-${letters(c + 1)}${r + 1}`);
        if (r < b.rows) names.push(`${dot}-${letters(c)}${r + 2}`);
      }
    }
    // the free lines first, so the drawn ones and the dots lie over their ends
    names.filter((n) => !b.drawn.has(n)).forEach((n) => pic.appendChild(line(d, tab, hints, b,
      n, moves)));
    names.filter((n) => b.drawn.has(n)).forEach((n) => pic.appendChild(line(d, tab, hints, b,
      n, moves)));
    for (let r = 0; r <= b.rows; r++) {
      for (let c = 0; c <= b.cols; c++) {
        const [x, y] = at(b, c, r);
        pic.appendChild(svg("circle", {cx: x, cy: y, r: 6, fill: "#000"}));
        pic.appendChild(svg("text", {x: x - 10, y: y - 9, "font-size": 11, fill: "#424242"},
          `${letters(c)}${r + 1}`));
      }
    }
    const count = (who) => Object.values(own).filter((o) => o === who).length;
    const unknown = count("?");
    const score = el("p", {class: "scoreline", "data-score": `${count("A")}-${count("B")}`},
      `Boxes: Player 1 (A) ${count("A")}, Player 2 (B) ${count("B")}${unknown
        ? ` (and ${unknown} from the pasted position; points so far ${d.points > 0 ? "+" : ""}${
          d.points} for Player 1)` : ""}`);
    const box2 = el("div");
    box2.append(pic, score);
    return box2;
  }

  window.perfectplay.boards.dots_and_boxes = {board};
})();
