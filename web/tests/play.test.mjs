// Browser tests of the game against the computer, online play, languages, settings and the phone
// layout; run by run.sh with the other *.test.mjs files (shared set-up in harness.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { URL, newPage, shot, playUntilOver, noOverflow, start } from './harness.mjs';

test('a game against the computer at level 1, played to the end by clicks', async () => {
  const { ctx, page, errors } = await newPage();
  await page.goto(URL);
  // The level's meaning in the plural form its depth asks for.
  await page.locator('#level').selectOption('1');
  assert.match(await page.locator('#level-help').textContent(), /Looks 1 move ahead/);
  await page.locator('#level').selectOption('4');
  assert.match(await page.locator('#level-help').textContent(), /4 moves ahead/);
  await shot(page, '01-home');
  // A short study position: 12 stones left on the board, B to move.
  await start(page, { position: '2,1,0,3,0,1/1,0,2,0,1,1 B 24 24' });
  await page.locator('.hole.legal').first().waitFor();
  // The board follows R1: 1A..6A on top left to right, 6B..1B below; every hole is announced.
  const boxes = {};
  for (const hname of ['1A', '6A', '6B', '1B'])
    boxes[hname] = await page.locator(`[data-hole="${hname}"]`).boundingBox();
  assert.ok(boxes['1A'].x < boxes['6A'].x && boxes['6B'].x < boxes['1B'].x);
  assert.ok(boxes['1A'].y < boxes['6B'].y);
  assert.match(await page.locator('[data-hole="1B"]').getAttribute('aria-label'), /1B, 2 stones/);
  assert.match(await page.locator('[data-hole="2B"]').getAttribute('aria-label'), /2B, 1 stone\b/);
  // Names and scores: you at the bottom, the computer at the top, each with its captures.
  assert.match(await page.locator('#player-bottom').textContent(), /You.*24/);
  assert.match(await page.locator('#player-top').textContent(), /Computer · level 1.*24/);
  // Refused choices are explained, in the visible notice and the live region.
  await page.locator('[data-hole="1A"]').click({ force: true });
  await page.waitForFunction(() => /1A is not yours/.test(document.querySelector('#notice').textContent));
  await page.waitForFunction(() => /1A is not yours/.test(document.querySelector('#announce').textContent));
  await page.locator('[data-hole="3B"]').click({ force: true });
  await page.waitForFunction(() => /3B is empty/.test(document.querySelector('#notice').textContent));
  await page.keyboard.press('5'); // 5B is empty
  await page.waitForFunction(() => /5B is empty/.test(document.querySelector('#notice').textContent));
  await page.keyboard.press('8');
  await page.waitForFunction(() => /Press 1–6/.test(document.querySelector('#notice').textContent));
  // Only playable holes look playable: 3B and 5B (empty) and A's holes do not.
  assert.deepEqual(await page.locator('.hole.legal').evaluateAll((els) => els.map((e) => e.dataset.hole)), [
    '1B',
    '2B',
    '4B',
    '6B',
  ]);
  assert.match(await page.title(), /Your turn/);
  // The predicted final score is labelled and says who is ahead in stones.
  await page.waitForFunction(() => /B \d+ – \d+ A/.test(document.querySelector('#eval-text').textContent));
  assert.match(await page.locator('#eval').textContent(), /Predicted final score/);
  // The hint shows its move and its value.
  await page.locator('#hint').click();
  await page.waitForFunction(() =>
    /Hint: play \d[AB]\. .*B \d+ – \d+ A/.test(document.querySelector('#notice').textContent),
  );
  assert.equal(await page.locator('.hole.hint').count(), 1);
  await shot(page, '02-game-start');
  // Keyboard: focus the first legal hole and press Enter.
  await page.locator('.hole.legal').first().focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('#movelist .ply').length >= 1);
  await shot(page, '03-after-first-move');
  const moves = await playUntilOver([page]);
  assert.match(await page.locator('#status').textContent(), /wins|Draw/);
  // The result screen: the verdict for you, the score, how it ended, and what next.
  await page.locator('#result').waitFor();
  assert.match(await page.locator('#result-title').textContent(), /^(You won|You lost|Draw)$/);
  assert.match(await page.locator('#result').textContent(), /B \d+ – \d+ A.*The board is empty/);
  for (const b of ['#rematch', '#review', '#newgame-link']) assert.ok(await page.locator(b).isVisible(), b);
  assert.equal(
    await page.locator('#hint:visible, #undo:visible, #resign:visible').count(),
    0,
    'no game controls after the end',
  );
  assert.equal(await page.locator('.board.turn-a, .board.turn-b').count(), 0, 'no turn outline after the end');
  assert.ok((await page.locator('#movelist .ply').count()) >= 2);
  // The move list can be browsed: the arrow key shows the position before the last move.
  await page.keyboard.press('ArrowLeft');
  await page.locator('#browse-bar').waitFor();
  const n = await page.locator('#movelist .ply').count();
  assert.equal(await page.locator('#movelist .ply.cur').getAttribute('data-ply'), String(n - 1));
  await page.keyboard.press('End');
  await page.locator('#browse-bar').waitFor({ state: 'hidden' });
  await shot(page, '04-game-over');
  // The recent games on the home page name the opponent and the result.
  await page.goto(URL);
  assert.match(await page.locator('#recent li').first().textContent(), /Computer, level 1.*(You won|You lost|Draw)/);
  // The finished game is in the archive, its result in words, and replays.
  await page.goto(`${URL}/#/archive`);
  assert.match(
    await page.locator('table.archive tbody tr').first().textContent(),
    /(B|A) wins \d+–\d+\. The board is empty\.|Draw/,
  );
  await page.locator('table.archive a').first().click();
  await page.locator('#replay-next').click();
  await page.waitForFunction(() => /^Move 1 of/.test(document.querySelector('#replay-status').textContent));
  // Keys step the replay, and the move list follows.
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => /^Move 2 of/.test(document.querySelector('#replay-status').textContent));
  assert.equal(await page.locator('#movelist .ply.cur').getAttribute('data-ply'), '2');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => /^Move 1 of/.test(document.querySelector('#replay-status').textContent));
  await page.keyboard.press('Home');
  await page.waitForFunction(() => /start position/.test(document.querySelector('#replay-status').textContent));
  // Play, then jump to the end while it plays: no page error, the end is shown.
  await page.locator('#replay-play').click();
  await page.waitForTimeout(30);
  await page.locator('#replay-last').click();
  await page.waitForTimeout(600);
  assert.match(await page.locator('#replay-status').textContent(), /wins|Draw/);
  assert.equal(await page.locator('#movelist .ply.cur').getAttribute('data-ply'), String(n));
  await page.keyboard.press('End');
  await shot(page, '05-replay');
  assert.deepEqual(errors, [], `no page errors (after ${moves} rounds)`);
  await ctx.close();
});

test('an online game between two browser contexts', async () => {
  const one = await newPage();
  const two = await newPage({ width: 360, height: 740 }); // a phone
  await start(one.page, { mode: 'online', position: '1,2,0,1,0,2/0,1,1,0,2,0 B 25 25' });
  const link = await one.page.locator('#invite-link').inputValue();
  assert.match(link, /#\/j\/[0-9a-f]+$/);
  assert.match(await one.page.locator('#status').textContent(), /Waiting for your friend/);
  await one.page.locator('[data-hole="1B"]').click({ force: true });
  await one.page.waitForFunction(() => /not joined/.test(document.querySelector('#notice').textContent));
  await shot(one.page, '10-online-invite');
  await two.page.goto(link);
  await two.page.waitForURL(/#\/g\//);
  // The friend joined: the creator's page sees it live and may move.
  await one.page.locator('.hole.legal').first().waitFor();
  assert.equal(await two.page.locator('.hole.legal').count(), 0, 'the friend (A) waits for B');
  // The friend plays A: their own row is at the bottom, 1A at the right as seen from A's side.
  await two.page.waitForFunction(() => document.querySelector('.board.flipped'));
  const a1 = await two.page.locator('[data-hole="1A"]').boundingBox();
  const b1 = await two.page.locator('[data-hole="1B"]').boundingBox();
  const a6 = await two.page.locator('[data-hole="6A"]').boundingBox();
  assert.ok(a1.y > b1.y && a6.x < a1.x, 'A at the bottom, 6A..1A left to right');
  assert.match(await two.page.locator('#player-bottom').textContent(), /You/);
  // Each side sees whether the other is connected.
  await one.page.waitForFunction(() => /online/.test(document.querySelector('#player-top .presence').textContent));
  // Not your turn: said so.
  await two.page.locator('[data-hole="1A"]').click({ force: true });
  await two.page.waitForFunction(() => /Not your turn/.test(document.querySelector('#notice').textContent));
  await shot(two.page, '11-online-friend-phone');
  await noOverflow(two.page, 'online game, phone');
  // The board turns round on request, and the choice stays.
  await two.page.locator('#flip').click();
  assert.equal(await two.page.locator('.board.flipped').count(), 0);
  assert.ok(
    (await two.page.locator('[data-hole="1A"]').boundingBox()).y <
      (await two.page.locator('[data-hole="1B"]').boundingBox()).y,
  );
  await two.page.locator('#flip').click();
  // A move on one side appears live on the other.
  await one.page.locator('.hole.legal').first().click();
  await two.page.waitForFunction(() => document.querySelectorAll('#movelist .ply').length === 1);
  // Reconnection: B's socket drops; A moves meanwhile; the move still reaches B.
  await one.page.evaluate(() => window.__sockets.forEach((s) => s.close()));
  await one.page.locator('#conn.error').waitFor();
  await two.page.locator('.hole.legal').first().click();
  await one.page.waitForFunction(() => document.querySelectorAll('#movelist .ply').length === 2);
  await one.page.waitForFunction(() => window.__sockets.some((s) => s.readyState === 1));
  await one.page.waitForFunction(() => document.querySelector('#conn').textContent === '');
  await playUntilOver([one.page, two.page]);
  await two.page.waitForSelector('#status.over');
  const a = await one.page.locator('#status').textContent();
  const b = await two.page.locator('#status').textContent();
  assert.equal(a, b, 'both see the same result');
  const verdicts = [
    await one.page.locator('#result-title').textContent(),
    await two.page.locator('#result-title').textContent(),
  ].sort();
  assert.ok(['You lost,You won', 'Draw,Draw'].includes(verdicts.join()), verdicts.join());
  assert.equal(await one.page.locator('#hint:visible').count(), 0, 'no hint button after an online game');
  assert.equal(await one.page.locator('#movelist .ply').count(), await two.page.locator('#movelist .ply').count());
  await shot(one.page, '12-online-over-desktop');
  await shot(two.page, '13-online-over-phone');
  // The invitation link is used up: a third browser is told so, and may watch.
  const three = await newPage({ width: 360, height: 740 });
  await three.page.goto(link);
  await three.page.locator('#join-failed').waitFor();
  assert.match(await three.page.locator('#join-failed').textContent(), /already used/);
  await shot(three.page, '14-link-used-phone');
  await noOverflow(three.page, 'link used, phone');
  assert.deepEqual(one.errors, []);
  assert.deepEqual(two.errors, []);
  await Promise.all([one.ctx.close(), two.ctx.close(), three.ctx.close()]);
});

test('languages, rules demonstrations and two on one screen', async () => {
  const { ctx, page, errors } = await newPage();
  await page.goto(`${URL}/#/rules`);
  await page.locator('#ex-twelve-stones .ex-step').first().waitFor();
  for (let i = 0; i < 13; i++) await page.locator('#ex-twelve-stones .ex-step').click();
  assert.match(await page.locator('#ex-twelve-stones').textContent(), /4B, 3B, 2B/);
  // Players are shown words, not rule numbers or position strings.
  assert.doesNotMatch(await page.locator('main').textContent(), /\(R\d|\bR\d\b|\d,\d,\d/);
  await shot(page, '20-rules');
  for (const [l, word] of [
    ['es', 'Reglas'],
    ['ca', 'Regles'],
    ['ru', 'Правила'],
    ['de', 'Regeln'],
    ['en', 'Rules'],
  ]) {
    await page.locator('#lang').selectOption(l);
    await page.waitForFunction((w) => document.querySelector('nav').textContent.includes(w), word);
    if (l === 'ru') await shot(page, '21-rules-ru');
  }
  // The choice is remembered.
  await page.locator('#lang').selectOption('de');
  await page.waitForFunction(() => document.querySelector('nav').textContent.includes('Regeln'));
  await page.reload();
  await page.waitForFunction(() => document.querySelector('nav').textContent.includes('Regeln'));
  await page.locator('#lang').selectOption('en');
  // Two on one screen: both sides move from this page; undo takes one move back.
  await start(page, { mode: 'local' });
  await page.locator('.hole.legal').first().waitFor();
  await page.keyboard.press('3'); // N1: hole 3 of the player to move, 3B
  await page.waitForFunction(() => document.querySelectorAll('#movelist .ply').length === 1);
  await page.locator('.hole.legal').first().waitFor();
  assert.match(await page.locator('#status').textContent(), /A to move/);
  await page.locator('#undo').click();
  await page.waitForFunction(() => document.querySelectorAll('#movelist .ply').length === 0);
  await shot(page, '22-local');
  assert.deepEqual(errors, []);
  await ctx.close();
});

const LIGHT_BG = 'rgb(244, 239, 230)';
const DARK_BG = 'rgb(22, 19, 15)';
const background = (page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test('the colours follow the system unless the player chooses', async () => {
  const { ctx, page, errors } = await newPage();
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(URL);
  assert.equal(await background(page), DARK_BG);
  await page.locator('#settings-btn').click();
  await page.locator('#set-theme').selectOption('light');
  assert.equal(await background(page), LIGHT_BG);
  await page.locator('#set-theme').selectOption('system');
  assert.equal(await background(page), DARK_BG);
  await page.emulateMedia({ colorScheme: 'light' });
  assert.equal(await background(page), LIGHT_BG);
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('settings are remembered and apply at once', async () => {
  const { ctx, page, errors } = await newPage();
  await page.goto(URL);
  await page.locator('#settings-btn').click();
  await page.locator('#set-theme').selectOption('dark');
  await page.locator('#set-eval').selectOption('off');
  await page.locator('#set-coords').selectOption('off');
  await page.locator('#set-sound').selectOption('on');
  await page.locator('#set-speed').selectOption('instant');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  assert.equal(await background(page), DARK_BG);
  await shot(page, '30-settings');
  await page.locator('#settings-close').click();
  await page.reload();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.coords), 'off');
  await page.locator('#settings-btn').click();
  for (const [id, v] of [
    ['#set-theme', 'dark'],
    ['#set-eval', 'off'],
    ['#set-sound', 'on'],
    ['#set-speed', 'instant'],
  ])
    assert.equal(await page.locator(id).inputValue(), v, id);
  await page.locator('#settings-close').click();
  // The evaluation stays off in a game, and its switch turns it on again.
  await start(page, { mode: 'local' });
  await page.locator('.hole.legal').first().waitFor();
  assert.equal(await page.locator('#evalbar:visible').count(), 0);
  await page.locator('#eval-toggle').check();
  await page.locator('#evalbar').waitFor();
  await shot(page, '31-game-dark');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('a phone: no page overflows, holes are big enough to touch, a missing game says so', async () => {
  const { ctx, page, errors } = await newPage({ width: 360, height: 740 });
  await page.goto(URL);
  await noOverflow(page, 'home');
  await shot(page, '40-home-phone');
  await start(page, { level: '1' });
  await page.locator('.hole.legal').first().waitFor();
  for (const hole of await page.locator('.hole').all()) {
    const box = await hole.boundingBox();
    assert.ok(box.width >= 44 && box.height >= 44, `hole ${box.width}x${box.height}`);
  }
  // The stone count and the stones do not overlap. Both are measured in one frame: a hole under
  // the pointer lifts on hover, and two separate measurements could straddle that transition.
  const [dots, count] = await page
    .locator('[data-hole="1B"]')
    .evaluate((hole) => ['.dots', '.n'].map((s) => hole.querySelector(s).getBoundingClientRect().toJSON()));
  assert.ok(dots.y + dots.height <= count.y + 0.5, `the count is below the stones: ${JSON.stringify({ dots, count })}`);
  await noOverflow(page, 'game');
  await shot(page, '41-game-phone');
  for (const [hash, name] of [
    ['#/archive', 'archive'],
    ['#/rules', 'rules'],
    ['#/p/' + encodeURIComponent('1,2,0,1,0,2/0,1,1,0,2,0 B 25 25'), 'position'],
  ]) {
    await page.goto(`${URL}/${hash}`);
    await page.waitForTimeout(400);
    await noOverflow(page, name);
    await shot(page, `42-${name}-phone`);
  }
  // A game id that does not exist: said plainly, and no socket keeps retrying.
  const missing = (await newPage({ width: 360, height: 740 })).page;
  const seen = [];
  missing.on('websocket', (ws) => seen.push(ws.url()));
  await missing.goto(`${URL}/#/g/0123456789abcdef`);
  await missing.locator('#nogame').waitFor();
  assert.match(await missing.locator('#nogame').textContent(), /No such game/);
  await missing.waitForTimeout(1500);
  assert.deepEqual(seen, []);
  await noOverflow(missing, 'no such game');
  await shot(missing, '43-nogame-phone');
  await missing.context().close();
  assert.deepEqual(errors, []);
  await ctx.close();
});
