// The server's HTTP and WebSocket API (docs/api.md).
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function call(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers['content-type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  const ct = r.headers.get('content-type') || '';
  const data = ct.includes('json') ? await r.json() : await r.text();
  if (!r.ok) throw new ApiError(r.status, (data && data.error) || String(data));
  return data;
}

// A seat's token when this browser holds one; without it the player cookie speaks (a game taken
// from the lobby or a rematch is held by the player, not by a token).
const seat = (token) => (token ? { token } : {});

export const api = {
  create: (req) => call('POST', '/api/games', req),
  game: (id) => call('GET', `/api/games/${id}`),
  join: (id) => call('POST', `/api/games/${id}/join`, {}),
  move: (id, token, move) => call('POST', `/api/games/${id}/move`, { ...seat(token), move }),
  resign: (id, token) => call('POST', `/api/games/${id}/resign`, seat(token)),
  undo: (id, token) => call('POST', `/api/games/${id}/undo`, seat(token)),
  hint: (id, token) => call('POST', `/api/games/${id}/hint`, seat(token)),
  takeback: (id, token) => call('POST', `/api/games/${id}/takeback`, seat(token)),
  declineTakeback: (id, token) => call('POST', `/api/games/${id}/takeback/decline`, seat(token)),
  rematch: (id, token) => call('POST', `/api/games/${id}/rematch`, seat(token)),
  analysis: (id, ms = 300) => call('GET', `/api/games/${id}/analysis?ms=${ms}`),
  record: (id) => call('GET', `/api/games/${id}/record`),
  review: (id) => call('GET', `/api/games/${id}/review`),
  startReview: (id) => call('POST', `/api/games/${id}/review`, {}),
  analyse: (position, moves = [], ms = 500) => call('POST', '/api/analyse', { position, moves, ms }),
  import: (record) => call('POST', '/api/import', { record }),
  finished: () => call('GET', '/api/games?limit=100'),
  examples: () => call('GET', '/api/examples'),
  levels: () => call('GET', '/api/levels'),
  puzzles: () => call('GET', '/api/puzzles'),
  puzzle: (n) => call('GET', `/api/puzzles/${n}`),
  puzzleAnswer: (n, move) => call('POST', `/api/puzzles/${n}/answer`, { move }),
  puzzleSolution: (n) => call('GET', `/api/puzzles/${n}/solution`),
  puzzleRating: (n, solved, player) => call('POST', `/api/puzzles/${n}/rating`, { solved, player }),
  tutorial: () => call('GET', '/api/tutorial'),
  me: () => call('GET', '/api/me'),
  setName: (name) => call('POST', '/api/me', { name }),
  setPassword: (password) => call('POST', '/api/me/password', { password }),
  login: (name, password) => call('POST', '/api/login', { name, password }),
  logout: () => call('POST', '/api/logout', {}),
  player: (id) => call('GET', `/api/players/${encodeURIComponent(id)}`),
  leaderboard: (limit = 50) => call('GET', `/api/leaderboard?limit=${limit}`),
  lobby: () => call('GET', '/api/lobby'),
  seek: (clock, rated, colour) => call('POST', '/api/seeks', { clock, rated, colour }),
  cancelSeek: (id) => call('DELETE', `/api/seeks/${id}`),
  acceptSeek: (id) => call('POST', `/api/seeks/${id}/accept`, {}),
};

// A game's live updates, reconnecting with backoff after a dropped connection.
export class Live {
  constructor(id, token, onMessage, onStatus) {
    this.id = id;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.closed = false;
    this.delay = 500;
    this.open();
  }
  open() {
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const q = this.token ? `?token=${encodeURIComponent(this.token)}` : '';
    const ws = new WebSocket(`${proto}://${location.host}/api/games/${this.id}/ws${q}`);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.onStatus(true);
    };
    ws.onmessage = (e) => {
      try {
        this.onMessage(JSON.parse(e.data));
      } catch (_) {
        /* ignore */
      }
    };
    ws.onclose = () => {
      if (this.closed) return;
      this.onStatus(false);
      setTimeout(() => {
        if (!this.closed) this.open();
      }, this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    };
  }
  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}
