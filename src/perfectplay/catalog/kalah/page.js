"use strict";
// Kalah's board on perfectplay's page (this game's board code, found through its registry
// entry's script, served at /page/kalah.js): north's houses over south's, each
// store past the end of its owner's row (north's on the left, south's on the right), read
// from the game's drawing. The stores are not part of a position (its value is the margin
// still to come): they are the seeds sown so far, split by the points scored so far
// (`points`, south's minus north's; south moves first). A click on a house of the player
// to move sows it; each such house is coloured by its move's value.
(() => {
  const {el, moveLabel} = window.perfectplay;

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

  function stores(d, b) {
    const m = /seeds=(\d+)/.exec(d.target), n = m ? Number(m[1]) : 0;
    const inPits = [...b.north, ...b.south].reduce((a, x) => a + x, 0);
    const stored = 2 * b.south.length * n - inPits;
    return {south: (stored + d.points) / 2, north: (stored - d.points) / 2};
  }

  function board(d, tab, hints) {
    const b = parse(d.board), s = stores(d, b), m = b.south.length;
    const byName = {};
    for (const mv of d.moves) byName[mv.name] = mv;
    const human = !tab.computer || d.turn !== tab.computer;
    const table = el("table", {class: "kalah"});
    const house = (seeds, name, side) => {
      const mv = side === b.mover && !d.over ? byName[name] : undefined;
      const td = el("td", {class: "house", "data-house": `${side ? "north" : "south"}-${name}`},
        String(seeds));
      if (mv) {
        td.title = `${name}: ${mv.words}`;
        if (hints) {
          td.classList.add(`v-${mv.value}`);
          td.appendChild(el("small", {}, ` ${moveLabel(d, mv)}`));
        }
        if (human) { td.classList.add("legal"); td.onclick = () => tab.play(mv.name); }
      }
      return td;
    };
    const top = el("tr");
    top.appendChild(el("td", {rowspan: 2, class: "store", "data-store": "north"},
      String(s.north)));
    b.north.forEach((seeds, k) => top.appendChild(house(seeds, b.letters[m - 1 - k], 1)));
    top.appendChild(el("td", {rowspan: 2, class: "store", "data-store": "south"},
      String(s.south)));
    const bottom = el("tr");
    b.south.forEach((seeds, k) => bottom.appendChild(house(seeds, b.letters[k], 0)));
    table.append(top, bottom);
    const box = el("div");
    box.append(el("p", {class: "status"}, "north (Player 2)"), table,
      el("p", {class: "status"}, "south (Player 1)"));
    return box;
  }

  window.perfectplay.boards.kalah = {board};
})();
