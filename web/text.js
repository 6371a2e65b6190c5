// The game in words: results, moves, predicted scores. Every sentence comes from the catalogue.
import { t, tn } from './i18n.js';

export const stones = (n) => tn('stones', n);

// How a game ended, as a sentence ("The board is empty."), from the server's key.
export function howText(r) {
  const says = {
    empty_board: () => t('end.empty'),
    repetition: () => t('end.repetition'),
    resignation: () => t('end.resigned', { p: r.resigned || '' }),
    time: () => (r.winner ? t('end.timeout', { p: r.winner === 'B' ? 'A' : 'B' }) : t('end.time')),
    aborted: () => t('end.aborted'),
  }[r.termination];
  return says ? says() : '';
}

// The result, neutral: "B wins 32–28. The board is empty."
export function resultText(r) {
  if (!r) return '';
  if (r.termination === 'aborted') return howText(r);
  const score = `${r.score_b}–${r.score_a}`;
  const who = r.winner ? t('result.wins', { p: r.winner, score }) : t('result.draw', { score });
  return `${who} ${howText(r)}`;
}

// The result as seen by `seat` ('B', 'A', 'both' or null): 'won', 'lost' or 'draw' for a player,
// null when it is nobody's own result (two on one screen, a spectator).
export function verdict(r, seat) {
  if (!r || (seat !== 'A' && seat !== 'B') || r.termination === 'aborted') return null;
  if (!r.winner) return 'draw';
  return r.winner === seat ? 'won' : 'lost';
}

export function capturesText(p) {
  return tn('ply.captures', p.captured.length, { holes: p.captured.join(', ') });
}

// What a move did, in words; `landed` false leaves out the captures (said once the stones land).
export function plyText(p, landed = true) {
  let s = t('ply.sows', { p: p.mover, hole: p.from, stones: stones(p.stones) });
  if (landed && p.captured.length) s += ' ' + capturesText(p);
  if (landed && p.passes) s += ' ' + t('ply.passes', { p: p.mover === 'B' ? 'A' : 'B', q: p.mover });
  return s;
}

// The final score the engine predicts: the captures so far plus the stones left on the board
// shared by the expected future difference `future` for B.
export function predicted(caps, left, futureB) {
  const share = Math.max(0, Math.min(left, Math.round((left + futureB) / 2)));
  return { B: caps.B + share, A: caps.A + left - share };
}

export function predictedText(p) {
  if (p.B === p.A) return t('eval.even', { b: p.B, a: p.A });
  const lead = p.B > p.A ? 'B' : 'A';
  return t('eval.ahead', { p: lead, b: p.B, a: p.A });
}
