"use strict";
// othello's board on perfectplay's page (this game's board code, found through its catalog
// entry's script, served at /page/catalog/othello.js): the page's grid of named cells
// (perfectplay.cellGrid), read from the game's drawing; a click on a cell plays there.
window.perfectplay.catalogBoards.othello = {board: window.perfectplay.cellGrid};
