// A shared position: the board as it was, and a way to play on from it.
import { Board } from '../board.js';
import { h, main, parsePos } from '../dom.js';
import { t } from '../i18n.js';
import { prefs } from '../prefs.js';
import { startGame } from './home.js';
import { levelText } from '../levels.js';

export function viewPosition(encoded) {
  let pos;
  try {
    pos = decodeURIComponent(encoded);
    const p = parsePos(pos);
    if (p.board.length !== 12 || p.board.some((n) => !Number.isInteger(n) || n < 0)) throw new Error('bad');
  } catch (_) {
    main.replaceChildren(
      h(
        'section',
        { class: 'card notice-page' },
        h('h2', {}, t('position.bad')),
        h('a', { href: '#/', class: 'button primary' }, t('btn.new')),
      ),
    );
    return;
  }
  const p = parsePos(pos);
  const boardBox = h('div', { class: 'board-box' });
  const err = h('p', { class: 'error', role: 'alert' });
  const level = h(
    'select',
    { id: 'level' },
    Array.from({ length: 10 }, (_, i) =>
      h('option', { value: String(i + 1), selected: prefs.get('level') === String(i + 1) }, String(i + 1)),
    ),
  );
  const help = h('p', { class: 'help' }, levelText(Number(level.value)));
  level.addEventListener('change', () => {
    help.textContent = levelText(Number(level.value));
  });
  const go = (mode) => async () => {
    const req = { mode, side: p.toMove, position: pos };
    if (mode === 'computer') req.level = Number(level.value);
    try {
      await startGame(req);
    } catch (x) {
      err.textContent = x.message;
    }
  };
  main.replaceChildren(
    h(
      'section',
      { class: 'card position' },
      h('h2', {}, t('position.title')),
      h('p', {}, t('status.tomove', { p: p.toMove })),
      boardBox,
      h('div', { class: 'field' }, h('label', { for: 'level' }, t('new.level')), level, help),
      h(
        'div',
        { class: 'controls' },
        h(
          'button',
          { type: 'button', class: 'primary', id: 'play-computer', onclick: go('computer') },
          t('position.computer'),
        ),
        h('button', { type: 'button', id: 'play-local', onclick: go('local') }, t('position.local')),
      ),
      err,
    ),
  );
  new Board(boardBox, () => {}).render(p.board, p.caps, {});
}
