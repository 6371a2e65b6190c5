// A player's page (#/player/{id}): name, rating, the rating after each rated game as a small
// chart, and the games played, newest first; and the leaderboard (#/leaderboard). Names are user
// input and only ever go into text nodes.
import { api, ApiError } from '../api.js';
import { h, main } from '../dom.js';
import { t, tn, lang } from '../i18n.js';
import { me } from '../me.js';
import { nameLink, ratingText } from './panels.js';
import { openAccount } from './account.js';

const SVG = 'http://www.w3.org/2000/svg';
// A newcomer's rating (docs/api.md: Glicko-2, newcomers 1500): where every history starts.
const START = 1500;

function svg(tag, attrs = {}, text = null) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text != null) el.textContent = text;
  return el;
}

// The rating history as a line from the newcomer's rating through each rated game's.
export function ratingChart(history) {
  // Drawn at the width it will have, so that its labels keep their size on a phone and a desktop.
  const W = Math.round(Math.max(300, Math.min(1100, main.clientWidth - 64)));
  const H = 180;
  const pad = { l: 44, r: 12, t: 12, b: 22 };
  const ys = [START, ...history.map((p) => p.rating)];
  let lo = Math.min(...ys);
  let hi = Math.max(...ys);
  if (hi - lo < 40) {
    const mid = (hi + lo) / 2;
    lo = mid - 20;
    hi = mid + 20;
  }
  const x = (i) => pad.l + ((W - pad.l - pad.r) * i) / Math.max(1, ys.length - 1);
  const y = (r) => pad.t + ((H - pad.t - pad.b) * (hi - r)) / (hi - lo);
  const label = t('player.chart', { from: START, to: ys[ys.length - 1], games: tn('player.games.n', history.length) });
  const g = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label, class: 'rating-chart' });
  for (const r of [Math.round(hi), Math.round((hi + lo) / 2), Math.round(lo)]) {
    g.append(svg('line', { x1: pad.l, x2: W - pad.r, y1: y(r), y2: y(r), class: 'c-grid' }));
    g.append(svg('text', { x: pad.l - 6, y: y(r) + 4, class: 'c-label', 'text-anchor': 'end' }, String(r)));
  }
  g.append(svg('polyline', { points: ys.map((r, i) => `${x(i)},${y(r)}`).join(' '), class: 'c-line' }));
  ys.forEach((r, i) => {
    const dot = svg('circle', { cx: x(i), cy: y(r), r: i === ys.length - 1 ? 4.5 : 3, class: 'c-dot' });
    dot.append(svg('title', {}, i ? `${r} (${i})` : String(r)));
    g.append(dot);
  });
  return g;
}

// A past game's result for the player: won, lost, draw, aborted or still going on.
function outcomeOf(g) {
  if (g.aborted) return 'aborted';
  if (!g.outcome) return 'playing';
  if (!g.outcome.winner) return 'draw';
  return g.outcome.winner === g.side ? 'won' : 'lost';
}

const when = (s) => new Date(s * 1000).toLocaleString(lang(), { dateStyle: 'short', timeStyle: 'short' });

export async function viewPlayer(id) {
  let page;
  try {
    page = await api.player(id);
  } catch (x) {
    if (!(x instanceof ApiError && x.status === 404)) throw x;
    main.replaceChildren(
      h(
        'section',
        { class: 'card notice-page', id: 'noplayer' },
        h('h2', {}, t('player.none')),
        h('a', { href: '#/leaderboard', class: 'button' }, t('nav.leaderboard')),
      ),
    );
    return;
  }
  const p = page.player;
  const self = (await me.load())?.id === p.id;
  const facts = [
    h('span', { class: 'big-rating', id: 'player-rating' }, ratingText(p)),
    h('span', { class: 'help' }, p.provisional ? t('player.provisional') : t('player.rating')),
    h('span', { class: 'help' }, tn('player.games.n', p.rated_games)),
    p.account ? h('span', { class: 'badge' }, t('player.account')) : null,
  ];
  const rows = page.games.map((g) => {
    const o = outcomeOf(g);
    const href = g.outcome || g.aborted ? `#/replay/${g.id}` : `#/g/${g.id}`;
    return h(
      'tr',
      { class: `pg ${o}` },
      h('td', {}, g.opponent ? nameLink(g.opponent) : t(`mode.${g.mode}`)),
      h('td', { class: `res ${o}` }, t(`player.outcome.${o}`)),
      h('td', { class: 'wide' }, g.side),
      h('td', { class: 'wide' }, t(g.rated ? 'lobby.rated' : 'lobby.casual')),
      h('td', {}, when(g.updated)),
      h('td', {}, h('a', { href, class: 'game-link' }, t(o === 'playing' ? 'lobby.watch' : 'archive.replay'))),
    );
  });
  main.replaceChildren(
    h(
      'div',
      { class: 'player-page' },
      h(
        'section',
        { class: 'card player-head' },
        h('h2', { id: 'player-name' }, p.name),
        h('div', { class: 'row facts' }, ...facts.filter(Boolean)),
        self ? h('button', { type: 'button', id: 'edit-me', onclick: () => openAccount() }, t('player.edit')) : null,
      ),
      h(
        'section',
        { class: 'card', id: 'rating-history' },
        h('h2', {}, t('player.history')),
        page.history.length ? ratingChart(page.history) : h('p', { class: 'help' }, t('player.nohistory')),
      ),
      h(
        'section',
        { class: 'card' },
        h('h2', {}, t('player.games')),
        rows.length
          ? h(
              'table',
              { class: 'archive player-games', id: 'player-games' },
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  [
                    'player.opponent',
                    'archive.result',
                    'player.side',
                    'archive.mode',
                    'archive.date',
                    'archive.game',
                  ].map((k, i) => h('th', { class: i === 2 || i === 3 ? 'wide' : '' }, t(k))),
                ),
              ),
              h('tbody', {}, rows),
            )
          : h('p', { class: 'help' }, t('player.nogames')),
      ),
    ),
  );
}

export async function viewLeaderboard() {
  const { players } = await api.leaderboard(50);
  main.replaceChildren(
    h(
      'section',
      { class: 'card leaderboard' },
      h('h2', {}, t('nav.leaderboard')),
      players.length
        ? h(
            'table',
            { class: 'archive', id: 'leaderboard' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                h('th', {}, '#'),
                h('th', {}, t('lb.player')),
                h('th', {}, t('lb.rating')),
                h('th', {}, t('lb.games')),
              ),
            ),
            h(
              'tbody',
              {},
              players.map((p, i) =>
                h(
                  'tr',
                  {},
                  h('td', { class: 'rank' }, String(i + 1)),
                  h('td', {}, nameLink(p)),
                  h('td', { class: 'num' }, ratingText(p)),
                  h('td', { class: 'num' }, String(p.rated_games)),
                ),
              ),
            ),
          )
        : h('p', { class: 'help' }, t('lb.empty')),
      h('p', { class: 'help' }, t('lb.help')),
    ),
  );
}
