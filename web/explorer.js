/*
 * explorer.js — the explorer page's behaviour. It keeps the moves played
 * from the database's start (with a redo list), asks the server for the
 * answer to that position (/api/query?moves=...: the object `query --json`
 * prints) and draws it: every open line (a Cram domino) labelled with its
 * value, the best ones in green. Values, best moves, the words and the
 * perfect game all come from the server; the page only draws the board
 * and works out which boxes the moves completed, to colour them.
 *
 * The position is also kept in the address (#moves=...), so that a
 * position can be bookmarked or sent.
 */
'use strict';
(() => {
  const NS = 'http://www.w3.org/2000/svg';
  const $ = (id) => document.getElementById(id);
  const state = { info: null, moves: [], redo: [], answer: null, pv: null, seq: 0, keyboard: false };

  function svg(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
  }

  async function api(path) {
    const r = await fetch(path, { cache: 'no-store' });
    let body;
    try { body = await r.json(); } catch (e) { body = { error: `HTTP ${r.status}` }; }
    if (!r.ok) throw new Error(body.error || `HTTP ${r.status}`);
    return body;
  }

  const signed = (v) => (v > 0 ? `+${v}` : `${v}`);
  const isCram = () => state.info.game === 'cram';

  function showError(message) {
    const e = $('error');
    e.textContent = message || '';
    e.hidden = !message;
  }

  /* ---- the position ---- */

  function movesParam() {
    return 'moves=' + encodeURIComponent(state.moves.join(' '));
  }

  async function refresh() {
    const seq = ++state.seq;
    state.pv = null;
    try {
      const answer = await api('/api/query?' + movesParam());
      if (seq !== state.seq) return; /* a later move's answer is on its way */
      state.answer = answer;
      showError('');
      state.hash = state.moves.length ? '#' + movesParam() : '';
      history.replaceState(null, '', state.hash || '#');
      draw();
    } catch (e) {
      if (seq !== state.seq) return;
      showError(e.message);
      throw e;
    }
  }

  async function play(move) {
    const saved = state.moves.slice(), savedRedo = state.redo.slice();
    state.moves.push(move);
    state.redo = [];
    try {
      await refresh();
    } catch (e) {
      state.moves = saved;
      state.redo = savedRedo;
    }
  }

  function undo() {
    if (!state.moves.length) return;
    state.redo.push(state.moves.pop());
    refresh().catch(() => {});
  }

  function redo() {
    if (!state.redo.length) return;
    state.moves.push(state.redo.pop());
    refresh().catch(() => {});
  }

  function reset() {
    if (!state.moves.length) return;
    state.redo = state.moves.reverse();
    state.moves = [];
    refresh().catch(() => {});
  }

  function bestMove() {
    const m = state.answer && state.answer.moves[0];
    if (m && m.best) play(moveName(m));
  }

  const moveName = (m) =>
    m.line !== undefined ? m.line : `${m.cells[0][0]},${m.cells[0][1]}-${m.cells[1][0]},${m.cells[1][1]}`;

  async function perfectGame() {
    const seq = state.seq;
    try {
      const a = await api('/api/query?' + movesParam() + '&pv=1');
      if (seq !== state.seq) return;
      state.pv = a.pv;
      drawPv();
    } catch (e) {
      showError(e.message);
    }
  }

  async function playOut() {
    if (!state.pv) return;
    const all = [];
    for (const t of state.pv) {
      if (t.moves) all.push(...t.moves);
      else all.push(`${t.cells[0][0]},${t.cells[0][1]}-${t.cells[1][0]},${t.cells[1][1]}`);
    }
    state.moves.push(...all);
    state.redo = [];
    await refresh().catch(() => {});
  }

  /* ---- Dots-and-Boxes ---- */

  const S = 100, M = 50;

  function lineEnds(name) {
    const m = /^([hv])(\d+),(\d+)$/.exec(name);
    const i = +m[2], j = +m[3];
    const x = M + j * S, y = M + i * S;
    return m[1] === 'h' ? [x, y, x + S, y] : [x, y, x, y + S];
  }

  /* the drawn lines (by id) and each complete box's owner, replaying the
   * moves from the start: a move that completes a box moves again */
  function replay() {
    const info = state.info;
    const drawn = Array.from(info.start, (c) => c === '1');
    const owner = info.boxes.map((b) => (b.every((l) => drawn[l]) ? 'x' : null));
    let player = 'A';
    for (const name of state.moves) {
      const id = info.lines.indexOf(name);
      if (id < 0) continue; /* an action number: the server read it; rare here */
      drawn[id] = true;
      let took = false;
      info.boxes.forEach((b, k) => {
        if (!owner[k] && b.every((l) => drawn[l])) { owner[k] = player; took = true; }
      });
      if (!took) player = player === 'A' ? 'B' : 'A';
    }
    return { drawn, owner };
  }

  function drawDots(board) {
    const { rows, cols, lines, boxes } = state.info;
    const a = state.answer;
    board.setAttribute('viewBox', `0 0 ${2 * M + cols * S} ${2 * M + rows * S}`);
    const { drawn, owner } = replay();
    boxes.forEach((b, k) => {
      if (!owner[k]) return;
      const r = Math.floor(k / cols), c = k % cols;
      svg('rect', { x: M + c * S, y: M + r * S, width: S, height: S,
                    class: owner[k] === 'x' ? 'box-x' : `box-${owner[k].toLowerCase()}` }, board);
      if (owner[k] !== 'x') {
        const t = svg('text', { x: M + c * S + S / 2, y: M + r * S + S / 2,
                                class: `owner ${owner[k].toLowerCase()}` }, board);
        t.textContent = owner[k];
      }
    });
    lines.forEach((name, id) => {
      if (!drawn[id]) return;
      const [x1, y1, x2, y2] = lineEnds(name);
      svg('line', { x1, y1, x2, y2, class: 'drawn' }, board);
    });
    for (const m of a.moves) {
      const [x1, y1, x2, y2] = lineEnds(m.line);
      const g = svg('g', {
        class: m.best ? 'move best' : 'move', tabindex: 0, role: 'button',
        'data-line': m.line, 'data-value': m.value,
        'aria-label': `${m.line}: value ${signed(m.value)}${m.best ? ', a best move' : ''}`,
      }, board);
      svg('line', { x1, y1, x2, y2, class: 'open' }, g);
      svg('line', { x1, y1, x2, y2, class: 'hit' }, g);
      const cx = (x1 + x2) / 2, cy = (y1 + y2) / 2;
      svg('rect', { x: cx - 22, y: cy - 15, width: 44, height: 30, rx: 8, class: 'label-bg' }, g);
      const t = svg('text', { x: cx, y: cy, class: 'label' }, g);
      t.textContent = signed(m.value);
      bindMove(g, m.line);
    }
    for (let i = 0; i <= rows; i++)
      for (let j = 0; j <= cols; j++) svg('circle', { cx: M + j * S, cy: M + i * S, r: 7, class: 'dot' }, board);
  }

  /* ---- Cram ---- */

  const C = 100, CM = 20;

  function drawCram(board) {
    const { rows, cols } = state.info;
    board.setAttribute('viewBox', `0 0 ${2 * CM + cols * C} ${2 * CM + rows * C}`);
    for (let r = 0; r < rows; r++)
      for (let c = 0; c < cols; c++)
        svg('rect', { x: CM + c * C, y: CM + r * C, width: C, height: C, class: 'cell' }, board);
    for (const name of state.moves) {
      const m = /^(\d+),(\d+)-(\d+),(\d+)$/.exec(name.trim());
      if (!m) continue;
      const [r1, c1, r2, c2] = m.slice(1).map(Number);
      const x = CM + Math.min(c1, c2) * C + 8, y = CM + Math.min(r1, r2) * C + 8;
      svg('rect', { x, y, width: (Math.abs(c1 - c2) + 1) * C - 16,
                    height: (Math.abs(r1 - r2) + 1) * C - 16, rx: 14, class: 'domino' }, board);
    }
    for (const m of state.answer.moves) {
      const [[r1, c1], [r2, c2]] = m.cells;
      const ax = CM + c1 * C + C / 2, ay = CM + r1 * C + C / 2;
      const bx = CM + c2 * C + C / 2, by = CM + r2 * C + C / 2;
      const x1 = ax + (bx - ax) * 0.3, y1 = ay + (by - ay) * 0.3;
      const x2 = ax + (bx - ax) * 0.7, y2 = ay + (by - ay) * 0.7;
      const name = moveName(m);
      const g = svg('g', {
        class: m.best ? 'move cram-move best' : 'move cram-move', tabindex: 0, role: 'button',
        'data-move': name, 'data-nimber': m.nimber,
        'aria-label': `domino ${name}: nimber ${m.nimber} after it${m.best ? ', a winning move' : ''}`,
      }, board);
      svg('line', { x1, y1, x2, y2, class: 'bar' }, g);
      svg('line', { x1, y1, x2, y2, class: 'hit' }, g);
      const cx = (ax + bx) / 2, cy = (ay + by) / 2;
      svg('rect', { x: cx - 18, y: cy - 15, width: 36, height: 30, rx: 8, class: 'label-bg' }, g);
      const t = svg('text', { x: cx, y: cy, class: 'label' }, g);
      t.textContent = `${m.nimber}`;
      bindMove(g, name);
    }
  }

  /* ---- drawing ---- */

  function bindMove(g, name) {
    g.addEventListener('click', () => play(name));
    g.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); play(name); }
    });
  }

  function draw() {
    const board = $('board');
    /* keep the keyboard where it was (the same move, or the board); a
     * click leaves no focus behind, which would look like a hint */
    const focused = state.keyboard && document.activeElement && document.activeElement.closest &&
                    document.activeElement.closest('#board .move');
    const focusedIndex = focused ? [...board.querySelectorAll('.move')].indexOf(focused) : -1;
    board.replaceChildren();
    if (isCram()) drawCram(board); else drawDots(board);
    if (focusedIndex >= 0) {
      const moves = board.querySelectorAll('.move');
      if (moves.length) moves[Math.min(focusedIndex, moves.length - 1)].focus();
    }
    const a = state.answer;
    const player = isCram() ? (state.moves.length % 2 ? 'B' : 'A') : a.to_move;
    const words = isCram() ? `${player} to move. Nimber ${a.nimber}: ${a.words}.` : a.words;
    $('verdict').textContent = a.moves.length ? words
      : isCram() ? `${player} cannot move: ${player === 'A' ? 'B' : 'A'} wins` : words;
    $('scores').replaceChildren();
    if (!isCram() && a.taken) {
      const sa = document.createElement('span'); sa.className = 'a'; sa.textContent = `A ${a.taken.A}`;
      const sb = document.createElement('span'); sb.className = 'b'; sb.textContent = `B ${a.taken.B}`;
      $('scores').append('boxes: ', sa, ' · ', sb);
    }
    const list = $('movelist');
    list.replaceChildren(...state.moves.map((m) => {
      const li = document.createElement('li'); li.textContent = m; return li;
    }));
    list.scrollTop = list.scrollHeight;
    $('moves-text').value = state.moves.join(' ');
    if (!isCram()) $('dbn-text').value = replay().drawn.map((d) => (d ? '1' : '0')).join('');
    $('undo').disabled = !state.moves.length;
    $('reset').disabled = !state.moves.length;
    $('redo').disabled = !state.redo.length;
    $('best').disabled = !a.moves.length;
    $('perfect').disabled = !a.moves.length;
    drawPv();
  }

  function drawPv() {
    const pv = $('pv');
    if (!state.pv) {
      const li = document.createElement('li'); li.className = 'hint';
      li.textContent = 'press “Perfect game”';
      pv.replaceChildren(li);
      return;
    }
    const items = state.pv.map((t) => {
      const li = document.createElement('li');
      li.textContent = t.moves
        ? `${t.player}: ${t.moves.join(' ')}${t.boxes ? ` (takes ${t.boxes})` : ''} — A ${t.score.A}, B ${t.score.B}`
        : `${t.player}: ${t.cells[0].join(',')}-${t.cells[1].join(',')} (nimber after: ${t.nimber})`;
      return li;
    });
    const li = document.createElement('li'); li.className = 'hint';
    const b = document.createElement('button'); b.type = 'button'; b.id = 'play-out';
    b.textContent = 'Play it out'; b.addEventListener('click', playOut);
    li.append(b);
    pv.replaceChildren(...items, li);
  }

  function copy(id) {
    const input = $(id);
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).catch(() => {});
    } else {
      input.select();
      document.execCommand('copy');
    }
  }

  /* ---- start ---- */

  /* The position the address names (#moves=...); one the database does
   * not take is said, and the start drawn instead. */
  async function followAddress() {
    const given = new URLSearchParams(location.hash.slice(1)).get('moves');
    state.moves = given ? given.split(/\s+/).filter(Boolean) : [];
    state.redo = [];
    try {
      await refresh();
    } catch (e) {
      state.moves = [];
      await refresh().catch(() => {});
      showError(`the address's moves=${given}: ${e.message}; showing the start`);
    }
  }

  async function start() {
    try {
      state.info = await api('/api/info');
    } catch (e) {
      showError(`cannot read the database: ${e.message}`);
      return;
    }
    const info = state.info;
    $('about').textContent = isCram()
      ? `Cram ${info.rows}x${info.cols}: the nimber after each move on it (0 wins)`
      : `Dots-and-Boxes ${info.rows}x${info.cols}: each open line shows the net boxes the player to move gets from here by drawing it`;
    $('dbn-row').hidden = isCram();
    await followAddress();
    /* the address edited by hand (or a link within the page) */
    window.addEventListener('hashchange', () => {
      if (location.hash !== state.hash && location.hash !== '#' + (state.hash || '')) followAddress();
    });
    document.addEventListener('keydown', () => { state.keyboard = true; }, true);
    document.addEventListener('pointerdown', () => { state.keyboard = false; }, true);
    $('undo').addEventListener('click', undo);
    $('redo').addEventListener('click', redo);
    $('reset').addEventListener('click', reset);
    $('best').addEventListener('click', bestMove);
    $('perfect').addEventListener('click', perfectGame);
    $('copy-moves').addEventListener('click', () => copy('moves-text'));
    $('copy-dbn').addEventListener('click', () => copy('dbn-text'));
    document.addEventListener('keydown', (e) => {
      if (e.target.tagName === 'INPUT' || e.altKey || e.metaKey) return;
      const k = e.key.toLowerCase();
      if (e.ctrlKey && k === 'z') { e.preventDefault(); undo(); }
      else if (e.ctrlKey && k === 'y') { e.preventDefault(); redo(); }
      else if (e.ctrlKey) return;
      else if (k === 'u') undo();
      else if (k === 'r') redo();
      else if (k === 'b') bestMove();
      else if (k === 'p') perfectGame();
    });
  }

  start();
})();
