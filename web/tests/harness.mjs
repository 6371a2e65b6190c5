// What every browser test file shares: the browser, fresh pages with error capture, screenshots and
// the common moves of a test. VLT_URL is the server's address; screenshots go to screenshots/.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const URL = process.env.VLT_URL || 'http://127.0.0.1:8080';
export const SHOTS = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');
mkdirSync(SHOTS, { recursive: true });
let browser;

// Each test file that imports this module gets one browser for its tests.
before(async () => {
  // Playwright gives every launch a fresh, temporary user-data-dir of its own.
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
});

after(async () => {
  await browser?.close();
});

export async function newPage(viewport = { width: 1280, height: 800 }, speed = 'fast', { bypassCSP = true } = {}) {
  // Playwright's waitForFunction evaluates its predicate as a string, which the page's policy (no
  // eval) refuses; csp.test.mjs runs the page with its policy in force.
  const ctx = await browser.newContext({ viewport, bypassCSP });
  await ctx.addInitScript((s) => {
    if (!localStorage.getItem('vlt.speed')) localStorage.setItem('vlt.speed', s);
    // Keep the page's sockets reachable, so a test can drop them.
    const Real = window.WebSocket;
    window.__sockets = [];
    window.WebSocket = class extends Real {
      constructor(...a) {
        super(...a);
        window.__sockets.push(this);
      }
    };
  }, speed);
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  page.on('dialog', (d) => d.accept());
  return { ctx, page, errors };
}

export const shot = (page, name) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

// Clicks a legal hole whenever this page may move, until the game is over.
export async function playUntilOver(pages, limit = 200) {
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

export const noOverflow = async (page, what) => {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(over <= 0, `${what}: ${over} px of horizontal overflow`);
};

// Starts a game from the home page; `position` opens the advanced part.
export async function start(page, { mode = 'computer', level = '1', side = 'B', position = null } = {}) {
  await page.goto(URL);
  await page.locator(`input[value=${mode}]`).check();
  if (mode === 'computer') await page.locator('#level').selectOption(level);
  if (mode !== 'local') await page.locator('#side').selectOption(side);
  if (position) {
    await page.locator('#advanced summary').click();
    await page.locator('#position').fill(position);
  }
  await page.locator('#start').click();
  await page.waitForURL(/#\/g\//);
}
