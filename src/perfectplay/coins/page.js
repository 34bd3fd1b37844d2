"use strict";
// Coins in a line on the web page (perfectplay.coins' board code, loaded by the page through
// the registry): the seed's P/m table as a heat map with the optimal line outlined, and the
// row of coins to click in play (the last coin too), each move coloured by the mover's
// final margin.
(() => {
  const {el, viridis, viridisInk, legalByName} = window.perfectplay;

  // The P/m table is asked for when it is small enough to read (60 coins).
  const analyzeBody = (body) => ({...body, table: body.row.length <= 60});

  function view(d) {
    const holder = el("div", {id: "coins-table"});
    if (!d.result.table) return holder;
    const {P, m} = d.result.table, n = P.length;
    const top = Math.max(1, ...P.flat().filter((v) => v !== null));
    const onLine = new Set();
    let i = 0, j = n - 1;
    for (const t of d.result.line || []) {
      onLine.add(`${i},${j}`); if (t.side === "L") i++; else j--;
    }
    const table = el("table", {class: "heat"});
    const head = el("tr"); head.appendChild(el("th", {}, "i \\ j"));
    for (let c = 0; c < n; c++) head.appendChild(el("th", {}, String(c + 1)));
    table.appendChild(head);
    for (let r = 0; r < n; r++) {
      const tr = el("tr"); tr.appendChild(el("th", {}, String(r + 1)));
      for (let c = 0; c < n; c++) {
        if (c < r) { tr.appendChild(el("td", {class: "empty"})); continue; }
        const td = el("td", {title: `P(${r + 1},${c + 1}) = ${P[r][c]}, take coin ${m[r][c]}`},
          `${P[r][c]} ${m[r][c]}`);
        td.style.background = viridis(P[r][c] / top);
        td.style.color = viridisInk(P[r][c] / top);
        if (onLine.has(`${r},${c}`)) td.style.outline = "3px solid #ff8f00";
        tr.appendChild(td);
      }
      table.appendChild(tr);
    }
    holder.appendChild(el("p", {}, "P(i, j) and the move m(i, j); the optimal line is outlined"));
    holder.appendChild(table);
    return holder;
  }

  // The move that takes coin k of the row lo..hi-1: an end coin's (L the left end, R the
  // right one); the last coin is both ends, and whichever the game names takes it.
  function takes(legal, k, lo, hi) {
    const sides = [k === lo ? "L" : null, k === hi - 1 ? "R" : null].filter((x) => x);
    for (const side of sides) {
      const mv = Object.values(legal).find((x) => x.name.startsWith(side));
      if (mv) return mv;
    }
    return undefined;
  }

  // The totals so far from the drawing ("totals: first player 3, second player 0").
  function totals(d) {
    const m = /first player (-?\d+), second player (-?\d+)/.exec(d.board);
    return m ? [Number(m[1]), Number(m[2])] : [0, 0];
  }

  // A move's value as a colour: the mover's final margin (its margin over the rest plus
  // its lead so far), so a "+2 over the rest" that still ends a coin behind reads as a loss.
  function finalValue(d, mv) {
    const [first, second] = totals(d), lead = d.mover ? second - first : first - second;
    const total = mv.value + lead;
    return total > 0 ? "win" : total < 0 ? "lose" : "tie";
  }

  // The row in play: the two end coins are the moves (the last coin too).
  function board(d, game) {
    const row = game.instance.row, [lo, hi] = d.position, legal = legalByName(d);
    const box = el("div");
    const coins = el("div", {class: "coinrow"});
    row.forEach((v, k) => {
      const taken = k < lo || k >= hi;
      const mv = taken ? undefined : takes(legal, k, lo, hi);
      const button = el("button", {class: taken ? "taken" : "", "data-index": k}, String(v));
      if (mv && !d.over) {
        button.title = `${mv.name}: ${mv.describe}`;
        button.dataset.move = mv.name;
        button.onclick = () => game.play(mv.name);
        const colours = window.perfectplay.valueColours(finalValue(d, mv));
        button.style.background = colours.background;
        button.style.color = colours.color;
        button.classList.add(`v-${finalValue(d, mv)}`);
      } else button.disabled = true;
      coins.appendChild(button);
    });
    box.appendChild(coins);
    box.appendChild(el("p", {class: "totals"}, d.board.split("\n")[1] || ""));
    return box;
  }

  window.perfectplay.boards.coins = {analyzeBody, view, board, finalValue};
})();
