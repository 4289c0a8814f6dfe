// Pentad's board page: draws what the server sends over the WebSocket and sends the person's commands back.
// window.pentad holds the latest state and thinking report (the tests read them).
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 32, MARGIN = 30;
const $ = (id) => document.getElementById(id);
const pentad = window.pentad = { state: null, thinking: null, socket: null, hello: null };
let retry = 0;

function send(command) {
  if (pentad.socket && pentad.socket.readyState === WebSocket.OPEN) {
    pentad.socket.send(JSON.stringify(command));
  } else {
    showError("Not connected to the server.");
  }
}

function showError(text) {
  $("error").textContent = text || "";
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws`);
  pentad.socket = socket;
  socket.onopen = () => {
    retry = 0;
    $("connection").textContent = "connected";
  };
  socket.onclose = () => {
    $("connection").textContent = "disconnected — retrying…";
    setTimeout(connect, Math.min(5000, 500 * ++retry));
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
}

function receive(message) {
  if (message.type === "hello") {
    pentad.hello = message;
    fillForm(message);
    newGame();
  } else if (message.type === "state") {
    const before = pentad.state;
    pentad.state = message;
    if (!message.busy && before && before.busy) pentad.lastThinking = pentad.thinking;
    if (message.busy && (!before || !before.busy)) pentad.thinking = null;
    if (!message.busy) pentad.thinking = null;
    draw();
  } else if (message.type === "thinking") {
    pentad.thinking = message;
    pentad.thinkCount = (pentad.thinkCount || 0) + 1;
    drawThinking();
    drawBoard();
  } else if (message.type === "progress") {
    $("thinking").textContent = `Analysing the game: position ${message.done + 1} of ${message.total}…`;
  } else if (message.type === "error") {
    showError(message.message);
  } else if (message.type === "file") {
    const blob = new Blob([message.text], { type: message.mime });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = message.name;
    document.body.appendChild(link);
    link.click();
    link.remove();
  }
}

// ---------------------------------------------------------------- the new-game form

function fillForm(hello) {
  const form = $("new-form");
  const sizes = $("sizes");
  if (!sizes.options.length) {
    for (let n = hello.min_size; n <= hello.max_size; n++) sizes.append(new Option(`${n}x${n}`));
    for (const [w, h] of hello.rectangles) sizes.append(new Option(`${w}x${h}`));
    for (const [number, name] of hello.levels) form.elements.level.add(new Option(`${number} ${name}`, number));
    form.elements.level.value = hello.levels[hello.levels.length - 1][0];
  }
}

function parseSize(text) {
  const match = /^\s*(\d+)\s*(?:[xX×*]\s*(\d+)\s*)?$/.exec(text);
  if (!match) return null;
  return [Number(match[1]), Number(match[2] || match[1])];
}

function settingsFromForm() {
  const f = $("new-form").elements;
  const size = parseSize(f.size.value) || [NaN, NaN];
  const [width, height] = size;
  const you = f.you.value;
  return {
    game: f.game.value, width, height, rule: f.rule.value,
    black: you === "black" || you === "both" ? "human" : "engine",
    white: you === "white" || you === "both" ? "human" : "engine",
    level: Number(f.level.value), time_s: Number(f.time_s.value), engine: f.engine.value,
    nodes: Number(f.nodes.value) || 0,
  };
}

function newGame() {
  showError("");
  const f = $("new-form").elements;
  if (f.game.value === "gomoku" && !parseSize(f.size.value)) {
    showError(`Board: '${f.size.value}' is not a size; give N or WxH, e.g. 15 or 20x15.`);
    return;
  }
  pentad.thinking = null;
  send({ op: "new", settings: settingsFromForm() });
}

function gameChanged() {
  const connect4 = $("new-form").elements.game.value === "connect4";
  for (const element of document.querySelectorAll(".gomoku-only")) element.classList.toggle("hidden", connect4);
  const engine = $("new-form").elements.engine;
  if (connect4 && ![...engine.options].some((o) => o.value === "uct")) engine.add(new Option("plain UCT", "uct"));
  if (!connect4) for (const o of [...engine.options]) if (o.value === "uct") o.remove();
}

// ---------------------------------------------------------------- drawing

function el(name, attributes, parent, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

function draw() {
  const s = pentad.state;
  if (!s) return;
  document.body.dataset.game = s.game;
  document.body.dataset.busy = s.busy || "";
  for (const element of document.querySelectorAll(".gomoku-only")) element.classList.toggle("hidden", s.game !== "gomoku");
  drawStatus();
  drawBoard();
  drawThinking();
  drawControls();
  if (s.game === "gomoku") {
    drawLines();
    drawGraph();
    $("ply").textContent = `move ${s.cursor} / ${s.moves.length}`;
  }
}

function sideName(s, side) {
  if (s.game === "connect4") return side === "black" ? "Red" : "Yellow";
  return side === "black" ? "Black" : "White";
}

function drawStatus() {
  const s = pentad.state;
  const status = $("status");
  status.classList.toggle("over", !!s.outcome);
  let text;
  if (s.outcome) {
    const winner = s.outcome.winner;
    const who = winner ? (s[winner] === "human" && s[winner === "black" ? "white" : "black"] === "engine"
      ? "You win" : s[winner] === "engine" && s[winner === "black" ? "white" : "black"] === "human"
        ? "Pentad wins" : `${sideName(s, winner)} wins`) : "Draw";
    text = winner ? `${who}: ${s.message}` : s.message;
  } else if (s.busy === "move") {
    text = `Pentad (${sideName(s, s.to_move).toLowerCase()}) is thinking…`;
  } else if (s.busy) {
    text = { hint: "Looking for a hint…", analyze: "Analysing the position…", graph: "Analysing the game…" }[s.busy];
  } else {
    text = `${sideName(s, s.to_move)} to move${s.your_turn ? " (you)" : ""}. ${s.message || ""}`;
  }
  status.textContent = text;
}

function point(x, y) {
  return [MARGIN + x * CELL, MARGIN + y * CELL];
}

function drawBoard() {
  const s = pentad.state;
  if (!s) return;
  if (s.game === "connect4") return drawConnect4(s);
  const svg = $("board");
  const w = s.width, h = s.height;
  svg.setAttribute("viewBox", `0 0 ${2 * MARGIN + (w - 1) * CELL} ${2 * MARGIN + (h - 1) * CELL}`);
  svg.textContent = "";
  el("rect", { class: "board-bg", x: 0, y: 0, width: 2 * MARGIN + (w - 1) * CELL, height: 2 * MARGIN + (h - 1) * CELL }, svg);
  for (let x = 0; x < w; x++) {
    el("line", { class: "grid", x1: point(x, 0)[0], y1: point(x, 0)[1], x2: point(x, h - 1)[0], y2: point(x, h - 1)[1] }, svg);
    el("text", { class: "coord", x: point(x, 0)[0], y: MARGIN + (h - 1) * CELL + MARGIN / 2 + 2 }, svg, s.columns[x]);
  }
  for (let y = 0; y < h; y++) {
    el("line", { class: "grid", x1: point(0, y)[0], y1: point(0, y)[1], x2: point(w - 1, y)[0], y2: point(w - 1, y)[1] }, svg);
    el("text", { class: "coord", x: MARGIN / 2 - 2, y: point(0, y)[1] }, svg, String(h - y));
  }
  const numbers = $("numbers").checked;
  const shown = s.moves.slice(0, s.cursor);
  const taken = new Set();
  shown.forEach(([x, y], i) => {
    const colour = i % 2 === 0 ? "black" : "white";
    const [cx, cy] = point(x, y);
    taken.add(`${x},${y}`);
    el("circle", { class: `stone ${colour}`, cx, cy, r: CELL * 0.45, "data-point": s.names[i] }, svg);
    if (numbers) el("text", { class: `number on-${colour}`, x: cx, y: cy }, svg, String(i + 1));
  });
  if (s.last && !numbers) {
    const [cx, cy] = point(...s.last);
    el("circle", { class: "last-mark", cx, cy, r: 4 }, svg);
  }
  for (const [x, y] of s.forbidden || []) {
    const [cx, cy] = point(x, y);
    const d = CELL * 0.22;
    el("path", { class: "forbid", d: `M${cx - d},${cy - d}L${cx + d},${cy + d}M${cx + d},${cy - d}L${cx - d},${cy + d}`, "data-forbidden": `${x},${y}` }, svg);
  }
  if (s.outcome && s.outcome.line.length) {
    const line = s.outcome.line;
    const [x1, y1] = point(...line[0]), [x2, y2] = point(...line[line.length - 1]);
    el("line", { class: "win-line", x1, y1, x2, y2 }, svg);
  }
  if (s.hint) {
    const [cx, cy] = point(...s.hint);
    el("circle", { class: "hint-mark", cx, cy, r: CELL * 0.42, "data-hint": s.hint.join(",") }, svg);
  }
  (s.lines || []).forEach((line, i) => {
    const p = parseName(line.move, s);
    if (p) el("text", { class: "line-label", x: point(...p)[0], y: point(...p)[1] }, svg, String(i + 1));
  });
  const t = pentad.thinking;
  if (s.busy && t && t.pv_points) {
    t.pv_points.slice(0, 8).forEach(([x, y], i) => {
      if (taken.has(`${x},${y}`)) return;
      const colour = (s.cursor + i) % 2 === 0 ? "black" : "white";
      const [cx, cy] = point(x, y);
      el("circle", { class: `stone ${colour} pv-stone`, cx, cy, r: CELL * 0.4 }, svg);
      el("text", { class: "pv-number", x: cx, y: cy }, svg, String(i + 1));
    });
  }
  for (let x = 0; x < w; x++) {
    for (let y = 0; y < h; y++) {
      const [cx, cy] = point(x, y);
      const hit = el("rect", { class: "hit", x: cx - CELL / 2, y: cy - CELL / 2, width: CELL, height: CELL,
        "data-x": x, "data-y": y, "data-name": `${s.columns[x]}${h - y}` }, svg);
      hit.addEventListener("click", () => { showError(""); send({ op: "play", point: [x, y] }); });
    }
  }
}

function parseName(name, s) {
  const column = s.columns.indexOf(name.replace(/[0-9]+$/, ""));
  const row = Number(name.replace(/^[^0-9]+/, ""));
  return column < 0 || !row ? null : [column, s.height - row];
}

function drawConnect4(s) {
  const svg = $("board");
  const w = 7, h = 6, cell = 60;
  svg.setAttribute("viewBox", `0 0 ${w * cell + 20} ${h * cell + 20}`);
  svg.textContent = "";
  el("rect", { class: "c4-frame", x: 0, y: 0, width: w * cell + 20, height: h * cell + 20, rx: 12 }, svg);
  const winning = new Set(((s.outcome && s.outcome.line) || []).map(([c, r]) => `${c},${r}`));
  for (let row = 0; row < h; row++) {
    for (let col = 0; col < w; col++) {
      const stone = s.cells[row][col];
      const cx = 10 + col * cell + cell / 2, cy = 10 + (h - 1 - row) * cell + cell / 2;
      const cls = stone === 1 ? "stone red" : stone === 2 ? "stone yellow" : "hole";
      const disc = el("circle", { class: cls, cx, cy, r: cell * 0.4, "data-cell": `${col},${row}` }, svg);
      if (winning.has(`${col},${row}`)) disc.setAttribute("stroke", "#fff"), disc.setAttribute("stroke-width", 5);
    }
  }
  if (s.last !== null && s.last !== undefined) {
    const row = s.cells.findLastIndex((cells) => cells[s.last] !== 0);
    el("circle", { class: "last-mark c4-last", cx: 10 + s.last * cell + cell / 2, cy: 10 + (h - 1 - row) * cell + cell / 2, r: 6 }, svg);
  }
  if (s.hint !== null && s.hint !== undefined) {
    el("rect", { class: "hint-mark", x: 10 + s.hint * cell + 3, y: 4, width: cell - 6, height: h * cell + 12, rx: 8 }, svg);
  }
  for (let col = 0; col < w; col++) {
    const hit = el("rect", { class: "hit", x: 10 + col * cell, y: 0, width: cell, height: h * cell + 20, "data-column": col }, svg);
    hit.addEventListener("click", () => { showError(""); send({ op: "play", point: col }); });
  }
}

function drawThinking() {
  const s = pentad.state;
  const t = pentad.thinking;
  const box = $("thinking");
  if (s && s.busy && t) {
    box.textContent = `depth ${t.depth}  eval ${t.eval}  ${formatCount(t.nodes)} nodes  ${formatCount(t.nps)} nodes/s  `
      + `${(t.time_ms / 1000).toFixed(1)} s\n${t.pv.join(" ")}`;
    box.dataset.depth = t.depth;
    setBar(t.black_win);
  } else if (s && s.busy) {
    box.textContent = "thinking…";
  } else if (pentad.lastThinking && s && s.game === "gomoku") {
    const l = pentad.lastThinking;
    box.textContent = `last think: depth ${l.depth}, eval ${l.eval}, ${formatCount(l.nps)} nodes/s — ${l.pv.join(" ")}`;
  } else {
    box.textContent = "";
  }
}

function setBar(blackWin) {
  $("evalbar-black").style.width = `${(100 * blackWin).toFixed(1)}%`;
  $("evalbar-text").textContent = `Black ${(100 * blackWin).toFixed(0)} %`;
}

function formatCount(n) {
  return n >= 1e6 ? `${(n / 1e6).toFixed(2)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(0)} k` : String(n);
}

function drawControls() {
  const s = pentad.state;
  const busy = !!s.busy;
  $("stop").disabled = !busy;
  $("undo").disabled = busy || (s.game === "gomoku" ? s.cursor === 0 : s.moves.length === 0);
  $("hint").disabled = busy || !s.your_turn;
  $("resign").disabled = busy || !s.your_turn;
  $("swap").disabled = busy;
  for (const id of ["analyze", "graph", "first", "prev", "next", "last", "load"]) $(id).disabled = busy;
}

function drawLines() {
  const s = pentad.state;
  const list = $("lines");
  list.textContent = "";
  if (s.lines && s.lines.length) setBar(s.lines[0].black_win);
  for (const line of s.lines || []) {
    const item = document.createElement("li");
    item.innerHTML = "";
    const move = document.createElement("span");
    move.className = "move";
    move.textContent = line.move;
    item.append(move, ` ${line.eval_text}  ${line.pv.slice(0, 10).join(" ")}`);
    list.appendChild(item);
  }
}

function drawGraph() {
  const s = pentad.state;
  const svg = $("graph-plot");
  const g = s.graph;
  svg.classList.toggle("shown", !!g);
  svg.textContent = "";
  $("marks").textContent = "";
  if (!g) return;
  const n = g.values.length - 1, limit = g.limit;
  const x = (i) => (n ? (400 * i) / n : 0), y = (v) => 60 - (55 * v) / limit;
  el("line", { class: "graph-zero", x1: 0, y1: 60, x2: 400, y2: 60 }, svg);
  el("polyline", { class: "graph-line", points: g.values.map((v, i) => `${x(i)},${y(v)}`).join(" ") }, svg);
  el("line", { class: "graph-cursor", x1: x(s.cursor), y1: 0, x2: x(s.cursor), y2: 120 }, svg);
  const colours = { "missed win": "#8e24aa", blunder: "#d32f2f", mistake: "#f57c00" };
  const notes = [];
  for (const move of g.moves) {
    if (!move.mark) continue;
    el("circle", { cx: x(move.number), cy: y(g.values[move.number]), r: 4, fill: colours[move.mark], class: "graph-mark",
      "data-mark": move.mark }, svg);
    notes.push(`${move.number}. ${move.move} ${move.mark} (best ${move.best})`);
  }
  $("marks").textContent = notes.length ? notes.join(" · ") : "No mistakes marked.";
  svg.onclick = (event) => {
    const box = svg.getBoundingClientRect();
    send({ op: "goto", ply: Math.round(((event.clientX - box.left) / box.width) * n) });
  };
}

// ---------------------------------------------------------------- controls

function step(to) {
  const s = pentad.state;
  if (!s || s.game !== "gomoku" || s.busy) return;
  const ply = Math.max(0, Math.min(s.moves.length, to(s)));
  if (ply !== s.cursor) send({ op: "goto", ply });
}

function readUpload(file) {
  if (!file) return;
  if (file.size > 64 * 1024) {
    showError(`${file.name} is larger than 64 KB: not a game record.`);
    return;
  }
  const reader = new FileReader();
  reader.onload = () => send({ op: "load", name: file.name, text: String(reader.result) });
  reader.onerror = () => showError(`Cannot read ${file.name}.`);
  reader.readAsText(file);
}

function setup() {
  $("new-form").addEventListener("submit", (event) => { event.preventDefault(); newGame(); });
  $("new-form").elements.game.addEventListener("change", gameChanged);
  $("undo").onclick = () => { showError(""); send({ op: "undo" }); };
  $("hint").onclick = () => { showError(""); send({ op: "hint" }); };
  $("stop").onclick = () => send({ op: "stop" });
  $("swap").onclick = () => { showError(""); send({ op: "swap" }); };
  $("resign").onclick = () => { showError(""); send({ op: "resign" }); };
  $("numbers").onchange = drawBoard;
  $("analyze").onclick = () => { showError(""); send({ op: "analyze", count: Number($("nbest").value) }); };
  $("graph").onclick = () => { showError(""); send({ op: "graph" }); };
  $("first").onclick = () => step(() => 0);
  $("prev").onclick = () => step((s) => s.cursor - 1);
  $("next").onclick = () => step((s) => s.cursor + 1);
  $("last").onclick = () => step((s) => s.moves.length);
  $("upload").onchange = (event) => readUpload(event.target.files[0]);
  $("load").onclick = () => { showError(""); send({ op: "load", name: "pasted", text: $("paste").value }); };
  for (const button of document.querySelectorAll("[data-format]")) {
    button.onclick = () => send({ op: "export", format: button.dataset.format });
  }
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select")) return;
    const keys = { ArrowLeft: (s) => s.cursor - 1, ArrowRight: (s) => s.cursor + 1, Home: () => 0,
      End: (s) => s.moves.length };
    if (keys[event.key]) {
      event.preventDefault();
      step(keys[event.key]);
    }
  });
  setBar(0.5);
  connect();
}

setup();
