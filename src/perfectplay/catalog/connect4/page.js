"use strict";
// Connect Four's board on perfectplay's page (this game's board code, found through its
// registry entry's script and served at /page/connect4.js): the board read from the
// game's drawing (rows top first, X the first player, O the second, then the column
// numbers), a click on a column plays it and the new disc drops into place; each column's
// head shows the value of dropping there (GamesmanUni's colours, with its mark: W, L, T,
// D) and its remoteness; the column's digit is its key (explore.js).
(() => {
  // explore.js's helpers (it runs before any board code is loaded)
  const {el, VALUE_STYLE, shownValue, shownWords, moveLabel, paintValue} = window.perfectplay;

  // The rows of the drawing and the column names under them.
  function parse(text) {
    const lines = text.split("\n").filter((l) => l.trim() !== "");
    return {rows: lines.slice(0, -1), names: lines[lines.length - 1]};
  }

  function board(d, tab, hints) {
    const {rows} = parse(d.board), height = rows.length, width = rows[0].length;
    const before = tab.c4rows || null;
    tab.c4rows = rows;
    const byName = {};
    for (const mv of d.moves) byName[mv.name] = mv;
    const human = !tab.computer || d.turn !== tab.computer;
    const table = el("table", {class: "c4", "data-board": "connect4"});
    const head = el("tr");
    for (let c = 0; c < width; c++) {
      const mv = byName[String(c + 1)];
      const th = el("th", {class: mv ? "" : "none", "data-column": String(c + 1)},
        mv && hints && mv.value ? `${VALUE_STYLE[shownValue(d, mv)].mark}${moveLabel(d, mv)}`
          : "");
      if (mv) {
        th.dataset.move = mv.name;
        th.title = `column ${c + 1}: ${shownWords(d, mv) || "searched"}`;
        if (hints && mv.value) paintValue(th, d, mv);
      }
      head.appendChild(th);
    }
    table.appendChild(head);
    for (let r = 0; r < height; r++) {
      const tr = el("tr");
      for (let c = 0; c < width; c++) {
        const ch = rows[r][c];
        const fresh = before && before.length === height && ch !== "." && before[r][c] === ".";
        const td = el("td", {class: `${ch === "." ? "" : ch}${fresh ? " new" : ""}`,
          "data-cell": `${c + 1},${height - r}`});
        if (fresh) td.style.setProperty("--fall", `${-(r + 1) * 46}px`);
        tr.appendChild(td);
      }
      table.appendChild(tr);
    }
    // a click anywhere in a column drops a disc there
    table.querySelectorAll("th, td").forEach((cell) => {
      const c = cell.cellIndex, mv = byName[String(c + 1)];
      if (!mv || !human || d.over) return;
      cell.classList.add("legal");
      cell.onclick = () => tab.play(mv.name);
    });
    return table;
  }

  window.perfectplay.boards.connect4 = {board};
})();
