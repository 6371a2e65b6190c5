// The board of RULES.md R1, drawn with CSS grid: A's row on top (1A..6A left to right), B's row
// below (6B..1B left to right); A's store on the left (A's right hand, facing B), B's on the right.
import { t } from './i18n.js';

export const RING = ['1B', '2B', '3B', '4B', '5B', '6B', '1A', '2A', '3A', '4A', '5A', '6A'];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function stoneDelay() {
  return { slow: 320, normal: 160, fast: 50, instant: 0 }[localStorage.getItem('vlt.speed') || 'normal'] ?? 160;
}

export class Board {
  constructor(container, onPick) {
    this.onPick = onPick;
    this.el = document.createElement('div');
    this.el.className = 'board';
    this.el.setAttribute('role', 'group');
    this.el.setAttribute('aria-label', t('board'));
    this.holes = {};
    for (let i = 0; i < 12; i++) {
      const name = RING[i];
      const num = Number(name[0]);
      const isA = name[1] === 'A';
      const col = isA ? 1 + num : 8 - num;
      const lab = document.createElement('div');
      lab.className = 'label';
      lab.textContent = name;
      lab.style.gridColumn = col;
      lab.style.gridRow = isA ? 1 : 4;
      lab.setAttribute('aria-hidden', 'true');
      this.el.append(lab);
      const b = document.createElement('button');
      b.className = 'hole';
      b.dataset.hole = name;
      b.style.gridColumn = col;
      b.style.gridRow = isA ? 2 : 3;
      b.innerHTML = '<span class="dots" aria-hidden="true"></span><span class="n" aria-hidden="true"></span>';
      b.addEventListener('click', () => {
        if (b.getAttribute('aria-disabled') !== 'true') this.onPick(name);
      });
      this.holes[name] = b;
      this.el.append(b);
    }
    this.stores = {};
    for (const p of ['A', 'B']) {
      const s = document.createElement('div');
      s.className = `store ${p.toLowerCase()}`;
      s.dataset.store = p;
      s.innerHTML = `<span class="who">${p}</span><span class="n">0</span>`;
      this.stores[p] = s;
      this.el.append(s);
    }
    container.append(this.el);
    this.board = new Array(12).fill(0);
    this.caps = { B: 0, A: 0 };
  }

  // Draws counts; `legal` holes are clickable, the others are announced but inert.
  render(board, caps, { legal = [], toMove = null } = {}) {
    this.board = board.slice();
    this.caps = { ...caps };
    this.el.classList.toggle('turn-b', toMove === 'B');
    this.el.classList.toggle('turn-a', toMove === 'A');
    for (let i = 0; i < 12; i++) this.drawHole(RING[i], board[i], legal.includes(RING[i]));
    for (const p of ['A', 'B']) {
      this.stores[p].querySelector('.n').textContent = caps[p];
      this.stores[p].setAttribute('aria-label', t('store.label', { p, n: caps[p] }));
      this.stores[p].setAttribute('role', 'img');
    }
  }

  drawHole(name, n, legal) {
    const b = this.holes[name];
    b.querySelector('.n').textContent = n;
    const dots = b.querySelector('.dots');
    const want = Math.min(n, 15);
    if (dots.children.length !== want) {
      dots.innerHTML = '<span class="dot"></span>'.repeat(want);
    }
    b.classList.toggle('legal', !!legal);
    b.setAttribute('aria-disabled', legal ? 'false' : 'true');
    b.setAttribute('aria-label', t(n === 1 ? 'hole.label1' : 'hole.label', { hole: name, n }) + (legal ? '' : ` (${t('hole.notplayable')})`));
  }

  clearMarks() {
    for (const b of Object.values(this.holes)) b.classList.remove('sow', 'cap', 'last', 'hint', 'from');
  }

  mark(name, cls) { if (this.holes[name]) this.holes[name].classList.add(cls); }

  // Sows stone by stone (R3), then shows the captured chain (R4) going to the mover's store.
  async animate(ply, before, beforeCaps) {
    const d = stoneDelay();
    const b = before.slice();
    const caps = { ...beforeCaps };
    this.clearMarks();
    const from = RING.indexOf(ply.from);
    b[from] = 0;
    this.render(b, caps);
    this.mark(ply.from, 'from');
    const per = ply.sown.length > 12 ? d * 0.6 : d;
    for (const h of ply.sown) {
      if (per) await sleep(per);
      b[RING.indexOf(h)] += 1;
      this.drawHole(h, b[RING.indexOf(h)], false);
      for (const x of Object.values(this.holes)) x.classList.remove('last');
      this.mark(h, 'sow');
      this.mark(h, 'last');
    }
    if (ply.captured.length) {
      if (d) await sleep(d * 2);
      for (const h of ply.captured) this.mark(h, 'cap');
      if (d) await sleep(d * 4);
      for (const h of ply.captured) { b[RING.indexOf(h)] = 0; caps[ply.mover] += 1; }
      this.render(b, caps);
      for (const h of ply.captured) this.mark(h, 'cap');
    }
    if (d) await sleep(d * 2);
  }
}
