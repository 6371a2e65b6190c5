// The lobby (docs/api.md, "Lobby, ratings, offers"): create a seek (time control, rated or casual,
// colour) or an invitation for a friend, the open seeks that one click accepts, and the games being
// played now, to watch. The lobby is polled every 2 s; a seek of this player's that someone
// accepted shows up among its games, and the page then opens it. Seeks are withdrawn on leaving.
import { api } from '../api.js';
import { h, main, say } from '../dom.js';
import { t } from '../i18n.js';
import { me } from '../me.js';
import { prefs, tokens, recent } from '../prefs.js';
import { DAYS, clockFor, speedOf, tcText } from '../timecontrol.js';
import { needName } from './account.js';
import { startGame } from './home.js';
import { nameLink, ratingText } from './panels.js';

const POLL_MS = 2000;

// A radio group drawn as buttons in a row; the choice is remembered under prefs `name`.
function segmented(name, values, label, text) {
  return h(
    'fieldset',
    { class: 'segmented', id: `seg-${name}` },
    h('legend', {}, label),
    values.map((v) =>
      h(
        'label',
        {},
        h('input', { type: 'radio', name, value: v, checked: prefs.get(name) === v }),
        h('span', {}, text(v)),
      ),
    ),
  );
}

// A player's name (to their page) and rating, side by side.
export function playerTag(card) {
  if (!card) return h('span', { class: 'player-tag' }, t('lobby.nobody'));
  return h('span', { class: 'player-tag' }, nameLink(card), ' ', h('span', { class: 'rating' }, ratingText(card)));
}

export async function viewLobby(setCleanup) {
  await me.load();
  const err = h('p', { class: 'error', role: 'alert', id: 'lobby-error' });
  const waiting = h('p', { class: 'seeking', id: 'seeking', hidden: true }, t('lobby.seeking'));
  const tcTile = (key) => {
    const c = clockFor(key, 3);
    return h(
      'label',
      { class: 'tile tc-tile' },
      h('input', { type: 'radio', name: 'tc', value: key, checked: prefs.get('tc') === key }),
      h('span', { class: 'tile-title' }, key === 'corr' ? t('tc.corr') : key === 'none' ? t('tc.none') : key),
      h('span', { class: 'tile-text' }, t(`speed.${speedOf(c)}`)),
    );
  };
  const days = h(
    'select',
    { id: 'days' },
    DAYS.map((d) =>
      h('option', { value: String(d), selected: prefs.get('days') === String(d) }, tcText(clockFor('corr', d))),
    ),
  );
  const daysRow = h('div', { class: 'field', id: 'days-row' }, h('label', { for: 'days' }, t('lobby.days')), days);
  const form = h(
    'form',
    { class: 'card seek-form', id: 'seek-form' },
    h('h2', {}, t('lobby.create')),
    h(
      'fieldset',
      { class: 'tiles tc-tiles' },
      h('legend', {}, t('lobby.tc')),
      ['3+2', '5+0', '10+5', 'corr', 'none'].map(tcTile),
    ),
    daysRow,
    h(
      'div',
      { class: 'seg-row' },
      segmented('rated', ['rated', 'casual'], t('lobby.mode'), (v) => t(`lobby.${v}`)),
      segmented('colour', ['random', 'B', 'A'], t('lobby.colour'), (v) => t(`lobby.colour.${v}`)),
    ),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'submit', id: 'seek-create', class: 'primary big' }, t('lobby.seek')),
      h('button', { type: 'button', id: 'invite-create', onclick: () => invite() }, t('lobby.invite')),
    ),
    waiting,
    err,
  );
  const choice = () => {
    const tc = form.querySelector('input[name=tc]:checked')?.value || 'none';
    const rated = form.querySelector('input[name=rated]:checked')?.value || 'rated';
    const colour = form.querySelector('input[name=colour]:checked')?.value || 'random';
    prefs.set('tc', tc);
    prefs.set('days', days.value);
    prefs.set('rated', rated);
    prefs.set('colour', colour);
    return { clock: clockFor(tc, Number(days.value)), rated: rated === 'rated', colour };
  };
  const sync = () => {
    daysRow.hidden = (form.querySelector('input[name=tc]:checked')?.value || '') !== 'corr';
  };
  form.addEventListener('change', sync);
  sync();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    err.textContent = '';
    const c = choice();
    if (!(await needName(t('lobby.needname')))) return;
    try {
      await api.seek(c.clock, c.rated, c.colour);
      say(t('lobby.seeking'));
      refresh();
    } catch (x) {
      err.textContent = x.message;
    }
  });
  // An invitation link for a friend, with the same choices; a rated one needs a name.
  async function invite() {
    err.textContent = '';
    const c = choice();
    if (c.rated && !(await needName(t('lobby.needname')))) return;
    const side = c.colour === 'random' ? (Math.random() < 0.5 ? 'B' : 'A') : c.colour;
    try {
      await startGame({ mode: 'online', side, clock: c.clock || undefined, rated: c.rated && !!me.get() });
    } catch (x) {
      err.textContent = x.message;
    }
  }

  const seekList = h('ul', { class: 'lobby-list', id: 'seek-list' });
  const playingList = h('ul', { class: 'lobby-list', id: 'playing-list' });
  main.replaceChildren(
    h(
      'div',
      { class: 'lobby' },
      h('div', { class: 'lobby-main' }, form),
      h(
        'div',
        { class: 'lobby-side' },
        h('section', { class: 'card', id: 'seeks' }, h('h2', {}, t('lobby.seeks')), seekList),
        h('section', { class: 'card', id: 'playing' }, h('h2', {}, t('lobby.playing')), playingList),
      ),
    ),
  );

  let known = null; // this player's games going on at the first look
  let mySeeks = [];
  let shownSeeks = '';
  let shownPlaying = '';
  let timer = null;
  let gone = false;

  async function accept(s) {
    err.textContent = '';
    if (!(await needName(t('lobby.needname')))) return;
    try {
      const r = await api.acceptSeek(s.id);
      tokens.set(r.game.id, r.token);
      recent.note(r.game.id, { mode: 'online', side: r.seat, date: Date.now() });
      location.hash = `#/g/${r.game.id}`;
    } catch (x) {
      err.textContent = x.status === 404 ? t('lobby.seekgone') : x.message;
      refresh();
    }
  }

  async function cancel(s) {
    try {
      await api.cancelSeek(s.id);
    } catch (_) {
      /* taken or gone meanwhile: the next look says which */
    }
    refresh();
  }

  function seekRow(s) {
    const own = me.get() && s.player.id === me.get().id;
    return h(
      'li',
      { class: `seek${own ? ' own' : ''}`, 'data-seek': s.id },
      playerTag(s.player),
      h('span', { class: 'tc' }, tcText(s.clock)),
      h('span', { class: 'mode' }, t(s.rated ? 'lobby.rated' : 'lobby.casual')),
      h('span', { class: 'colour', title: t(`lobby.colour.${s.colour}`) }, t(`lobby.seekcolour.${s.colour}`)),
      own
        ? h('button', { type: 'button', class: 'cancel-seek', onclick: () => cancel(s) }, t('lobby.cancel'))
        : h('button', { type: 'button', class: 'accept-seek primary', onclick: () => accept(s) }, t('lobby.accept')),
    );
  }

  function playingRow(g) {
    return h(
      'li',
      { class: 'live-game', 'data-game': g.id },
      h('span', { class: 'pair' }, playerTag(g.players.B), h('span', { class: 'vs' }, ' – '), playerTag(g.players.A)),
      h('span', { class: 'tc' }, tcText(g.clock)),
      h('span', { class: 'mode' }, t(g.rated ? 'lobby.rated' : 'lobby.casual')),
      h('a', { class: 'button watch', href: `#/g/${g.id}` }, t('lobby.watch')),
    );
  }

  async function refresh() {
    clearTimeout(timer);
    let l;
    try {
      l = await api.lobby();
    } catch (x) {
      err.textContent = x.message;
    }
    if (gone) return;
    if (l) {
      const id = me.get()?.id;
      // A seek of mine that is gone while a new game of mine appeared: it was accepted.
      const fresh = known ? l.mine.filter((g) => !known.has(g)) : [];
      const had = mySeeks.length;
      mySeeks = l.seeks.filter((s) => s.player.id === id);
      waiting.hidden = !mySeeks.length;
      if (fresh.length && had) {
        location.hash = `#/g/${fresh[0]}`;
        return;
      }
      known = new Set(l.mine);
      const seeks = JSON.stringify(l.seeks);
      if (seeks !== shownSeeks) {
        shownSeeks = seeks;
        seekList.replaceChildren(
          ...(l.seeks.length ? l.seeks.map(seekRow) : [h('li', { class: 'empty help' }, t('lobby.noseeks'))]),
        );
      }
      const playing = JSON.stringify(l.playing);
      if (playing !== shownPlaying) {
        shownPlaying = playing;
        playingList.replaceChildren(
          ...(l.playing.length ? l.playing.map(playingRow) : [h('li', { class: 'empty help' }, t('lobby.noplaying'))]),
        );
      }
    }
    timer = setTimeout(refresh, POLL_MS);
  }
  await refresh();
  setCleanup(() => {
    gone = true;
    clearTimeout(timer);
    // A seek is an offer to play now: it does not outlive the lobby page.
    for (const s of mySeeks) api.cancelSeek(s.id).catch(() => {});
  });
}
