// The home page: choose an opponent and start; recent games; advanced starts (a custom position,
// an imported record) folded away.
import { api } from '../api.js';
import { h, main } from '../dom.js';
import { t, lang } from '../i18n.js';
import { prefs, tokens, recent } from '../prefs.js';
import { resultText, verdict } from '../text.js';
import { DAYS, clockFor, tcText } from '../timecontrol.js';
import { levelText } from '../levels.js';

// Starts a game and goes to it; `req` as POST /api/games takes it.
export async function startGame(req) {
  const r = await api.create(req);
  tokens.set(r.game.id, r.token);
  recent.note(r.game.id, {
    mode: req.mode,
    level: req.level,
    side: req.mode === 'local' ? null : req.side,
    date: Date.now(),
  });
  location.hash = `#/g/${r.game.id}`;
}

export function opponentText(g) {
  if (g.mode === 'computer') return t('recent.computer', { n: g.level ?? '?' });
  if (g.mode === 'local') return t('mode.local');
  if (g.mode === 'online') return g.opponent ? t('recent.vs', { name: g.opponent }) : t('recent.online');
  return t('recent.game');
}

export function recentResult(g) {
  if (!g.result) return t('recent.playing');
  const v = verdict(g.result, g.side);
  const score = `${g.result.score_b}–${g.result.score_a}`;
  return v ? `${t(`verdict.${v}`)} ${score}` : resultText(g.result);
}

export function viewHome(startPosition = null) {
  const err = h('p', { class: 'error', role: 'alert', id: 'home-error' });
  const tile = (v, icon) =>
    h(
      'label',
      { class: 'tile' },
      h('input', { type: 'radio', name: 'mode', value: v, checked: prefs.get('mode') === v }),
      h('span', { class: 'tile-icon', 'aria-hidden': 'true' }, icon),
      h('span', { class: 'tile-title' }, t(`mode.${v}`)),
      h('span', { class: 'tile-text' }, t(`mode.${v}.text`)),
    );
  const level = h(
    'select',
    { id: 'level' },
    Array.from({ length: 10 }, (_, i) =>
      h('option', { value: String(i + 1), selected: prefs.get('level') === String(i + 1) }, String(i + 1)),
    ),
  );
  const levelHelp = h('p', { class: 'help', id: 'level-help' });
  const showLevel = () => {
    levelHelp.textContent = levelText(Number(level.value));
  };
  level.addEventListener('change', showLevel);
  showLevel();
  const side = h(
    'select',
    { id: 'side' },
    ['B', 'A'].map((s) => h('option', { value: s, selected: prefs.get('side') === s }, t(`side.${s}`))),
  );
  const first = h(
    'select',
    { id: 'first' },
    ['B', 'A'].map((s) => h('option', { value: s }, s)),
  );
  const position = h('input', {
    id: 'position',
    size: 34,
    spellcheck: 'false',
    autocomplete: 'off',
    placeholder: '5,5,5,5,5,5/5,5,5,5,5,5 B 0 0',
    value: startPosition || '',
  });
  const imp = h('textarea', { id: 'import-text', 'aria-label': t('import.label') });
  const impErr = h('p', { class: 'error', role: 'alert' });
  const levelRow = h(
    'div',
    { class: 'field', id: 'level-row' },
    h('label', { for: 'level' }, t('new.level')),
    level,
    levelHelp,
  );
  const sideRow = h('div', { class: 'field', id: 'side-row' }, h('label', { for: 'side' }, t('new.side')), side);
  // An online game's clock (the invitation link); seeks with a clock are made in the lobby.
  const clockChoices = ['none', '3+2', '5+0', '10+5', ...DAYS.map((d) => `corr:${d}`)];
  const clockOf = (v) => (v.startsWith('corr:') ? clockFor('corr', Number(v.slice(5))) : clockFor(v));
  const clock = h(
    'select',
    { id: 'clock' },
    clockChoices.map((v) => h('option', { value: v }, tcText(clockOf(v)))),
  );
  const clockRow = h(
    'div',
    { class: 'field', id: 'clock-row' },
    h('label', { for: 'clock' }, t('lobby.tc')),
    clock,
    h('p', { class: 'help' }, t('new.lobby'), ' ', h('a', { href: '#/lobby', id: 'to-lobby' }, t('nav.lobby'))),
  );
  const form = h(
    'form',
    { class: 'card newgame', id: 'newgame' },
    h('h2', {}, t('new.title')),
    h(
      'fieldset',
      { class: 'tiles' },
      h('legend', {}, t('new.mode')),
      tile('computer', '⚙'),
      tile('local', '⇅'),
      tile('online', '✉'),
    ),
    levelRow,
    sideRow,
    clockRow,
    h(
      'details',
      { class: 'advanced', id: 'advanced', open: !!startPosition },
      h('summary', {}, t('new.advanced')),
      h('div', { class: 'field' }, h('label', { for: 'first' }, t('new.first')), first),
      h(
        'div',
        { class: 'field' },
        h('label', { for: 'position' }, t('new.position')),
        position,
        h('p', { class: 'help' }, t('new.position.help')),
      ),
    ),
    h('button', { type: 'submit', id: 'start', class: 'primary big' }, t('new.start')),
    err,
  );
  const sync = () => {
    const m = form.querySelector('input[name=mode]:checked')?.value || 'computer';
    levelRow.hidden = m !== 'computer';
    sideRow.hidden = m === 'local';
    clockRow.hidden = m !== 'online';
  };
  form.addEventListener('change', sync);
  sync();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const m = form.querySelector('input[name=mode]:checked').value;
    prefs.set('mode', m);
    prefs.set('level', level.value);
    prefs.set('side', side.value);
    const req = { mode: m, side: side.value };
    if (m === 'computer') req.level = Number(level.value);
    if (m === 'online' && clockOf(clock.value)) req.clock = clockOf(clock.value);
    if (position.value.trim()) req.position = position.value.trim();
    else req.first = first.value;
    try {
      await startGame(req);
    } catch (x) {
      err.textContent = x.message;
    }
  });
  const importBox = h(
    'details',
    { class: 'card', id: 'import-box' },
    h('summary', {}, t('import.title')),
    imp,
    h(
      'div',
      { class: 'row' },
      h('input', {
        type: 'file',
        id: 'import-file',
        accept: '.vlt,.txt,.pgn',
        'aria-label': t('import.file'),
        onchange: async (e) => {
          const file = e.target.files[0];
          if (file) imp.value = await file.text();
        },
      }),
      h(
        'button',
        {
          id: 'import',
          type: 'button',
          onclick: async () => {
            try {
              const r = await api.import(imp.value);
              // A record of several games imports them all, under one token; the first opens.
              for (const g of [...r.games].reverse()) {
                tokens.set(g, r.token);
                recent.note(g, { mode: r.game.mode, date: Date.now() });
              }
              location.hash = `#/g/${r.game.id}`;
            } catch (x) {
              impErr.textContent = x.message;
            }
          },
        },
        t('import.button'),
      ),
    ),
    impErr,
  );
  const games = recent.list();
  const date = (ms) => (ms ? new Date(ms).toLocaleDateString(lang(), { day: 'numeric', month: 'short' }) : '');
  const recentBox = h(
    'section',
    { class: 'card recent' },
    h('h2', {}, t('recent')),
    games.length
      ? h(
          'ul',
          { id: 'recent' },
          games.map((g) =>
            h(
              'li',
              {},
              h(
                'a',
                { href: `#/g/${g.id}` },
                h('span', { class: 'opp' }, opponentText(g)),
                h(
                  'span',
                  { class: `res ${g.result ? verdict(g.result, g.side) || 'over' : 'playing'}` },
                  recentResult(g),
                ),
                h('span', { class: 'date' }, date(g.date)),
              ),
            ),
          ),
        )
      : h('p', { class: 'help' }, t('recent.none')),
  );
  const intro = h(
    'section',
    { class: 'intro' },
    h('p', {}, t('home.intro')),
    h('a', { href: '#/rules', class: 'button' }, t('home.learn')),
  );
  main.replaceChildren(
    h(
      'div',
      { class: 'home' },
      h('div', { class: 'home-main' }, intro, form),
      h('div', { class: 'home-side' }, recentBox, importBox),
    ),
  );
}
