// The archive: finished games, newest first, each linking to its replay.
import { api } from '../api.js';
import { h, main } from '../dom.js';
import { t, lang } from '../i18n.js';
import { resultText } from '../text.js';

export async function viewArchive() {
  const tbody = h('tbody');
  const col = (key, cls = '') => h('th', { class: cls }, t(key));
  main.replaceChildren(
    h(
      'section',
      { class: 'card archive-card' },
      h('h2', {}, t('nav.archive')),
      h(
        'table',
        { class: 'archive' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            col('archive.game'),
            col('archive.mode', 'wide'),
            col('archive.moves', 'wide'),
            col('archive.result'),
            col('archive.date'),
          ),
        ),
        tbody,
      ),
    ),
  );
  const { games } = await api.finished();
  if (!games.length) tbody.append(h('tr', {}, h('td', { colspan: 5 }, t('archive.empty'))));
  const when = (s) => new Date(s * 1000).toLocaleString(lang(), { dateStyle: 'short', timeStyle: 'short' });
  for (const g of games) {
    tbody.append(
      h(
        'tr',
        {},
        h('td', {}, h('a', { href: `#/replay/${g.id}`, class: 'replay-link' }, t('archive.replay'))),
        h('td', { class: 'wide' }, t(`mode.${g.mode}`)),
        h('td', { class: 'wide' }, String(g.moves)),
        h('td', {}, g.outcome ? resultText(g.outcome) : ''),
        h('td', {}, when(g.updated)),
      ),
    );
  }
}
