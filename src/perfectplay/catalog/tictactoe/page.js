"use strict";
// tictactoe's board on perfectplay's page (this game's board code, found through its registry
// entry's script, served at /page/tictactoe.js): the page's grid of named cells
// (perfectplay.cellGrid), read from the game's drawing; a click on a cell plays there.
window.perfectplay.boards.tictactoe = {board: window.perfectplay.cellGrid};
