// The game's sounds: small WAV files made by sounds/make.py and served with the page — a tick for
// each stone sown, a knock for a capture, a chime at the end. Off unless the player turns them on
// in the settings; nothing is fetched until then.
import { prefs } from './prefs.js';

const FILES = { sow: 'sow.wav', capture: 'capture.wav', end: 'end.wav' };
const VOLUME = { sow: 0.5, capture: 0.8, end: 0.8 };
let clips = null;

function load() {
  if (!clips) {
    clips = {};
    for (const [name, file] of Object.entries(FILES)) {
      const a = new Audio(`/static/sounds/${file}`);
      a.preload = 'auto';
      a.volume = VOLUME[name];
      clips[name] = a;
    }
  }
  return clips;
}

function play(name) {
  if (prefs.get('sound') !== 'on') return;
  const base = load()[name];
  // A copy for each play, so that quick ticks overlap instead of cutting each other off.
  const a = base.cloneNode();
  a.volume = base.volume;
  const p = a.play();
  if (p) p.catch(() => {}); // no audio device, or the browser waits for a first click
}

// Loaded as soon as sound is on, so that the first tick is not late.
if (prefs.get('sound') === 'on') load();
prefs.onChange((name, value) => {
  if (name === 'sound' && value === 'on') load();
});

export const sound = {
  sow: () => play('sow'),
  capture: () => play('capture'),
  end: () => play('end'),
};
