// A whole game through the page against three bots at test speed: the
// person's seat is played by the page's "autoplay for tests" hook (enabled
// only by `autoplay=1` in the URL), which picks from the server's legal
// actions and sends them through the same path as the buttons. The game
// ends with the summary, and the finished game opens in the replay page,
// which steps through it by buttons, keys, slider and a step link.

import { expect } from '@playwright/test';
import { createLobby, shoot, shootBoth, state, watchErrors, test } from './helpers.js';

/** Records a timing in the report and prints it to the test output. */
function note(testInfo, description) {
  testInfo.annotations.push({ type: 'timing', description });
  console.log(`full game ${description}`);
}

test('a full game against bots plays to the end, then replays step by step', async ({ browser }, testInfo) => {
  // The game itself takes seconds; the margin is for a loaded 2-core machine.
  test.setTimeout(300_000);
  const context = await browser.newContext();
  const page = await context.newPage();
  watchErrors(page, 'player');
  const id = await createLobby(page, { name: 'Solo', lobby: 'Full game test' });
  await page.goto(`/game.html?id=${id}&autoplay=1`);
  for (let i = 0; i < 3; i++) {
    await page.locator('.add-bot').first().click();
    await expect(page.locator('.seat.bot')).toHaveCount(i + 1);
  }
  await page.click('#start');
  await expect(page.locator('#board .hex')).toHaveCount(19);
  const started = Date.now();

  // The game runs to its end by itself; the summary appears with its charts.
  await expect(page.locator('#summary')).toBeVisible({ timeout: 240_000 });
  await expect(page.locator('#summary figure')).toHaveCount(5);
  // The win is celebrated as the summary's heading.
  await expect(page.locator('#summary h2.celebration')).toContainText(/wins!|You win!/);
  await shootBoth(page, testInfo, 'celebration');
  const end = await state(page);
  expect(end.view.phase).toBe('finished');
  expect(end.over.players.every((p) => p.resources !== null)).toBe(true);
  const winner = end.over.winner;
  const winnerPoints = end.over.players[winner].victory_points;
  expect(winnerPoints).toBeGreaterThanOrEqual(end.over.options.vp_target);
  await expect(page.locator('#banner')).toContainText('Game over');
  for (const line of await page.locator('#log-list li').allTextContents()) {
    expect(line).not.toMatch(/\b(hex|offer|seat|vertex|edge) \d+|\b[a-z]+_[a-z_]+\b|[{}]/);
  }
  // How long the game took, in the report: a slow run shows where its time went.
  const played = Date.now();
  note(testInfo, `game: ${end.version} actions in ${((played - started) / 1000).toFixed(1)} s`);

  // The replay of the finished game.
  const saved = await page.request.get(`/api/games/${id}`);
  expect(saved.ok()).toBe(true);
  const record = await saved.json();
  expect(record.status).toBe('finished');
  expect(record.result.winner).toBe(winner);
  const total = record.actions.length;
  const first = await page.request.get(`/api/games/${id}/steps?from=0&to=0`);
  expect(first.ok()).toBe(true);
  expect((await first.json()).total).toBe(total);
  expect(total).toBe(end.version);
  await page.click('#open-replay');
  await page.waitForURL(/replay\.html\?game=/);
  await expect(page.locator('#step-no')).toHaveText(`Step 0 of ${total}`);
  await expect(page.locator('#board .settlement')).toHaveCount(0);
  await page.click('#next');
  await expect(page.locator('#step-no')).toHaveText(`Step 1 of ${total}`);
  await expect(page.locator('#board .settlement')).toHaveCount(1);
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('#step-no')).toHaveText(`Step 2 of ${total}`);
  await expect(page.locator('#board .road')).toHaveCount(1);
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('#step-no')).toHaveText(`Step 1 of ${total}`);
  await page.locator('#slider').fill('20');
  await expect(page.locator('#step-no')).toHaveText(`Step 20 of ${total}`);
  await expect(page.locator('#step-link')).toHaveAttribute('href', `replay.html?game=${id}&step=20`);
  await page.click('#last');
  await expect(page.locator('#step-no')).toHaveText(`Step ${total} of ${total}`);
  await expect(page.locator('#next')).toBeDisabled();
  const buildings = end.over.players.reduce((n, p) => n + p.settlements.length + p.cities.length, 0);
  await expect(page.locator('#board .settlement, #board .city')).toHaveCount(buildings);
  // All hands revealed at the end.
  await expect(page.locator('#players .open-hand')).toHaveCount(end.over.players.length);
  await expect(page.locator('#summary')).toBeVisible();
  await expect(page.locator('#summary figure')).toHaveCount(5);
  await shoot(page, testInfo, 'replay');
  await page.click('#first');
  await expect(page.locator('#step-no')).toHaveText(`Step 0 of ${total}`);

  // A link to a step opens the game at that step.
  const linked = await context.newPage();
  watchErrors(linked, 'linked replay');
  await linked.goto(`/replay.html?game=${id}&step=${total - 1}`);
  await expect(linked.locator('#step-no')).toHaveText(`Step ${total - 1} of ${total}`);
  // Log and replay lines are plain sentences: no ids, no action kinds.
  const jargon = /\b(hex|offer|seat|vertex|edge) \d+|\b[a-z]+_[a-z_]+\b|[{}]/;
  for (const line of await linked.locator('#log-list li').allTextContents()) expect(line).not.toMatch(jargon);
  expect(await linked.locator('#step-text').textContent()).not.toMatch(jargon);
  // A step that is not one is refused in words, and the replay starts at 0.
  for (const bad of ['abc', '-1', String(total + 1)]) {
    await linked.goto(`/replay.html?game=${id}&step=${encodeURIComponent(bad)}`);
    await expect(linked.locator('#error-box')).toContainText(`There is no step “${bad}” in this game: steps run from 0 to ${total}`);
    await expect(linked.locator('#step-no')).toHaveText(`Step 0 of ${total}`);
  }
  note(testInfo, `replay: ${((Date.now() - played) / 1000).toFixed(1)} s`);
  await context.close();
});
