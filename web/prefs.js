// Everything the page remembers in localStorage, in one place: the keys, their defaults and
// their allowed values. Other modules ask here and never touch localStorage themselves.
const KEY = {
  lang: 'vlt.lang',
  speed: 'vlt.speed',
  level: 'vlt.level',
  mode: 'vlt.mode',
  side: 'vlt.side',
  eval: 'vlt.eval',
  sound: 'vlt.sound',
  coords: 'vlt.coords',
  theme: 'vlt.theme',
  recent: 'vlt.recent',
  token: 'vlt.token.', // + game id
  flip: 'vlt.flip.', // + game id
  puzzles: 'vlt.puzzles',
  welcome: 'vlt.welcome',
  tc: 'vlt.tc',
  days: 'vlt.days',
  rated: 'vlt.rated',
  colour: 'vlt.colour',
};

// Settings: default first, then the other allowed values.
const SETTINGS = {
  speed: ['normal', 'slow', 'fast', 'instant'],
  eval: ['on', 'off'],
  sound: ['off', 'on'],
  coords: ['on', 'off'],
  theme: ['system', 'light', 'dark'],
  level: ['3', '1', '2', '4', '5', '6', '7', '8', '9', '10'],
  mode: ['computer', 'local', 'online'],
  side: ['B', 'A'],
  // The lobby's last choices: time control, days per move, rated or casual, colour.
  tc: ['5+0', '3+2', '10+5', 'corr', 'none'],
  days: ['3', '1', '7'],
  rated: ['rated', 'casual'],
  colour: ['random', 'B', 'A'],
};

function read(key) {
  try {
    return localStorage.getItem(key);
  } catch (_) {
    return null; // storage disabled: every setting keeps its default
  }
}

function write(key, value) {
  try {
    if (value == null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch (_) {
    /* storage disabled or full: the choice lasts for this page only */
  }
}

const listeners = new Set();

export const prefs = {
  choices: (name) => SETTINGS[name],
  get(name) {
    const v = read(KEY[name]);
    return SETTINGS[name].includes(v) ? v : SETTINGS[name][0];
  },
  set(name, value) {
    if (!SETTINGS[name].includes(value)) return;
    write(KEY[name], value);
    for (const f of listeners) f(name, value);
  },
  // Called with (name, value) after every change.
  onChange(f) {
    listeners.add(f);
    return () => listeners.delete(f);
  },
  lang: () => read(KEY.lang),
  setLang: (l) => write(KEY.lang, l),
  // Whether the first-visit name prompt was answered or put off.
  welcomed: () => read(KEY.welcome) === '1',
  setWelcomed: () => write(KEY.welcome, '1'),
};

export const tokens = {
  get: (id) => read(KEY.token + id),
  set: (id, t) => write(KEY.token + id, t),
};

// Whether the board of a game is drawn turned round (A's row at the bottom).
export const flips = {
  get: (id) => read(KEY.flip + id),
  set: (id, v) => write(KEY.flip + id, v ? '1' : '0'),
};

// The games this browser took part in, newest first: id, mode, level, side, date and, once known,
// the result. Old entries (plain ids) are kept as ids.
export const recent = {
  list() {
    let r;
    try {
      r = JSON.parse(read(KEY.recent) || '[]');
    } catch (_) {
      r = [];
    }
    return (Array.isArray(r) ? r : []).map((x) => (typeof x === 'string' ? { id: x } : x)).filter((x) => x && x.id);
  },
  note(id, info = {}) {
    const all = recent.list();
    const old = all.find((x) => x.id === id) || { id, date: Date.now() };
    const rest = all.filter((x) => x.id !== id);
    write(KEY.recent, JSON.stringify([{ ...old, ...info }, ...rest].slice(0, 12)));
  },
};

// The puzzles this browser tried (number -> solved at the first try) and the player's puzzle
// rating (Glicko-2: rating, rd, volatility), as the server last computed it.
export const puzzleRecord = {
  get() {
    let r;
    try {
      r = JSON.parse(read(KEY.puzzles) || '{}');
    } catch (_) {
      r = {};
    }
    if (!r || typeof r !== 'object') r = {};
    if (!r.tried || typeof r.tried !== 'object') r.tried = {};
    return r;
  },
  set(r) {
    write(KEY.puzzles, JSON.stringify(r));
  },
};
