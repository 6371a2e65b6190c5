// The rules in plain words, and the worked examples stepped through on the real board.
import { api } from '../api.js';
import { Board, RING } from '../board.js';
import { h, main } from '../dom.js';
import { t } from '../i18n.js';
import { capturesText, stones } from '../text.js';

const SECTIONS = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7'];

export async function viewRules() {
  const sections = SECTIONS.map((k) =>
    h('section', { class: 'rule' }, h('h3', {}, t(`rules.${k}.title`)), h('p', {}, t(`rules.${k}`))),
  );
  const box = h('div', { class: 'examples' });
  main.replaceChildren(
    h(
      'div',
      { class: 'rules' },
      h('section', { class: 'card' }, h('h2', {}, t('rules.title')), ...sections),
      h('section', { class: 'card' }, h('h2', {}, t('rules.examples')), box),
    ),
  );
  const { examples } = await api.examples();
  for (const ex of examples) {
    const bbox = h('div', { class: 'board-box' });
    const text = h('p', { 'aria-live': 'polite', class: 'status' });
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
      if (s > ply.sown.length)
        for (const c of ply.captured) {
          b[RING.indexOf(c)] = 0;
          caps[ply.mover] += 1;
        }
      board.render(b, caps);
      if (s === 0) {
        board.mark(ply.from, 'from');
        text.textContent = t(`ex.${ex.id}`);
      } else if (s <= ply.sown.length) {
        board.mark(ply.sown[s - 1], 'sowing');
        text.textContent = t('ex.stone', { k: s, n: ply.sown.length, hole: ply.sown[s - 1] });
      } else {
        ply.captured.forEach((c) => board.mark(c, 'captured'));
        text.textContent = capturesText(ply);
      }
    }
    const bt = (key, fn, cls = '') => h('button', { type: 'button', class: cls, onclick: fn }, t(key));
    box.append(
      h(
        'section',
        { class: 'example', id: `ex-${ex.id}` },
        h('h3', {}, t(`ex.${ex.id}.title`)),
        h('p', { class: 'help' }, t('ex.move', { move: ply.move, stones: stones(ply.sown.length) })),
        bbox,
        text,
        h(
          'div',
          { class: 'controls' },
          bt('ex.reset', () => {
            s = 0;
            show();
          }),
          bt('ex.back', () => {
            s = Math.max(0, s - 1);
            show();
          }),
          bt(
            'ex.step',
            () => {
              s = Math.min(last, s + 1);
              show();
            },
            'ex-step primary',
          ),
          bt('ex.end', () => {
            s = last;
            show();
          }),
        ),
      ),
    );
    show();
  }
}
