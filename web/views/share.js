// Share links: the game (to watch or replay it), the position on the board, and the invitation
// to an online game.
import { h, say } from '../dom.js';
import { t } from '../i18n.js';

export function shareBox(gameLink, posLink) {
  const row = (key, link, id) => {
    const inp = h('input', { readonly: true, value: link, id, 'aria-label': t(key) });
    return h(
      'div',
      { class: 'field' },
      h('label', { for: id }, t(key)),
      h(
        'div',
        { class: 'row' },
        inp,
        h(
          'button',
          {
            type: 'button',
            onclick: () => {
              inp.select();
              navigator.clipboard?.writeText(link).catch(() => {});
              say(t('invite.copied'));
            },
          },
          t('invite.copy'),
        ),
      ),
    );
  };
  return [row('share.game', gameLink, 'share-game'), row('share.position', posLink, 'share-position')];
}

// The invitation of an online game waiting for its second player: the link and a copy button.
export function inviteBox(link) {
  const inp = h('input', { readonly: true, value: link, id: 'invite-link', 'aria-label': t('invite.label') });
  const copy = () => {
    inp.select();
    navigator.clipboard?.writeText(link).catch(() => {});
    say(t('invite.copied'));
  };
  return [
    h('p', {}, t('invite.text')),
    h('div', { class: 'row' }, inp, h('button', { type: 'button', class: 'primary', onclick: copy }, t('invite.copy'))),
  ];
}
