// The visible turn timer (issue 11, item 6): with the lobby's timer on, the
// table shows how long the awaited player has left, counting down, with a
// warning near the end; when it runs out the log says the server acted for
// the player instead of pretending the player did.

import { expect } from '@playwright/test';
import { expectBoardFits, watchErrors, test } from './helpers.js';

/**
 * Ann's lobby `name` with the turn timer on at `seconds` a step and three
 * bots (at no think time), ready to start; returns her page (in a context
 * made with `options`).
 */
async function timerLobby(browser, name, seconds, options = {}) {
  const page = await (await browser.newContext(options)).newPage();
  watchErrors(page, 'Ann');
  await page.goto('/');
  await page.fill('#display-name', 'Ann');
  await page.fill('#lobby-name', name);
  await page.fill('#bot-delay', '0');
  await page.check('#timer');
  await page.fill('#timer-seconds', String(seconds));
  await page.click('#create');
  await page.waitForURL(/game\.html\?id=/);
  for (let i = 1; i < 4; i++) {
    await page.locator('.add-bot').first().click();
    await expect(page.locator('.seat.bot')).toHaveCount(i);
  }
  return page;
}

test('the turn timer counts down, warns near the end, and a stand-in is named as such', async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  const page = await timerLobby(browser, 'Timer test', 13);
  // Every countdown the page draws, read by the page as it is drawn: a
  // value read after the test saw the countdown could be a later second's
  // (or already the warning) on a loaded machine.
  await page.evaluate(() => {
    window.timerSeen = [];
    const root = document.getElementById('turn-timer');
    new MutationObserver(() => window.timerSeen.push({
      seconds: Number(root.dataset.seconds), text: root.textContent, warn: root.classList.contains('warn'), shown: !root.hidden,
    })).observe(root, { childList: true, subtree: true, attributes: true });
  });
  await page.click('#start');
  // The opening waits for Ann at some point: her countdown shows.
  const timer = page.locator('#turn-timer');
  await expect(timer).toContainText('left for you', { timeout: 30_000 });
  // Her step's countdown as drawn (up to its end or the next step's).
  const seen = () => page.evaluate(() => {
    const all = window.timerSeen;
    const from = all.findIndex((x) => x.shown && x.text.includes('left for you'));
    const rest = all.slice(from);
    const end = rest.findIndex((x) => !x.text.includes('left for you'));
    return end < 0 ? rest : rest.slice(0, end);
  });
  const first = (await seen())[0];
  expect(first.seconds).toBeGreaterThan(10);
  expect(first.seconds).toBeLessThanOrEqual(13);
  expect(first.warn).toBe(false);
  // It counts down, and warns in the last ten seconds.
  await expect.poll(async () => (await seen()).some((x) => x.warn && x.text.includes('hurry')), { timeout: 15_000 }).toBe(true);
  const steps = await seen();
  for (let i = 1; i < steps.length; i++) expect(steps[i].seconds, 'never counting up').toBeLessThanOrEqual(steps[i - 1].seconds);
  expect(steps[steps.length - 1].seconds).toBeLessThan(first.seconds);
  const warned = steps.find((x) => x.warn);
  expect(warned.seconds, 'the warning in the last ten seconds').toBeLessThanOrEqual(10);
  await page.screenshot({ path: testInfo.outputPath('timer-warning.png') });
  // Ann does nothing: the server places for her, and the log says so.
  await expect(page.locator('#log-list')).toContainText('Ann ran out of time (or is away): the server acts for them this once.', { timeout: 20_000 });
});

test('after a reload the countdown carries on from where it was, not from the full time', async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await timerLobby(browser, 'Timer reload test', 40);
  await page.click('#start');
  // The opening comes to Ann, who does nothing: her step's clock runs.
  const timer = page.locator('#turn-timer');
  const seconds = async () => Number(await timer.getAttribute('data-seconds'));
  await expect(timer).toContainText('left for you', { timeout: 30_000 });
  const version = await page.evaluate(() => window.catan.state.version);
  await expect.poll(seconds, { timeout: 20_000 }).toBeLessThanOrEqual(34);
  const before = await seconds();
  await page.reload();
  await expect(timer).toContainText('left for you');
  // Still the same step, and the countdown did not start again at 40.
  expect(await page.evaluate(() => window.catan.state.version)).toBe(version);
  const after = await seconds();
  expect(after).toBeLessThanOrEqual(before + 1);
  expect(after).toBeLessThan(38);
  await expect.poll(seconds, { timeout: 5_000 }).toBeLessThan(after);
});

test('on a phone the countdown sits beside the banner, and the whole board still shows', async ({ browser }) => {
  const page = await timerLobby(browser, 'Phone timer test', 60, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await page.click('#start');
  // Ann's own step: she does nothing, so the banner and the countdown stay
  // as they are while they are measured (during the bots' steps both are
  // redrawn between one measurement and the next).
  await expect(page.locator('#turn-timer')).toContainText('left for you', { timeout: 30_000 });
  const box = (sel) => page.locator(sel).boundingBox();
  const [timer, banner, frame] = [await box('#turn-timer'), await box('#banner'), await box('.board-wrap')];
  // No row of its own between the banner and the board: the hand keeps that height.
  expect(timer.y, 'the countdown level with the banner').toBeGreaterThanOrEqual(banner.y - 0.5);
  expect(timer.y + timer.height, 'the countdown above the board').toBeLessThanOrEqual(frame.y + 0.5);
  expect(timer.x, 'the countdown beside the banner').toBeGreaterThanOrEqual(banner.x + banner.width - 0.5);
  await expectBoardFits(page, '390x844 with the timer');
});
