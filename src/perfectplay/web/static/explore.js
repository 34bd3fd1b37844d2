"use strict";
// The explored games on perfectplay's page: one tab per game of GET /api/games with an
// "explore" entry (the catalog games in the registry's order, after the seed problems of
// app.js, which fetched the list; then the game `serve --game`/`--store` serves), each
// explored through GET /api/games/TARGET/position?moves=... . The server solves and
// answers; this file draws the answer and keeps the moves.
//
// A tab shows the board (the game's own board code when its entry has a script, page.js in
// its package, served at /page/NAME.js and loaded by app.js, which registers
// perfectplay.boards[NAME] = {board(d, tab) -> element}; else the game's drawing), one
// button a legal move named by
// the game, coloured by its value for the mover as GamesmanUni colours them (win green, lose
// dark red, tie and draw yellow), faded by how much slower than the best move of its value
// it is, with its remoteness or margin; the line "Player 1 should win in 13"; undo, redo,
// restart; the perfect computer or two people with hints; the value history chart with the
// mistakes marked; the position as the page's URL (#play=TARGET&moves=a,b) and as a typed
// list of moves.

(() => {
  const {el, boards} = window.perfectplay;

  // GET /api/games/TARGET/WHAT?query, its JSON (a refusal thrown with its words)
  async function getJson(target, what, params) {
    const query = new URLSearchParams(params).toString();
    const response = await fetch(`/api/games/${encodeURIComponent(target)}/${what}${
      query ? `?${query}` : ""}`);
    const data = await response.json();
    if (!response.ok) throw new Error(data.detail || `the server answered ${response.status}`);
    return data;
  }

  // The query of a position: its base position (a key, or none: the start), the moves
  // from there, and the computer's strength and seed (the server names its move).
  function positionQuery(tab) {
    const q = {};
    if (tab.base) q.p = tab.base;
    if (tab.moves.length) q.moves = tab.moves.join(",");
    if (tab.computer) { q.strength = String(tab.strength); q.seed = String(tab.seed); }
    return q;
  }

  // A live position's JSON lines (GET .../analysis: its moves' values; .../history: the
  // values of the moves played to it): each line handed to onLine as it comes; aborted by
  // signal (a new position was asked).
  async function liveLines(tab, route, onLine, signal) {
    const q = positionQuery(tab);
    if (tab.data && tab.data.points) q.points = String(tab.data.points);
    const query = new URLSearchParams(q).toString();
    const response = await fetch(`/api/games/${encodeURIComponent(tab.target)}/${route}${
      query ? `?${query}` : ""}`, {signal});
    if (!response.ok) {
      const data = await response.json();
      throw new Error(data.detail || `the server answered ${response.status}`);
    }
    const reader = response.body.getReader(), decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const {value, done} = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, {stream: true});
      let k;
      while ((k = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, k).trim();
        buffer = buffer.slice(k + 1);
        if (line) onLine(JSON.parse(line));
      }
    }
  }

  // The computer's move at a strength from 0 to 1 (see web/computer.py: 1 perfect, less
  // a random value-keeping move or, with chance 1 - strength, any move)
  const STRENGTHS = [["1", "perfect"], ["0.75", "strong"], ["0.5", "fair"],
    ["0.25", "weak"], ["0", "random"]];

  // A move's button: its value's colour, faded by its delta remoteness, its remoteness or
  // margin written on it.
  // What a move's button says: its remoteness, or in a scored game the mover's final margin
  // (the points so far and the margin from here).
  function moveLabel(d, mv) {
    if (mv.margin === null) return mv.remoteness === null ? "" : String(mv.remoteness);
    const total = mv.margin + (d.turn === "second" ? -d.points : d.points);
    return `${total > 0 ? "+" : ""}${total}`;
  }
  window.perfectplay.moveLabel = moveLabel;

  // How faded a move's colour is (its opacity, 0.45 to 1): by what it gives up against the
  // best move of its colour. In a scored game that is points (a win by 10 full, a win by 2
  // faded, whatever their remoteness); otherwise remoteness, as UWAPI's deltaRemoteness.
  function moveFade(d, mv) {
    let gap = mv.delta_remoteness || 0;
    if (typeof mv.margin === "number") {
      const same = (d.moves || []).filter((m) => m.value === mv.value &&
        typeof m.margin === "number").map((m) => m.margin);
      gap = Math.max(mv.margin, ...same) - mv.margin;
    }
    return String(Math.max(0.45, 1 - 0.08 * gap));
  }
  window.perfectplay.moveFade = moveFade;

  function moveButton(d, mv, label, onclick, hints) {
    const searching = mv.value === null || mv.exact === false;
    const b = el("button", {class: `movebtn${hints && mv.value ? ` v-${mv.value}` : ""}${
      mv.best && hints ? " best" : ""}${searching ? " searching" : ""}`, "data-move": mv.name,
    "data-value": mv.value || "", "data-remoteness": mv.remoteness === null ? ""
      : String(mv.remoteness), "data-margin": mv.margin === null ? "" : String(mv.margin),
    "data-source": mv.source || "", title: (mv.bounds ? `${mv.words} (proven so far: ${
      mv.bounds[0]} .. ${mv.bounds[1]})` : mv.words) + (typeof mv.margin === "number" &&
      label ? ` from here; ${label} at the end, with the points so far` : "")});
    if (searching && hints && !label) label = "…";
    b.appendChild(el("span", {class: "name"}, mv.name));
    if (hints && label) b.appendChild(el("span", {class: "rem"}, label));
    if (hints) b.style.opacity = moveFade(d, mv);
    b.onclick = onclick;
    return b;
  }

  function paramInput(tab, p, value) {
    const id = `cat-${tab.name}-${p.name}`;
    const label = el("label", {title: p.help}, `${p.name} `);
    let input;
    if (p.kind === "bool") {
      input = el("input", {type: "checkbox", id});
      input.checked = Boolean(value);
    } else {
      input = el("input", {id, size: p.kind === "int" ? 3 : 14,
        type: p.kind === "int" ? "number" : "text"});
      input.value = Array.isArray(value) ? value.join(", ") : String(value);
    }
    label.appendChild(input);
    return label;
  }

  function pyLiteral(p, input) {
    if (p.kind === "bool") return input.checked ? "True" : "False";
    if (p.kind === "int") return String(Number(input.value));
    if (p.kind === "tuple") {
      const items = input.value.split(/[\s,()]+/).filter((x) => x !== "").map(Number);
      return `(${items.join(", ")}${items.length === 1 ? "," : ""})`;
    }
    return JSON.stringify(input.value);
  }

  // A board drawn as a header of column letters and rows "N cell cell ...", whose moves
  // are cell names such as "b2" (tic-tac-toe, Othello), or start with one (Domineering's
  // "b3-b4": anchor(name) gives the cell): a grid, each cell with one legal move coloured
  // by its value and played by a click. Games register it in their web.js.
  function cellGrid(d, tab, hints, anchor = (name) => name) {
    const lines = d.board.split("\n"), rows = [];
    let head = null;
    for (const line of lines) {
      const m = /^\s*(\d+)\s+(.*)$/.exec(line);
      if (m) rows.push({label: m[1], cells: m[2].trim().split(/\s+/)});
      else if (!rows.length && /^\s+[a-z](\s+[a-z])*\s*$/.test(line)) {
        head = line.trim().split(/\s+/);
      }
    }
    if (!head || !rows.length) return el("pre", {class: "board"}, d.board);
    const byCell = {}, count = {};
    for (const mv of d.moves) {
      const cell = anchor(mv.name);
      byCell[cell] = mv;
      count[cell] = (count[cell] || 0) + 1;
    }
    const human = !tab.computer || d.turn !== tab.computer;
    const table = el("table", {class: "grid cells"});
    const top = el("tr");
    top.appendChild(el("th"));
    head.forEach((c) => top.appendChild(el("th", {}, c)));
    table.appendChild(top);
    for (const row of rows) {
      const tr = el("tr");
      tr.appendChild(el("th", {}, row.label));
      row.cells.forEach((ch, k) => {
        const name = `${head[k]}${row.label}`;
        const mv = count[name] === 1 ? byCell[name] : undefined;  // one move: a click plays it
        const cls = ch === "." ? "" : /^[A-Za-z0-9]$/.test(ch) ? `piece-${ch}` : "covered";
        const td = el("td", {"data-cell": name, class: cls}, ch === "." || cls === "covered"
          ? "" : ch);
        if (mv && !d.over) {
          td.title = mv.words;
          if (hints) {
            td.classList.add(`v-${mv.value}`);
            td.style.opacity = moveFade(d, mv);
          }
          if (human) { td.classList.add("legal"); td.onclick = () => tab.play(mv.name); }
        }
        tr.appendChild(td);
      });
      table.appendChild(tr);
    }
    const box = el("div");
    box.appendChild(table);
    const last = lines[lines.length - 1];
    if (!/^\s*\d+\s/.test(last)) box.appendChild(el("p", {class: "status"}, last));
    return box;
  }
  window.perfectplay.cellGrid = cellGrid;

  class Tab {
    constructor(game) {
      Object.assign(this, {game, name: game.name, target: game.default, base: null,
        moves: [], redo: [], data: null, live: null, seed: Math.floor(Math.random() * 1e9)});
    }

    get mode() { return this.section.querySelector(".mode").value; }
    get hints() { return this.mode === "both" || this.section.querySelector(".hints").checked; }
    // the side the computer plays ("first" or "second"), or null for two people
    get computer() { return {first: "second", second: "first"}[this.mode] || null; }
    get strength() { return Number(this.section.querySelector(".strength").value); }

    build() {
      const g = this.game, sec = el("section", {id: `tab-cat-${this.name}`, class: "tab",
        "data-catalog": this.name});
      sec.appendChild(el("h2", {}, g.title));
      sec.appendChild(el("p", {class: "intro"}, g.rules));
      const inst = el("div", {class: "controls instance"});
      const values = parseDefaults(g);
      g.params.forEach((p) => inst.appendChild(paramInput(this, p, values[p.name])));
      if (g.params.length) {
        const open = el("button", {class: "open"}, "Open");
        open.onclick = () => this.open(this.call(), []);
        inst.appendChild(open);
        if (g.live) {
          const standard = el("button", {class: "live-open", title: "too big to solve here: "
            + "each move's value is searched live"}, `Open ${g.live} (live)`);
          standard.onclick = () => this.open(g.live, []);
          inst.appendChild(standard);
        }
        inst.appendChild(el("span", {class: "limit"}, ` the page solves: ${g.limit}`));
      }
      sec.appendChild(inst);
      const modes = el("select", {class: "mode"});
      [["first", "You play first"], ["second", "You play second"],
        ["both", "Two players, with hints"]].forEach(([v, t]) =>
        modes.appendChild(el("option", {value: v}, t)));
      modes.onchange = () => this.refresh();
      const strength = el("label", {}, "Computer ");
      const level = el("select", {class: "strength", title: "perfect: always a best move; "
        + "weaker: with chance s a random move that keeps the value, else any move"});
      STRENGTHS.forEach(([v, t]) => level.appendChild(el("option", {value: v}, t)));
      strength.appendChild(level);
      const hints = el("label", {}, " ");
      const box = el("input", {type: "checkbox", class: "hints"});
      box.checked = true;
      box.onchange = () => this.render();
      hints.append(box, document.createTextNode(" show the moves' values"));
      const bar = el("div", {class: "controls"});
      bar.append(modes, strength, hints);
      for (const [cls, text, fn] of [["undo", "Undo", () => this.undo()],
        ["redo", "Redo", () => this.redoMove()], ["restart", "Restart", () => this.restart()]]) {
        const b = el("button", {class: cls}, text);
        b.onclick = fn;
        bar.appendChild(b);
      }
      sec.appendChild(bar);
      const typed = el("div", {class: "controls"});
      const input = el("input", {class: "typed", size: 40,
        placeholder: g.paste ? `moves, or ${g.paste}` : "moves from the start by their names, comma-separated"});
      const go = el("button", {class: "go"}, "Go to");
      go.onclick = () => this.paste(input.value);
      typed.append(input, go);
      sec.appendChild(typed);
      sec.appendChild(el("div", {class: "error"}));
      sec.appendChild(el("p", {class: "summary"}));
      const columns = el("div", {class: "columns"});
      columns.append(el("div", {class: "board-holder"}), el("div", {class: "side"}));
      sec.appendChild(columns);
      this.section = sec;
      return sec;
    }

    // the size inputs show the instance opened (a live standard board, a shared URL's)
    showParams(target) {
      const values = parseCall(this.game, target);
      for (const p of this.game.params) {
        const input = this.section.querySelector(`#cat-${this.name}-${p.name}`);
        if (!input) continue;
        const value = values[p.name];
        if (p.kind === "bool") input.checked = Boolean(value);
        else input.value = Array.isArray(value) ? value.join(", ") : String(value);
      }
    }

    call() {
      const parts = this.game.params.map((p) => `${p.name}=${pyLiteral(p,
        this.section.querySelector(`#cat-${this.name}-${p.name}`))}`);
      return parts.length ? `${this.name}(${parts.join(", ")})` : this.name;
    }

    async open(target, moves, base = null) {
      this.target = target;
      this.showParams(target);
      this.base = base;
      this.moves = moves;
      this.redo = [];
      await this.refresh();
    }

    // a pasted position: moves, or the game's own notation (the server reads it)
    // (a live search is stopped first: the one worker reads the paste)
    async paste(text) {
      const error = this.section.querySelector(".error");
      const searching = this.live;
      if (searching) { searching.abort(); this.live = null; }
      try {
        const read = await getJson(this.target, "read", {text});
        error.textContent = "";
        await this.open(this.target, read.moves, read.key);
      } catch (e) {
        error.textContent = String(e.message || e);
        if (searching && this.data) this.analyse(this.data);  // back to the position's
      }
    }

    restart() { this.open(this.target, [], this.base); }

    play(name) {
      if (this.redo.length && this.redo[this.redo.length - 1] === name) this.redo.pop();
      else this.redo = [];
      this.moves = [...this.moves, name];
      return this.refresh();
    }

    // the side to move after the first k moves (from the history's movers)
    turnAt(k) {
      const h = this.data.history;
      return k < h.length ? h[k].turn : this.data.turn;
    }

    undo() {
      if (!this.moves.length || !this.data) return;
      do {
        this.redo.push(this.moves.pop());
      } while (this.moves.length && this.computer && this.turnAt(this.moves.length) ===
        this.computer);
      this.refresh();
    }

    redoMove() {
      if (!this.redo.length) return;
      this.moves = [...this.moves, this.redo.pop()];
      this.refresh();
    }

    async refresh() {
      const error = this.section.querySelector(".error");
      if (this.live) this.live.abort();  // a new position: the old search stops
      if (this.historyLive) this.historyLive.abort();
      this.live = this.historyLive = null;
      try {
        this.data = await getJson(this.target, "position", positionQuery(this));
        error.textContent = "";
      } catch (e) {
        error.textContent = String(e.message || e);
        this.section.dataset.ply = String(this.moves.length);
        return;
      }
      this.render();
      saveHash(this);
      const d = this.data;
      if (d.live && !d.over) {
        this.section.dataset.analysed = "0";
        this.section.dataset.ply = String(this.moves.length);
        this.analyse(d);
        return;
      }
      if (await this.computerPlays(d.computer)) return;
      this.section.dataset.ply = String(this.moves.length);
      if (d.live) await this.fillHistory(d);  // a live game that is over
    }

    // the computer's move, if it is its turn (the server chose it at this strength)
    async computerPlays(name) {
      const d = this.data;
      if (d.over || !this.computer || d.turn !== this.computer || !name) return false;
      await this.play(name);
      return true;
    }

    // A live position: each move's button updated as its answer arrives (value first,
    // remoteness after, bounds while searching), then the position's value.
    async analyse(d) {
      const controller = new AbortController();
      this.live = controller;
      this.render();
      const byName = {};
      d.moves.forEach((m) => { byName[m.name] = m; });
      const sec = this.section;
      let done = null;
      await this.stream("analysis", d, {
        move: (line) => {
          Object.assign(byName[line.name], {value: line.value, margin: line.margin,
            remoteness: line.remoteness, words: line.words, exact: line.exact,
            source: line.source, bounds: line.exact ? null : [line.lower, line.upper]});
          this.render();
        },
        done: (line) => { done = line; },
      }, controller);
      if (this.data !== d || controller.signal.aborted) return;
      this.live = null;
      if (done) {
        d.summary = done.summary;
        if (done.exact) {
          Object.assign(d, {value: done.value, margin: done.margin,
            remoteness: done.remoteness});
          d.moves.forEach((m) => {
            m.best = done.best.includes(m.name);
            m.delta_remoteness = done.delta[m.name] || 0;
          });
        }
        d.analysis_seconds = done.seconds;
        d.analysis_exact = done.exact;
      }
      this.render();
      sec.dataset.analysed = done && done.exact ? "1" : "partial";
      if (done && await this.computerPlays(done.computer)) return;
      await this.fillHistory(d);
    }

    // The JSON lines of a live route for position d, each handed to handlers[line.kind]
    // while d is shown (an "error" line, or a failed request, goes to the tab's error line);
    // false when aborted (a new position was asked).
    async stream(route, d, handlers, controller) {
      try {
        await liveLines(this, route, (line) => {
          if (this.data !== d) return;
          if (line.kind === "error") throw new Error(line.detail);
          if (handlers[line.kind]) handlers[line.kind](line);
        }, controller.signal);
      } catch (e) {
        if (controller.signal.aborted) return false;
        this.section.querySelector(".error").textContent = String(e.message || e);
      }
      return !controller.signal.aborted;
    }

    // A live line's moves played from positions never analysed here (a pasted line, a
    // shared URL) have no values yet: the server analyses those positions, the latest
    // first, and each move's values replace its bare name as they come.
    async fillHistory(d) {
      if (!d.history.some((p) => !p.before && p.turn)) return;
      const controller = new AbortController();
      this.historyLive = controller;
      const sec = this.section;
      sec.dataset.history = "0";
      const ok = await this.stream("history", d, {
        ply: (line) => { d.history[line.index] = line.ply; this.render(); },
        done: (line) => { sec.dataset.history = line.complete ? "1" : "partial"; },
      }, controller);
      if (!ok) return;
      if (this.historyLive === controller) this.historyLive = null;
      this.render();
    }

    render() {
      const d = this.data, sec = this.section, hints = this.hints;
      sec.querySelector(".summary").textContent = d.summary;
      const human = !this.computer || d.turn !== this.computer;
      const board = boards[this.game.board || this.name];
      const holder = sec.querySelector(".board-holder");
      holder.replaceChildren(board ? board.board(d, this, hints)
        : el("pre", {class: "board"}, d.board));
      const side = sec.querySelector(".side");
      side.replaceChildren();
      if (!d.over) {
        side.appendChild(el("p", {class: "turn"}, d.turn ? `${d.turn === "first" ? "Player 1"
          : "Player 2"} to move` : "to move"));
        if (d.live) {
          side.appendChild(el("p", {class: "live"}, this.live
            ? "searching: each move's value first, then its remoteness ..."
            : d.analysis_seconds === undefined ? ""
              // stopped before every move was proven: the summary says what is, not an answer
              : `${d.analysis_exact ? "answered live in" : "stopped after"} ${
                d.analysis_seconds.toFixed(2)} s`));
        }
        const list = el("div", {class: "movelist"});
        for (const mv of d.moves) {
          const b = moveButton(d, mv, moveLabel(d, mv), () => this.play(mv.name), hints);
          b.disabled = !human;
          list.appendChild(b);
        }
        side.appendChild(list);
      }
      if (d.history.length) {
        side.appendChild(window.perfectplay.historyChart(d.history));
        const list = el("ol", {class: "history"});
        d.history.forEach((p) => list.appendChild(el("li", {class: p.mistake ? "mistake" : ""},
          `${p.turn === "second" ? "Player 2" : "Player 1"} ${p.name}${p.before ? `: ${
            p.before} -> ${p.after}` : ""}${p.mistake ? " (mistake)" : ""}`)));
        side.appendChild(list);
      }
      // the box shows the moves of a new position only: a render while an analysis streams
      // in must not wipe what the user is typing there
      const shown = this.moves.join(", ");
      if (this.typedShown !== shown) {
        sec.querySelector(".typed").value = shown;
        this.typedShown = shown;
      }
    }
  }

  // the default instance's parameters, read back from its call (the page keeps the call)
  function parseDefaults(g) { return parseCall(g, g.default); }

  // an instance's parameters read back from its call (``connect4(width=7, height=6)``),
  // each missing one its default
  function parseCall(g, call) {
    const out = {};
    g.params.forEach((p) => { out[p.name] = p.default; });
    const m = /^[^(]*\((.*)\)$/.exec(call);
    if (!m) return out;
    for (const p of g.params) {
      const re = new RegExp(`${p.name}=(\\([^)]*\\)|'[^']*'|"[^"]*"|[^,]+)`);
      const found = re.exec(m[1]);
      if (!found) continue;
      const raw = found[1].trim();
      if (p.kind === "tuple") out[p.name] = raw.replace(/[()]/g, "").split(",")
        .map((x) => x.trim()).filter((x) => x !== "");
      else if (p.kind === "bool") out[p.name] = raw === "True";
      else if (p.kind === "str") out[p.name] = raw.slice(1, -1);
      else out[p.name] = Number(raw);
    }
    return out;
  }

  function saveHash(tab) {
    const parts = [`play=${encodeURIComponent(tab.target)}`];
    if (tab.base) parts.push(`p=${encodeURIComponent(tab.base)}`);
    if (tab.moves.length) parts.push(`moves=${encodeURIComponent(tab.moves.join(","))}`);
    if (tab.mode !== "first") parts.push(`mode=${tab.mode}`);
    history.replaceState(null, "", `#${parts.join("&")}`);
  }

  function readHash() {
    const out = {};
    for (const part of location.hash.replace(/^#/, "").split("&")) {
      const k = part.indexOf("=");
      if (k > 0) out[part.slice(0, k)] = decodeURIComponent(part.slice(k + 1));
    }
    return out;
  }

  function activate(button, section) {
    document.querySelectorAll("nav button, .tab").forEach((x) => x.classList.remove("active"));
    button.classList.add("active");
    section.classList.add("active");
  }

  async function main() {
    // the explored games of app.js's list (their board code loaded there), each entry's
    // "explore" part spread on it
    const games = window.perfectplay.gameList.filter((g) => g.explore)
      .map((g) => ({...g, ...g.explore, served: g.kind === "served"}));
    const nav = document.getElementById("catalog-tabs"), holder = document.getElementById("games");
    const tabs = {};
    for (const game of games) {
      const tab = new Tab(game), sec = tab.build();
      const button = el("button", {"data-catalog": game.name}, game.title);
      button.onclick = () => {
        activate(button, sec);
        if (!tab.data) tab.refresh();
      };
      tabs[game.name] = {tab, button, sec};
      nav.appendChild(button);
      holder.appendChild(sec);
    }
    window.perfectplay.catalogTabs = tabs;
    const wanted = readHash();
    if (wanted.play) {
      const name = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(wanted.play);
      const entry = name && tabs[name[0]];
      if (entry) {
        activate(entry.button, entry.sec);
        if (["first", "second", "both"].includes(wanted.mode)) {
          entry.sec.querySelector(".mode").value = wanted.mode;
        }
        await entry.tab.open(wanted.play, (wanted.moves || "").split(",").filter((x) => x),
          wanted.p || null);
      }
    }
    document.body.dataset.catalogReady = "1";
  }

  // after app.js has built the seed games' tabs (its historyChart is shared)
  const start = () => (document.body.dataset.ready === "1" ? main()
    : setTimeout(start, 20));
  start();
})();
