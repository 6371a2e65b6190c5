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

export const api = {
  create: (req) => call('POST', '/api/games', req),
  game: (id) => call('GET', `/api/games/${id}`),
  join: (id) => call('POST', `/api/games/${id}/join`, {}),
  move: (id, token, move) => call('POST', `/api/games/${id}/move`, { token, move }),
  resign: (id, token) => call('POST', `/api/games/${id}/resign`, { token }),
  undo: (id, token) => call('POST', `/api/games/${id}/undo`, { token }),
  hint: (id, token) => call('POST', `/api/games/${id}/hint`, { token }),
  analysis: (id, ms = 300) => call('GET', `/api/games/${id}/analysis?ms=${ms}`),
  record: (id) => call('GET', `/api/games/${id}/record`),
  review: (id) => call('GET', `/api/games/${id}/review`),
  startReview: (id) => call('POST', `/api/games/${id}/review`, {}),
  analyse: (position, moves = [], ms = 500) => call('POST', '/api/analyse', { position, moves, ms }),
  import: (record) => call('POST', '/api/import', { record }),
  finished: () => call('GET', '/api/games?limit=100'),
  examples: () => call('GET', '/api/examples'),
  puzzles: () => call('GET', '/api/puzzles'),
  puzzle: (n) => call('GET', `/api/puzzles/${n}`),
  puzzleAnswer: (n, move) => call('POST', `/api/puzzles/${n}/answer`, { move }),
  puzzleSolution: (n) => call('GET', `/api/puzzles/${n}/solution`),
  puzzleRating: (n, solved, player) => call('POST', `/api/puzzles/${n}/rating`, { solved, player }),
  tutorial: () => call('GET', '/api/tutorial'),
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
