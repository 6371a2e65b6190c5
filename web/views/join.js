// Joining an online game from an invitation link.
import { api } from '../api.js';
import { h, main } from '../dom.js';
import { t } from '../i18n.js';
import { tokens, recent } from '../prefs.js';

export async function viewJoin(id) {
  main.replaceChildren(h('p', { class: 'status' }, t('join.joining')));
  if (tokens.get(id)) {
    location.hash = `#/g/${id}`;
    return;
  }
  try {
    const r = await api.join(id);
    tokens.set(id, r.token);
    recent.note(id, { mode: 'online', side: r.seat, date: Date.now() });
    location.hash = `#/g/${id}`;
  } catch (x) {
    const gone = x.status === 404;
    main.replaceChildren(
      h(
        'section',
        { class: 'card notice-page', id: 'join-failed' },
        h('h2', {}, t(gone ? 'error.nogame' : 'join.used')),
        h('p', {}, t(gone ? 'error.nogame.text' : 'join.used.text', { id })),
        h(
          'div',
          { class: 'row' },
          gone ? null : h('a', { class: 'button primary', href: `#/g/${id}` }, t('join.watch')),
          h('a', { class: 'button', href: '#/' }, t('btn.new')),
        ),
      ),
    );
  }
}
