"use strict";
// Domineering's board on perfectplay's page (this game's board code, found through its
// registry entry's script, served at /page/domineering.js): the page's grid of named
// cells (perfectplay.cellGrid) read from the game's drawing, covered cells dark; a click on
// a cell places the mover's domino from it (Vertical's up to the cell above, Horizontal's
// to the cell on the right: the move "b3-b4" or "b3-c3" starts at the cell clicked).
window.perfectplay.boards.domineering = {
  board: (d, tab, hints) => window.perfectplay.cellGrid(d, tab, hints,
    (name) => name.split("-")[0]),
};
