"use strict";
// Nim's board on perfectplay's page (this game's board code, found through its registry
// entry's script, served at /page/nim.js, shared by every tab that shows Nim): each heap
// a row of counters, read from the game's drawing ("  5 ooooo"); a click on a counter
// takes it and every counter right of it (the move "5>2" leaves a heap of 5 with 2).
// Each counter shows the value of taking from there (mark and number on its colour).
(() => {
  const {el, svg, svgBadge, svgMove, movesByName} = window.perfectplay;
  const STEP = 44, PAD = 16;

  const heaps = (text) => text.split("\n").map((l) => /^\s*(\d+)\s*(o*)\s*$/.exec(l))
    .filter((m) => m).map((m) => Number(m[1]));

  function counter(d, tab, hints, size, k, x, y, moves) {
    const name = `${size}>${k}`, mv = moves.byName[name];
    const g = svg("g", {class: "counter", "data-counter": name});
    g.appendChild(svg("circle", {cx: x, cy: y, r: STEP * 0.42, fill: "#ffca28",
      stroke: "#6d4c00", "stroke-width": 2}));
    if (mv && !d.over) {
      g.appendChild(svgBadge(d, mv, x, y, hints, 12));
      svgMove(g, d, tab, mv, moves.human);
    }
    return g;
  }

  function board(d, tab, hints) {
    const sizes = heaps(d.board), moves = movesByName(d, tab);
    const widest = Math.max(1, ...sizes);
    const width = 2 * PAD + 40 + widest * STEP, height = 2 * PAD + Math.max(1, sizes.length) * STEP;
    const pic = svg("svg", {class: "board nim", "data-board": "nim",
      viewBox: `0 0 ${width} ${height}`, width, height, role: "img",
      "aria-label": `Nim heaps: ${sizes.join(", ")}`});
    pic.appendChild(svg("rect", {x: 0, y: 0, width, height, rx: 8, fill: "#eceff1"}));
    sizes.forEach((size, r) => {
      const y = PAD + r * STEP + STEP / 2;
      const row = svg("g", {class: "heap", "data-heap": String(r + 1),
        "data-size": String(size)});
      row.appendChild(svg("text", {x: PAD, y: y + 5, "font-size": 15, "font-weight": "bold",
        fill: "#212121"}, String(size)));
      for (let k = 0; k < size; k++) {
        row.appendChild(counter(d, tab, hints, size, k, PAD + 40 + k * STEP + STEP / 2, y,
          moves));
      }
      pic.appendChild(row);
    });
    const box = el("div");
    box.append(pic, el("p", {class: "status"}, sizes.length && sizes.some((s) => s)
      ? "Click a counter: it and every counter right of it are taken."
      : "Every heap is empty."));
    return box;
  }

  window.perfectplay.boards.nim = {board};
})();
