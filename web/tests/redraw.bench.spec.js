// A benchmark, not a test (issue 11, "Performance"): how long the table
// takes from an update arriving to being fully redrawn, at 1280x800 in this
// machine's Chromium, over a game of a person (autoplay) and three bots.
// Runs only with CATAN_BENCH=1: `CATAN_BENCH=1 scripts/web-test.sh redraw`.
// The page measures itself (test hooks only): `draw` is the redraw's own
// script, `frame` adds the style recalculation and layout it caused,
// `arrival` is from the update's message to that (the wait for the next
// animation frame included); `parts` splits `draw` by part of the table.

import { expect } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { createLobby, test } from './helpers.js';

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

test('redraw time per update at 1280x800', async ({ browser }, testInfo) => {
  test.skip(!process.env.CATAN_BENCH, 'a benchmark: set CATAN_BENCH=1 to run it');
  test.setTimeout(300_000);
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  // Bots at 100 ms a move: fast, but one update per frame as at a real table.
  const id = await createLobby(page, { name: 'Bench', lobby: 'Redraw benchmark', botDelay: 100 });
  await page.goto(`/game.html?id=${id}&autoplay=1`);
  for (let i = 1; i < 4; i++) {
    await page.locator('.add-bot').first().click();
    await expect(page.locator('.seat.bot')).toHaveCount(i);
  }
  await page.click('#start');
  await page.waitForFunction(() => window.catan.state.perf.draw.length >= 400 || window.catan.state.view?.phase === 'finished',
    null, { timeout: 240_000, polling: 500 });
  const perf = await page.evaluate(() => window.catan.state.perf);
  const result = {};
  const stats = (all) => {
    const xs = all.slice(20); // the first redraws warm the page up
    const r = (v) => Math.round(v * 100) / 100;
    return { n: xs.length, median: r(quantile(xs, 0.5)), p95: r(quantile(xs, 0.95)), max: r(Math.max(...xs)) };
  };
  for (const k of ['draw', 'frame', 'arrival']) result[k] = stats(perf[k]);
  result.parts = Object.fromEntries(Object.entries(perf.parts).map(([k, xs]) => [k, stats(xs)]));
  const out = path.join(testInfo.project.outputDir, '..', 'bench-redraw.json');
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
  console.log(`redraw benchmark: ${JSON.stringify(result, null, 1)}`);
});
