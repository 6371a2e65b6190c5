// The moves of a game, B and A side by side (a new row whenever B moves, or when a player moves
// twice after a pass); each move is a button that shows the position after it.
import { h } from '../dom.js';
import { t } from '../i18n.js';

export class MoveList {
  constructor(onPick) {
    this.onPick = onPick;
    this.body = h('tbody');
    this.el = h(
      'div',
      { class: 'moves', id: 'moves' },
      h(
        'table',
        { id: 'movelist' },
        h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, 'B'), h('th', {}, 'A'))),
        this.body,
      ),
    );
  }

  // Draws `plies`, the position after `current` plies marked.
  render(plies, current) {
    const rows = [];
    let row = null;
    plies.forEach((p, i) => {
      if (!row || p.mover === 'B' || row[p.mover] !== undefined) {
        row = { n: rows.length + 1 };
        rows.push(row);
      }
      row[p.mover] = i;
    });
    const cell = (i) => {
      if (i === undefined) return h('td', { class: 'empty' });
      const p = plies[i];
      const label = [p.move, p.captured.length ? ` ×${p.captured.length}` : '', p.passes ? ` (${t('pass')})` : ''].join(
        '',
      );
      return h(
        'td',
        {},
        h(
          'button',
          {
            type: 'button',
            class: `ply${i + 1 === current ? ' cur' : ''}${p.captured.length ? ' took' : ''}`,
            'data-ply': i + 1,
            'aria-current': i + 1 === current ? 'step' : false,
            onclick: () => this.onPick(i + 1),
          },
          label,
        ),
      );
    };
    this.body.replaceChildren(
      ...rows.map((r) => h('tr', {}, h('td', { class: 'num' }, `${r.n}.`), cell(r.B), cell(r.A))),
    );
    // Keep the current move in view, inside the list only (the page does not jump).
    const cur = this.body.querySelector('.cur');
    if (cur) {
      const top = cur.offsetTop - this.el.clientHeight / 2;
      this.el.scrollTop = Math.max(0, top);
    } else if (current >= plies.length) this.el.scrollTop = this.el.scrollHeight;
  }
}
