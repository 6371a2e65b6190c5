// Browser tests of the sound files (off by default, served and played once turned on) and of the
// tab title that tells a player it is their turn; run by run.sh with the other *.test.mjs files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { URL, newPage, shot, start } from './harness.mjs';

// Records every media play (its file) and every tab title, in order, from the page's first script.
async function watch(ctx) {
  await ctx.addInitScript(() => {
    window.__played = [];
    const real = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function () {
      window.__played.push(new URL(this.currentSrc || this.src, location.href).pathname);
      // The real play may be refused in a headless browser; what counts is the call.
      return real.call(this).catch(() => {});
    };
    window.__titles = [];
    const note = () => {
      const t = document.title;
      if (window.__titles[window.__titles.length - 1] !== t) window.__titles.push(t);
    };
    new MutationObserver(note).observe(document, { subtree: true, childList: true, characterData: true });
    document.addEventListener('DOMContentLoaded', note);
  });
}

test('sounds are files, off by default, fetched and played once turned on', async () => {
  const { ctx, page, errors } = await newPage();
  await watch(ctx);
  const fetched = [];
  page.on('response', (r) => {
    if (r.url().includes('/static/sounds/')) fetched.push(r);
  });
  // The rule texts' seven-stone example: 1B sows 7 stones and captures 2A.
  const position = '7,2,3,1,4,2/3,0,4,2,1,3 B 14 14';
  await start(page, { mode: 'local', position });
  await page.locator('[data-hole="1B"].legal').click();
  await page.locator('.hole.legal[data-hole$="A"]').first().waitFor();
  await page.waitForTimeout(300);
  assert.deepEqual(await page.evaluate(() => window.__played), [], 'off by default: nothing plays');
  assert.equal(fetched.length, 0, 'off by default: nothing is fetched');

  // Turned on in the settings: the three files arrive, as WAV.
  await page.locator('#settings-btn').click();
  await page.locator('#set-sound').selectOption('on');
  await page.locator('#settings-close').click();
  for (const f of ['sow', 'capture', 'end']) {
    const r = await page.evaluate(async (u) => {
      const res = await fetch(u);
      const b = new Uint8Array(await res.arrayBuffer());
      return {
        status: res.status,
        type: res.headers.get('content-type'),
        head: String.fromCharCode(...b.slice(0, 4)),
        n: b.length,
      };
    }, `${URL}/static/sounds/${f}.wav`);
    assert.equal(r.status, 200, f);
    assert.equal(r.type, 'audio/wav', f);
    assert.equal(r.head, 'RIFF', f);
    assert.ok(r.n > 1000 && r.n < 64 * 1024, `${f}: ${r.n} bytes`);
  }
  await page.waitForFunction(
    () => performance.getEntriesByType('resource').filter((e) => /\/sounds\//.test(e.name)).length >= 3,
  );

  // The same capture again, now heard: a tick for each of the seven stones, one capture knock.
  // While the stones are being sown the move list does not have the move yet; it has it, with its
  // capture, once they have landed.
  await start(page, { mode: 'local', position });
  await page.evaluate(() => (window.__played = []));
  await page.locator('[data-hole="1B"].legal').click();
  await page.waitForFunction(() => window.__played.includes('/static/sounds/sow.wav'));
  assert.equal(await page.locator('#movelist [data-ply="1"]').count(), 0, 'not listed while sowing');
  await page.waitForFunction(() => window.__played.includes('/static/sounds/capture.wav'));
  await page.locator('#movelist [data-ply="1"]').waitFor();
  assert.equal(await page.locator('#movelist [data-ply="1"]').textContent(), '1B ×1');
  const played = await page.evaluate(() => window.__played);
  assert.equal(played.filter((p) => p === '/static/sounds/sow.wav').length, 7, played.join(' '));
  assert.equal(played.filter((p) => p === '/static/sounds/capture.wav').length, 1, played.join(' '));
  assert.ok(
    played.indexOf('/static/sounds/capture.wav') > played.lastIndexOf('/static/sounds/sow.wav'),
    'the capture after the sowing',
  );
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('the tab title says "Your turn" only while it is the player\'s turn', async () => {
  const { ctx, page, errors } = await newPage();
  await watch(ctx);
  await page.goto(URL);
  const base = await page.title();
  assert.ok(!base.includes('Your turn'), base);
  // You play A against the computer, which moves first (B): no "Your turn" while it does.
  await start(page, { mode: 'computer', level: '1', side: 'A' });
  await page.waitForFunction(() => document.title.includes('Your turn'), null, { timeout: 20000 });
  let titles = await page.evaluate(() => window.__titles);
  const first = titles.findIndex((t) => t.includes('Your turn'));
  assert.ok(first > 0 && !titles[first - 1].includes('Your turn'), titles.join(' | '));
  // The board agrees: one of A's holes is playable now.
  assert.ok((await page.locator('.hole.legal').count()) > 0);
  assert.match(await page.locator('#status').textContent(), /Your turn/);
  await shot(page, '50-title-your-turn');

  // Our move: the title drops "Your turn" while the computer replies, and gets it back after.
  await page.evaluate(() => (window.__titles = [document.title]));
  await page.locator('.hole.legal').first().click();
  await page.waitForFunction(
    () => {
      const t = window.__titles;
      const off = t.findIndex((x) => !x.includes('Your turn'));
      return off > 0 && t.slice(off).some((x) => x.includes('Your turn'));
    },
    null,
    { timeout: 20000 },
  );
  titles = await page.evaluate(() => window.__titles);
  const off = titles.findIndex((t) => !t.includes('Your turn'));
  assert.equal(titles[off], base, 'the plain title while the computer moves');
  assert.match(titles[titles.length - 1], /^● Your turn · /);

  // Two people at one screen: the title never says whose turn it is.
  await start(page, { mode: 'local' });
  await page.locator('.hole.legal').first().waitFor();
  await page.locator('.hole.legal').first().click();
  await page.waitForTimeout(300);
  assert.equal(await page.title(), base);
  assert.deepEqual(errors, []);
  await ctx.close();
});
