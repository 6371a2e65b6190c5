// A game's clocks as the page shows them: the server keeps the time (docs/api.md, "Clocks"); each
// game JSON says both sides' time left at the moment it was sent, and the page counts the running
// side down from the moment it arrived. The server ends the game on time by itself; a clock shown
// at zero with no result yet asks the server again.
import { clockText, lowAt } from '../timecontrol.js';
import { t } from '../i18n.js';

export class Clocks {
  // `panels` hold a `.clock` each and say their side in `data-player`; `abortEl` shows the time
  // left for the first move; `onLow(side, ms)` once per side when its running time gets low;
  // `onZero()` when the running side's shown time reaches zero.
  constructor(panels, abortEl, { onLow, onZero }) {
    this.panels = panels;
    this.abortEl = abortEl;
    this.onLow = onLow;
    this.onZero = onZero;
    this.clock = null;
    this.at = 0;
    this.over = false;
    this.warned = new Set();
    this.zeroAsked = 0;
    this.timer = null;
  }

  // The clock of a game just received (null: none), and whether the game is over.
  set(clock, over) {
    this.clock = clock;
    this.over = over;
    this.at = performance.now();
    this.tick();
    const ticking = clock && !over && (clock.running || clock.abort_in_ms != null);
    if (ticking && !this.timer) this.timer = setInterval(() => this.tick(), 100);
    if (!ticking && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  left(side) {
    const c = this.clock;
    const ms = side === 'B' ? c.b_ms : c.a_ms;
    return c.running === side && !this.over ? ms - (performance.now() - this.at) : ms;
  }

  tick() {
    const c = this.clock;
    this.abortEl.hidden = !c || this.over || c.abort_in_ms == null;
    if (!c) return;
    const low = lowAt(c);
    for (const el of this.panels) {
      const side = el.dataset.player;
      if (!side) continue;
      const ms = Math.max(0, this.left(side));
      const box = el.querySelector('.clock');
      const text = clockText(ms);
      if (box.textContent !== text) box.textContent = text;
      const running = c.running === side && !this.over;
      box.classList.toggle('running', running);
      box.classList.toggle('low', ms < low && !this.over);
      box.classList.toggle('out', ms <= 0);
      box.setAttribute('aria-label', t('clock.label', { p: side, time: text }));
      if (ms >= low) this.warned.delete(side); // an increment took it out of the low time
      if (running && ms < low && !this.warned.has(side)) {
        this.warned.add(side);
        this.onLow(side, ms);
      }
      // At zero: the server's flag is due; ask for the game if it has not come within a second.
      if (running && ms <= 0 && performance.now() - this.zeroAsked > 1500) {
        this.zeroAsked = performance.now();
        setTimeout(() => {
          if (!this.over) this.onZero();
        }, 1000);
      }
    }
    if (c.abort_in_ms != null && !this.over) {
      const ms = Math.max(0, c.abort_in_ms - (performance.now() - this.at));
      this.abortEl.textContent = t('clock.abort', { time: clockText(ms) });
    }
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
  }
}
