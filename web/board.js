// The board of the rules (R1), drawn with CSS grid. Seen from B's side: A's row on top (1A..6A
// left to right), B's row below (6B..1B left to right), each store at its owner's right hand
// (A's on the left, B's on the right). Turned round (`flip`), the same board seen from A's side.
import { t, tn } from './i18n.js';
import { prefs } from './prefs.js';
import { sound } from './sound.js';

export const RING = ['1B', '2B', '3B', '4B', '5B', '6B', '1A', '2A', '3A', '4A', '5A', '6A'];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// The marks a hole can carry; the last move's marks fade (board.css).
const MARKS = ['from', 'sown', 'landed', 'captured', 'hint', 'sowing'];

export function stoneDelay() {
  return { slow: 320, normal: 160, fast: 50, instant: 0 }[prefs.get('speed')] ?? 160;
}

export class Board {
  // onPick(hole) is called for a click on any hole: the game decides whether it is playable.
  constructor(container, onPick, { flip = false } = {}) {
    this.onPick = onPick;
    this.el = document.createElement('div');
    this.el.className = 'board';
    this.el.setAttribute('role', 'group');
    this.el.setAttribute('aria-label', t('board'));
    this.holes = {};
    this.labels = {};
    for (const name of RING) {
      const lab = document.createElement('div');
      lab.className = 'label';
      lab.textContent = name;
      lab.setAttribute('aria-hidden', 'true');
      this.labels[name] = lab;
      this.el.append(lab);
      const b = document.createElement('button');
      b.className = 'hole';
      b.dataset.hole = name;
      b.innerHTML = '<span class="dots" aria-hidden="true"></span><span class="n" aria-hidden="true"></span>';
      b.addEventListener('click', () => this.onPick(name));
      this.holes[name] = b;
      this.el.append(b);
    }
    this.stores = {};
    for (const p of ['A', 'B']) {
      const s = document.createElement('div');
      s.className = `store ${p.toLowerCase()}`;
      s.dataset.store = p;
      s.setAttribute('role', 'img');
      s.innerHTML = `<span class="who" aria-hidden="true">${p}</span><span class="n">0</span>`;
      this.stores[p] = s;
      this.el.append(s);
    }
    container.append(this.el);
    this.board = new Array(12).fill(0);
    this.caps = { B: 0, A: 0 };
    this.setFlip(flip);
  }

  // Places the holes: B's side view, or A's (the board turned round) when `flip`.
  setFlip(flip) {
    this.flipped = !!flip;
    this.el.classList.toggle('flipped', this.flipped);
    const top = this.flipped ? 'B' : 'A';
    for (const name of RING) {
      const num = Number(name[0]);
      const onTop = name[1] === top;
      const col = onTop ? 1 + num : 8 - num;
      this.labels[name].style.gridColumn = col;
      this.labels[name].style.gridRow = onTop ? 1 : 4;
      this.holes[name].style.gridColumn = col;
      this.holes[name].style.gridRow = onTop ? 2 : 3;
    }
    // Each store at its owner's right hand: the player at the bottom has it on the right.
    this.stores[top].style.gridColumn = 1;
    this.stores[top === 'A' ? 'B' : 'A'].style.gridColumn = 8;
  }

  // Draws counts; `legal` holes are marked playable.
  render(board, caps, { legal = [], toMove = null } = {}) {
    this.board = board.slice();
    this.caps = { ...caps };
    this.el.classList.toggle('turn-b', toMove === 'B');
    this.el.classList.toggle('turn-a', toMove === 'A');
    for (let i = 0; i < 12; i++) this.drawHole(RING[i], board[i], legal.includes(RING[i]));
    for (const p of ['A', 'B']) this.drawStore(p, caps[p]);
  }

  drawStore(p, n) {
    this.stores[p].querySelector('.n').textContent = n;
    this.stores[p].setAttribute('aria-label', tn('store.label', n, { p }));
  }

  drawHole(name, n, legal) {
    const b = this.holes[name];
    b.querySelector('.n').textContent = n;
    const dots = b.querySelector('.dots');
    const want = Math.min(n, 15);
    if (dots.children.length !== want) dots.innerHTML = '<span class="dot"></span>'.repeat(want);
    dots.classList.toggle('many', n > 15);
    b.classList.toggle('legal', !!legal);
    b.setAttribute('aria-disabled', legal ? 'false' : 'true');
    b.setAttribute('aria-label', tn('hole.label', n, { hole: name }) + (legal ? '' : ` (${t('hole.notplayable')})`));
  }

  clearMarks(only = MARKS) {
    for (const b of Object.values(this.holes)) b.classList.remove(...only);
  }

  mark(name, cls) {
    if (this.holes[name]) this.holes[name].classList.add(cls);
  }

  // The last move, drawn after it: where it came from, where its last stone landed, what it took.
  markLast(ply) {
    this.clearMarks();
    if (!ply) return;
    this.mark(ply.from, 'from');
    this.mark(ply.sown[ply.sown.length - 1], 'landed');
    for (const c of ply.captured) this.mark(c, 'captured');
  }

  // Sows stone by stone (R3), then shows the captured chain (R4) going to the mover's store.
  // `cancelled()` true stops it early (the caller draws the position itself).
  async animate(ply, before, beforeCaps, cancelled = () => false) {
    const d = stoneDelay();
    const b = before.slice();
    const caps = { ...beforeCaps };
    this.clearMarks();
    b[RING.indexOf(ply.from)] = 0;
    this.render(b, caps);
    this.mark(ply.from, 'from');
    const per = ply.sown.length > 12 ? d * 0.6 : d;
    for (const h of ply.sown) {
      if (per) await sleep(per);
      if (cancelled()) return;
      b[RING.indexOf(h)] += 1;
      this.drawHole(h, b[RING.indexOf(h)], false);
      this.clearMarks(['sowing']);
      this.mark(h, 'sowing');
      if (d) sound.sow();
    }
    this.clearMarks(['sowing']);
    this.mark(ply.sown[ply.sown.length - 1], 'landed');
    if (ply.captured.length) {
      if (d) await sleep(d * 2);
      if (cancelled()) return;
      for (const h of ply.captured) this.mark(h, 'taking');
      if (d) sound.capture();
      if (d) await sleep(d * 4);
      if (cancelled()) return;
      for (const h of ply.captured) {
        b[RING.indexOf(h)] = 0;
        caps[ply.mover] += 1;
        this.holes[h].classList.remove('taking');
      }
      this.render(b, caps);
    }
    if (d) await sleep(d * 2);
  }
}
