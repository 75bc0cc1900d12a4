// Language (issue 11, item 12, in part): the table's words come from one
// catalogue in English and German, chosen in the header and remembered.

import { expect } from '@playwright/test';
import { createLobby, waitState, watchErrors, test } from './helpers.js';

test('the table switches to German and remembers it', async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  watchErrors(page, 'Ann');
  await createLobby(page, { name: 'Ann', lobby: 'Language test' });
  for (let i = 1; i < 4; i++) {
    await page.locator('.add-bot').first().click();
    await expect(page.locator('.seat.bot')).toHaveCount(i);
  }
  await page.click('#start');
  await waitState(page, (s) => s.view.phase === 'opening', 'the table');
  await expect(page.locator('#roll')).toHaveText('Roll dice');
  await page.selectOption('#lang', 'de');
  await page.waitForLoadState('load');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.locator('#roll')).toHaveText('Würfeln');
  await expect(page.locator('#end-turn')).toHaveText('Zug beenden');
  await expect(page.locator('#tab-play')).toHaveText('Spielen');
  await expect(page.locator('.log h2')).toHaveText('Spielverlauf');
  await expect(page.locator('#me h2')).toContainText('Deine Karten');
  // The log, rebuilt from the server's history after the reload, is German too.
  await expect(page.locator('#log-list li').first()).toContainText('hat am höchsten gewürfelt und beginnt');
  // Remembered: a fresh load of the page is still in German.
  await page.reload();
  await expect(page.locator('#roll')).toHaveText('Würfeln');
  await page.selectOption('#lang', 'en');
  await page.waitForLoadState('load');
  await expect(page.locator('#roll')).toHaveText('Roll dice');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});
