// Browser tests of online play as a game site: names and accounts, the lobby (a seek made in one
// browser and accepted in another), names, ratings and clocks in the game, takeback, resignation,
// a game lost on time seen by both players and a spectator, the rematch, the player page and the
// leaderboard, and names with HTML characters shown as typed everywhere. Run by run.sh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { URL, newPage, shot, noOverflow } from './harness.mjs';

const PHONE = { width: 360, height: 740 };

// Opens the lobby and answers the first-visit prompt with `name`.
async function named(page, name) {
  await page.goto(`${URL}/#/lobby`);
  await page.locator('#welcome-input').fill(name);
  await page.locator('#welcome-save').click();
  await page.locator('#welcome').waitFor({ state: 'detached' });
  await page.locator('#seek-form').waitFor();
  assert.equal(await page.locator('#me-name').textContent(), name);
}

// Posts a seek from the lobby's form with the given choices and waits for it in the list.
async function seek(page, { tc = '5+0', rated = 'rated', colour = 'B' } = {}) {
  await page.locator(`input[name=tc][value="${tc}"]`).check();
  await page.locator(`input[name=rated][value=${rated}]`).check();
  await page.locator(`input[name=colour][value=${colour}]`).check();
  await page.locator('#seek-create').click();
  await page.locator('#seek-list li.own').waitFor();
}

// The seek of `name` in the list, accepted with one click; both pages then show the game.
async function acceptFrom(seeker, taker, name) {
  const row = taker.locator('#seek-list li.seek', { hasText: name });
  await row.locator('.accept-seek').click();
  await taker.waitForURL(/#\/g\//);
  await seeker.waitForURL(/#\/g\//);
  assert.equal(new globalThis.URL(seeker.url()).hash, new globalThis.URL(taker.url()).hash, 'the same game');
  for (const p of [seeker, taker]) await p.locator('#player-bottom .who .name').waitFor();
}

const plies = (page) => page.locator('#movelist .ply').count();
const waitPlies = (page, n) => page.waitForFunction((k) => document.querySelectorAll('#movelist .ply').length === k, n);

test('a seek made in one browser and accepted in another: names, ratings, clocks, moves, takeback, resignation, rematch', async () => {
  const one = await newPage();
  const two = await newPage(PHONE);
  // The first visit asks for a name (and it can be put off; here it is answered).
  await one.page.goto(`${URL}/#/lobby`);
  await one.page.locator('#welcome').waitFor();
  await shot(one.page, '50-lobby-first-visit');
  await named(one.page, 'Ann');
  await seek(one.page, { tc: '5+0', colour: 'B' });
  assert.match(await one.page.locator('#seek-list li.own').textContent(), /Ann.*5\+0.*Rated/);
  assert.match(await one.page.locator('#seeking').textContent(), /starts as soon as someone accepts/);
  await shot(one.page, '51-lobby-seek-desktop');
  await named(two.page, 'Bo');
  await two.page.locator('#seek-list li.seek', { hasText: 'Ann' }).waitFor();
  await shot(two.page, '52-lobby-phone');
  await noOverflow(two.page, 'lobby, phone');
  await acceptFrom(one.page, two.page, 'Ann');
  // Both names and ratings, each player's own row at the bottom, both clocks at 5:00.
  assert.match(await one.page.locator('#player-bottom').textContent(), /^B.*Ann.*1500\?/);
  assert.match(await one.page.locator('#player-top').textContent(), /^A.*Bo.*1500\?/);
  assert.match(await two.page.locator('#player-bottom').textContent(), /^A.*Bo/);
  for (const p of [one.page, two.page]) {
    assert.equal(await p.locator('#player-top .clock').textContent(), '5:00');
    assert.equal(await p.locator('#player-bottom .clock').textContent(), '5:00');
  }
  // The first move is awaited, and the page says how long before the game is aborted.
  assert.match(await one.page.locator('#abort').textContent(), /aborted unless the first move is made within 0:\d\d/);
  await one.page.waitForFunction(() => /online/.test(document.querySelector('#player-top .presence').textContent));
  // Moves by both, live on both pages; after B's move A's clock runs, on both pages.
  await one.page.locator('.hole.legal').first().click();
  await waitPlies(two.page, 1);
  await two.page.locator('#player-bottom .clock.running').waitFor();
  await one.page.locator('#player-top .clock.running').waitFor();
  assert.ok(await one.page.locator('#abort').isHidden(), 'no abort countdown after the first move');
  await shot(two.page, '53-online-clocks-phone');
  await noOverflow(two.page, 'game with clocks, phone');
  await two.page.locator('.hole.legal').first().click();
  await waitPlies(one.page, 2);
  await one.page.locator('#player-bottom .clock.running').waitFor();
  // A third browser finds the game in the lobby's list and watches it.
  const three = await newPage();
  await three.page.goto(`${URL}/#/lobby`);
  const live = three.page.locator('#playing-list li.live-game', { hasText: 'Ann' });
  await live.waitFor();
  assert.match(await live.textContent(), /Ann.*Bo.*5\+0/);
  await live.locator('.watch').click();
  await three.page.waitForURL(/#\/g\//);
  await waitPlies(three.page, 2);
  assert.equal(await three.page.locator('#status').textContent(), 'Watching: B to move.');
  assert.match(await three.page.locator('#player-bottom').textContent(), /^B.*Ann/);
  // Takeback: Ann asks; Bo declines; Ann asks again; Bo accepts: Ann's move and Bo's are undone.
  await one.page.locator('.hole.legal').first().click();
  await waitPlies(two.page, 3);
  await one.page.locator('#takeback').click();
  await two.page.locator('#offer').waitFor();
  assert.match(await two.page.locator('#offer').textContent(), /Ann asks to take back their last move/);
  assert.match(await one.page.locator('#offer').textContent(), /You asked to take back/);
  await shot(two.page, '54-takeback-asked-phone');
  await two.page.locator('#takeback-decline').click();
  await one.page.locator('#offer').waitFor({ state: 'hidden' });
  assert.equal(await plies(one.page), 3);
  await one.page.locator('#takeback').click();
  await two.page.locator('#takeback-accept').click();
  await waitPlies(one.page, 2);
  await waitPlies(two.page, 2);
  await waitPlies(three.page, 2);
  // Resignation ends the rated game: the verdict for each player, the winner's name for the spectator.
  await two.page.locator('#resign').click();
  for (const p of [one.page, two.page, three.page]) await p.locator('#result').waitFor();
  assert.equal(await one.page.locator('#result-title').textContent(), 'You won');
  assert.equal(await two.page.locator('#result-title').textContent(), 'You lost');
  assert.equal(await three.page.locator('#result-title').textContent(), 'Ann wins');
  // What the result did to each rating, beside it: up for the winner, down for the loser.
  assert.match(await one.page.locator('#player-bottom .change.up').textContent(), /^\+\d+$/);
  assert.match(await one.page.locator('#player-top .change.down').textContent(), /^−\d+$/);
  assert.equal(await one.page.locator('#takeback:visible').count(), 0);
  // The rematch: offered by Ann, accepted by Bo: both pages open it, colours swapped.
  await one.page.locator('#rematch').click();
  await two.page.locator('#rematch-accept').waitFor();
  assert.match(await two.page.locator('#result').textContent(), /Ann offers a rematch/);
  assert.match(await one.page.locator('#result').textContent(), /Rematch offered.*Waiting for Bo/);
  await shot(two.page, '55-rematch-offered-phone');
  const first = one.page.url();
  await two.page.locator('#rematch-accept').click();
  await one.page.waitForURL((u) => u.href !== first && /#\/g\//.test(u.href));
  await two.page.waitForURL((u) => u.href !== first && /#\/g\//.test(u.href));
  assert.equal(one.page.url(), two.page.url());
  // The spectator is offered the way to the rematch.
  await three.page.locator('#rematch-go').waitFor();
  for (const p of [one.page, two.page]) await p.locator('#player-bottom .who .name').waitFor();
  await one.page.waitForFunction(() => document.querySelector('#player-bottom').dataset.player === 'A');
  assert.match(await one.page.locator('#player-bottom').textContent(), /^A.*Ann/);
  assert.match(await two.page.locator('#player-bottom').textContent(), /^B.*Bo/);
  assert.equal(await one.page.locator('#player-bottom .clock').textContent(), '5:00');
  // Bo now moves first.
  await two.page.locator('.hole.legal').first().click();
  await waitPlies(one.page, 1);
  await shot(one.page, '56-rematch-desktop');
  // Ended here, so that no clock runs on after the tests.
  await one.page.locator('#resign').click();
  await two.page.locator('#result').waitFor();
  // The home page's recent games name the opponent.
  await one.page.goto(URL);
  assert.match(await one.page.locator('#recent li').first().textContent(), /vs Bo, online.*You lost/);
  for (const p of [one, two, three]) assert.deepEqual(p.errors, []);
  await Promise.all([one.ctx.close(), two.ctx.close(), three.ctx.close()]);
});

test('a clocked game lost on time: announced live to both players and a spectator', async () => {
  const one = await newPage();
  const two = await newPage(PHONE);
  await named(one.page, 'Quick');
  // A seek with a 4-second clock through the API (the form offers the usual controls).
  const status = await one.page.evaluate(async () => {
    const r = await fetch('/api/seeks', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clock: { initial_ms: 4000, increment_ms: 0 }, rated: true, colour: 'B' }),
    });
    return r.status;
  });
  assert.equal(status, 201);
  await one.page.locator('#seek-list li.own').waitFor();
  assert.match(await one.page.locator('#seek-list li.own').textContent(), /4 s\+0/);
  await named(two.page, 'Slow');
  await acceptFrom(one.page, two.page, 'Quick');
  const three = await newPage();
  await three.page.goto(one.page.url());
  await three.page.locator('#player-top .clock').waitFor();
  // B moves (the first move costs no time); then A's 4 s run out without A moving.
  await one.page.locator('.hole.legal').first().click();
  await waitPlies(two.page, 1);
  // The low-time warning: A's running clock turns red, and A's page says so.
  await two.page.locator('#player-bottom .clock.running.low').waitFor();
  await two.page.waitForFunction(() => /Low time/.test(document.querySelector('#notice').textContent));
  await shot(two.page, '60-low-time-phone');
  for (const p of [one.page, two.page, three.page]) await p.locator('#result').waitFor({ timeout: 15000 });
  assert.equal(await one.page.locator('#result-title').textContent(), 'You won');
  assert.equal(await two.page.locator('#result-title').textContent(), 'You lost');
  assert.equal(await three.page.locator('#result-title').textContent(), 'Quick wins');
  for (const p of [one.page, two.page, three.page]) {
    assert.match(await p.locator('#result .how').textContent(), /^A ran out of time\.$/);
    assert.match(await p.locator('#status').textContent(), /B wins .*A ran out of time/);
    assert.equal(await p.locator('.hole.legal').count(), 0);
  }
  await two.page.waitForFunction(() => /ran out of time/.test(document.querySelector('#announce').textContent));
  // A's clock shows zero and stops.
  assert.equal(await one.page.locator('#player-top .clock').textContent(), '0:00.0');
  assert.equal(await one.page.locator('.clock.running').count(), 0);
  await shot(two.page, '61-lost-on-time-phone');
  await shot(three.page, '62-lost-on-time-spectator');
  for (const p of [one, two, three]) assert.deepEqual(p.errors, []);
  await Promise.all([one.ctx.close(), two.ctx.close(), three.ctx.close()]);
});

test('a name with HTML characters is shown as typed in the lobby, the game, the player page and the leaderboard', async () => {
  const NAME = '<b>x</b>&';
  const one = await newPage();
  const two = await newPage();
  await named(one.page, NAME);
  await seek(one.page, { tc: '3+2', colour: 'A' });
  await named(two.page, 'Plain');
  const row = two.page.locator('#seek-list li.seek', { hasText: NAME });
  await row.waitFor();
  assert.equal(await row.locator('a.name').textContent(), NAME);
  const noTags = (page) => page.evaluate(() => document.querySelectorAll('main b, header b, #welcome b').length);
  assert.equal(await noTags(two.page), 0, 'no element made from the name');
  await acceptFrom(one.page, two.page, NAME);
  assert.equal(await two.page.locator('#player-top .who .name').textContent(), NAME);
  assert.equal(await one.page.locator('#player-bottom .who .name').textContent(), NAME);
  assert.equal(await one.page.locator('#me-name').textContent(), NAME);
  assert.equal(await noTags(two.page), 0);
  // Plain (B) moves, then resigns: a rated result for both.
  await two.page.locator('.hole.legal').first().click();
  await waitPlies(one.page, 1);
  await two.page.locator('#resign').click();
  await one.page.locator('#result').waitFor();
  assert.equal(await two.page.locator('#result-title').textContent(), 'You lost');
  // The name links to the player's page: the name, a rating above 1500, the history, the game.
  await two.page.locator('#player-top .who a.name').click();
  await two.page.waitForURL(/#\/player\//);
  await two.page.locator('#player-name').waitFor();
  assert.equal(await two.page.locator('#player-name').textContent(), NAME);
  assert.ok(Number((await two.page.locator('#player-rating').textContent()).replace('?', '')) > 1500);
  await two.page.locator('#rating-history svg.rating-chart').waitFor();
  assert.match(
    await two.page.locator('#rating-history svg').getAttribute('aria-label'),
    /from 1500 to \d+ over 1 rated game/,
  );
  const game = two.page.locator('#player-games tbody tr').first();
  assert.match(await game.textContent(), /Plain.*Won/);
  assert.equal(await noTags(two.page), 0);
  await shot(two.page, '70-player-page-desktop');
  // The leaderboard lists both, the winner above the loser, names as typed.
  await two.page.goto(`${URL}/#/leaderboard`);
  await two.page.locator('#leaderboard').waitFor();
  const names = await two.page.locator('#leaderboard tbody a.name').allTextContents();
  assert.ok(names.indexOf(NAME) >= 0 && names.indexOf(NAME) < names.indexOf('Plain'), names.join());
  assert.equal(await noTags(two.page), 0);
  await shot(two.page, '71-leaderboard-desktop');
  // The same pages on a phone.
  const phone = await newPage(PHONE);
  await phone.page.goto(`${URL}/#/leaderboard`);
  await phone.page.locator('#leaderboard').waitFor();
  await noOverflow(phone.page, 'leaderboard, phone');
  await shot(phone.page, '72-leaderboard-phone');
  await phone.page.locator('#leaderboard a.name', { hasText: NAME }).click();
  await phone.page.locator('#rating-history svg').waitFor();
  assert.equal(await phone.page.locator('#player-name').textContent(), NAME);
  await noOverflow(phone.page, 'player page, phone');
  await shot(phone.page, '73-player-page-phone');
  for (const p of [one, two, phone]) assert.deepEqual(p.errors, []);
  await Promise.all([one.ctx.close(), two.ctx.close(), phone.ctx.close()]);
});

test('accounts: a password keeps the name, another device logs in, renames and logs out', async () => {
  const one = await newPage();
  const two = await newPage(PHONE);
  await named(one.page, 'Keeper');
  await one.page.locator('#me-btn').click();
  await one.page.locator('#account').waitFor();
  await one.page.locator('#password').fill('a long password');
  await one.page.locator('#signup').click();
  await one.page.locator('#account-state').waitFor();
  assert.match(await one.page.locator('#account-note').textContent(), /account is ready/);
  await shot(one.page, '80-account-desktop');
  await one.page.locator('#account-close').click();
  // Another device: the first-visit prompt offers to log in; a wrong password is refused.
  await two.page.goto(`${URL}/#/lobby`);
  await two.page.locator('#welcome-login').click();
  await two.page.locator('#login-name').fill('keeper');
  await two.page.locator('#login-password').fill('not the password');
  await two.page.locator('#login').click();
  await two.page.waitForFunction(() =>
    /wrong name or password/.test(document.querySelector('#account-error').textContent),
  );
  await shot(two.page, '81-login-phone');
  await noOverflow(two.page, 'log-in dialog, phone');
  await two.page.locator('#login-password').fill('a long password');
  await two.page.locator('#login').click();
  await two.page.locator('#account').waitFor({ state: 'detached' });
  await two.page.waitForFunction(() => document.querySelector('#me-btn').getAttribute('aria-label').includes('Keeper'));
  assert.equal(await two.page.locator('#welcome').count(), 0, 'the prompt is gone once logged in');
  // The same player: a new name on one device is the name on the other.
  await two.page.locator('#me-btn').click();
  await two.page.locator('#name-input').fill('Keeper 2');
  await two.page.locator('#name-save').click();
  await two.page.waitForFunction(() =>
    /now play as Keeper 2/.test(document.querySelector('#account-note').textContent),
  );
  await one.page.reload();
  await one.page.waitForFunction(() => document.querySelector('#me-name').textContent === 'Keeper 2');
  // Log-out forgets this device only.
  await two.page.locator('#logout').click();
  await two.page.locator('#login-box').waitFor();
  await two.page.locator('#account-close').click();
  assert.match(await two.page.locator('#me-btn').getAttribute('aria-label'), /Choose a name/);
  await one.page.reload();
  await one.page.waitForFunction(() => document.querySelector('#me-name').textContent === 'Keeper 2');
  // The lobby also makes an invitation link with its choices: here 10+5, casual.
  await one.page.goto(`${URL}/#/lobby`);
  await one.page.locator('input[name=tc][value="10+5"]').check();
  await one.page.locator('input[name=rated][value=casual]').check();
  await one.page.locator('#invite-create').click();
  await one.page.waitForURL(/#\/g\//);
  assert.match(await one.page.locator('#invite-link').inputValue(), /#\/j\/[0-9a-f]+$/);
  assert.equal(await one.page.locator('#player-bottom .clock').textContent(), '10:00');
  assert.match(await one.page.locator('#player-bottom').textContent(), /Keeper 2/);
  assert.deepEqual(one.errors, []);
  // The one refusal was the wrong password's 403.
  assert.deepEqual(
    two.errors.map((e) => e.replace(/http:\/\/[^/]+/, '')),
    ['403 POST /api/login'],
  );
  await Promise.all([one.ctx.close(), two.ctx.close()]);
});
