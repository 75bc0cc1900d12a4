// The home page's edges (issue 11, item 10): "Play against bots" starts a
// game in one click, the lobby name is optional, the timer's seconds are
// only editable with the timer on, and lobbies this browser created are
// marked in the list.

import { expect } from '@playwright/test';
import { watchErrors, test } from './helpers.js';

test('one click plays against bots', async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  watchErrors(page, 'Ann');
  await page.goto('/');
  await page.fill('#display-name', 'Ann');
  await page.click('#play-bots');
  await page.waitForURL(/game\.html\?id=/);
  await expect(page.locator('#board .hex')).toHaveCount(19);
  await expect(page.locator('#players .player')).toHaveCount(4);
  await expect(page.locator('#players .tag', { hasText: 'bot' })).toHaveCount(3);
  await expect(page.locator('#players .player-name').first()).toHaveText('Ann');
});

test('the lobby name is optional, timer seconds follow the timer, and own lobbies are marked', async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  watchErrors(page, 'Bea');
  await page.goto('/');
  await expect(page.locator('#timer-seconds')).toBeDisabled();
  await page.check('#timer');
  await expect(page.locator('#timer-seconds')).toBeEnabled();
  await page.uncheck('#timer');
  await expect(page.locator('#timer-seconds')).toBeDisabled();
  await page.fill('#display-name', 'Bea');
  await page.fill('#lobby-name', '');
  await page.click('#create');
  await page.waitForURL(/game\.html\?id=/);
  const id = new URL(page.url()).searchParams.get('id');
  await expect(page.locator('#room h1')).toHaveText("Bea's game");
  // Back on the home page, the lobby is marked as this browser's; once its
  // only person has gone, as abandoned.
  await page.goto('/');
  const row = page.locator(`tr[data-lobby="${id}"]`);
  await expect(row.locator('.tag', { hasText: 'yours' })).toBeVisible();
  await expect(row.locator('.tag.away')).toContainText('nobody here');
});
