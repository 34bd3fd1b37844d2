"use strict";
// Teeko's board on perfectplay's page (this game's board code, found through its registry
// entry's script, served at /page/teeko.js, shared by every tab that shows Teeko): John
// Scarne's board, points joined by lines across, down and diagonally (a marker moves
// along them), Black's markers black (X in the game's drawing) and White's white (O), as
// the game names its players (Scarne's set was black and red). A drop
// is a click on a free point; in the moving phase a click on a marker picks it and a click
// on a neighbouring point moves it there. Each target shows its move's value.
(() => {
  const {svg, pieceBoard} = window.perfectplay;
  const CELL = 60;

  // A point of the board and its lines to the neighbours right, below and diagonal (drawn
  // from each point so the lattice is whole).
  function square(x, y) {
    const g = svg("g", {class: "point"});
    g.appendChild(svg("rect", {x, y, width: CELL, height: CELL, fill: "transparent"}));
    g.appendChild(svg("circle", {cx: x + CELL / 2, cy: y + CELL / 2, r: 7, fill: "#5d4037"}));
    return g;
  }

  function piece(x, y, ch) {
    if (ch !== "X" && ch !== "O") return null;
    return svg("circle", {class: `marker piece-${ch}`, cx: x, cy: y, r: CELL * 0.36,
      fill: ch === "X" ? "#111" : "#fafafa", stroke: "#000", "stroke-width": 2});
  }

  // The lattice under the points: each point joined to its eight neighbours.
  function overlay(pic, at) {
    const lattice = svg("g", {class: "lattice", "pointer-events": "none"});
    const names = [...pic.querySelectorAll("[data-cell]")].map((g) => g.dataset.cell);
    const has = new Set(names);
    for (const name of names) {
      const c = name.charCodeAt(0), r = Number(name.slice(1));
      for (const [dc, dr] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
        const other = `${String.fromCharCode(c + dc)}${r + dr}`;
        if (!has.has(other)) continue;
        const [x1, y1] = at(name), [x2, y2] = at(other);
        lattice.appendChild(svg("line", {x1, y1, x2, y2, stroke: "#8d6e63", "stroke-width": 2}));
      }
    }
    pic.insertBefore(lattice, pic.children[1]);
  }

  const board = (d, tab, hints) => pieceBoard(d, tab, hints, {name: "teeko", cell: CELL,
    square, piece, overlay, background: "#f3e5c8"});

  window.perfectplay.boards.teeko = {board};
})();
