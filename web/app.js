// The page: a small hash router over the views (home, the lobby, a game, joining, the archive, a
// replay, a shared position, the analysis board, the rules, puzzles, the tutorial, a player's page,
// the leaderboard). Each view lives in views/; this module only chooses one.
import { main, h } from './dom.js';
import { setLang, initialLang, apply } from './i18n.js';
import { viewHome } from './views/home.js';
import { viewGame } from './views/game.js';
import { viewJoin } from './views/join.js';
import { viewArchive } from './views/archive.js';
import { viewReplay } from './views/replay.js';
import { viewRules } from './views/rules.js';
import { viewPosition } from './views/position.js';
import { viewAnalysis } from './views/analysis.js';
import { viewPuzzles } from './views/puzzles.js';
import { viewTutorial } from './views/tutorial.js';
import { openSettings, applyLook } from './views/settings.js';
import { viewLobby } from './views/lobby.js';
import { viewPlayer, viewLeaderboard } from './views/player.js';
import { initAccount, redrawAccount, showWelcome } from './views/account.js';
import { me } from './me.js';
import { loadLevels } from './levels.js';

// Where the first-visit name prompt may show: not over a game, a puzzle or the analysis board.
const WELCOME_ON = ['', 'lobby', 'leaderboard', 'player', 'archive', 'rules'];
// The header link each view belongs to.
const NAV_OF = { replay: 'archive', player: 'leaderboard' };

let cleanup = () => {};
const setCleanup = (f) => {
  cleanup = f;
};

async function route() {
  cleanup();
  cleanup = () => {};
  const [view, arg] = location.hash.replace(/^#\/?/, '').split('/');
  for (const a of document.querySelectorAll('nav a'))
    a.classList.toggle('active', a.getAttribute('href') === `#/${NAV_OF[view] ?? (view || '')}`);
  me.load().then(() => showWelcome(WELCOME_ON.includes(view || '')));
  try {
    if (view === 'g' && arg) await viewGame(arg, setCleanup);
    else if (view === 'j' && arg) await viewJoin(arg);
    else if (view === 'archive') await viewArchive();
    else if (view === 'replay' && arg) await viewReplay(arg, setCleanup);
    else if (view === 'rules') await viewRules();
    else if (view === 'p' && arg) viewPosition(arg);
    else if (view === 'analyse') viewAnalysis(arg);
    else if (view === 'puzzles') await viewPuzzles(arg, setCleanup);
    else if (view === 'tutorial') await viewTutorial(arg, setCleanup);
    else if (view === 'lobby') await viewLobby(setCleanup);
    else if (view === 'player' && arg) await viewPlayer(decodeURIComponent(arg));
    else if (view === 'leaderboard') await viewLeaderboard();
    else viewHome();
  } catch (x) {
    main.replaceChildren(
      h(
        'section',
        { class: 'card notice-page' },
        h('p', { class: 'error', role: 'alert' }, x.message),
        h('a', { href: '#/', class: 'button' }, '⌂'),
      ),
    );
  }
  apply(main);
}

applyLook();
const langSel = document.getElementById('lang');
langSel.addEventListener('change', async () => {
  await setLang(langSel.value);
  document.getElementById('welcome')?.remove();
  redrawAccount();
  route();
});
document.getElementById('settings-btn').addEventListener('click', openSettings);
const l = initialLang();
langSel.value = l;
await Promise.all([setLang(l), loadLevels()]);
initAccount();
window.addEventListener('hashchange', route);
route();
