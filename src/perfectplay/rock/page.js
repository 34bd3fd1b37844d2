"use strict";
// The Rock on the web page (perfectplay.rock's board code, loaded by the page through the
// registry): the maze editor's brush, the value map with the route and the rock's block, and
// the maze to click in play.
(() => {
  const {el, gridTable, gridBoard, viridis, viridisInk, cellName} = window.perfectplay;

  function tools() {
    const label = el("label", {}, "Brush ");
    const brush = el("select", {id: "rock-brush"});
    for (const [value, text] of [["#", "wall / free"], ["E", "E"], ["X", "X"]]) {
      brush.appendChild(el("option", {value}, text));
    }
    label.appendChild(brush);
    return label;
  }

  function paint(ch) {
    const brush = document.getElementById("rock-brush").value;
    return brush === "#" ? (ch === "#" ? "." : "#") : brush;
  }

  function view(d) {
    const grid = d.grid, rows = grid.length, cols = grid[0].length, res = d.result;
    const route = new Set(res.route.map(([r, c]) => `${r},${c}`));
    const top = Math.max(1, ...res.f.flat().filter((v) => v !== null));
    const blocked = res.blocked_cell ? res.blocked_cell.join(",") : null;
    return gridTable(rows, cols, (r, c) => {
      const ch = grid[r][c], f = res.f[r][c], key = `${r},${c}`;
      if (ch === "#") return {cls: "wall"};
      if (key === blocked) return {text: "R", cls: "block", title: "the rock's block"};
      const text = ch === "E" || ch === "X" ? ch : f === null ? "∞" : String(f);
      return {text, cls: route.has(key) ? "route" : "",
        style: f === null ? "" : `background:${viridis(f / top)};color:${viridisInk(f / top)}`,
        title: f === null ? "the walker never arrives" : `${cellName(r, c)}: ${f} steps`};
    });
  }

  const head = (d) => `${d.result.value === null ? "infinite" : d.result.value}\n`;

  window.perfectplay.boards.rock = {tools, paint, unique: "EX", view, head, board: gridBoard};
})();
