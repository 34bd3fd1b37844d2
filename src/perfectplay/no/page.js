"use strict";
// No on the web page (perfectplay.no's board code, loaded by the page through the registry):
// a board editor whose clicks cycle a cell through free, wall, pieces and the start piece,
// and the distance map.
(() => {
  const {gridTable} = window.perfectplay;
  const CYCLE = [".", "#", "A", "B", "C", "D", "E", "*"];

  const paint = (ch) => CYCLE[(CYCLE.indexOf(ch) + 1) % CYCLE.length] || ".";

  function view(d) {
    const grid = d.grid, rows = grid.length, cols = grid[0].length;
    return gridTable(rows, cols, (r, c) => {
      const ch = grid[r][c];
      if (ch === "#") return {cls: "wall"};
      if (ch === "*") return {text: "*", cls: "start", title: "the start piece"};
      if (/[A-Za-z]/.test(ch)) return {text: ch, cls: "piece"};
      return {text: ch === "-" ? "" : ch, title: ch === "-" ? "out of reach" : "moves from *"};
    });
  }

  window.perfectplay.boards.no = {paint, unique: "*", view};
})();
