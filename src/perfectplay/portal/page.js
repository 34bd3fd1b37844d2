"use strict";
// Closing the Portal on the web page (perfectplay.portal's board code, loaded by the page
// through the registry): the board editor's brush, the safe and cut cells, and the board to
// click in play.
(() => {
  const {el, gridTable, cellName} = window.perfectplay;

  function tools() {
    const label = el("label", {}, "Brush ");
    const brush = el("select", {id: "portal-brush"});
    for (const [value, text] of [["#", "wall / empty"], ["O", "portal"]]) {
      brush.appendChild(el("option", {value}, text));
    }
    label.appendChild(brush);
    return label;
  }

  function paint(ch) {
    const brush = document.getElementById("portal-brush").value;
    return brush === "#" ? (ch === "#" ? "." : "#") : (ch === "O" ? "." : "O");
  }

  function view(d) {
    const grid = d.grid, rows = grid.length, cols = grid[0].length, res = d.result;
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

  const head = (d) => `${d.result.winner} wins.\n`;

  // The board to click in play: a wall of this game is '+' on its own colour, as the
  // title says ("'+' = walled in this game"), not black like the board's own walls.
  const PLACED = "background: #8d6e63; color: #fff; font-weight: bold";

  function board(d, game) {
    const {boardRows, legalByName} = window.perfectplay;
    const rows = boardRows(d.board), legal = legalByName(d);
    return gridTable(rows.length, rows[0].length, (r, c) => {
      const ch = rows[r][c], name = cellName(r, c), mv = legal[name];
      const spec = ch === "#" ? {cls: "wall", title: `${name}: a wall from the start`}
        : ch === "O" ? {text: "O", cls: "portal"}
        : ch === "+" ? {text: "+", cls: "placed", style: PLACED,
          title: `${name}: walled in this game`}
        : {text: ""};
      if (mv && !d.over) {
        spec.cls = `${spec.cls || ""} legal`.trim();
        spec.title = mv.describe;
        spec.onclick = () => game.play(mv.name);
      }
      return spec;
    });
  }

  window.perfectplay.boards.portal = {tools, paint, view, head, board};
})();
