// The game's sounds, made here with the Web Audio API rather than loaded: a short tick for each
// stone sown, a lower knock for a capture, a two-note chime at the end. Off unless the player
// turns them on in the settings.
import { prefs } from './prefs.js';

let ctx = null;

function tone(freq, ms, { type = 'sine', gain = 0.08, at = 0, slide = 1 } = {}) {
  if (prefs.get('sound') !== 'on') return;
  try {
    ctx = ctx || new AudioContext();
    const start = ctx.currentTime + at / 1000;
    const osc = ctx.createOscillator();
    const g = ctx.createGain();
    osc.type = type;
    osc.frequency.setValueAtTime(freq, start);
    osc.frequency.exponentialRampToValueAtTime(freq * slide, start + ms / 1000);
    g.gain.setValueAtTime(gain, start);
    g.gain.exponentialRampToValueAtTime(0.0001, start + ms / 1000);
    osc.connect(g).connect(ctx.destination);
    osc.start(start);
    osc.stop(start + ms / 1000 + 0.02);
  } catch (_) {
    /* no audio device: silence */
  }
}

export const sound = {
  sow: () => tone(900, 45, { type: 'triangle', gain: 0.05, slide: 0.7 }),
  capture: () => tone(220, 180, { type: 'square', gain: 0.04, slide: 0.5 }),
  end: () => {
    tone(523, 220, { gain: 0.07 });
    tone(784, 320, { gain: 0.07, at: 200 });
  },
};
