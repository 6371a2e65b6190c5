// A game being played (or watched): the board, both players (names, ratings, clocks, presence),
// the move list (browsable), the evaluation, the controls, the offers between online players, and
// the result once it is over. The server is the referee: the page draws what it is told and sends
// the holes chosen.
import { api, Live, ApiError } from '../api.js';
import { Board } from '../board.js';
import { h, main, say, parsePos } from '../dom.js';
import { t } from '../i18n.js';
import { prefs, tokens, flips, recent } from '../prefs.js';
import { sound } from '../sound.js';
import { plyText, capturesText, resultText, howText, verdict, predicted, predictedText } from '../text.js';
import { MoveList } from './movelist.js';
import { startGame } from './home.js';
import { shareBox, inviteBox } from './share.js';
import { playerPanel, fillPanel } from './panels.js';
import { Clocks } from './clock.js';
import { drawTakeback, mayAskTakeback, rematchPart, sideName } from './offers.js';
import { clockText } from '../timecontrol.js';

const TITLE = document.title;

export function viewNoGame(id) {
  main.replaceChildren(
    h(
      'section',
      { class: 'card notice-page', id: 'nogame' },
      h('h2', {}, t('error.nogame')),
      h('p', {}, t('error.nogame.text', { id })),
      h('a', { href: '#/', class: 'button primary' }, t('btn.new')),
    ),
  );
}

export async function viewGame(id, setCleanup) {
  let first;
  try {
    first = await api.game(id);
  } catch (x) {
    if (x instanceof ApiError && x.status === 404) return viewNoGame(id);
    throw x;
  }
  const token = tokens.get(id);
  const status = h('p', { class: 'status', id: 'status', 'aria-live': 'polite' });
  const notice = h('p', { class: 'notice', id: 'notice', role: 'status' });
  const err = h('p', { class: 'error', role: 'alert', id: 'error' });
  const boardBox = h('div', { class: 'board-box' });
  const topP = playerPanel('top');
  const bottomP = playerPanel('bottom');
  const abortEl = h('p', { class: 'abort', id: 'abort', hidden: true });
  const offerBar = h('div', { class: 'offer-bar', id: 'offer', hidden: true, role: 'status' });
  // The evaluation: the final score the engine predicts, B's share growing from B's store.
  const evalFill = h('div', { class: 'fill' });
  const evalTxt = h('span', { class: 'eval-text', id: 'eval-text' });
  const evalToggle = h('input', { type: 'checkbox', id: 'eval-toggle', checked: prefs.get('eval') === 'on' });
  const evalMeter = h(
    'div',
    {
      class: 'evalbar',
      id: 'evalbar',
      role: 'meter',
      'aria-label': t('eval.label'),
      'aria-valuemin': 0,
      'aria-valuemax': 60,
      'aria-valuenow': 30,
    },
    evalFill,
  );
  const evalBox = h(
    'div',
    { class: 'eval', id: 'eval' },
    h(
      'div',
      { class: 'eval-head' },
      h('label', { class: 'switch' }, evalToggle, h('span', {}, t('eval.label'))),
      evalTxt,
    ),
    evalMeter,
    h('p', { class: 'help', id: 'eval-help' }, t('eval.help')),
  );
  const resultBox = h('section', { class: 'result card', id: 'result', hidden: true, 'aria-live': 'polite' });
  const browseBar = h('div', { class: 'browse-bar', id: 'browse-bar', hidden: true });
  const invite = h('div', { class: 'invite card', id: 'invite', hidden: true });
  const share = h('div', { class: 'share card', id: 'share-box', hidden: true });
  const moves = new MoveList((k) => browse(k));
  const btn = (bid, key, fn, cls = '') => h('button', { id: bid, class: cls, type: 'button', onclick: fn }, t(key));
  const undoB = btn('undo', 'btn.undo', () => act(() => api.undo(id, token)));
  const takebackB = btn('takeback', 'btn.takeback', () => act(() => api.takeback(id, token)));
  const hintB = btn('hint', 'btn.hint', () => hint());
  const resignB = btn('resign', 'btn.resign', () => {
    if (confirm(t('resign.confirm'))) act(() => api.resign(id, token));
  });
  const flipB = btn('flip', 'btn.flip', () => {
    board.setFlip(!board.flipped);
    flips.set(id, board.flipped);
    draw();
  });
  const shareB = btn('share', 'btn.share', () => {
    share.hidden = !share.hidden;
    if (!share.hidden) fillShare();
  });
  const exportA = h(
    'a',
    { href: `/api/games/${id}/record`, download: `vlt-${id}.txt`, id: 'export', class: 'button' },
    t('btn.export'),
  );
  const conn = h('span', { class: 'conn', id: 'conn' });
  const controls = h('div', { class: 'controls' }, undoB, takebackB, hintB, resignB, flipB, shareB, exportA, conn);
  main.replaceChildren(
    h(
      'div',
      { class: 'game' },
      h(
        'div',
        { class: 'game-main' },
        topP,
        boardBox,
        bottomP,
        status,
        abortEl,
        notice,
        offerBar,
        browseBar,
        resultBox,
        evalBox,
        controls,
        err,
        invite,
        share,
      ),
      h('aside', { class: 'side-panel' }, h('h2', {}, t('moves')), moves.el),
    ),
  );

  let view = null; // the latest game from the server
  let shown = 0; // plies drawn so far
  let seat = null; // 'B', 'A', 'both' or null (spectator)
  let animating = false;
  let browsing = null; // while looking back: the number of plies shown
  let queue = Promise.resolve();
  let latest = null; // the newest game received (view lags behind it while moves animate)
  let pollTimer = null;
  let presence = null; // seats with someone connected, when the server says
  const evals = new Map(); // position -> {future: for B, exact}: one value per position
  const ratedFrom = {}; // the players' ratings while the game went on, to show what its end changed
  const board = new Board(boardBox, (hole) => pick(hole), { flip: flips.get(id) === '1' });
  let flipChosen = flips.get(id) != null;
  const mySide = () => (seat === 'A' || seat === 'B' ? seat : null);
  const clocks = new Clocks([topP, bottomP], abortEl, {
    onLow: (side, ms) => {
      if (side === mySide()) tell(t('clock.low', { time: clockText(ms) }));
    },
    onZero: () => api.game(id).then(accept, () => {}),
  });

  const seatOf = (p) => (p === 'B' ? view.seat_b : view.seat_a);
  const waitingFriend = () => view.mode === 'online' && (view.seat_b === 'free' || view.seat_a === 'free');
  const canMove = () =>
    view &&
    !view.result &&
    !animating &&
    browsing === null &&
    !waitingFriend() &&
    (seat === 'both' || seat === view.to_move) &&
    seatOf(view.to_move) !== 'computer';

  function nameOf(p) {
    if (seat === p && !view.players?.[p]) return t('you');
    if (seatOf(p) === 'computer') return t('computer', { n: view.level });
    if (view.mode === 'online') return seat ? t('friend') : t('player', { p });
    return t('player', { p });
  }

  function drawPanels(caps, toMove) {
    const topSide = board.flipped ? 'B' : 'A';
    for (const [el, p] of [
      [topP, topSide],
      [bottomP, topSide === 'A' ? 'B' : 'A'],
    ]) {
      const shown = view.mode === 'online' && seat !== p && seatOf(p) === 'taken' && presence;
      const card = view.players?.[p] || null;
      if (card && !view.result) ratedFrom[p] = card.rating;
      fillPanel(el, p, {
        card,
        change: card && view.result && view.rated && ratedFrom[p] != null ? card.rating - ratedFrom[p] : null,
        label: nameOf(p),
        caps: caps[p],
        toMove,
        presence: shown ? !!presence[p] : null,
        clocked: !!view.clock,
      });
    }
    clocks.tick();
  }

  function draw() {
    if (browsing !== null) return drawBrowse();
    const p = parsePos(view.position);
    const over = !!view.result;
    const toMove = over ? null : view.to_move;
    drawPanels(p.caps, toMove);
    evalBox.classList.toggle('flipped', board.flipped);
    board.render(p.board, p.caps, { legal: canMove() ? view.legal : [], toMove });
    moves.render(view.plies, view.plies.length);
    browseBar.hidden = true;
    status.classList.toggle('over', over);
    const other = seatOf(view.to_move);
    if (over) status.textContent = resultText(view.result);
    else if (waitingFriend()) status.textContent = t('status.waiting');
    else if (other === 'computer') status.textContent = t('status.thinking');
    else if (canMove())
      status.textContent =
        seat === 'both' ? t('status.tomove', { p: view.to_move }) : t('status.yourturn', { p: view.to_move });
    else if (!seat) status.textContent = t('status.spectating', { p: view.to_move });
    else status.textContent = t('status.theirturn', { p: view.to_move });
    if (!over && view.repetitions >= 2) status.textContent += ' ' + t('status.repeated', { n: view.repetitions });
    const lastPly = view.plies[view.plies.length - 1];
    if (!over && lastPly && lastPly.passes) {
      status.textContent =
        t('ply.passes', { p: lastPly.mover === 'B' ? 'A' : 'B', q: lastPly.mover }) + ' ' + status.textContent;
    }
    const mine = seat && !over;
    undoB.hidden = view.mode === 'online' || over;
    undoB.disabled = !mine || view.plies.length === 0 || animating;
    takebackB.hidden = view.mode !== 'online' || !mine || !['A', 'B'].includes(seat) || waitingFriend();
    takebackB.disabled = animating || !mayAskTakeback(view, seat);
    drawTakeback(offerBar, view, ['A', 'B'].includes(seat) ? seat : null, {
      accept: () => act(() => api.takeback(id, token)),
      decline: () => act(() => api.declineTakeback(id, token)),
    });
    hintB.hidden = view.mode === 'online' || over;
    hintB.disabled = !canMove();
    resignB.hidden = !mine;
    resignB.disabled = animating;
    const free = view.mode === 'online' && seat && waitingFriend();
    invite.hidden = !free;
    if (free && !invite.firstChild) invite.append(...inviteBox(`${location.origin}/#/j/${id}`));
    drawResult();
    document.title = canMove() && seat !== 'both' ? `● ${t('title.yourturn')} · ${TITLE}` : TITLE;
    updateEval();
  }

  function drawResult() {
    const r = view.result;
    resultBox.hidden = !r;
    if (!r || resultBox.dataset.shown === String(view.version)) return;
    resultBox.dataset.shown = String(view.version);
    const v = r.termination === 'aborted' ? null : verdict(r, seat);
    const head =
      r.termination === 'aborted'
        ? t('verdict.aborted')
        : v
          ? t(`verdict.${v}`)
          : r.winner
            ? t('verdict.wins', { p: sideName(view, r.winner) })
            : t('verdict.draw');
    resultBox.className = `result card ${v || 'neutral'}`;
    resultBox.replaceChildren(
      h('h2', { id: 'result-title' }, head),
      h(
        'p',
        { class: 'final-score' },
        h('span', { class: 'b' }, `B ${r.score_b}`),
        ' – ',
        h('span', { class: 'a' }, `${r.score_a} A`),
      ),
      h('p', { class: 'how' }, howText(r)),
      h(
        'div',
        { class: 'row' },
        byServer()
          ? rematchPart(view, mySide(), () => act(() => api.rematch(id, token)))
          : seat
            ? h('button', { id: 'rematch', type: 'button', class: 'primary', onclick: rematch }, t('btn.rematch'))
            : null,
        h('a', { id: 'review', class: 'button', href: `#/replay/${id}` }, t('btn.review')),
        h('a', { id: 'newgame-link', class: 'button', href: '#/' }, t('btn.new')),
      ),
    );
  }

  // An online game between players known by name has its rematch from the server (colours swapped,
  // the same clock); other games start a new one like it here.
  const byServer = () => view.mode === 'online' && !!view.players?.B && !!view.players?.A;

  async function rematch() {
    const req = { mode: view.mode, side: seat === 'A' || seat === 'B' ? seat : 'B' };
    if (view.mode === 'computer') req.level = view.level;
    // The same start: the usual position with the same first player, or the same custom one.
    const s = parsePos(view.start);
    const usual = s.board.every((n) => n === 5) && s.caps.A === 0 && s.caps.B === 0;
    if (usual) req.first = s.toMove;
    else req.position = view.start;
    try {
      await startGame(req);
    } catch (x) {
      err.textContent = x.message;
    }
  }

  function drawBrowse() {
    const k = browsing;
    const p = parsePos(k === 0 ? view.start : view.plies[k - 1].after);
    drawPanels(p.caps, null);
    board.render(p.board, p.caps, {});
    board.markLast(view.plies[k - 1]);
    moves.render(view.plies, k);
    browseBar.hidden = false;
    browseBar.replaceChildren(
      h(
        'span',
        {},
        k === 0
          ? t('browse.start')
          : `${t('browse.at', { n: k, total: view.plies.length })} ${plyText(view.plies[k - 1])}`,
      ),
      h(
        'button',
        { type: 'button', id: 'browse-back', class: 'primary', onclick: () => browse(null) },
        t('browse.back'),
      ),
    );
  }

  // Looks at the position after k plies (null: back to the game).
  function browse(k) {
    if (!view) return;
    if (k !== null && (k >= view.plies.length || k < 0)) k = k < 0 ? 0 : null;
    browsing = k;
    if (k === null) {
      board.markLast(view.plies[view.plies.length - 1]);
      draw();
    } else drawBrowse();
  }

  function fillShare() {
    const gameLink = `${location.origin}/#/${view.result ? 'replay' : 'g'}/${id}`;
    const shownPos = browsing === null ? view.position : browsing === 0 ? view.start : view.plies[browsing - 1].after;
    const posLink = `${location.origin}/#/p/${encodeURIComponent(shownPos)}`;
    share.replaceChildren(...shareBox(gameLink, posLink));
  }

  async function updateEval() {
    // Not during an online game (no help from the engine there), and not once the result is shown.
    const allowed = view.mode !== 'online' && !view.result;
    const on = prefs.get('eval') === 'on';
    evalBox.hidden = !allowed;
    evalMeter.hidden = !on;
    evalTxt.hidden = !on;
    if (!allowed || !on) return;
    const p = parsePos(view.position);
    const left = p.board.reduce((a, b) => a + b, 0);
    const known = evals.get(view.position);
    if (known) return setEval(predicted(p.caps, left, known.future), known.exact);
    // Only while the game waits for a person: otherwise the computer is about to move anyway.
    if (!canMove()) return;
    const at = view.position;
    try {
      const a = await api.analysis(id, 150);
      // The engine's score is the future capture difference for the player to move.
      evals.set(at, { future: a.for_player === 'B' ? a.score : -a.score, exact: a.exact });
      if (view.position === at && browsing === null) updateEval();
    } catch (_) {
      /* the bar keeps its last value */
    }
  }

  function setEval(pred, exact = false) {
    evalFill.style.width = `${(100 * pred.B) / Math.max(1, pred.A + pred.B)}%`;
    evalTxt.textContent = predictedText(pred) + (exact ? ` (${t('eval.exact')})` : '');
    evalMeter.setAttribute('aria-valuenow', pred.B);
    evalMeter.setAttribute('aria-valuetext', evalTxt.textContent);
  }

  async function hint() {
    try {
      const at = view.position;
      const a = await api.hint(id, token);
      if (view.position !== at) return;
      const future = a.for_player === 'B' ? a.score : -a.score;
      evals.set(at, { future, exact: a.exact });
      const p = parsePos(at);
      const left = p.board.reduce((x, y) => x + y, 0);
      board.clearMarks(['hint']);
      board.mark(a.best, 'hint');
      tell(t('hint.says', { move: a.best, score: predictedText(predicted(p.caps, left, future)) }));
      updateEval();
    } catch (x) {
      err.textContent = x.message;
    }
  }

  // A message for the player now: shown under the board and read out.
  function tell(msg) {
    notice.textContent = msg;
    say(msg);
  }

  // What the other player asked since the last state, said; a rematch both agreed to opens.
  function offersChanged(old, v) {
    const me = mySide();
    if (!me) return;
    if (v.takeback && v.takeback !== me && old.takeback !== v.takeback)
      say(t('takeback.asked', { name: sideName(v, v.takeback) })); // the bar under the board shows it
    const r = v.rematch || {};
    if (r.offered_by && r.offered_by !== me && !old.rematch?.offered_by)
      say(t('rematch.asked', { name: sideName(v, r.offered_by) }));
    if (r.game && !old.rematch?.game) location.hash = `#/g/${r.game}`;
  }

  // Every new game state (from our own request or the socket) goes through here, in order.
  function accept(v, fresh = false) {
    if (fresh || !latest || v.epoch !== latest.epoch || v.version >= latest.version) {
      latest = v;
      // The clocks follow the newest game at once, not after its moves are animated.
      clocks.set(v.clock, !!v.result);
    }
    queue = queue
      .then(async () => {
        if (view && JSON.stringify(v) === JSON.stringify(view)) return;
        // An answer overtaken by a newer socket update is stale: keep the newer game.
        if (view && !fresh && v.epoch === view.epoch && v.version < view.version) return;
        const prefixOk =
          view && v.plies.length >= shown && v.plies.slice(0, shown).every((p, i) => p.after === view.plies[i]?.after);
        if (prefixOk && v.plies.length > shown) {
          animating = true;
          const wasBrowsing = browsing;
          browsing = null;
          if (view) draw();
          for (let i = shown; i < v.plies.length; i++) {
            const ply = v.plies[i];
            const before = parsePos(i === 0 ? v.start : v.plies[i - 1].after);
            status.classList.remove('over');
            notice.textContent = '';
            // The sowing first; what it captured once the stones have landed.
            status.textContent = plyText(ply, false);
            // The move list shows a move once its stones have landed, as the status does.
            moves.render(v.plies.slice(0, i), i);
            await board.animate(ply, before.board, before.caps);
            moves.render(v.plies.slice(0, i + 1), i + 1);
            status.textContent = plyText(ply);
            say(plyText(ply));
          }
          animating = false;
          browsing = wasBrowsing;
        }
        const had = !!view;
        const wasOver = had && !!view.result;
        const before = view;
        view = v;
        shown = v.plies.length;
        // Your own row at the bottom, unless you turned the board yourself.
        if (seat && !flipChosen) {
          board.setFlip(seat === 'A');
          flipChosen = true;
        }
        if (browsing === null) board.markLast(v.plies[v.plies.length - 1]);
        draw();
        if (token || mySide()) {
          const opponent = mySide() && v.players?.[mySide() === 'B' ? 'A' : 'B']?.name;
          recent.note(id, {
            mode: v.mode,
            level: v.level,
            side: seat === 'both' ? null : seat,
            result: v.result,
            opponent,
          });
        }
        if (v.result && had && !wasOver) {
          notice.textContent = ''; // a low-time warning or a refusal is old news now
          say(resultText(v.result));
          sound.end();
        }
        if (had) offersChanged(before, v);
        schedulePoll();
      })
      .catch((x) => {
        err.textContent = x.message;
        animating = false;
      });
  }

  // A socket's delta: the game after one change, with only the plies after its first `from`.
  // It applies to the version it was made from; a watcher that missed one asks for the whole game.
  function applyDelta(m) {
    const g = m.game;
    if (latest && g.epoch === latest.epoch && g.version <= latest.version) return; // known already
    if (latest && g.epoch === latest.epoch && m.base === latest.version) {
      accept({ ...g, plies: latest.plies.slice(0, m.from).concat(g.plies) });
    } else {
      api.game(id).then(accept, () => schedulePoll());
    }
  }

  // If the socket is down while the computer or the opponent is to move, ask now and then.
  function schedulePoll() {
    clearTimeout(pollTimer);
    if (!view || view.result || canMove()) return;
    pollTimer = setTimeout(
      async () => {
        try {
          accept(await api.game(id));
        } catch (_) {
          schedulePoll();
        }
      },
      live && live.ws && live.ws.readyState === 1 ? 5000 : 1500,
    );
  }

  async function act(fn) {
    err.textContent = '';
    notice.textContent = '';
    try {
      accept(await fn());
    } catch (x) {
      err.textContent = x.message;
    }
  }

  // Why a hole cannot be played now, or null when it can.
  function refusal(hole) {
    if (view.result) return t('refuse.over');
    if (browsing !== null) return t('refuse.browsing');
    if (animating) return t('refuse.wait');
    if (waitingFriend()) return t('refuse.nofriend');
    if (seatOf(view.to_move) === 'computer') return t('refuse.computer');
    if (!seat) return t('refuse.spectator');
    if (seat !== 'both' && seat !== view.to_move) return t('refuse.notyourturn', { p: view.to_move });
    if (hole[1] !== view.to_move) return t('refuse.notyours', { hole, p: view.to_move });
    if (!view.legal.includes(hole)) return t('refuse.empty', { hole });
    return null;
  }

  function pick(hole) {
    if (!view) return;
    const why = refusal(hole);
    if (why) return tell(why);
    board.clearMarks();
    act(() => api.move(id, token, hole));
  }

  const onKey = (e) => {
    if (e.target.matches('input, textarea, select') || e.ctrlKey || e.metaKey || e.altKey || !view) return;
    // Keys 1–6 play that hole of the player to move (N1).
    if (/^[0-9]$/.test(e.key)) {
      if (/^[1-6]$/.test(e.key)) pick(`${e.key}${view.to_move}`);
      else tell(t('refuse.digit'));
      return;
    }
    const cur = browsing ?? view.plies.length;
    const k = { ArrowLeft: cur - 1, ArrowRight: cur + 1, Home: 0, End: null }[e.key];
    if (k === undefined) return;
    e.preventDefault();
    browse(k === null || k >= view.plies.length ? null : Math.max(0, k));
  };
  document.addEventListener('keydown', onKey);

  const live = new Live(
    id,
    token,
    (m) => {
      if (m.type === 'state') {
        seat = m.you;
        accept(m.game, true);
      } else if (m.type === 'update') accept(m.game);
      else if (m.type === 'delta') applyDelta(m);
      else if (m.type === 'presence') {
        presence = m.seats;
        if (view) draw();
      } else if (m.type === 'error') err.textContent = m.error;
    },
    (up) => {
      conn.textContent = up ? '' : t('conn.lost');
      conn.className = up ? 'conn' : 'conn error';
    },
  );
  const offPrefs = prefs.onChange((name) => {
    if (view && name === 'eval') {
      evalToggle.checked = prefs.get('eval') === 'on';
      updateEval();
    }
  });
  evalToggle.addEventListener('change', () => prefs.set('eval', evalToggle.checked ? 'on' : 'off'));
  accept(first);
  setCleanup(() => {
    live.close();
    offPrefs();
    document.removeEventListener('keydown', onKey);
    clearTimeout(pollTimer);
    clocks.stop();
    document.title = TITLE;
  });
}
