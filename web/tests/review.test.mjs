// Browser tests of the game review beside the replay and of the analysis board (desktop and
// phone); run by run.sh with the other *.test.mjs files (shared set-up in harness.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { URL, newPage, shot, noOverflow } from './harness.mjs';

async function api(method, path, body) {
  const r = await fetch(URL + path, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return r.json();
}

// A finished two-on-one-screen game from a 12-stone study position, each side playing its last
// legal hole in ring order (not the best, so the review finds losses).
async function finishedGame() {
  const c = await api('POST', '/api/games', { mode: 'local', position: '2,1,0,3,0,1/1,0,2,0,1,1 B 24 24' });
  let g = c.game;
  for (let n = 0; n < 200 && !g.result; n++)
    g = await api('POST', `/api/games/${g.id}/move`, { token: c.token, move: g.legal.at(-1) });
  assert.ok(g.result, 'the game ended');
  return g;
}

test('the review of a finished game: graph, marks, the better move, summaries', async () => {
  const g = await finishedGame();
  for (const [viewport, name] of [
    [{ width: 1280, height: 800 }, 'desktop'],
    [{ width: 360, height: 740 }, 'phone'],
  ]) {
    const { ctx, page, errors } = await newPage(viewport);
    await page.goto(`${URL}/#/replay/${g.id}`);
    await page.locator('#review-table').waitFor({ timeout: 60000 });
    // One summary row a player, whose class counts add up to the moves it played.
    for (const p of ['B', 'A']) {
      const cells = await page.locator(`#review-table td[data-player="${p}"][data-class]`).allTextContents();
      const mine = g.plies.filter((x) => x.mover === p).length;
      assert.equal(
        cells.reduce((s, c) => s + Number(c), 0),
        mine,
        `${p}: ${cells}`,
      );
      assert.match(await page.locator(`#review-table .acc[data-player="${p}"]`).textContent(), /\d+\.\d %/);
    }
    // The graph has a point for the start and after every move.
    const pts = await page.locator('#review-graph polyline').getAttribute('points');
    assert.equal(pts.split(' ').length, g.plies.length + 1);
    // Every move in the list carries its class.
    const classes = await page
      .locator('#movelist .ply')
      .evaluateAll((els) => els.map((e) => [...e.classList].find((c) => c.startsWith('rv-'))));
    assert.equal(classes.length, g.plies.length);
    assert.ok(
      classes.every((c) => c),
      `${classes}`,
    );
    // A move that gave stones away: its verdict, then the better move on the board before it.
    const review = (await api('GET', `/api/games/${g.id}/review`)).review;
    const bad = review.moves.find((m) => m.loss > 0);
    assert.ok(bad, 'the last-hole player gives stones away somewhere');
    await page.locator(`#movelist .ply[data-ply="${bad.ply}"]`).click();
    assert.match(await page.locator('#review-verdict').textContent(), new RegExp(`${bad.ply}\\. ${bad.move}`));
    assert.match(await page.locator('#review-verdict').textContent(), new RegExp(`Better: ${bad.best}`));
    if (name === 'desktop') await shot(page, '60-review-verdict');
    await page.locator('#review-better').click();
    await page.waitForFunction(() => document.querySelector('#review-better-note'));
    assert.deepEqual(await page.locator('.hole.hint').evaluateAll((els) => els.map((e) => e.dataset.hole)), [bad.best]);
    assert.match(
      await page.locator('#replay-status').textContent(),
      new RegExp(bad.ply === 1 ? 'start' : `Move ${bad.ply - 1} of`),
    );
    await shot(page, `61-review-better-${name}`);
    // The position before the move opens on the analysis board.
    const before = bad.ply === 1 ? g.start : g.plies[bad.ply - 2].after;
    assert.equal(await page.locator('#review-analyse').getAttribute('href'), `#/analyse/${encodeURIComponent(before)}`);
    await noOverflow(page, `review on ${name}`);
    assert.deepEqual(errors, []);
    await ctx.close();
  }
  // Stored: asking again answers at once with the same review.
  const again = await api('POST', `/api/games/${g.id}/review`, {});
  assert.equal(again.state, 'done');
});

test('the analysis board: values of every move, free play, set-up, paste and links', async () => {
  const { ctx, page, errors } = await newPage();
  await page.goto(`${URL}/#/analyse`);
  await page.waitForFunction(() => document.querySelectorAll('#an-moves tr').length === 6);
  assert.match(await page.locator('#an-status').textContent(), /B to move: [+-]?\d+ stones/);
  assert.match(await page.locator('#an-pv').textContent(), /Best line: \d[AB]/);
  // Free play: a move by click, the link follows the position, and back again.
  await page.locator('[data-hole="3B"]').click();
  await page.waitForFunction(() => /A to move/.test(document.querySelector('#an-status').textContent));
  const after = '5,5,0,6,6,6/6,6,5,5,5,5 A 0 0';
  assert.equal(await page.locator('#an-n2').inputValue(), after);
  assert.ok((await page.locator('#an-link').inputValue()).endsWith(`#/analyse/${encodeURIComponent(after)}`));
  assert.ok(page.url().endsWith(`#/analyse/${encodeURIComponent(after)}`));
  await page.locator('#an-back').click();
  await page.waitForFunction(() => /B to move/.test(document.querySelector('#an-status').textContent));
  await shot(page, '62-analysis-start');
  // Set up: an empty board, then stones clicked on: 2 in 1B, 1 in 3A; A to move.
  await page.locator('[data-mode="setup"]').click();
  await page.locator('#an-clear').click();
  await page.waitForFunction(() => document.querySelector('#an-n2').value === '0,0,0,0,0,0/0,0,0,0,0,0 B 0 0');
  for (const hole of ['1B', '1B', '3A']) {
    await page.locator(`[data-hole="${hole}"]`).click();
    await page.waitForTimeout(100);
  }
  // A stone dragged from 1B to 2B and back.
  await page.locator('[data-hole="1B"]').dragTo(page.locator('[data-hole="2B"]'));
  await page.waitForFunction(() => document.querySelector('#an-n2').value === '1,1,0,0,0,0/0,0,1,0,0,0 B 0 0');
  await page.locator('[data-hole="2B"]').dragTo(page.locator('[data-hole="1B"]'));
  await page.waitForFunction(() => document.querySelector('#an-n2').value === '2,0,0,0,0,0/0,0,1,0,0,0 B 0 0');
  await page.locator('#an-tomove').selectOption('A');
  await page.waitForFunction(() => document.querySelector('#an-n2').value === '2,0,0,0,0,0/0,0,1,0,0,0 A 0 0');
  await page.locator('[data-mode="play"]').click();
  await page.waitForFunction(() => document.querySelectorAll('#an-moves tr').length === 1);
  assert.equal(await page.locator('.an-move').textContent(), '3A');
  // Paste a position string.
  const study = '2,1,0,3,0,1/1,0,2,0,1,1 B 24 24';
  await page.locator('#an-n2').fill(study);
  await page.locator('#an-load').click();
  await page.waitForFunction(() => document.querySelectorAll('#an-moves tr').length === 4);
  assert.equal(await page.locator('[data-hole="4B"] .n').textContent(), '3');
  await shot(page, '63-analysis-study');
  assert.deepEqual(errors, []);
  // A bad string is refused with the server's reason (the 400 is expected here).
  await page.locator('#an-n2').fill('1,2,3 B 0 0');
  await page.locator('#an-load').click();
  await page.waitForFunction(() => /position/.test(document.querySelector('#an-error').textContent));
  await ctx.close();
  // The shared link opens the same position, also on a phone.
  const phone = await newPage({ width: 360, height: 740 });
  await phone.page.goto(`${URL}/#/analyse/${encodeURIComponent(study)}`);
  await phone.page.waitForFunction(() => document.querySelectorAll('#an-moves tr').length === 4);
  assert.equal(await phone.page.locator('#an-n2').inputValue(), study);
  await shot(phone.page, '64-analysis-phone');
  await noOverflow(phone.page, 'analysis on a phone');
  assert.deepEqual(phone.errors, []);
  await phone.ctx.close();
});
