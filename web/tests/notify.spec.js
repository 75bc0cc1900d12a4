// A person's turn is announced when their tab is in the background: the
// title changes (and changes back when the tab is seen again), and a short
// tone plays only while "Turn sound" is ticked.
//
// Headless Chromium never hides a page by itself, so the test makes the
// document report itself hidden (document.hidden / visibilityState plus the
// visibilitychange event, exactly what a real tab switch gives the page) and
// counts tones by wrapping the browser's AudioContext; the page's own code
// runs unchanged.

import { expect } from '@playwright/test';
import { createLobby, state, uiStep, watchErrors, test } from './helpers.js';

/** Makes the document report itself hidden or visible, as a tab switch would. */
function setHidden(page, hidden) {
  return page.evaluate((h) => {
    window.__hidden = h;
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

test('your turn is announced in a background tab, with a tone only when sound is on', async ({ browser }) => {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    window.__hidden = false;
    window.__tones = 0;
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => window.__hidden });
    Object.defineProperty(document, 'visibilityState', {
      configurable: true, get: () => (window.__hidden ? 'hidden' : 'visible'),
    });
    const Real = window.AudioContext;
    window.AudioContext = class extends Real {
      createOscillator() {
        const osc = super.createOscillator();
        const start = osc.start.bind(osc);
        osc.start = (...args) => {
          window.__tones += 1;
          return start(...args);
        };
        return osc;
      }
    };
  });
  const page = await context.newPage();
  watchErrors(page, 'Dana');
  await createLobby(page, { name: 'Dana', lobby: 'Notify test' });
  for (let i = 0; i < 3; i++) {
    await page.locator('.add-bot').first().click();
    await expect(page.locator('.seat.bot')).toHaveCount(i + 1);
  }
  const title = await page.title();
  await page.check('#sound');

  // In the background when the game starts: Dana's first move is announced.
  await setHidden(page, true);
  await page.click('#start');
  await expect(page).toHaveTitle(/^● Your move/, { timeout: 60_000 });
  await expect.poll(() => page.evaluate(() => window.__tones)).toBeGreaterThanOrEqual(1);

  // Back in the foreground: the title is the page's own again.
  await setHidden(page, false);
  await expect(page).toHaveTitle(title);
  const tones = await page.evaluate(() => window.__tones);

  // Sound off, back to the background, play until the game waits for Dana
  // again after others moved: the title tells, and no tone plays.
  await page.uncheck('#sound');
  await setHidden(page, true);
  const from = (await state(page)).version;
  const start = Date.now();
  while (!(await page.title()).startsWith('● ')) {
    expect(Date.now() - start, 'another turn for Dana within a minute').toBeLessThan(60_000);
    if (!(await uiStep(page))) await page.waitForTimeout(50);
  }
  // Others (the bots) moved in between: this is a new turn for Dana.
  const others = await page.evaluate((v) => {
    const s = window.catan.state;
    return s.history.filter((h) => h.version > v && h.seat !== s.you.seat).length;
  }, from);
  expect(others).toBeGreaterThan(0);
  expect((await state(page)).legal.length).toBeGreaterThan(0);
  expect(await page.evaluate(() => window.__tones)).toBe(tones);
  await context.close();
});
