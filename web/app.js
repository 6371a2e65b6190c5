// The page: a small hash router over four screens — new game, a game, the archive (with replay)
// and the rules (with the rule texts' worked examples). The server is the referee; the page only draws
// what it is told and sends the holes chosen.
import { api, tokens, Live, ApiError } from './api.js';
import { Board, RING } from './board.js';
import { t, setLang, initialLang, apply, lang } from './i18n.js';

const main = document.getElementById('main');
const announcer = document.getElementById('announce');
let cleanup = () => {};

function h(tag, attrs = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, '');
    else if (v !== false && v != null) el.setAttribute(k, v);
  }
  for (const k of kids.flat()) if (k != null) el.append(k.nodeType ? k : document.createTextNode(k));
  return el;
}

function say(msg) {
  announcer.textContent = '';
  setTimeout(() => { announcer.textContent = msg; }, 30);
}

// N2 position string -> board in ring order and captures.
function parsePos(s) {
  const [rows, , cb, ca] = s.split(' ');
  const [b, a] = rows.split('/').map((r) => r.split(',').map(Number));
  return { board: [...b, ...a], caps: { B: Number(cb), A: Number(ca) } };
}

function remember(id) {
  const r = JSON.parse(localStorage.getItem('vlt.recent') || '[]').filter((x) => x !== id);
  r.unshift(id);
  localStorage.setItem('vlt.recent', JSON.stringify(r.slice(0, 10)));
}

function resultText(r) {
  if (!r) return '';
  const score = `${r.score_b}–${r.score_a}`;
  const who = r.winner ? t('result.wins', { p: r.winner, score }) : t('result.draw', { score });
  const why = {
    'empty board': t('end.empty'),
    repetition: t('end.repetition'),
    resignation: t('end.resigned', { p: r.resigned || '' }),
    'time forfeit': t('end.time'),
  }[r.termination] || r.termination;
  return `${who} — ${why}`;
}

function plyText(p) {
  let s = t('ply.sows', { p: p.mover, hole: p.from, n: p.stones });
  if (p.captured.length) s += ' ' + t('ply.captures', { n: p.captured.length, holes: p.captured.join(', ') });
  if (p.passes) s += ' ' + t('ply.passes', { p: p.mover === 'B' ? 'A' : 'B', q: p.mover });
  return s;
}

// ---------- new game ----------
function viewHome() {
  const err = h('p', { class: 'error', role: 'alert' });
  const sel = (id, opts, value) => h('select', { id }, opts.map(([v, k]) => h('option', { value: v, selected: v === value }, k)));
  const levels = Array.from({ length: 10 }, (_, i) => [String(i + 1), String(i + 1)]);
  const mode = (v, key, checked) => h('label', {}, h('input', { type: 'radio', name: 'mode', value: v, checked }), t(key));
  const form = h('form', { class: 'form', id: 'newgame' },
    h('h2', {}, t('new.title')),
    h('fieldset', {}, h('legend', {}, t('new.mode')),
      mode('computer', 'mode.computer', true), mode('local', 'mode.local', false), mode('online', 'mode.online', false)),
    h('label', {}, t('new.level'), sel('level', levels, localStorage.getItem('vlt.level') || '3')),
    h('label', {}, t('new.side'), sel('side', [['B', t('side.B')], ['A', t('side.A')]], 'B')),
    h('label', {}, t('new.first'), sel('first', [['B', 'B'], ['A', 'A']], 'B')),
    h('label', {}, t('new.position'), h('input', { id: 'position', size: 34, placeholder: '5,5,5,5,5,5/5,5,5,5,5,5 B 0 0' })),
    h('label', {}, t('new.speed'), sel('speed', [['slow', t('speed.slow')], ['normal', t('speed.normal')], ['fast', t('speed.fast')], ['instant', t('speed.instant')]], localStorage.getItem('vlt.speed') || 'normal')),
    h('button', { type: 'submit', id: 'start' }, t('new.start')),
    err);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = (id) => form.querySelector(`#${id}`).value;
    const m = form.querySelector('input[name=mode]:checked').value;
    localStorage.setItem('vlt.speed', f('speed'));
    localStorage.setItem('vlt.level', f('level'));
    const req = { mode: m, side: f('side') };
    if (m === 'computer') req.level = Number(f('level'));
    if (f('position').trim()) req.position = f('position').trim(); else req.first = f('first');
    try {
      const r = await api.create(req);
      tokens.set(r.game.id, r.token);
      remember(r.game.id);
      location.hash = `#/g/${r.game.id}`;
    } catch (x) { err.textContent = x.message; }
  });
  const imp = h('textarea', { id: 'import-text', 'aria-label': t('import.label') });
  const impErr = h('p', { class: 'error', role: 'alert' });
  const importBox = h('section', { class: 'form' }, h('h2', {}, t('import.title')), imp,
    h('div', { class: 'row' },
      h('input', { type: 'file', id: 'import-file', accept: '.vlt,.txt,.pgn', 'aria-label': t('import.file'),
        onchange: async (e) => { const file = e.target.files[0]; if (file) imp.value = await file.text(); } }),
      h('button', { id: 'import', onclick: async () => {
        try {
          const r = await api.import(imp.value);
          tokens.set(r.game.id, r.token);
          remember(r.game.id);
          location.hash = `#/g/${r.game.id}`;
        } catch (x) { impErr.textContent = x.message; }
      } }, t('import.button'))),
    impErr);
  const recent = JSON.parse(localStorage.getItem('vlt.recent') || '[]');
  const recentBox = recent.length ? h('section', {}, h('h2', {}, t('recent')),
    h('ul', {}, recent.map((id) => h('li', {}, h('a', { href: `#/g/${id}` }, id))))) : null;
  main.replaceChildren(form, importBox, recentBox || '');
}

// ---------- a game ----------
function viewGame(id) {
  const token = tokens.get(id);
  const status = h('p', { class: 'status', id: 'status', 'aria-live': 'polite' });
  const err = h('p', { class: 'error', role: 'alert', id: 'error' });
  const boardBox = h('div');
  const evalFill = h('div', { class: 'fill', style: 'width:50%' });
  const evalTxt = h('div', { class: 'txt' });
  const evalBar = h('div', { class: 'evalbar', id: 'evalbar', role: 'meter', 'aria-label': t('eval.label'), 'aria-valuemin': -60, 'aria-valuemax': 60, 'aria-valuenow': 0, hidden: true }, evalFill, evalTxt);
  const invite = h('div', { class: 'invite', id: 'invite', hidden: true });
  const moveList = h('ol', { id: 'movelist' });
  const btn = (id, key, fn) => h('button', { id, onclick: fn }, t(key));
  const undoB = btn('undo', 'btn.undo', () => act(() => api.undo(id, token)));
  const hintB = btn('hint', 'btn.hint', async () => {
    try {
      const a = await api.hint(id, token);
      board.mark(a.best, 'hint');
      say(t('hint.says', { move: a.best }));
      status.textContent = t('hint.says', { move: a.best });
    } catch (x) { err.textContent = x.message; }
  });
  const resignB = btn('resign', 'btn.resign', () => { if (confirm(t('resign.confirm'))) act(() => api.resign(id, token)); });
  const exportA = h('a', { href: `/api/games/${id}/record`, download: `vlt-${id}.txt`, id: 'export' }, t('btn.export'));
  const conn = h('span', { class: 'conn', id: 'conn' });
  const controls = h('div', { class: 'row' }, undoB, hintB, resignB, h('a', { href: '#/', id: 'newgame-link' }, t('btn.new')), exportA, conn);
  main.replaceChildren(h('div', { class: 'game' },
    h('div', {}, status, boardBox, evalBar, controls, err, invite),
    h('aside', {}, h('h2', {}, t('moves')), h('div', { class: 'moves' }, moveList))));

  let view = null;       // the latest game from the server
  let shown = 0;         // plies drawn so far
  let seat = null;       // 'B', 'A', 'both' or null (spectator)
  let animating = false;
  let queue = Promise.resolve();
  let pollTimer = null;
  const board = new Board(boardBox, (hole) => pick(hole));

  const canMove = () => view && !view.result && !animating && view.seat_b !== 'free' && view.seat_a !== 'free' &&
    (seat === 'both' || seat === view.to_move) &&
    (view.to_move === 'B' ? view.seat_b : view.seat_a) !== 'computer';

  function draw() {
    const p = parsePos(view.position);
    // Name the seats on the stores: you, the computer, or a friend.
    for (const who of ['A', 'B']) {
      const st = who === 'B' ? view.seat_b : view.seat_a;
      const name = seat === who || seat === 'both' ? t('you') : st === 'computer' ? t('computer', { n: view.level }) : '';
      board.stores[who].querySelector('.who').textContent = name ? `${who} · ${name}` : who;
    }
    board.render(p.board, p.caps, { legal: canMove() ? view.legal : [], toMove: view.to_move });
    moveList.replaceChildren(...view.plies.map((pl, i) => h('li', { class: i === view.plies.length - 1 ? 'cur' : '' },
      pl.move, pl.captured.length ? h('span', { class: 'cap' }, ` ×${pl.captured.length}`) : '', pl.passes ? ` (${t('pass')})` : '')));
    moveList.parentElement.scrollTop = 1e9;
    const over = !!view.result;
    status.classList.toggle('over', over);
    const other = view.to_move === 'B' ? view.seat_b : view.seat_a;
    if (over) status.textContent = resultText(view.result);
    else if (view.mode === 'online' && (view.seat_b === 'free' || view.seat_a === 'free')) status.textContent = t('status.waiting');
    else if (other === 'computer') status.textContent = t('status.thinking');
    else if (canMove()) status.textContent = seat === 'both' ? t('status.tomove', { p: view.to_move }) : t('status.yourturn', { p: view.to_move });
    else if (!seat) status.textContent = t('status.spectating', { p: view.to_move });
    else status.textContent = t('status.theirturn', { p: view.to_move });
    if (!over && view.repetitions >= 2) status.textContent += ' ' + t('status.repeated', { n: view.repetitions });
    // R5: say so while the passing player waits.
    const lastPly = view.plies[view.plies.length - 1];
    if (!over && lastPly && lastPly.passes) {
      status.textContent = t('ply.passes', { p: lastPly.mover === 'B' ? 'A' : 'B', q: lastPly.mover }) + ' ' + status.textContent;
    }
    const mine = seat && !over;
    undoB.hidden = view.mode === 'online';
    undoB.disabled = !mine || view.plies.length === 0 || animating;
    hintB.hidden = view.mode === 'online' && !over;
    hintB.disabled = !canMove();
    resignB.disabled = !mine || animating;
    const free = view.mode === 'online' && seat && (view.seat_b === 'free' || view.seat_a === 'free');
    invite.hidden = !free;
    if (free && !invite.firstChild) {
      const link = `${location.origin}/#/j/${id}`;
      const inp = h('input', { readonly: true, value: link, id: 'invite-link', 'aria-label': t('invite.label') });
      invite.append(h('p', {}, t('invite.text')), inp,
        h('button', { onclick: () => { inp.select(); navigator.clipboard?.writeText(link); say(t('invite.copied')); } }, t('invite.copy')));
    }
    updateEval();
  }

  let evalSeq = 0;
  async function updateEval() {
    const allowed = view.mode !== 'online' || view.result;
    evalBar.hidden = !allowed;
    if (!allowed || view.result || localStorage.getItem('vlt.eval') === 'off') {
      if (view.result) setEval(view.captured_b - view.captured_a);
      return;
    }
    // Only while the game waits for us: otherwise the computer may already have moved on.
    if (!canMove()) return;
    const seq = ++evalSeq;
    try {
      const a = await api.analysis(id, 150);
      if (seq !== evalSeq) return;
      // The engine's score is the future capture difference for the player to move; the bar shows
      // the final margin it predicts, from B's side.
      const future = a.for_player === 'B' ? a.score : -a.score;
      // Proven (endgame tables, or a search that saw every line end): say so.
      setEval(view.captured_b - view.captured_a + future, a.exact);
    } catch (_) { /* the bar just stays */ }
  }
  function setEval(margin, exact = false) {
    const pct = Math.max(0, Math.min(100, 50 + margin * (50 / 30)));
    evalFill.style.width = `${pct}%`;
    evalTxt.textContent = (margin === 0 ? '=' : margin > 0 ? `B +${margin}` : `A +${-margin}`)
      + (exact ? ` (${t('eval.exact')})` : '');
    evalBar.setAttribute('aria-valuenow', margin);
    evalBar.setAttribute('aria-valuetext', evalTxt.textContent);
  }

  // Every new game state (from our own request or the socket) goes through here, in order.
  function accept(v, fresh = false) {
    queue = queue.then(async () => {
      if (view && JSON.stringify(v) === JSON.stringify(view)) return;
      // An answer overtaken by a newer socket update is stale: keep the newer game.
      if (view && !fresh && v.epoch === view.epoch && v.version < view.version) return;
      const prefixOk = view && v.plies.length >= shown && v.plies.slice(0, shown).every((p, i) => p.after === view.plies[i]?.after);
      if (prefixOk && v.plies.length > shown) {
        animating = true;
        if (view) draw();
        for (let i = shown; i < v.plies.length; i++) {
          const ply = v.plies[i];
          const before = parsePos(i === 0 ? v.start : v.plies[i - 1].after);
          status.classList.remove('over');
          status.textContent = `${i + 1}. ${plyText(ply)}`;
          await board.animate(ply, before.board, before.caps);
          say(plyText(ply));
        }
        animating = false;
      }
      const wasOver = view && view.result;
      view = v;
      shown = v.plies.length;
      board.clearMarks();
      const last = v.plies[v.plies.length - 1];
      if (last) { board.mark(last.sown[last.sown.length - 1], 'last'); for (const c of last.captured) board.mark(c, 'cap'); }
      draw();
      if (v.result && !wasOver) say(resultText(v.result));
      schedulePoll();
    }).catch((x) => { err.textContent = x.message; animating = false; });
  }

  // If the socket is down while the computer or the opponent is to move, ask now and then.
  function schedulePoll() {
    clearTimeout(pollTimer);
    if (!view || view.result || canMove()) return;
    pollTimer = setTimeout(async () => {
      try { accept(await api.game(id)); } catch (_) { schedulePoll(); }
    }, live && live.ws && live.ws.readyState === 1 ? 5000 : 1500);
  }

  async function act(fn) {
    err.textContent = '';
    try { accept(await fn()); } catch (x) { err.textContent = x.message; }
  }

  function pick(hole) {
    if (!canMove() || !view.legal.includes(hole)) return;
    board.clearMarks();
    act(() => api.move(id, token, hole));
  }

  // Keys 1–6 play that hole of the player to move (N1).
  const onKey = (e) => {
    if (e.target.matches('input, textarea, select')) return;
    if (/^[1-6]$/.test(e.key) && view && canMove()) pick(`${e.key}${view.to_move}`);
  };
  document.addEventListener('keydown', onKey);

  const live = new Live(id, token, (m) => {
    if (m.type === 'state') { seat = m.you; accept(m.game, true); }
    else if (m.type === 'update') accept(m.game);
    else if (m.type === 'error') err.textContent = m.error;
  }, (up) => { conn.textContent = up ? '' : t('conn.lost'); conn.className = up ? 'conn' : 'conn error'; });

  api.game(id).then((g) => { if (!view) accept(g); }).catch((x) => {
    err.textContent = x instanceof ApiError && x.status === 404 ? t('error.nogame') : x.message;
  });
  remember(id);
  cleanup = () => { live.close(); document.removeEventListener('keydown', onKey); clearTimeout(pollTimer); };
}

async function viewJoin(id) {
  main.replaceChildren(h('p', {}, t('join.joining')));
  if (tokens.get(id)) { location.hash = `#/g/${id}`; return; }
  try {
    const r = await api.join(id);
    tokens.set(id, r.token);
    remember(id);
    location.hash = `#/g/${id}`;
  } catch (x) {
    main.replaceChildren(h('p', { class: 'error', role: 'alert' }, x.message), h('a', { href: `#/g/${id}` }, t('join.watch')));
  }
}

// ---------- archive and replay ----------
async function viewArchive() {
  const tbody = h('tbody');
  main.replaceChildren(h('h2', {}, t('nav.archive')), h('table', { class: 'archive' },
    h('thead', {}, h('tr', {}, h('th', {}, t('archive.game')), h('th', {}, t('archive.mode')), h('th', {}, t('archive.moves')), h('th', {}, t('archive.result')), h('th', {}, t('archive.date')))), tbody));
  const { games } = await api.finished();
  if (!games.length) tbody.append(h('tr', {}, h('td', { colspan: 5 }, t('archive.empty'))));
  for (const g of games) {
    tbody.append(h('tr', {},
      h('td', {}, h('a', { href: `#/replay/${g.id}` }, g.id)), h('td', {}, t(`mode.${g.mode}`)), h('td', {}, String(g.moves)),
      h('td', {}, g.result || ''), h('td', {}, new Date(g.updated * 1000).toLocaleString(lang()))));
  }
}

async function viewReplay(id) {
  const v = await api.game(id);
  const boardBox = h('div');
  const info = h('p', { class: 'status', 'aria-live': 'polite', id: 'replay-status' });
  const list = h('ol', { id: 'movelist' });
  const board = new Board(boardBox, () => {});
  let i = 0;
  let playing = null;
  const at = (k) => parsePos(k === 0 ? v.start : v.plies[k - 1].after);
  function show() {
    const p = at(i);
    board.render(p.board, p.caps, { toMove: null });
    board.clearMarks();
    if (i > 0) { const pl = v.plies[i - 1]; board.mark(pl.sown[pl.sown.length - 1], 'last'); pl.captured.forEach((c) => board.mark(c, 'cap')); }
    info.textContent = i === 0 ? t('replay.start') : `${i}. ${plyText(v.plies[i - 1])}`;
    if (i === v.plies.length && v.result) info.textContent += ` — ${resultText(v.result)}`;
    [...list.children].forEach((li, k) => li.classList.toggle('cur', k === i - 1));
  }
  async function step() {
    if (i >= v.plies.length) return false;
    const p = at(i);
    await board.animate(v.plies[i], p.board, p.caps);
    i += 1; show();
    return true;
  }
  const stop = () => { playing = null; playB.textContent = t('replay.play'); };
  const playB = h('button', { id: 'replay-play', onclick: async () => {
    if (playing) { stop(); return; }
    const me = playing = {};
    playB.textContent = t('replay.pause');
    while (playing === me && await step()) { /* next */ }
    if (playing === me) stop();
  } }, t('replay.play'));
  for (const [k, pl] of v.plies.entries()) {
    list.append(h('li', {}, h('button', { class: 'linkish', onclick: () => { stop(); i = k + 1; show(); } }, pl.move)));
  }
  main.replaceChildren(h('div', { class: 'game' },
    h('div', {}, h('h2', {}, t('replay.title', { id })), info, boardBox,
      h('div', { class: 'row' },
        h('button', { id: 'replay-first', 'aria-label': t('replay.first'), onclick: () => { stop(); i = 0; show(); } }, '⏮'),
        h('button', { id: 'replay-prev', 'aria-label': t('replay.prev'), onclick: () => { stop(); i = Math.max(0, i - 1); show(); } }, '◀'),
        h('button', { id: 'replay-next', 'aria-label': t('replay.next'), onclick: () => { stop(); step(); } }, '▶'),
        h('button', { id: 'replay-last', 'aria-label': t('replay.last'), onclick: () => { stop(); i = v.plies.length; show(); } }, '⏭'),
        playB,
        h('a', { href: `/api/games/${id}/record`, download: `vlt-${id}.txt` }, t('btn.export')))),
    h('aside', {}, h('h2', {}, t('moves')), h('div', { class: 'moves' }, list))));
  show();
  cleanup = () => stop();
}

// ---------- rules ----------
async function viewRules() {
  const sections = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7'].map((k) => h('p', {}, h('strong', {}, k.toUpperCase() + '. '), t(`rules.${k}`)));
  const box = h('div');
  main.replaceChildren(h('h2', {}, t('rules.title')), ...sections, h('h2', {}, t('rules.examples')), box);
  const { examples } = await api.examples();
  for (const ex of examples) {
    const bbox = h('div');
    const text = h('p', { 'aria-live': 'polite' });
    const board = new Board(bbox, () => {});
    const ply = ex.ply;
    const last = ply.sown.length + (ply.captured.length ? 1 : 0);
    let s = 0;
    // Step s: 0 = before; 1..n = n stones sown (R3); n+1 = the capture (R4).
    function show() {
      const b = ex.board.slice();
      const caps = { B: ex.captured_b, A: ex.captured_a };
      board.clearMarks();
      if (s > 0) b[RING.indexOf(ply.from)] = 0;
      for (const hname of ply.sown.slice(0, Math.min(s, ply.sown.length))) b[RING.indexOf(hname)] += 1;
      if (s > ply.sown.length) for (const c of ply.captured) { b[RING.indexOf(c)] = 0; caps[ply.mover] += 1; }
      board.render(b, caps);
      if (s === 0) { board.mark(ply.from, 'from'); text.textContent = t(`ex.${ex.id}`) ; }
      else if (s <= ply.sown.length) {
        board.mark(ply.sown[s - 1], 'last');
        text.textContent = t('ex.stone', { k: s, n: ply.sown.length, hole: ply.sown[s - 1] });
      } else { ply.captured.forEach((c) => board.mark(c, 'cap')); text.textContent = t('ply.captures', { n: ply.captured.length, holes: ply.captured.join(', ') }); }
    }
    box.append(h('section', { class: 'example', id: `ex-${ex.id}` },
      h('h3', {}, t(`ex.${ex.id}.title`)), h('p', {}, h('code', {}, ex.position), ' — ', t('ex.move', { move: ply.move })),
      bbox, text,
      h('div', { class: 'row' },
        h('button', { onclick: () => { s = 0; show(); } }, t('ex.reset')),
        h('button', { onclick: () => { s = Math.max(0, s - 1); show(); } }, t('ex.back')),
        h('button', { class: 'ex-step', onclick: () => { s = Math.min(last, s + 1); show(); } }, t('ex.step')),
        h('button', { onclick: () => { s = last; show(); } }, t('ex.end')))));
    show();
  }
}

// ---------- router ----------
async function route() {
  cleanup();
  cleanup = () => {};
  const parts = location.hash.replace(/^#\/?/, '').split('/');
  try {
    if (parts[0] === 'g' && parts[1]) viewGame(parts[1]);
    else if (parts[0] === 'j' && parts[1]) await viewJoin(parts[1]);
    else if (parts[0] === 'archive') await viewArchive();
    else if (parts[0] === 'replay' && parts[1]) await viewReplay(parts[1]);
    else if (parts[0] === 'rules') await viewRules();
    else viewHome();
  } catch (x) {
    main.replaceChildren(h('p', { class: 'error', role: 'alert' }, x.message));
  }
  apply(main);
}

const langSel = document.getElementById('lang');
langSel.addEventListener('change', async () => { await setLang(langSel.value); route(); });
const l = initialLang();
langSel.value = l;
await setLang(l);
window.addEventListener('hashchange', route);
route();
