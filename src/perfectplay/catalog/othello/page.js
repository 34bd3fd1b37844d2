"use strict";
// Othello's board on perfectplay's page (this game's board code, found through its registry
// entry's script, served at /page/othello.js, shared by every tab that shows Othello): the
// green board with black and white discs (X is Black, O is White, as the game's drawing
// says), read from the game's drawing; each legal square shows its move's value (mark and
// number on the value's colour) and a click there plays it; the discs counted under it.
(() => {
  const {el, svg, svgBadge, svgMove, readCells, movesByName} = window.perfectplay;
  const CELL = 48, PAD = 22;

  function disc(x, y, who) {
    return svg("circle", {cx: x, cy: y, r: CELL * 0.4, class: `disc piece-${who}`,
      fill: who === "X" ? "#111" : "#f5f5f5", stroke: "#000", "stroke-width": 1.5});
  }

  // One square: its green field, its disc or (a legal move) its value's badge.
  function square(d, tab, hints, cell, ch, x, y, moves) {
    const g = svg("g", {class: ch === "." ? "square" : `square piece-${ch}`,
      "data-cell": cell});
    g.appendChild(svg("rect", {x, y, width: CELL, height: CELL, fill: "#1b7a3a",
      stroke: "#0b3d1c", "stroke-width": 1.5}));
    if (ch === "X" || ch === "O") g.appendChild(disc(x + CELL / 2, y + CELL / 2, ch));
    const mv = moves.byName[cell];
    if (mv && !d.over) {
      g.appendChild(svg("circle", {class: "hover", cx: x + CELL / 2, cy: y + CELL / 2,
        r: CELL * 0.4, fill: d.turn === "second" ? "#fff" : "#000"}));
      g.appendChild(svgBadge(d, mv, x + CELL / 2, y + CELL / 2, hints, 14));
      svgMove(g, d, tab, mv, moves.human);
    }
    return g;
  }

  function board(d, tab, hints) {
    const cells = readCells(d.board);
    if (!cells) return el("pre", {class: "board"}, d.board);
    const n = cells.head.length, h = cells.rows.length, moves = movesByName(d, tab);
    const pic = svg("svg", {class: "board cells othello", "data-board": "othello",
      viewBox: `0 0 ${2 * PAD + n * CELL} ${2 * PAD + h * CELL}`,
      width: 2 * PAD + n * CELL, height: 2 * PAD + h * CELL, role: "img",
      "aria-label": `Othello board: ${cells.status}`});
    pic.appendChild(svg("rect", {x: 0, y: 0, width: 2 * PAD + n * CELL,
      height: 2 * PAD + h * CELL, rx: 8, fill: "#5d4037"}));
    cells.head.forEach((c, k) => pic.appendChild(svg("text", {x: PAD + k * CELL + CELL / 2,
      y: PAD * 0.72, "text-anchor": "middle", "font-size": 13, fill: "#fff"}, c)));
    cells.rows.forEach((row, r) => {
      pic.appendChild(svg("text", {x: PAD / 2, y: PAD + r * CELL + CELL / 2 + 5,
        "text-anchor": "middle", "font-size": 13, fill: "#fff"}, row.label));
      row.cells.forEach((ch, k) => pic.appendChild(square(d, tab, hints,
        `${cells.head[k]}${row.label}`, ch, PAD + k * CELL, PAD + r * CELL, moves)));
    });
    const box = el("div");
    const count = (who) => cells.rows.reduce((a, row) => a + row.cells.filter((c) => c === who)
      .length, 0);
    box.append(pic, el("p", {class: "scoreline"}, `● Black (X) ${count("X")}  ○ White (O) ${
      count("O")}`), el("p", {class: "status"}, cells.status));
    return box;
  }

  window.perfectplay.boards.othello = {board};
})();
