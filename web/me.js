// The player this browser is (docs/api.md, "Players"): known by an HttpOnly cookie the page never
// sees, so it asks the server. `undefined` until the first answer, then a player card or null.
import { api } from './api.js';

let current;
let loading = null;
const listeners = new Set();

function set(player) {
  current = player || null;
  for (const f of listeners) f(current);
  return current;
}

export const me = {
  get: () => current,
  // The player, asking the server the first time (and after `refresh`).
  async load() {
    if (current !== undefined) return current;
    loading ??= api
      .me()
      .then((r) => set(r.player))
      .catch(() => set(null))
      .finally(() => {
        loading = null;
      });
    return loading;
  },
  // Chooses a name (a new player with a cookie) or changes it.
  rename: async (name) => set((await api.setName(name)).player),
  // Makes the player's name an account with a password.
  signUp: async (password) => set((await api.setPassword(password)).player),
  logIn: async (name, password) => set((await api.login(name, password)).player),
  logOut: async () => set((await api.logout()).player),
  // Called with the player (or null) after every change; returns the way to stop.
  onChange(f) {
    listeners.add(f);
    return () => listeners.delete(f);
  },
};
