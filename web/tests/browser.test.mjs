// Browser tests of `vlt serve`, run by run.sh: playwright-core driving Debian's Chromium.
// VLT_URL is the server's address; screenshots go to screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const URL = process.env.VLT_URL || 'http://127.0.0.1:8080';
const SHOTS = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');
mkdirSync(SHOTS, { recursive: true });
let browser;

before(async () => {
  // Playwright gives every launch a fresh, temporary user-data-dir of its own.
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
});

after(async () => {
  await browser?.close();
});

async function newPage(viewport = { width: 1200, height: 850 }, speed = 'fast') {
  const ctx = await browser.newContext({ viewport });
  await ctx.addInitScript((s) => {
    if (!localStorage.getItem('vlt.speed')) localStorage.setItem('vlt.speed', s);
    // Keep the page's sockets reachable, so a test can drop them.
    const Real = window.WebSocket;
    window.__sockets = [];
    window.WebSocket = class extends Real {
      constructor(...a) { super(...a); window.__sockets.push(this); }
    };
  }, speed);
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text()); });
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`${r.status()} ${r.request().method()} ${r.url()}`); });
  page.on('dialog', (d) => d.accept());
  return { ctx, page, errors };
}

const shot = (page, name) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

// Clicks a legal hole whenever this page may move, until the game is over.
async function playUntilOver(pages, limit = 200) {
  for (let n = 0; n < limit; n++) {
    for (const page of pages) {
      if (await page.locator('#status.over').count()) return n;
      const legal = page.locator('.hole.legal');
      if (await legal.count()) {
        // The first legal hole in ring order (deterministic, always legal R3).
        await legal.first().click();
        await page.waitForTimeout(50);
      }
    }
    await pages[0].waitForTimeout(100);
  }
  throw new Error('the game did not end');
}

test('a game against the computer at level 1, played to the end by clicks', async () => {
  const { ctx, page, errors } = await newPage();
  await page.goto(URL);
  await page.locator('input[value=computer]').check();
  await page.locator('#level').selectOption('1');
  await page.locator('#side').selectOption('B');
  // A short study position: 12 stones left on the board, B to move.
  await page.locator('#position').fill('2,1,0,3,0,1/1,0,2,0,1,1 B 24 24');
  await shot(page, '01-new-game');
  await page.locator('#start').click();
  await page.waitForURL(/#\/g\//);
  await page.locator('.hole.legal').first().waitFor();
  // The board follows R1: 1A..6A on top left to right, 6B..1B below; every hole is announced.
  const boxes = {};
  for (const hname of ['1A', '6A', '6B', '1B']) boxes[hname] = await page.locator(`[data-hole="${hname}"]`).boundingBox();
  assert.ok(boxes['1A'].x < boxes['6A'].x && boxes['6B'].x < boxes['1B'].x);
  assert.ok(boxes['1A'].y < boxes['6B'].y);
  assert.match(await page.locator('[data-hole="1B"]').getAttribute('aria-label'), /1B, 2 stones/);
  await shot(page, '02-game-start');
  // Keyboard: focus the first legal hole and press Enter.
  await page.locator('.hole.legal').first().focus();
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  await shot(page, '03-after-first-move');
  const moves = await playUntilOver([page]);
  const status = await page.locator('#status').textContent();
  assert.match(status, /wins|Draw/);
  assert.ok((await page.locator('#movelist li').count()) >= 2);
  await shot(page, '04-game-over');
  // The finished game is in the archive and replays.
  await page.goto(`${URL}/#/archive`);
  await page.locator('table.archive a').first().click();
  await page.locator('#replay-next').click();
  await page.waitForTimeout(800);
  assert.match(await page.locator('#replay-status').textContent(), /^1\. /);
  await page.locator('#replay-last').click();
  assert.match(await page.locator('#replay-status').textContent(), /wins|Draw/);
  await shot(page, '05-replay');
  assert.deepEqual(errors, [], `no page errors (after ${moves} rounds)`);
  await ctx.close();
});

test('an online game between two browser contexts', async () => {
  const one = await newPage();
  const two = await newPage({ width: 390, height: 844 }); // a phone
  await one.page.goto(URL);
  await one.page.locator('input[value=online]').check();
  await one.page.locator('#position').fill('1,2,0,1,0,2/0,1,1,0,2,0 B 25 25');
  await one.page.locator('#start').click();
  const link = await one.page.locator('#invite-link').inputValue();
  assert.match(link, /#\/j\/[0-9a-f]+$/);
  assert.match(await one.page.locator('#status').textContent(), /Waiting for your friend/);
  await shot(one.page, '10-online-invite');
  await two.page.goto(link);
  await two.page.waitForURL(/#\/g\//);
  // The friend joined: the creator's page sees it live and may move.
  await one.page.locator('.hole.legal').first().waitFor();
  assert.equal(await two.page.locator('.hole.legal').count(), 0, 'the friend (A) waits for B');
  await shot(two.page, '11-online-friend-phone');
  // A move on one side appears live on the other.
  await one.page.locator('.hole.legal').first().click();
  await two.page.waitForFunction(() => document.querySelectorAll('#movelist li').length === 1);
  // Reconnection: B's socket drops; A moves meanwhile; the move still reaches B.
  await one.page.evaluate(() => window.__sockets.forEach((s) => s.close()));
  await one.page.locator('#conn.error').waitFor();
  await two.page.locator('.hole.legal').first().click();
  await one.page.waitForFunction(() => document.querySelectorAll('#movelist li').length === 2);
  await one.page.waitForFunction(() => window.__sockets.some((s) => s.readyState === 1));
  await one.page.waitForFunction(() => document.querySelector('#conn').textContent === '');
  await playUntilOver([one.page, two.page]);
  await two.page.waitForSelector('#status.over');
  const a = await one.page.locator('#status').textContent();
  const b = await two.page.locator('#status').textContent();
  assert.equal(a, b, 'both see the same result');
  assert.equal(await one.page.locator('#movelist li').count(), await two.page.locator('#movelist li').count());
  await shot(one.page, '12-online-over-desktop');
  await shot(two.page, '13-online-over-phone');
  assert.deepEqual(one.errors, []);
  await one.ctx.close();
  await two.ctx.close();
});

test('languages, rules demonstrations and two on one screen', async () => {
  const { ctx, page, errors } = await newPage();
  await page.goto(`${URL}/#/rules`);
  await page.locator('#ex-twelve-stones .ex-step').first().waitFor();
  for (let i = 0; i < 13; i++) await page.locator('#ex-twelve-stones .ex-step').click();
  assert.match(await page.locator('#ex-twelve-stones').textContent(), /4B, 3B, 2B/);
  await shot(page, '20-rules');
  for (const [l, word] of [['es', 'Reglas'], ['ca', 'Regles'], ['ru', 'Правила'], ['de', 'Regeln'], ['en', 'Rules']]) {
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
  await page.goto(`${URL}/#/`);
  await page.locator('input[value=local]').check();
  await page.locator('#start').click();
  await page.locator('.hole.legal').first().waitFor();
  await page.keyboard.press('3'); // N1: hole 3 of the player to move, 3B
  await page.waitForFunction(() => document.querySelectorAll('#movelist li').length === 1);
  await page.locator('.hole.legal').first().waitFor();
  assert.match(await page.locator('#status').textContent(), /A to move/);
  await page.locator('#undo').click();
  await page.waitForFunction(() => document.querySelectorAll('#movelist li').length === 0);
  await shot(page, '22-local');
  assert.deepEqual(errors, []);
  await ctx.close();
});
