"use strict";
// Kalah's board on perfectplay's page (this game's board code, found through its registry
// entry's script, served at /page/kalah.js, shared by every tab that shows Kalah): north's
// houses over south's, each store past the end of its owner's row (north's on the left,
// south's on the right), read from the game's drawing. The stores are not part of a
// position (its value is the margin still to come): they are the seeds sown so far, split
// by the points scored so far (`points`, south's minus north's; south moves first). When
// the game is over each side's seeds are swept into its owner's store, as the rules end it.
// Each house the player to move may sow is coloured by its move's value (mark and final
// margin on it) and sows on a click; each store is coloured by its owner's result.
(() => {
  const {el, svg, valueColours, VALUE_STYLE, shownValue, moveLabel, moveFade, svgMove,
    movesByName} = window.perfectplay;
  const HOUSE = 56, STORE = 64, GAP = 8;

  // {north, south: seeds by house as drawn, letters: south's names, mover: 0 or 1}
  function parse(text) {
    const lines = text.split("\n");
    const row = (side) => lines.find((l) => l.startsWith(side)).slice(side.length).trim()
      .split(/\s+/).map(Number);
    const last = lines[lines.length - 1];
    return {north: row("north"), south: row("south"),
      letters: lines[lines.length - 2].trim().split(/\s+/),
      mover: last.startsWith("north") ? 1 : 0};
  }

  // The stores' seeds: those off the board split by the points so far; at the end of the
  // game each side's houses are swept into its own store (and shown empty).
  function stores(d, b) {
    const m = /seeds=(\d+)/.exec(d.target), n = m ? Number(m[1]) : 0;
    const sum = (xs) => xs.reduce((a, x) => a + x, 0);
    const stored = 2 * b.south.length * n - sum(b.north) - sum(b.south);
    const out = {south: (stored + d.points) / 2, north: (stored - d.points) / 2};
    if (d.over) {
      out.south += sum(b.south);
      out.north += sum(b.north);
      b.south = b.south.map(() => 0);
      b.north = b.north.map(() => 0);
    }
    return out;
  }

  // A side's result (win, lose or tie) from the score: at the end the stores', before it
  // the mover's final margin with perfect play (the position's margin plus the points).
  function sideValue(d, s, side) {
    let south;
    if (d.over) south = s.south - s.north;
    else if (typeof d.margin === "number") {
      south = d.margin * (d.turn === "second" ? -1 : 1) + d.points;
    } else return null;
    const mine = side === "south" ? south : -south;
    return mine > 0 ? "win" : mine < 0 ? "lose" : "tie";
  }

  function store(d, s, side, x, y, h, hints) {
    const value = hints ? sideValue(d, s, side) : null, colours = valueColours(value);
    const g = svg("g", {class: "store", "data-store": side});
    g.appendChild(svg("rect", {class: colours ? "vshape" : "", x, y, width: STORE, height: h,
      rx: STORE / 2, fill: colours ? colours.background : "#d7ccc8", stroke: "#3e2723",
      "stroke-width": 2}));
    const ink = colours ? colours.color : "#000";
    g.appendChild(svg("text", {class: colours ? `vlabel v-${value} seeds` : "seeds",
      x: x + STORE / 2, y: y + h / 2 + 9, "text-anchor": "middle", "font-size": 26,
      "font-weight": "bold", fill: ink}, String(s[side])));
    if (colours) {
      g.appendChild(svg("text", {class: `vlabel v-${value}`, x: x + STORE / 2,
        y: y + h / 2 + 32, "text-anchor": "middle", "font-size": 13, fill: ink},
      VALUE_STYLE[value].mark));
    }
    g.appendChild(svg("title", {}, `${side}'s store: ${s[side]} seeds${value
      ? ` (${side} is headed for ${value === "tie" ? "a tie" : `a ${value === "win" ? "win"
        : "loss"}`})` : ""}`));
    return g;
  }

  function house(d, tab, hints, seeds, name, side, x, y, moves, mover) {
    const mv = side === mover && !d.over ? moves.byName[name] : undefined;
    const sideName = side ? "north" : "south";
    const value = mv && hints && mv.value ? shownValue(d, mv) : null;
    const colours = value ? valueColours(value, moveFade(d, mv)) : null;
    const g = svg("g", {class: "house", "data-house": `${sideName}-${name}`});
    const cx = x + HOUSE / 2, cy = y + HOUSE / 2;
    g.appendChild(svg("circle", {class: colours ? "vshape" : "", cx, cy, r: HOUSE / 2 - 2,
      fill: colours ? colours.background : "#d7ccc8", stroke: "#3e2723", "stroke-width": 2}));
    const ink = colours ? colours.color : "#000";
    g.appendChild(svg("text", {class: colours ? `vlabel v-${value} seeds` : "seeds", x: cx,
      y: cy + (colours ? 2 : 8), "text-anchor": "middle", "font-size": 22,
      "font-weight": "bold", fill: ink}, String(seeds)));
    if (colours) {
      g.dataset.fade = moveFade(d, mv);
      g.appendChild(svg("text", {class: `vlabel v-${value}`, x: cx, y: cy + 18,
        "text-anchor": "middle", "font-size": 12, "font-weight": "bold", fill: ink},
      `${VALUE_STYLE[value].mark}${moveLabel(d, mv)}`));
    }
    if (mv) svgMove(g, d, tab, mv, moves.human);
    return g;
  }

  function board(d, tab, hints) {
    const b = parse(d.board), s = stores(d, b), m = b.south.length, moves = movesByName(d, tab);
    const width = 2 * STORE + m * HOUSE + (m + 3) * GAP, height = 2 * HOUSE + 3 * GAP;
    const pic = svg("svg", {class: "board kalah", "data-board": "kalah",
      viewBox: `0 0 ${width} ${height}`, width, height, role: "img",
      "aria-label": `Kalah board: north's store ${s.north}, south's store ${s.south}`});
    pic.appendChild(svg("rect", {x: 0, y: 0, width, height, rx: 24, fill: "#8d6e63"}));
    pic.appendChild(store(d, s, "north", GAP, GAP, height - 2 * GAP, hints));
    pic.appendChild(store(d, s, "south", width - GAP - STORE, GAP, height - 2 * GAP, hints));
    const left = 2 * GAP + STORE;
    b.north.forEach((seeds, k) => pic.appendChild(house(d, tab, hints, seeds,
      b.letters[m - 1 - k], 1, left + k * (HOUSE + GAP), GAP, moves, b.mover)));
    b.south.forEach((seeds, k) => pic.appendChild(house(d, tab, hints, seeds, b.letters[k], 0,
      left + k * (HOUSE + GAP), 2 * GAP + HOUSE, moves, b.mover)));
    const box = el("div");
    box.append(el("p", {class: "status"}, "north (Player 2)"), pic,
      el("p", {class: "status"}, "south (Player 1)"),
      el("p", {class: "scoreline"}, `Stores: south ${s.south}, north ${s.north}${d.over
        ? " (each side's last seeds swept into its own store)" : ""}`));
    return box;
  }

  window.perfectplay.boards.kalah = {board};
})();
