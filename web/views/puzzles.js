// Puzzles: a position from a real game whose best move is unique by the endgame tables. Click a
// hole to answer; the server checks it. The next puzzle is the untried one nearest the player's
// puzzle rating, within the chosen theme.
import { api } from '../api.js';
import { Board } from '../board.js';
import { h, main, say } from '../dom.js';
import { t, tn } from '../i18n.js';
import { puzzleRecord } from '../prefs.js';

const THEMES = ['chain', 'lap', 'starve', 'cycle'];
const START_RATING = 1500;
let listCache = null;

async function list() {
  if (!listCache) listCache = await api.puzzles();
  return listCache;
}

// The untried puzzle nearest the player's rating (all tried: the nearest of all).
export function pickNext(puzzles, record, theme, current) {
  const r = record.player ? record.player.rating : START_RATING;
  const fits = puzzles.filter((p) => p.n !== current && (!theme || p.themes.includes(theme)));
  const fresh = fits.filter((p) => !(String(p.n) in record.tried));
  const pool = fresh.length ? fresh : fits;
  let best = null;
  for (const p of pool) if (!best || Math.abs(p.rating - r) < Math.abs(best.rating - r)) best = p;
  return best ? best.n : null;
}

function ratingText(record) {
  if (!record.player) return '';
  return t('puzzle.yourrating', { r: Math.round(record.player.rating), rd: Math.round(record.player.deviation) });
}

export async function viewPuzzles(arg, setCleanup) {
  const all = await list();
  const themeSel = h(
    'select',
    { id: 'puzzle-theme' },
    h('option', { value: '' }, t('puzzle.theme.any')),
    THEMES.map((th) => h('option', { value: th }, t(`theme.${th}`))),
  );
  themeSel.value = sessionStorage.getItem('vlt.puzzle.theme') || '';
  let n = Number(arg);
  if (!Number.isInteger(n) || n < 1 || n > all.count) {
    n = pickNext(all.puzzles, puzzleRecord.get(), themeSel.value, null) || 1;
    history.replaceState(null, '', `#/puzzles/${n}`);
  }
  const p = await api.puzzle(n);
  // Another puzzle was asked for while this one loaded (a theme chosen at once, say): that view is
  // the one to show.
  if (location.hash !== `#/puzzles/${n}`) return;
  let cancelled = false;
  setCleanup(() => {
    cancelled = true;
  });

  const meta = [t('puzzle.number', { n: p.n, total: p.total }), t('puzzle.rated', { r: p.rating })];
  meta.push(t(`puzzle.difficulty.${p.difficulty}`), ...p.themes.map((th) => t(`theme.${th}`)));
  const task = p.value > 0 ? tn('puzzle.task.win', p.value, { p: p.to_move }) : t('puzzle.task.hold', { p: p.to_move });
  const status = h('p', { class: 'status', id: 'puzzle-status', 'aria-live': 'polite' });
  const solutionText = h('p', { class: 'help', id: 'puzzle-solution' });
  const rating = h('p', { class: 'help', id: 'puzzle-rating' }, ratingText(puzzleRecord.get()));
  const boardBox = h('div', { class: 'board-box' });
  let done = false;
  let busy = false;
  const board = new Board(boardBox, (hole) => answer(hole));
  const caps = { B: p.captured_b, A: p.captured_a };
  const draw = () => board.render(p.board, caps, { legal: done ? [] : p.legal, toMove: p.to_move });

  // Counts the first answer of a puzzle (or giving up) for the rating, once.
  async function count(solved) {
    const rec = puzzleRecord.get();
    if (String(p.n) in rec.tried) return;
    rec.tried[p.n] = solved;
    try {
      const r = await api.puzzleRating(p.n, solved, rec.player || null);
      if (r && r.player) rec.player = r.player;
    } catch (_) {
      /* the rating waits for the next answer; the attempt is kept */
    }
    puzzleRecord.set(rec);
    rating.textContent = ratingText(rec);
  }

  async function showSolution() {
    const s = await api.puzzleSolution(p.n);
    solutionText.textContent = t('puzzle.solution', { move: s.best, line: s.line.map((x) => x.move).join(' ') });
    const vals = s.values.map((v) => `${v.move} ${v.value > 0 ? '+' : ''}${v.value}`).join(', ');
    solutionText.append(h('br'), t('puzzle.values', { list: vals }));
    return s;
  }

  async function answer(hole) {
    if (done || busy || !p.legal.includes(hole)) return;
    busy = true;
    try {
      const r = await api.puzzleAnswer(p.n, hole);
      if (cancelled) return;
      if (r.correct) {
        done = true;
        draw();
        status.textContent = t('puzzle.right', { move: r.move });
        status.className = 'status right';
        say(status.textContent);
        await board.animate(r.ply, p.board, caps, () => cancelled);
        if (cancelled) return;
        await showSolution();
        await count(true);
      } else {
        const less = r.best_value - r.value;
        status.textContent = tn('puzzle.wrong', less, { move: r.move, v: r.value > 0 ? `+${r.value}` : r.value });
        status.className = 'status wrong';
        say(status.textContent);
        board.clearMarks();
        board.mark(hole, 'captured');
        await count(false);
      }
    } catch (x) {
      status.textContent = x.message;
    } finally {
      busy = false;
    }
  }

  const next = () => {
    const m = pickNext(all.puzzles, puzzleRecord.get(), themeSel.value, p.n);
    if (m) location.hash = `#/puzzles/${m}`;
  };
  themeSel.addEventListener('change', () => {
    sessionStorage.setItem('vlt.puzzle.theme', themeSel.value);
    next();
  });

  main.replaceChildren(
    h(
      'section',
      { class: 'card puzzles' },
      h('h2', {}, t('puzzle.title')),
      h('p', { class: 'help' }, t('puzzle.intro')),
      h('div', { class: 'field' }, h('label', { for: 'puzzle-theme' }, t('puzzle.theme')), themeSel),
      h('p', { class: 'help', id: 'puzzle-meta' }, meta.join(' · ')),
      h('p', { class: 'task', id: 'puzzle-task' }, task),
      boardBox,
      status,
      h(
        'div',
        { class: 'controls' },
        h(
          'button',
          {
            type: 'button',
            id: 'puzzle-show',
            onclick: async () => {
              const s = await showSolution();
              if (!done) {
                // The board shows the move at once; the rating's request follows.
                done = true;
                draw();
                board.clearMarks();
                board.mark(s.best, 'hint');
                await count(false);
              }
            },
          },
          t('puzzle.show'),
        ),
        h('button', { type: 'button', id: 'puzzle-next', class: 'primary', onclick: next }, t('puzzle.next')),
      ),
      solutionText,
      rating,
    ),
  );
  draw();
}
