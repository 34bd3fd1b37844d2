"use strict";
// Hexapawn's board on perfectplay's page (this game's board code, found through its
// registry entry's script, served at /page/hexapawn.js, shared by every tab that shows it):
// a chequered board with White's pawns (W in the game's drawing) and Black's (B) as pawns;
// a click on a pawn of the player to move picks it, a click on a lit square moves it
// there (straight ahead, or diagonally to capture). Each target shows its move's value.
(() => {
  const {svg, pieceBoard} = window.perfectplay;
  const CELL = 60;

  function square(x, y, ch, name) {
    const dark = (name.charCodeAt(0) + Number(name.slice(1))) % 2 === 0;
    return svg("rect", {x, y, width: CELL, height: CELL, fill: dark ? "#b58863" : "#f0d9b5"});
  }

  // A pawn: a head on a body, white or black, outlined so both show on either square.
  function piece(x, y, ch) {
    if (ch !== "W" && ch !== "B") return null;
    const fill = ch === "W" ? "#fafafa" : "#212121", stroke = ch === "W" ? "#212121" : "#fafafa";
    const g = svg("g", {class: `pawn piece-${ch}`});
    g.appendChild(svg("path", {d: `M ${x - 15} ${y + 20} Q ${x} ${y - 8} ${x + 15} ${y + 20} Z`,
      fill, stroke, "stroke-width": 2}));
    g.appendChild(svg("circle", {cx: x, cy: y - 10, r: 9, fill, stroke, "stroke-width": 2}));
    return g;
  }

  const board = (d, tab, hints) => pieceBoard(d, tab, hints, {name: "hexapawn", cell: CELL,
    square, piece, background: "#795548"});

  window.perfectplay.boards.hexapawn = {board};
})();
