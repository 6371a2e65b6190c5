// What each computer level does, as the engine defines it (GET /api/levels), fetched once when
// the page starts, so the page keeps no copy of the levels' depths.
import { api } from './api.js';
import { t, tn } from './i18n.js';

let levels = [];

export async function loadLevels() {
  try {
    levels = (await api.levels()).levels;
  } catch {
    levels = []; // the level's number alone is still shown
  }
}

// A level's meaning in a sentence: how far it looks and whether chance plays a part.
export function levelText(n) {
  const l = levels.find((x) => x.level === n);
  if (!l) return '';
  if (l.depth == null) return t('level.max');
  return tn(l.chance ? 'level.chance' : 'level.exact', l.depth);
}
