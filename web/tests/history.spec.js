// The log survives a reload (issue 11, item 5): the server sends each
// viewer its redacted past steps before the snapshot, so the page's log has
// the same lines after a reload as before, and a spectator who arrives late
// reads the whole game so far without any card a spectator may not see.

import { expect } from '@playwright/test';
import { createLobby, drive, state, waitState, watchErrors, test } from './helpers.js';

const logLines = (page) => page.locator('#log-list li').allTextContents();

test('the log has the same lines after a reload, and a late spectator\'s log holds no card type', async ({ browser }) => {
  const ann = await (await browser.newContext()).newPage();
  watchErrors(ann, 'Ann');
  const id = await createLobby(ann, { name: 'Ann', lobby: 'History test' });
  for (let i = 1; i < 4; i++) {
    await ann.locator('.add-bot').first().click();
    await expect(ann.locator('.seat.bot')).toHaveCount(i);
  }
  await ann.click('#start');
  // Play to Ann's third turn, after her roll: the game then waits for her.
  const waiting = (s) => !!s.view && s.view.turn >= 9 && s.view.active === s.you.seat && s.view.phase === 'action';
  await drive([ann], async () => waiting(await state(ann)), { endTurn: () => true, timeout: 150_000 });
  const before = await waitState(ann, waiting, 'Ann\'s turn');
  const lines = await logLines(ann);
  expect(lines.length).toBeGreaterThan(20);

  await ann.reload();
  await waitState(ann, (s) => s.version === before.version, 'the reloaded table');
  await expect(ann.locator('#log-list li')).toHaveCount(lines.length);
  expect(await logLines(ann)).toEqual(lines);

  // A spectator arriving now reads the same game from the start.
  const eve = await (await browser.newContext()).newPage();
  watchErrors(eve, 'Eve');
  await eve.goto(`/game.html?id=${id}`);
  await waitState(eve, (s) => s.version === before.version, 'the spectator\'s table');
  const seen = await logLines(eve);
  expect(seen.length).toBe(lines.length);
  expect(seen[0]).toBe(lines[0]);
  const restored = await eve.evaluate(() => window.catan.state.history.filter((h) => h.restored).flatMap((h) => h.events));
  expect(restored.length).toBeGreaterThan(20);
  const leaked = restored.filter((e) => (e.type === 'stole' && e.resource) || (e.type === 'dev_card_bought' && e.card));
  expect(leaked).toEqual([]);
  for (const line of seen) expect(line).not.toMatch(/stole 1 |bought a development card: /);
});
