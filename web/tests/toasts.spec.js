// The board's toasts (issue 11, item 3): on a phone one shows at a time,
// on one line in the strip of sea above the board's top row, never over
// that row's hexes, and once the game is over none is left on the board. A
// short game (6 points to win) of the page's test autoplay against three
// bots, on a phone's screen.

import { expect } from '@playwright/test';
import { createLobby, overlaps, shoot, watchErrors, within, test } from './helpers.js';

test('on a phone one toast shows at a time, off the board\'s top row, and the end of the game clears them', async ({ browser }, testInfo) => {
  test.setTimeout(360_000);
  const page = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })).newPage();
  watchErrors(page, 'Ann');
  // A game may end with no toast at all (no 7 rolled, no trade made: seen
  // once in 18 rolls), so games are played until one has shown toasts.
  for (let game = 1; ; game++) {
    const looks = await playOne(page, game);
    if (!looks.length) {
      expect(game, 'four games in a row without a single toast').toBeLessThan(4);
      continue;
    }
    await shoot(page, testInfo, 'toasts-game-over-390x844');
    for (const look of looks) {
      expect(look.boxes.length, `one toast at a time on a phone: ${look.text}`).toBe(1);
      for (const box of look.boxes) {
        // On the board's frame, and off its top row of hexes.
        expect(within(box, look.frame), `"${look.text}" ${JSON.stringify(box)} on the board's frame ${JSON.stringify(look.frame)}`).toBe(true);
        for (const hex of look.row) expect(overlaps(box, hex), `"${look.text}" ${JSON.stringify(box)} over a top-row hex ${JSON.stringify(hex)}`).toBe(false);
        // One line.
        expect(box.b - box.t, `"${look.text}" is one line`).toBeLessThanOrEqual(20);
      }
    }
    break;
  }
});

/**
 * Plays one short game (6 points) of the page's autoplay against three
 * bots to its end; every toast shown meanwhile, as read once its entrance
 * was over. At the end no toast is left on the board.
 */
async function playOne(page, game) {
  const id = await createLobby(page, { name: 'Ann', lobby: `Toast test ${game}`, vpTarget: 6 });
  await page.goto(`/game.html?id=${id}&autoplay=1`);
  for (let i = 1; i < 4; i++) {
    await page.locator('.add-bot').first().click();
    await expect(page.locator('.seat.bot')).toHaveCount(i);
  }
  // Every toast shown, read once its entrance is over, against the top row
  // of hexes.
  await page.evaluate(() => {
    window.toastLooks = [];
    const root = document.getElementById('toasts');
    const look = async (node) => {
      // A toast hidden by a newer one has its entrance cancelled.
      await Promise.all(node.getAnimations().map((a) => a.finished.catch(() => null)));
      // Gone or hidden by then: a newer toast replaced it and has its own
      // look (the shown one may still be entering, above its resting place).
      if (!node.isConnected || getComputedStyle(node).display === 'none') return;
      const hexes = [...document.querySelectorAll('#board .hex')].map((h) => h.getBoundingClientRect());
      const top = Math.min(...hexes.map((h) => h.top));
      const row = hexes.filter((h) => h.top < top + 5);
      const shown = [...root.children].filter((t) => getComputedStyle(t).display !== 'none');
      window.toastLooks.push({
        text: node.textContent,
        row: row.map((h) => ({ l: h.left, r: h.right, t: h.top, b: h.bottom })),
        boxes: shown.map((t) => { const b = t.getBoundingClientRect(); return { l: b.left, r: b.right, t: b.top, b: b.bottom }; }),
        frame: (() => { const b = document.querySelector('.board-wrap').getBoundingClientRect(); return { l: b.left, r: b.right, t: b.top, b: b.bottom }; })(),
      });
    };
    new MutationObserver((changes) => {
      for (const c of changes) for (const n of c.addedNodes) look(n);
    }).observe(root, { childList: true });
  });
  await page.click('#start');
  await expect(page.locator('#summary')).toBeVisible({ timeout: 240_000 });
  // Once the summary shows, no toast is left on the board.
  await expect(page.locator('#toasts .toast')).toHaveCount(0);
  return page.evaluate(() => window.toastLooks);
}

test('on a wide screen stacked toasts stay off the board: every hex and harbour stays clear', async ({ browser }) => {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  watchErrors(page, 'Ann');
  await createLobby(page, { name: 'Ann', lobby: 'Wide toast test' });
  for (let i = 1; i < 4; i++) {
    await page.locator('.add-bot').first().click();
    await expect(page.locator('.seat.bot')).toHaveCount(i);
  }
  await page.click('#start');
  await expect(page.locator('#board .hex')).toHaveCount(19);
  // Four notes in a row, through the page's own toast function (the bots'
  // moves add their own meanwhile): each shown one is read where it rests,
  // against every hex and harbour drawn.
  const look = () => page.evaluate(async () => {
    const { toast } = await import('/js/feedback.js');
    const root = document.getElementById('toasts');
    for (const text of ['Bot 3 moved the robber to the 10 mountains.', 'Bot 3 stole a card from Bot 2.',
      'Bot 1 and Bot 2 traded: 1 brick, 1 wood for 2 ore.', 'You stole 1 wheat from Bot 1.']) toast(root, text);
    const box = (e) => { const b = e.getBoundingClientRect(); return { l: b.left, t: b.top, r: b.right, b: b.bottom }; };
    const shown = [...root.children].filter((t) => t.checkVisibility());
    for (const t of shown) for (const a of t.getAnimations()) a.finish();
    return {
      toasts: shown.map((t) => ({ text: t.textContent, ...box(t) })),
      board: [...document.querySelectorAll('#board .hex, #board .harbour')].map(box),
      frame: box(document.querySelector('.board-wrap')),
    };
  });
  for (const size of [{ width: 1280, height: 800 }, { width: 1440, height: 900 }, { width: 1920, height: 1080 }, { width: 1280, height: 720 }]) {
    await page.setViewportSize(size);
    const seen = await look();
    const at = `${size.width}x${size.height}`;
    expect(seen.toasts.length, `${at}: more than one toast shows`).toBeGreaterThanOrEqual(2);
    expect(seen.toasts[seen.toasts.length - 1].text, `${at}: the newest shows`).toBe('You stole 1 wheat from Bot 1.');
    for (const t of seen.toasts) {
      expect(within(t, seen.frame), `${at}: "${t.text}" ${JSON.stringify(t)} on the board's frame`).toBe(true);
      for (const part of seen.board) expect(overlaps(t, part), `${at}: "${t.text}" ${JSON.stringify(t)} over the board ${JSON.stringify(part)}`).toBe(false);
    }
    for (const t of seen.toasts) expect(t.b - t.t, `${at}: "${t.text}" is one line`).toBeLessThanOrEqual(26);
  }
});
