// Time controls as the page offers them (docs/api.md, "Clocks") and clocks in words: "3+2",
// "3 days per move", "4:59", "0:07.3".
import { t, tn } from './i18n.js';

const MIN = 60_000;
const DAY = 86_400_000;

// The lobby's choices; `corr` takes its days per move apart.
export const PRESETS = {
  '3+2': { initial_ms: 3 * MIN, increment_ms: 2000, per_move: false },
  '5+0': { initial_ms: 5 * MIN, increment_ms: 0, per_move: false },
  '10+5': { initial_ms: 10 * MIN, increment_ms: 5000, per_move: false },
};
export const DAYS = [1, 3, 7];

// The request's clock for preset `key` (null for none).
export function clockFor(key, days = 3) {
  if (key === 'none') return null;
  if (key === 'corr') return { initial_ms: days * DAY, increment_ms: 0, per_move: true };
  return PRESETS[key] || null;
}

// Lichess's speed classes by the estimated game time (initial + 40 increments).
export function speedOf(c) {
  if (!c) return 'unlimited';
  if (c.per_move) return 'correspondence';
  const est = c.initial_ms + 40 * (c.increment_ms || 0);
  if (est < 3 * MIN) return 'bullet';
  if (est < 8 * MIN) return 'blitz';
  if (est < 25 * MIN) return 'rapid';
  return 'classical';
}

// A time control in brief: "3+2", "½+0", "10 s+0", "3 days per move", "no clock".
export function tcText(c) {
  if (!c) return t('tc.none');
  if (c.per_move) {
    const d = c.initial_ms / DAY;
    return Number.isInteger(d) ? tn('tc.days', d) : t('tc.permove', { time: clockText(c.initial_ms) });
  }
  const m = c.initial_ms / MIN;
  const base = Number.isInteger(m)
    ? String(m)
    : m === 0.5
      ? '½'
      : t('tc.seconds', { n: Math.round(c.initial_ms / 1000) });
  return `${base}+${Math.round((c.increment_ms || 0) / 1000)}`;
}

const two = (n) => String(n).padStart(2, '0');

// Time left on a clock: "2 d 4 h" from a day up, "1:02:03" from an hour, "4:59", and tenths under
// ten seconds ("0:07.3"), as lichess shows them.
export function clockText(ms) {
  ms = Math.max(0, ms);
  if (ms >= DAY) {
    const d = Math.floor(ms / DAY);
    return t('clock.days', { d, h: Math.floor((ms % DAY) / 3_600_000) });
  }
  if (ms >= 3_600_000) {
    const s = Math.floor(ms / 1000);
    return `${Math.floor(s / 3600)}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
  }
  if (ms < 10_000) return `0:${two(Math.floor(ms / 1000))}.${Math.floor((ms % 1000) / 100)}`;
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${two(s % 60)}`;
}

// When a clock counts as low: an eighth of the time, from 3 s to 20 s (a tenth of the time for
// each move in correspondence).
export function lowAt(c) {
  if (c.per_move) return c.initial_ms / 10;
  return Math.min(20_000, Math.max(3000, c.initial_ms / 8));
}
