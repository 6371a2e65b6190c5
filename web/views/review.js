// The review beside the replay of a finished game: the server reviews it in the background
// (docs/review.md); the panel shows the progress, then an evaluation graph over the game, the
// verdict on the move shown with "show the better move", each player's summary, and marks in the
// move list.
import { api } from '../api.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';

export const CLASSES = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];
// The mark a class leaves in the move list (none for best and good moves).
const GLYPH = { inaccuracy: '?!', mistake: '?', blunder: '??' };
const POLL_MS = 500;
const SVG = 'http://www.w3.org/2000/svg';

const signed = (n) => (n > 0 ? `+${n}` : String(n));

function svg(tag, attrs = {}) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

// `jump(k)` shows the position after k moves; `board` is the replay's board (for the better move).
export function reviewPanel(id, v, { jump, board }) {
  const status = h('p', { class: 'status', id: 'review-status', 'aria-live': 'polite' }, t('review.waiting'));
  const bar = h('progress', { id: 'review-progress', max: 1, value: 0 });
  const graphBox = h('div', { class: 'review-graph', id: 'review-graph' });
  const verdict = h('div', { class: 'review-verdict', id: 'review-verdict' });
  const summary = h('div', { class: 'review-summary', id: 'review-summary' });
  const el = h('section', { class: 'card review', id: 'review' }, h('h2', {}, t('review.title')), status, bar);
  let review = null;
  let current = 0;
  let better = null; // the move whose better move the board shows
  let timer = 0;
  let closed = false;

  async function poll(first) {
    if (closed) return;
    let st;
    try {
      st = first ? await api.startReview(id) : await api.review(id);
    } catch (x) {
      status.textContent = t('review.failed', { error: x.message });
      return;
    }
    if (closed) return;
    if (st.state === 'done') return done(st.review);
    if (st.state === 'failed') {
      status.textContent = t('review.failed', { error: st.error });
      return;
    }
    const n = st.done ?? 0;
    bar.max = Math.max(1, st.total);
    bar.value = n;
    status.textContent = t('review.progress', { done: n, total: st.total });
    timer = setTimeout(() => poll(false), POLL_MS);
  }

  function done(r) {
    review = r;
    bar.remove();
    status.textContent = t('review.ready');
    el.append(graphBox, verdict, summary);
    drawGraph();
    drawSummary();
    update(current);
  }

  // The predicted final difference B − A over the game: before the first move, then after each.
  function drawGraph() {
    const evals = [review.start_eval, ...review.moves.map((m) => m.eval_after)];
    const n = Math.max(1, evals.length - 1);
    const top = Math.max(10, ...evals.map((e) => Math.abs(e)));
    const W = 300;
    const H = 100;
    const x = (k) => (k / n) * W;
    const y = (e) => H / 2 - (e / top) * (H / 2 - 4);
    const g = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': t('review.graph') });
    g.append(svg('rect', { x: 0, y: 0, width: W, height: H / 2, class: 'g-b' }));
    g.append(svg('rect', { x: 0, y: H / 2, width: W, height: H / 2, class: 'g-a' }));
    g.append(svg('line', { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: 'g-zero' }));
    const pts = evals.map((e, k) => `${x(k).toFixed(1)},${y(e).toFixed(1)}`).join(' ');
    g.append(svg('polyline', { points: pts, class: 'g-line' }));
    review.moves.forEach((m, k) => {
      if (m.class === 'mistake' || m.class === 'blunder' || m.class === 'inaccuracy')
        g.append(svg('circle', { cx: x(k + 1), cy: y(m.eval_after), r: 3, class: `g-dot rv-${m.class}` }));
    });
    const cur = svg('line', { x1: 0, x2: 0, y1: 0, y2: H, class: 'g-cur' });
    g.append(cur);
    g.addEventListener('click', (e) => {
      const box = g.getBoundingClientRect();
      jump(Math.round(((e.clientX - box.left) / box.width) * n));
    });
    graphBox.replaceChildren(
      g,
      h('p', { class: 'help' }, t('review.graph'), ' ', h('span', { id: 'review-start' }, signed(review.start_eval))),
    );
    graphBox.cursor = (k) => {
      cur.setAttribute('x1', x(k));
      cur.setAttribute('x2', x(k));
    };
  }

  // One column a player, one row a class: narrow enough for the side panel and a phone.
  function drawSummary() {
    const head = h('tr', {}, h('th', {}, ''), h('th', {}, 'B'), h('th', {}, 'A'));
    const acc = h(
      'tr',
      {},
      h('th', {}, t('review.accuracy')),
      ...['B', 'A'].map((p) =>
        h('td', { class: 'acc', 'data-player': p }, `${review.summary[p].accuracy.toFixed(1)} %`),
      ),
    );
    const rows = CLASSES.map((c) =>
      h(
        'tr',
        {},
        h('th', { class: `rv-${c}` }, t(`review.class.${c}`)),
        ...['B', 'A'].map((p) => h('td', { 'data-player': p, 'data-class': c }, String(review.summary[p].counts[c]))),
      ),
    );
    summary.replaceChildren(
      h('h3', {}, t('review.summary')),
      h('table', { id: 'review-table' }, h('thead', {}, head), h('tbody', {}, acc, rows)),
    );
  }

  // The verdict on move k (the one that led to the position shown), and the list's marks.
  function update(k) {
    current = k;
    if (!review) return;
    graphBox.cursor?.(k);
    for (const b of document.querySelectorAll('#movelist .ply')) {
      const m = review.moves[Number(b.dataset.ply) - 1];
      if (!m) continue;
      b.classList.add(`rv-${m.class}`);
      b.title = t(`review.class.${m.class}`);
      if (GLYPH[m.class] && !b.querySelector('.glyph'))
        b.append(h('span', { class: 'glyph', 'aria-label': t(`review.class.${m.class}`) }, GLYPH[m.class]));
    }
    // Just after "show the better move": the position before that move, its verdict kept.
    if (better && better.ply === k + 1) {
      board.clearMarks();
      board.mark(better.best, 'hint');
      board.mark(better.move, 'from');
      verdict.replaceChildren(
        ...judged(better),
        h(
          'p',
          { id: 'review-better-note', class: 'help' },
          t('review.better.note', { move: better.best, played: better.move }),
        ),
      );
      return;
    }
    better = null;
    const m = review.moves[k - 1];
    verdict.replaceChildren(...(m ? judged(m) : [h('p', {}, t('review.before'))]));
  }

  function judged(m) {
    const parts = [
      h(
        'p',
        { class: `verdict rv-${m.class}` },
        h('strong', {}, `${m.ply}. ${m.move} (${m.player})`),
        ' ',
        t(`review.class.${m.class}`),
        m.exact ? ` · ${t('review.exact')}` : '',
        m.choices === 1 ? ` · ${t('review.forced')}` : '',
      ),
      h('p', {}, t('review.values', { played: signed(m.played_value), best: signed(m.best_value) })),
    ];
    if (m.loss > 0) {
      parts.push(h('p', {}, t('review.loss', { n: m.loss }), ' ', t('review.better', { move: m.best })));
      if (!better)
        parts.push(
          h(
            'button',
            {
              type: 'button',
              id: 'review-better',
              onclick: () => {
                better = m;
                jump(m.ply - 1);
              },
            },
            t('review.show'),
          ),
        );
    }
    const before = m.ply === 1 ? v.start : v.plies[m.ply - 2].after;
    parts.push(
      h(
        'p',
        {},
        h(
          'a',
          { id: 'review-analyse', class: 'button', href: `#/analyse/${encodeURIComponent(before)}` },
          t('review.analyse'),
        ),
      ),
    );
    return parts;
  }

  poll(true);
  return {
    el,
    update,
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
