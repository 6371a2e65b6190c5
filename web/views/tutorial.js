// The tutorial: one step a rule, each with a task on the real board. Only the step's answer is
// accepted; any other legal move is refused with a hint, and the step ends once it is made.
import { api } from '../api.js';
import { Board } from '../board.js';
import { h, main, say } from '../dom.js';
import { t } from '../i18n.js';

let stepsCache = null;

export async function viewTutorial(arg, setCleanup) {
  if (!stepsCache) stepsCache = (await api.tutorial()).steps;
  const steps = stepsCache;
  let k = Number(arg) - 1;
  if (!Number.isInteger(k) || k < 0 || k >= steps.length) k = 0;
  const step = steps[k];
  let cancelled = false;
  setCleanup(() => {
    cancelled = true;
  });

  const status = h('p', { class: 'status', id: 'tut-status', 'aria-live': 'polite' });
  const boardBox = h('div', { class: 'board-box' });
  const nextBtn = h(
    'button',
    {
      type: 'button',
      id: 'tut-next',
      class: 'primary',
      disabled: true,
      onclick: () => {
        location.hash = `#/tutorial/${k + 2}`;
      },
    },
    t('tut.next'),
  );
  const finished = h('div', { class: 'tut-finished', id: 'tut-finished', hidden: true });
  let stage = 0;
  let busy = false;
  const board = new Board(boardBox, (hole) => pick(hole));

  function draw() {
    const s = step.stages[stage];
    board.render(s.board, { B: s.captured_b, A: s.captured_a }, { legal: s.legal, toMove: s.to_move });
  }

  function complete() {
    const e = step.end;
    board.render(e.board, { B: e.captured_b, A: e.captured_a }, { toMove: e.to_move });
    status.textContent = t(`tut.${step.id}.done`);
    status.className = 'status right';
    say(status.textContent);
    if (k + 1 < steps.length) {
      nextBtn.disabled = false;
      nextBtn.focus();
    } else {
      finished.hidden = false;
    }
  }

  async function pick(hole) {
    if (busy || stage >= step.answer.length) return;
    const s = step.stages[stage];
    if (!s.legal.includes(hole)) return;
    if (hole !== step.answer[stage]) {
      status.textContent = t('tut.wrong');
      status.className = 'status wrong';
      say(status.textContent);
      return;
    }
    busy = true;
    status.textContent = '';
    status.className = 'status';
    await board.animate(s.plies[hole], s.board, { B: s.captured_b, A: s.captured_a }, () => cancelled);
    busy = false;
    if (cancelled) return;
    stage += 1;
    if (stage < step.answer.length) draw();
    else complete();
  }

  const dots = steps.map((_, i) =>
    h('a', {
      href: `#/tutorial/${i + 1}`,
      class: i === k ? 'dot current' : 'dot',
      'aria-label': t('tut.step', { k: i + 1, n: steps.length }),
    }),
  );
  finished.append(
    h('p', {}, t('tut.finished')),
    h('a', { href: '#/', class: 'button primary', id: 'tut-play' }, t('tut.play')),
  );
  main.replaceChildren(
    h(
      'section',
      { class: 'card tutorial' },
      h('h2', {}, t('tut.title')),
      h('div', { class: 'tut-steps', role: 'navigation', 'aria-label': t('tut.title') }, dots),
      h('p', { class: 'help', id: 'tut-count' }, t('tut.step', { k: k + 1, n: steps.length })),
      h('h3', { id: 'tut-title' }, t(`tut.${step.id}.title`)),
      h('p', { id: 'tut-text' }, t(`tut.${step.id}.text`)),
      h('p', { class: 'task', id: 'tut-task' }, t(`tut.${step.id}.task`)),
      boardBox,
      status,
      h(
        'div',
        { class: 'controls' },
        h(
          'button',
          {
            type: 'button',
            id: 'tut-back',
            disabled: k === 0,
            onclick: () => {
              location.hash = `#/tutorial/${k}`;
            },
          },
          t('tut.back'),
        ),
        h(
          'button',
          {
            type: 'button',
            id: 'tut-again',
            onclick: () => {
              stage = 0;
              status.textContent = '';
              board.clearMarks();
              nextBtn.disabled = true;
              draw();
            },
          },
          t('tut.again'),
        ),
        nextBtn,
      ),
      finished,
    ),
  );
  draw();
}
