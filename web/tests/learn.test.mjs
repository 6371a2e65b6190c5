// Browser tests of the puzzles and the tutorial; run by run.sh with the other *.test.mjs files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { URL, newPage, shot, noOverflow } from './harness.mjs';

const api = (page, path) => page.evaluate((p) => fetch(p).then((r) => r.json()), path);

test('a puzzle: a wrong move is refused with its value, the right one is accepted and explained', async () => {
  const { ctx, page, errors } = await newPage();
  await page.goto(`${URL}/#/puzzles/1`);
  await page.locator('#puzzle-task').waitFor();
  const p = await api(page, '/api/puzzles/1');
  const s = await api(page, '/api/puzzles/1/solution');
  assert.ok(p.legal.length >= 2 && p.legal.includes(s.best));
  // The task names the mover and the stones to win, as the tables have them.
  const task = await page.locator('#puzzle-task').textContent();
  assert.ok(task.startsWith(`${p.to_move} to move`), task);
  if (p.value > 0) assert.match(task, new RegExp(`${p.value} stones? ahead`));
  assert.match(
    await page.locator('#puzzle-meta').textContent(),
    new RegExp(`Puzzle 1 of ${p.total} · rated ${p.rating}`),
  );
  assert.deepEqual(await page.locator('.hole.legal').evaluateAll((els) => els.map((e) => e.dataset.hole)), p.legal);
  await shot(page, 'learn-01-puzzle');
  const wrong = s.values.find((v) => v.move !== s.best);
  await page.locator(`[data-hole="${wrong.move}"]`).click();
  await page.waitForFunction(() => /Not the best/.test(document.querySelector('#puzzle-status').textContent));
  const gap = s.value - wrong.value;
  assert.match(await page.locator('#puzzle-status').textContent(), new RegExp(`${gap} stones? less`));
  // Still the puzzle's position: the wrong move was not played.
  assert.equal(await page.locator('.hole.legal').count(), p.legal.length);
  await page.locator(`[data-hole="${s.best}"]`).click();
  await page.waitForFunction(() => /Right/.test(document.querySelector('#puzzle-status').textContent));
  await page.waitForFunction(() => /Solution: /.test(document.querySelector('#puzzle-solution').textContent));
  assert.match(await page.locator('#puzzle-solution').textContent(), new RegExp(`Solution: ${s.best}\\.`));
  assert.equal(await page.locator('.hole.legal').count(), 0, 'a solved puzzle takes no more moves');
  // The attempt is remembered in this browser as not solved at the first try.
  const rec = await page.evaluate(() => JSON.parse(localStorage.getItem('vlt.puzzles')));
  assert.equal(rec.tried['1'], false);
  // A miss: the puzzle rating (Glicko-2 on the server) falls from a newcomer's 1500.
  await page.waitForFunction(() =>
    /Your puzzle rating: \d+ ± \d+/.test(document.querySelector('#puzzle-rating').textContent),
  );
  const rated = await page.evaluate(() => JSON.parse(localStorage.getItem('vlt.puzzles')));
  assert.ok(rated.player.rating < 1500 && rated.player.deviation < 350, JSON.stringify(rated.player));
  await shot(page, 'learn-02-puzzle-solved');
  // Next: another puzzle, not tried yet.
  await page.locator('#puzzle-next').click();
  await page.waitForURL((u) => /#\/puzzles\/\d+$/.test(u.hash) && !u.hash.endsWith('/1'));
  // The next puzzle's view is drawn (until then the old one stays on the screen).
  await page.waitForFunction(() => /^Puzzle (?!1 of)\d+ of/.test(document.querySelector('#puzzle-meta')?.textContent));
  // A theme filter gives a puzzle of that theme.
  await page.locator('#puzzle-theme').selectOption('chain');
  await page
    .waitForFunction(() => /chain capture/.test(document.querySelector('#puzzle-meta')?.textContent || ''), null, {
      timeout: 10_000,
    })
    .catch(async (e) => {
      const seen = await page.evaluate(() => [
        location.hash,
        document.querySelector('main')?.textContent.slice(0, 300),
      ]);
      throw new Error(`no chain-capture puzzle shown: ${JSON.stringify(seen)} (${e.message})`);
    });
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('the puzzle view on a phone', async () => {
  const { ctx, page, errors } = await newPage({ width: 360, height: 740 });
  await page.goto(`${URL}/#/puzzles/2`);
  await page.locator('#puzzle-task').waitFor();
  await noOverflow(page, 'puzzles on a phone');
  const s = await api(page, '/api/puzzles/2/solution');
  await page.locator('#puzzle-show').click();
  await page.waitForFunction(() => /Solution: /.test(document.querySelector('#puzzle-solution').textContent));
  assert.equal(await page.locator(`[data-hole="${s.best}"].hint`).count(), 1);
  await shot(page, 'learn-03-puzzle-phone');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('the tutorial: each step accepts only its answer, then goes on to the end', async () => {
  const { ctx, page, errors } = await newPage();
  await page.goto(`${URL}/#/tutorial`);
  await page.locator('#tut-task').waitFor();
  const { steps } = await api(page, '/api/tutorial');
  assert.equal(steps.length, 8);
  for (let k = 0; k < steps.length; k++) {
    const step = steps[k];
    await page.waitForFunction((n) => document.querySelector('#tut-count')?.textContent === `Step ${n} of 8`, k + 1);
    assert.equal(await page.locator('#tut-next').isDisabled(), true);
    // A wrong legal move is refused and changes nothing.
    const wrong = step.stages[0].legal.find((m) => m !== step.answer[0]);
    await page.locator(`[data-hole="${wrong}"]`).click();
    await page.waitForFunction(() => /Not that move/.test(document.querySelector('#tut-status').textContent));
    assert.equal(await page.locator('#tut-next').isDisabled(), true);
    for (let i = 0; i < step.answer.length; i++) {
      await page.locator(`[data-hole="${step.answer[i]}"].legal`).waitFor();
      await page.locator(`[data-hole="${step.answer[i]}"]`).click();
    }
    await page.waitForFunction(() => document.querySelector('#tut-status').classList.contains('right'));
    const after = step.end.board;
    for (let i = 0; i < 12; i++) {
      const hole = ['1B', '2B', '3B', '4B', '5B', '6B', '1A', '2A', '3A', '4A', '5A', '6A'][i];
      assert.equal(
        await page.locator(`[data-hole="${hole}"] .n`).textContent(),
        String(after[i]),
        `${step.id} ${hole}`,
      );
    }
    if (k === 1 || k === 4) await shot(page, `learn-0${4 + (k === 4)}-tutorial-${step.id}`);
    if (k + 1 < steps.length) await page.locator('#tut-next').click();
  }
  await page.locator('#tut-finished').waitFor();
  assert.match(await page.locator('#tut-status').textContent(), /count for nobody/);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('the tutorial in German and on a phone', async () => {
  const { ctx, page, errors } = await newPage({ width: 360, height: 740 });
  await page.goto(`${URL}/#/tutorial/3`);
  await page.locator('#tut-task').waitFor();
  await page.locator('#lang').selectOption('de');
  await page.waitForFunction(() => document.querySelector('#tut-title')?.textContent === 'Schlagen');
  assert.match(await page.locator('#tut-task').textContent(), /Säe die 7 Steine aus 1B/);
  await noOverflow(page, 'tutorial on a phone');
  // Every header link, the longer German words included, stays on the screen.
  for (const box of await page
    .locator('header nav a')
    .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right)))
    assert.ok(box <= 360, `a header link ends at ${box} px`);
  // The step marks are round.
  const dot = await page.locator('.tut-steps .dot').first().boundingBox();
  assert.equal(Math.round(dot.width), Math.round(dot.height));
  await shot(page, 'learn-06-tutorial-phone-de');
  assert.deepEqual(errors, []);
  await ctx.close();
});
