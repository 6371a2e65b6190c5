// A finished (or any) game replayed move by move: buttons, the arrow keys, Home and End, and the
// move list, which follows the move shown.
import { api } from '../api.js';
import { Board } from '../board.js';
import { h, main, parsePos } from '../dom.js';
import { t } from '../i18n.js';
import { flips } from '../prefs.js';
import { plyText, resultText } from '../text.js';
import { MoveList } from './movelist.js';
import { shareBox } from './share.js';
import { reviewPanel } from './review.js';

export async function viewReplay(id, setCleanup) {
  const v = await api.game(id);
  const boardBox = h('div', { class: 'board-box' });
  const info = h('p', { class: 'status', 'aria-live': 'polite', id: 'replay-status' });
  const moves = new MoveList((k) => {
    stop();
    i = k;
    show();
  });
  const board = new Board(boardBox, () => {}, { flip: flips.get(id) === '1' });
  const share = h('div', { class: 'share card', id: 'share-box', hidden: true });
  let i = 0;
  let run = 0; // bumped by every jump: a running animation or autoplay of an older run stops
  const at = (k) => parsePos(k === 0 ? v.start : v.plies[k - 1].after);
  function show() {
    const p = at(i);
    board.render(p.board, p.caps, {});
    board.markLast(v.plies[i - 1]);
    info.textContent =
      i === 0 ? t('replay.start') : `${t('browse.at', { n: i, total: v.plies.length })} ${plyText(v.plies[i - 1])}`;
    if (i === v.plies.length && v.result) info.textContent += ` ${resultText(v.result)}`;
    moves.render(v.plies, i);
    first.disabled = prev.disabled = i === 0;
    next.disabled = last.disabled = i === v.plies.length;
    review?.update(i);
  }
  async function step(mine) {
    if (i >= v.plies.length) return false;
    const p = at(i);
    await board.animate(v.plies[i], p.board, p.caps, () => run !== mine);
    if (run !== mine) return false;
    i += 1;
    show();
    return true;
  }
  let playing = false;
  const stop = () => {
    run += 1;
    playing = false;
    playB.textContent = t('replay.play');
    playB.setAttribute('aria-pressed', 'false');
  };
  const jump = (k) => {
    stop();
    i = Math.max(0, Math.min(v.plies.length, k));
    show();
  };
  // Drawn rather than typed: not every font has the media-control characters.
  const icon = (d) => {
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('viewBox', '0 0 24 24');
    svg.setAttribute('aria-hidden', 'true');
    const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
    path.setAttribute('d', d);
    svg.append(path);
    return svg;
  };
  const bt = (bid, label, glyph, fn) =>
    h(
      'button',
      { id: bid, type: 'button', class: 'icon', 'aria-label': t(label), title: t(label), onclick: fn },
      glyph,
    );
  const first = bt('replay-first', 'replay.first', icon('M5 4h3v16H5zM20 4v16L9 12z'), () => jump(0));
  const prev = bt('replay-prev', 'replay.prev', icon('M18 4v16L6 12z'), () => jump(i - 1));
  const next = bt('replay-next', 'replay.next', icon('M6 4v16l12-8z'), () => {
    stop();
    step(run);
  });
  const last = bt('replay-last', 'replay.last', icon('M16 4h3v16h-3zM4 4v16l11-8z'), () => jump(v.plies.length));
  const playB = h(
    'button',
    {
      id: 'replay-play',
      type: 'button',
      class: 'primary',
      'aria-pressed': 'false',
      onclick: async () => {
        if (playing) return stop();
        stop();
        const mine = run;
        playing = true;
        playB.textContent = t('replay.pause');
        playB.setAttribute('aria-pressed', 'true');
        if (i >= v.plies.length) {
          i = 0;
          show();
        }
        while (run === mine && (await step(mine))) {
          /* next move */
        }
        if (run === mine) stop();
      },
    },
    t('replay.play'),
  );
  const flipB = h(
    'button',
    {
      type: 'button',
      id: 'flip',
      onclick: () => {
        board.setFlip(!board.flipped);
        flips.set(id, board.flipped);
      },
    },
    t('btn.flip'),
  );
  const shareB = h(
    'button',
    {
      type: 'button',
      id: 'share',
      onclick: () => {
        share.hidden = !share.hidden;
        if (!share.hidden)
          share.replaceChildren(
            ...shareBox(
              `${location.origin}/#/replay/${id}`,
              `${location.origin}/#/p/${encodeURIComponent(i === 0 ? v.start : v.plies[i - 1].after)}`,
            ),
          );
      },
    },
    t('btn.share'),
  );
  // A finished game is reviewed by the server (once; the review is stored).
  const review = v.result ? reviewPanel(id, v, { jump, board }) : null;
  main.replaceChildren(
    h(
      'div',
      { class: 'game' },
      h(
        'div',
        { class: 'game-main' },
        h('h2', {}, t('replay.title')),
        boardBox,
        info,
        h(
          'div',
          { class: 'controls replay-controls' },
          h('div', { class: 'group' }, first, prev, playB, next, last),
          flipB,
          shareB,
          h('a', { class: 'button', href: `/api/games/${id}/record`, download: `vlt-${id}.txt` }, t('btn.export')),
        ),
        share,
        h('p', { class: 'help' }, t('replay.keys')),
      ),
      h('aside', { class: 'side-panel' }, h('h2', {}, t('moves')), moves.el, review?.el),
    ),
  );
  const onKey = (e) => {
    if (e.target.matches('input, textarea, select') || e.ctrlKey || e.metaKey || e.altKey) return;
    const k = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: v.plies.length }[e.key];
    if (k === undefined) return;
    e.preventDefault();
    jump(k);
  };
  document.addEventListener('keydown', onKey);
  show();
  setCleanup(() => {
    stop();
    review?.close();
    document.removeEventListener('keydown', onKey);
  });
}
