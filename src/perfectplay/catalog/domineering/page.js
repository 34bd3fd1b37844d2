"use strict";
// Domineering's board on perfectplay's page (this game's board code, found through its
// registry entry's script, served at /page/domineering.js, shared by every tab that shows
// it): a grid on which each domino played lies as a domino across its two cells, Vertical's
// blue and upright, Horizontal's orange and flat (the pairs from the history's moves; cells
// covered before it, in a pasted position, grey). A click on a cell places the mover's
// domino from it (Vertical's up to the cell above, Horizontal's to the cell on the right:
// the move "b3-b4" or "b3-c3" starts at the cell clicked); each such cell shows its value.
(() => {
  const {svg, pieceBoard} = window.perfectplay;
  const CELL = 52;

  const square = (x, y, ch) => svg("rect", {x: x + 1, y: y + 1, width: CELL - 2,
    height: CELL - 2, fill: ch === "#" ? "#9e9e9e" : "#fffdf5", stroke: "#bdbdbd"});

  // The dominoes of the history over their cells.
  function dominoes(d) {
    return (pic, at) => {
      for (const p of d.history) {
        const [a, b] = p.name.split("-");
        if (!at(a) || !at(b)) continue;
        const [x1, y1] = at(a), [x2, y2] = at(b), vertical = x1 === x2;
        const x = Math.min(x1, x2) - CELL / 2 + 4, y = Math.min(y1, y2) - CELL / 2 + 4;
        pic.appendChild(svg("rect", {class: `domino ${vertical ? "vertical" : "horizontal"}`,
          "data-domino": p.name, x, y, rx: 8, width: vertical ? CELL - 8 : 2 * CELL - 8,
          height: vertical ? 2 * CELL - 8 : CELL - 8, fill: vertical ? "#1565c0" : "#ef6c00",
          stroke: "#000", "stroke-width": 1.5, "pointer-events": "none"}));
      }
    };
  }

  const board = (d, tab, hints) => pieceBoard(d, tab, hints, {name: "domineering",
    cell: CELL, square, anchor: (name) => name.split("-")[0], overlay: dominoes(d),
    background: "#eceff1"});

  window.perfectplay.boards.domineering = {board};
})();
