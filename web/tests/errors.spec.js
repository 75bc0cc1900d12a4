// Refusals and edges in plain words (issue 11, item 10): an HTTP refusal
// is shown as a sentence (never the server's JSON or its code), and the
// replay link of a game still being played leads to watching it live.

import { expect } from '@playwright/test';
import { createLobby, watchErrors, test } from './helpers.js';

/** Text that reads like a program, not a person: JSON, a snake_case code. */
const JARGON = /[{}"]|\b[a-z]+_[a-z_]+\b|\bhttp_\d+/;

test('refusals read as sentences, never as JSON or codes', async ({ browser }) => {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  watchErrors(page, 'visitor');
  for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-lobby']) {
    await page.goto(`/game.html?id=${id}`);
    const alert = page.locator('#room [role=alert]');
    await expect(alert).toContainText('This lobby cannot be opened. There is no such lobby');
    expect(await alert.textContent()).not.toMatch(JARGON);
  }
  // A refused join (the seat was taken meanwhile) on the waiting room's page.
  const host = await ctx.newPage();
  const id = await createLobby(host, { name: 'Ann', lobby: 'Refusal test', players: 3 });
  await host.locator('.add-bot').first().click();
  await expect(host.locator('.seat.bot')).toHaveCount(1);
  const late = await (await browser.newContext()).newPage();
  watchErrors(late, 'late');
  await late.goto(`/game.html?id=${id}`);
  await expect(late.locator('#join')).toBeEnabled();
  const other = await (await browser.newContext()).newPage();
  await other.goto(`/game.html?id=${id}`);
  await other.fill('#join-name', 'Bob');
  await other.click('#join');
  await expect(host.locator('.seat.human')).toHaveCount(2);
  await expect(late.locator('#join')).toHaveText('Full');
  // The late page may already show "Full"; ask for the taken seat directly.
  await late.fill('#join-name', 'Cy');
  await late.evaluate(() => document.getElementById('join').removeAttribute('disabled'));
  await late.click('#join');
  const box = late.locator('#error-box');
  await expect(box).toBeVisible();
  const text = await box.locator('span').textContent();
  expect(text.length).toBeGreaterThan(10);
  expect(text).not.toMatch(JARGON);
});

test('the replay link of a game still being played leads to watching it', async ({ browser }) => {
  const host = await (await browser.newContext()).newPage();
  watchErrors(host, 'host');
  const id = await createLobby(host, { name: 'Ann', lobby: 'Live replay test', botDelay: 50 });
  for (let i = 1; i < 4; i++) {
    await host.locator('.add-bot').first().click();
    await expect(host.locator('.seat.bot')).toHaveCount(i);
  }
  await host.click('#start');
  await expect(host.locator('#board .hex')).toHaveCount(19);
  const visitor = await (await browser.newContext()).newPage();
  watchErrors(visitor, 'visitor');
  await visitor.goto(`/replay.html?game=${id}`);
  await visitor.waitForURL(new RegExp(`game\\.html\\?id=${id}`));
  await expect(visitor.locator('#board .hex')).toHaveCount(19);
  await expect(visitor.locator('#banner')).toContainText('Spectating');
});
