// The board's toasts (issue 11, item 3): on a phone they stay off the
// board's top row of hexes (in the strip of sea above it), and once the
// game is over none is left on the board. A short game (3 points to win) of
// the page's test autoplay against three bots, on a phone's screen.

import { test, expect } from '@playwright/test';
import { createLobby, shoot, watchErrors } from './helpers.js';

test('on a phone toasts stay off the board\'s top row, and the end of the game clears them', async ({ browser }, testInfo) => {
  test.setTimeout(240_000);
  const page = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })).newPage();
  watchErrors(page, 'Ann');
  const id = await createLobby(page, { name: 'Ann', lobby: 'Toast test', vpTarget: 3 });
  await page.goto(`/game.html?id=${id}&autoplay=1`);
  for (let i = 1; i < 4; i++) {
    await page.locator('.add-bot').first().click();
    await expect(page.locator('.seat.bot')).toHaveCount(i);
  }
  // Every toast shown, read once its entrance is over, against the top row
  // of hexes; and whether any was on the board after the game ended.
  await page.evaluate(() => {
    window.toastLooks = [];
    window.toastsAfterEnd = [];
    const root = document.getElementById('toasts');
    const look = async (node) => {
      await Promise.all(node.getAnimations().map((a) => a.finished));
      if (!node.isConnected) return;
      const hexes = [...document.querySelectorAll('#board .hex')].map((h) => h.getBoundingClientRect());
      const top = Math.min(...hexes.map((h) => h.top));
      const row = hexes.filter((h) => h.top < top + 5);
      const shown = [...root.children].filter((t) => getComputedStyle(t).display !== 'none');
      window.toastLooks.push({
        text: node.textContent,
        row: row.map((h) => ({ l: h.left, r: h.right, t: h.top, b: h.bottom })),
        boxes: shown.map((t) => { const b = t.getBoundingClientRect(); return { l: b.left, r: b.right, t: b.top, b: b.bottom }; }),
        board: (() => { const b = document.getElementById('board').getBoundingClientRect(); return { l: b.left, r: b.right, t: b.top, b: b.bottom }; })(),
      });
    };
    new MutationObserver((changes) => {
      for (const c of changes) for (const n of c.addedNodes) look(n);
    }).observe(root, { childList: true });
    // After the frame that shows the game over, nothing may be left.
    new MutationObserver(() => {
      if (document.body.dataset.phase === 'finished') {
        requestAnimationFrame(() => window.toastsAfterEnd.push(root.children.length));
      }
    }).observe(document.body, { attributes: true, attributeFilter: ['data-phase'] });
  });
  await page.click('#start');
  await expect.poll(() => page.evaluate(() => window.toastLooks.length), { timeout: 180_000 }).toBeGreaterThan(0);
  await shoot(page, testInfo, 'toast-390x844');
  await expect(page.locator('#summary')).toBeVisible({ timeout: 200_000 });
  const looks = await page.evaluate(() => window.toastLooks);
  for (const look of looks) {
    expect(look.boxes.length, `one toast at a time on a phone: ${look.text}`).toBe(1);
    for (const box of look.boxes) {
      // Over the board, above the top point of its first row of hexes.
      expect(box.t, `"${look.text}" on the board`).toBeGreaterThanOrEqual(look.board.t - 0.5);
      for (const hex of look.row) {
        const overlaps = box.l < hex.r && box.r > hex.l && box.t < hex.b && box.b > hex.t;
        expect(overlaps, `"${look.text}" ${JSON.stringify(box)} covers a top-row hex ${JSON.stringify(hex)}`).toBe(false);
      }
    }
  }
  await expect.poll(() => page.evaluate(() => window.toastsAfterEnd.length)).toBeGreaterThan(0);
  expect(Math.max(...await page.evaluate(() => window.toastsAfterEnd))).toBe(0);
  await expect(page.locator('#toasts .toast')).toHaveCount(0);
});
