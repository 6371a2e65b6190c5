// The analysis board: set up any position (click stones on or off, drag them between holes, or
// paste a position string),
// play moves freely, and see every legal move's value, the best line and, where the endgame
// tables reach, the exact value with the moves to the end. The link names the position shown.
import { api } from '../api.js';
import { Board, RING } from '../board.js';
import { h, main, parsePos, say } from '../dom.js';
import { t, tn } from '../i18n.js';

export const START = '5,5,5,5,5,5/5,5,5,5,5,5 B 0 0';
const THINK_MS = 500;
const signed = (n) => (n > 0 ? `+${n}` : String(n));

// N2 from a board in ring order, the captures and the player to move.
export function toN2(board, caps, toMove) {
  return `${board.slice(0, 6).join(',')}/${board.slice(6).join(',')} ${toMove} ${caps.B} ${caps.A}`;
}

export function viewAnalysis(encoded) {
  let start = START;
  if (encoded) {
    try {
      start = decodeURIComponent(encoded);
    } catch (_) {
      /* a broken link: the start position, and the server's word on it below */
    }
  }
  let moves = []; // played from `start`
  let shown = null; // the server's answer for start + moves
  let mode = 'play';
  let run = 0; // bumped by every request: an older answer is dropped
  const boardBox = h('div', { class: 'board-box' });
  const err = h('p', { class: 'error', role: 'alert', id: 'an-error' });
  const status = h('p', { class: 'status', id: 'an-status', 'aria-live': 'polite' });
  const tables = h('p', { class: 'an-tables', id: 'an-tables', hidden: true });
  const pv = h('p', { class: 'an-pv', id: 'an-pv' });
  const list = h('tbody', { id: 'an-moves' });
  const n2 = h('input', { id: 'an-n2', spellcheck: 'false', autocomplete: 'off', 'aria-label': t('an.paste') });
  const link = h('input', { id: 'an-link', readonly: true, 'aria-label': t('an.share') });
  const toMove = h('select', { id: 'an-tomove' }, h('option', { value: 'B' }, 'B'), h('option', { value: 'A' }, 'A'));
  const capB = h('input', { id: 'an-capb', type: 'number', min: 0, max: 60, inputmode: 'numeric' });
  const capA = h('input', { id: 'an-capa', type: 'number', min: 0, max: 60, inputmode: 'numeric' });
  const back = h(
    'button',
    { type: 'button', id: 'an-back', onclick: () => setMoves(moves.slice(0, -1)) },
    t('an.back'),
  );
  const setupBox = h('div', { class: 'an-setup', id: 'an-setup', hidden: true });
  const board = new Board(boardBox, pick);

  // The setup being edited: the start position's parts.
  const parts = () => parsePos(start);

  // In set-up a stone can also be dragged from one hole to another.
  for (const name of RING) {
    const el = board.holes[name];
    el.addEventListener('dragstart', (e) => {
      if (mode !== 'setup') return e.preventDefault();
      e.dataTransfer.setData('text/plain', name);
    });
    el.addEventListener('dragover', (e) => {
      if (mode === 'setup') e.preventDefault();
    });
    el.addEventListener('drop', (e) => {
      e.preventDefault();
      const from = e.dataTransfer.getData('text/plain');
      const p = parts();
      const i = RING.indexOf(from);
      if (mode !== 'setup' || i < 0 || from === name || p.board[i] === 0) return;
      p.board[i] -= 1;
      p.board[RING.indexOf(name)] += 1;
      setStart(toN2(p.board, p.caps, p.toMove));
    });
  }

  function pick(hole) {
    if (mode === 'setup') {
      const p = parts();
      const i = RING.indexOf(hole);
      const remove = document.querySelector('input[name=an-tool]:checked')?.value === 'remove';
      p.board[i] = Math.max(0, p.board[i] + (remove ? -1 : 1));
      setStart(toN2(p.board, p.caps, p.toMove));
      return;
    }
    const legal = shown?.analysis?.moves.map((m) => m.move) ?? [];
    if (!legal.includes(hole)) {
      say(t('an.notlegal', { hole }));
      return;
    }
    setMoves([...moves, hole]);
  }

  function setStart(s) {
    start = s;
    moves = [];
    refresh();
  }

  function setMoves(ms) {
    moves = ms;
    refresh();
  }

  async function refresh() {
    const mine = ++run;
    err.textContent = '';
    status.textContent = t('an.thinking');
    // Draw the setup at once; the answer fills in the rest.
    if (!moves.length) {
      try {
        const p = parts();
        if (p.board.length === 12 && p.board.every((n) => Number.isInteger(n)))
          board.render(p.board, p.caps, { legal: mode === 'setup' ? RING : [] });
      } catch (_) {
        /* the server says what is wrong */
      }
    }
    let r;
    try {
      r = await api.analyse(start, moves, THINK_MS);
    } catch (x) {
      if (mine !== run) return;
      err.textContent = x.message;
      status.textContent = '';
      return;
    }
    if (mine !== run) return;
    shown = r;
    draw();
  }

  function draw() {
    const r = shown;
    const a = r.analysis;
    // In set-up every hole takes a click.
    const legal = mode === 'setup' ? RING : a ? a.moves.map((m) => m.move) : [];
    board.render(r.board, { B: r.captured_b, A: r.captured_a }, { legal, toMove: r.over ? null : r.to_move });
    board.clearMarks();
    if (a) board.mark(a.best, 'hint');
    back.disabled = !moves.length;
    n2.value = r.position;
    const p = parsePos(mode === 'setup' ? start : r.position);
    toMove.value = p.toMove;
    capB.value = p.caps.B;
    capA.value = p.caps.A;
    const url = `${location.origin}/#/analyse/${encodeURIComponent(r.position)}`;
    link.value = url;
    history.replaceState(null, '', `#/analyse/${encodeURIComponent(r.position)}`);
    if (r.over || !a) {
      status.textContent = t('an.over');
      list.replaceChildren();
      pv.textContent = '';
      tables.hidden = true;
      return;
    }
    status.textContent =
      tn('an.value', Math.abs(a.score), { p: r.to_move, v: signed(a.score) }) +
      (a.exact ? ` · ${t('review.exact')}` : ` · ${t('an.depth', { n: a.depth })}`);
    pv.textContent = `${t('an.pv')}: ${a.pv.join(' ')}`;
    list.replaceChildren(
      ...a.moves.map((m) =>
        h(
          'tr',
          { class: m.move === a.best ? 'best' : '' },
          h(
            'td',
            {},
            h(
              'button',
              { type: 'button', class: 'an-move', 'data-move': m.move, onclick: () => setMoves([...moves, m.move]) },
              m.move,
            ),
          ),
          h('td', { class: 'num' }, signed(m.score)),
          h('td', { class: 'num' }, signed(m.score - a.score)),
        ),
      ),
    );
    const tb = r.tables;
    tables.hidden = !tb;
    if (tb) {
      tables.textContent =
        tn('an.tables', tb.moves_to_end, { v: signed(tb.value) }) +
        (tb.end === 'repetition' ? ` ${t('an.tables.rep')}` : '');
    }
  }

  function setMode(m) {
    mode = m;
    setupBox.hidden = m !== 'setup';
    for (const name of RING) board.holes[name].draggable = m === 'setup';
    for (const b of document.querySelectorAll('.an-mode button'))
      b.setAttribute('aria-pressed', String(b.dataset.mode === m));
    if (m === 'setup' && moves.length && shown) {
      // Set up from the position reached.
      setStart(shown.position);
    } else if (shown) draw();
  }

  const fromFields = () => {
    const p = parts();
    setStart(toN2(p.board, { B: Number(capB.value) || 0, A: Number(capA.value) || 0 }, toMove.value));
  };
  toMove.addEventListener('change', fromFields);
  capB.addEventListener('change', fromFields);
  capA.addEventListener('change', fromFields);
  const tool = (value, key, checked) =>
    h('label', { class: 'radio' }, h('input', { type: 'radio', name: 'an-tool', value, checked }), t(key));
  setupBox.append(
    h('div', { class: 'row' }, tool('add', 'an.add', true), tool('remove', 'an.remove', false)),
    h(
      'div',
      { class: 'row an-fields' },
      h('label', { for: 'an-tomove' }, t('an.tomove')),
      toMove,
      h('label', { for: 'an-capb' }, t('an.capb')),
      capB,
      h('label', { for: 'an-capa' }, t('an.capa')),
      capA,
    ),
    h(
      'div',
      { class: 'row' },
      h(
        'button',
        { type: 'button', id: 'an-clear', onclick: () => setStart('0,0,0,0,0,0/0,0,0,0,0,0 B 0 0') },
        t('an.empty'),
      ),
      h('button', { type: 'button', id: 'an-reset', onclick: () => setStart(START) }, t('an.start')),
    ),
  );
  const modeB = (m, key) =>
    h(
      'button',
      { type: 'button', 'data-mode': m, 'aria-pressed': String(m === mode), onclick: () => setMode(m) },
      t(key),
    );

  main.replaceChildren(
    h(
      'div',
      { class: 'game analysis' },
      h(
        'div',
        { class: 'game-main' },
        h('h2', {}, t('an.title')),
        h(
          'div',
          { class: 'controls an-mode' },
          h('div', { class: 'group' }, modeB('play', 'an.play'), modeB('setup', 'an.setup')),
          back,
        ),
        boardBox,
        status,
        err,
        setupBox,
        h(
          'form',
          {
            class: 'row an-paste',
            onsubmit: (e) => {
              e.preventDefault();
              setStart(n2.value.trim());
            },
          },
          h('label', { for: 'an-n2' }, t('an.paste')),
          n2,
          h('button', { type: 'submit', id: 'an-load' }, t('an.load')),
        ),
        h(
          'div',
          { class: 'row an-share' },
          h('label', { for: 'an-link' }, t('an.share')),
          link,
          h(
            'button',
            {
              type: 'button',
              onclick: () => {
                link.select();
                navigator.clipboard?.writeText(link.value).catch(() => {});
                say(t('invite.copied'));
              },
            },
            t('invite.copy'),
          ),
        ),
      ),
      h(
        'aside',
        { class: 'side-panel' },
        h('h2', {}, t('an.moves')),
        h(
          'table',
          { class: 'an-table' },
          h(
            'thead',
            {},
            h('tr', {}, h('th', {}, t('an.move')), h('th', {}, t('an.valuecol')), h('th', {}, t('an.diff'))),
          ),
          list,
        ),
        pv,
        tables,
      ),
    ),
  );
  refresh();
}
