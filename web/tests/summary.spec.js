// The end of a game (issue 11, items 3 and 4; RULES.md R44, V1): the win is
// celebrated as the summary's heading, and who won is said there once, not
// again by the summary below it. A short game (3 points to win, V1) of the
// page's test autoplay against three bots.

import { expect } from '@playwright/test';
import { createLobby, state, watchErrors, test } from './helpers.js';

test('R44: the end-of-game summary says who won once, in its heading', async ({ browser }) => {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  watchErrors(page, 'Solo');
  const id = await createLobby(page, { name: 'Solo', lobby: 'Summary test', vpTarget: 3 });
  await page.goto(`/game.html?id=${id}&autoplay=1`);
  for (let i = 1; i < 4; i++) {
    await page.locator('.add-bot').first().click();
    await expect(page.locator('.seat.bot')).toHaveCount(i);
  }
  await page.click('#start');
  const box = page.locator('#summary');
  await expect(box).toBeVisible({ timeout: 120_000 });
  await expect(box.locator('figure')).toHaveCount(5);
  const end = await state(page);
  expect(end.view.phase).toBe('finished');
  const winner = end.over.winner;
  expect(winner).not.toBeNull();
  const names = await page.evaluate(() => window.catan.state.lobby.seats.map((s) => s.name));
  const cheer = winner === end.you.seat ? 'You win!' : `${names[winner]} wins!`;
  // One heading, the celebration, naming the winner.
  await expect(box.locator('h2')).toHaveCount(1);
  await expect(box.locator('h2.celebration')).toHaveText(`★ ${cheer} ★`);
  // Said once in the whole summary: no second "wins!" below the heading.
  const text = await box.innerText();
  expect(text.match(/wins!|You win!/g)).toEqual([cheer.endsWith('You win!') ? 'You win!' : 'wins!']);
  // The final points follow, for every player.
  await expect(box).toContainText('Final points:');
});
