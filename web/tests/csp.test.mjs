// The page under its own content security policy (everything from the server, nothing inline, no
// eval): a game on one screen and an online game over WebSockets, played by clicks, the lobby,
// a player page and the leaderboard, with no policy violation and no error. Only locators here:
// Playwright's waitForFunction needs eval.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { URL, newPage, start } from './harness.mjs';

async function strictPage() {
  const p = await newPage(undefined, 'fast', { bypassCSP: false });
  await p.ctx.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  return p;
}

test('the page works under its content security policy', async () => {
  const r = await fetch(URL);
  const csp = r.headers.get('content-security-policy');
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /frame-ancestors 'none'/);

  const { ctx, page, errors } = await strictPage();
  await start(page, { mode: 'local' });
  for (let i = 0; i < 4; i++) {
    await page.locator('.hole.legal').first().click();
    await page.locator('#movelist .ply').nth(i).waitFor();
  }
  // Online: the creator's page and a friend's page, both on their WebSockets.
  const friend = await strictPage();
  await start(page, { mode: 'online', side: 'B' });
  const link = await page.locator('#invite-link').inputValue();
  await friend.page.goto(link);
  await page.locator('#invite').waitFor({ state: 'hidden' });
  await page.locator('.hole.legal').first().click();
  await friend.page.locator('#movelist .ply').first().waitFor();
  await friend.page.locator('.hole.legal').first().click();
  await page.locator('#movelist .ply').nth(1).waitFor();
  for (const p of [page, friend.page]) {
    assert.deepEqual(await p.evaluate(() => window.__violations), []);
    assert.equal(await p.evaluate(() => window.__sockets.filter((s) => s.readyState === 1).length), 1);
  }
  // The lobby, a name, a seek withdrawn, a player page with its chart code, the leaderboard.
  await friend.page.goto(`${URL}/#/lobby`);
  await friend.page.locator('#welcome-input').fill('Strict');
  await friend.page.locator('#welcome-save').click();
  await friend.page.locator('#seek-create').click();
  await friend.page.locator('#seek-list li.own .cancel-seek').click();
  await friend.page.locator('#seek-list li.own').waitFor({ state: 'detached' });
  await friend.page.locator('#me-btn').click();
  await friend.page.locator('#my-page').click();
  await friend.page.locator('#player-name').waitFor();
  await friend.page.goto(`${URL}/#/leaderboard`);
  await friend.page.locator('.leaderboard').waitFor();
  assert.deepEqual(await friend.page.evaluate(() => window.__violations), []);
  assert.deepEqual(errors, []);
  assert.deepEqual(friend.errors, []);
  await friend.ctx.close();
  await ctx.close();
});
