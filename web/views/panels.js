// A game's two player panels: the side, who plays it (a player's name links to their page, with
// the rating), whether they are connected, whose turn it is, the clock and the captures. Names are
// user input: they only ever go into text nodes.
import { h } from '../dom.js';
import { t, tn } from '../i18n.js';

export function playerPanel(pos) {
  return h(
    'div',
    { class: `player ${pos}`, id: `player-${pos}` },
    h('span', { class: 'side' }),
    h('span', { class: 'who' }),
    h('span', { class: 'presence', hidden: true }),
    h('span', { class: 'turn' }),
    h('span', { class: 'clock', role: 'timer', hidden: true }),
    h('span', { class: 'score' }),
  );
}

// A rating as shown beside a name: "1500?" while provisional.
export const ratingText = (card) => `${card.rating}${card.provisional ? '?' : ''}`;

// A player's name linking to their page, and the rating beside it.
export function nameLink(card, cls = 'name') {
  return h('a', { class: cls, href: `#/player/${encodeURIComponent(card.id)}` }, card.name);
}

// Fills panel `el` for side `p`: `card` the player known by name (or null, then `label` says who
// it is: "You", "Friend", "Computer · level 3"), `caps` the side's captures, `presence` true,
// false or null (not shown).
// `change` is what the game's end did to the rating, when known.
export function fillPanel(el, p, { card, change = null, label, caps, toMove, presence, clocked }) {
  el.dataset.player = p;
  el.querySelector('.side').textContent = p;
  const who = el.querySelector('.who');
  const key = card ? `${card.id}\n${card.name}\n${ratingText(card)}\n${change}` : `\n${label}`;
  if (who.dataset.key !== key) {
    who.dataset.key = key;
    who.replaceChildren(
      ...(card
        ? [
            nameLink(card),
            h('span', { class: 'rating', 'aria-label': t('rating.label', { r: ratingText(card) }) }, ratingText(card)),
            change == null
              ? null
              : h(
                  'span',
                  { class: `change ${change > 0 ? 'up' : change < 0 ? 'down' : ''}` },
                  change > 0 ? `+${change}` : change < 0 ? `−${-change}` : '±0',
                ),
          ]
        : [h('span', { class: 'name' }, label)]),
    );
  }
  const score = el.querySelector('.score');
  score.textContent = caps;
  score.setAttribute('aria-label', tn('score.label', caps));
  el.querySelector('.turn').textContent = toMove === p ? t('turn.badge') : '';
  el.classList.toggle('to-move', toMove === p);
  el.classList.toggle('clocked', !!clocked);
  el.querySelector('.clock').hidden = !clocked;
  const pres = el.querySelector('.presence');
  pres.hidden = presence == null;
  if (presence != null) {
    const text = t(presence ? 'presence.on' : 'presence.off');
    pres.className = `presence ${presence ? 'on' : 'off'}`;
    pres.title = text;
    if (pres.textContent !== text)
      pres.replaceChildren(h('span', { class: 'dot', 'aria-hidden': 'true' }), h('span', { class: 'txt' }, text));
  }
}
