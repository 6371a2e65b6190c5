// What the two players of an online game ask each other (docs/api.md, "Lobby, ratings, offers"):
// taking back a move during the game, and a rematch with colours swapped after it. The server
// keeps the offers; these draw them for the seat `mine` ('B' or 'A'; null for a spectator).
import { h } from '../dom.js';
import { t } from '../i18n.js';

const other = (p) => (p === 'B' ? 'A' : 'B');

// A side's name for the sentences here: the player's chosen name, else "Player B".
export function sideName(view, p) {
  return view.players?.[p]?.name || t('player', { p });
}

// The takeback request under the board: the asker may withdraw it, the opponent accept or decline.
export function drawTakeback(bar, view, mine, { accept, decline }) {
  const tb = view.mode === 'online' && !view.result ? view.takeback : null;
  const key = tb && mine ? `${tb}:${mine}` : '';
  bar.hidden = !key;
  if (bar.dataset.key === key) return;
  bar.dataset.key = key;
  if (!key) return bar.replaceChildren();
  const button = (id, text, fn, cls = '') => h('button', { id, type: 'button', class: cls, onclick: fn }, text);
  bar.replaceChildren(
    ...(tb === mine
      ? [h('span', {}, t('takeback.waiting')), button('takeback-cancel', t('takeback.cancel'), decline)]
      : [
          h('span', {}, t('takeback.asked', { name: sideName(view, tb) })),
          h(
            'div',
            { class: 'row' },
            button('takeback-accept', t('takeback.accept'), accept, 'primary'),
            button('takeback-decline', t('takeback.decline'), decline),
          ),
        ]),
  );
}

// Whether `mine` may ask to take a move back now: it played one, and nothing is asked yet.
export function mayAskTakeback(view, mine) {
  return !view.result && !view.takeback && view.plies.some((p) => p.mover === mine);
}

// The rematch part of an online game's result: offer, wait, accept, or (for a spectator) follow.
export function rematchPart(view, mine, offer) {
  const r = view.rematch || {};
  if (r.game) return [h('a', { id: 'rematch-go', class: 'button primary', href: `#/g/${r.game}` }, t('rematch.go'))];
  if (!mine) return [];
  if (r.offered_by === mine)
    return [
      h('button', { id: 'rematch', type: 'button', disabled: true }, t('rematch.offered')),
      h('span', { class: 'help' }, t('rematch.waiting', { name: sideName(view, other(mine)) })),
    ];
  if (r.offered_by)
    return [
      h('span', { class: 'offer-text' }, t('rematch.asked', { name: sideName(view, r.offered_by) })),
      h('button', { id: 'rematch-accept', type: 'button', class: 'primary', onclick: offer }, t('rematch.accept')),
    ];
  return [h('button', { id: 'rematch', type: 'button', class: 'primary', onclick: offer }, t('btn.rematch'))];
}
