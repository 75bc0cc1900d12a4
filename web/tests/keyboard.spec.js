// Keyboard and screen readers (issue 11, item 9): the board's legal spots
// are one tab stop with arrow keys between them (roving tabindex), each is
// described by the hexes around it, focus moves on to the next sensible
// control after an action, the page has one polite live region that
// says each event once, and a key press is not lost to a redraw.

import { expect } from '@playwright/test';
import { createLobby, state, uiStep, waitState, watchErrors, test } from './helpers.js';

test('opening placement by keyboard alone: one tab stop, arrows between spots, focus moves on', async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  watchErrors(page, 'Ann');
  await createLobby(page, { name: 'Ann', lobby: 'Keyboard test' });
  for (let i = 1; i < 4; i++) {
    await page.locator('.add-bot').first().click();
    await expect(page.locator('.seat.bot')).toHaveCount(i);
  }
  await page.click('#start');
  await waitState(page, (s) => s.view.phase === 'opening' && s.legal.length > 0, 'Ann to place');
  const spots = page.locator('.vertex-target');
  await expect(spots.first()).toBeVisible();
  expect(await spots.count()).toBeGreaterThan(10);
  // One tab stop among all the spots.
  await expect(page.locator('.vertex-target[tabindex="0"]')).toHaveCount(1);
  // Spots are named by the hexes around them, never by an id.
  for (const label of (await spots.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).slice(0, 10)) {
    expect(label).toMatch(/^Spot between (the \d+ [a-z]+|the desert|the sea)(, | and )/);
    expect(label).not.toMatch(/\b\d+$/);
  }
  // Tab reaches the board's stop; arrows move between spots and carry the stop.
  await page.locator('.vertex-target[tabindex="0"]').focus();
  const first = await page.evaluate(() => document.activeElement.dataset.vertex);
  await page.keyboard.press('ArrowRight');
  const second = await page.evaluate(() => document.activeElement.dataset.vertex);
  expect(second).toBeDefined();
  expect(second).not.toBe(first);
  await expect(page.locator(`.vertex-target[data-vertex="${second}"]`)).toHaveAttribute('tabindex', '0');
  await expect(page.locator('.vertex-target[tabindex="0"]')).toHaveCount(1);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowLeft');
  expect(await page.evaluate(() => document.activeElement.classList.contains('vertex-target'))).toBe(true);
  // Enter builds; focus lands on a road spot by itself, and Enter builds the road.
  await page.keyboard.press('Enter');
  await expect(page.locator('.edge-target').first()).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.activeElement.classList.contains('edge-target'))).toBe(true);
  expect(await page.evaluate(() => document.activeElement.getAttribute('aria-label'))).toMatch(/^Road spot between /);
  const before = await page.evaluate(() => window.catan.state.version);
  await page.keyboard.press('Enter');
  await page.waitForFunction((v) => window.catan.state.version > v, before);
  await expect(page.locator('#board .settlement.seat-0, #board .settlement')).not.toHaveCount(0);
});

test('one polite live region says what happens', async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  watchErrors(page, 'Ann');
  await createLobby(page, { name: 'Ann', lobby: 'Live region test' });
  for (let i = 1; i < 4; i++) {
    await page.locator('.add-bot').first().click();
    await expect(page.locator('.seat.bot')).toHaveCount(i);
  }
  await page.click('#start');
  await waitState(page, (s) => s.view.phase === 'opening' && s.legal.length > 0, 'Ann to place');
  const live = await page.evaluate(() => [...document.querySelectorAll('[aria-live], [role=status], [role=log]')]
    .filter((e) => e.getAttribute('aria-live') !== 'off').map((e) => e.id));
  expect(live).toEqual(['announcer']);
  await expect(page.locator('#announcer')).toContainText(/Your move|built|rolled/);
});

test('a Space press on a button is not lost to a redraw between its keydown and keyup', async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  watchErrors(page, 'Ann');
  const id = await createLobby(page, { name: 'Ann', lobby: 'Key press test' });
  await page.waitForFunction(() => window.catan && window.catan.state.connection === 'open');
  await expect(page.locator('#status-line')).toHaveText('');
  // Space clicks a button when the key comes up, on the element it went
  // down on: a redraw in between that replaced the button dropped the click.
  await page.locator('#copy-invite').focus();
  await page.keyboard.down('Space');
  // Bob joins meanwhile: the lobby changes and the page has its room to redraw.
  const res = await page.request.post(`/api/lobbies/${id}/join`, { data: { name: 'Bob' } });
  expect(res.ok()).toBe(true);
  await page.waitForFunction(() => window.catan.state.lobby.seats.some((s) => s.name === 'Bob'));
  // Two frames: a redraw that did not wait for the key has happened by now.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.keyboard.up('Space');
  await expect(page.locator('#status-line')).toHaveText(/^(Invite link copied\.|Select the link and copy it \(Ctrl\+C\)\.)$/);
  // The redraw comes after the release.
  await expect(page.locator('.seat-name', { hasText: 'Bob' })).toHaveCount(1);
});

test('in the waiting room focus follows the seat pressed by keyboard, or moves to the next seat\'s control', async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  watchErrors(page, 'Ann');
  const id = await createLobby(page, { name: 'Ann', lobby: 'Room keyboard test' });
  await page.waitForFunction(() => window.catan && window.catan.state.connection === 'open');
  const focused = () => page.evaluate(() => {
    const a = document.activeElement;
    const row = a && a.closest('.seat');
    return a && a !== document.body ? { cls: a.className, id: a.id, seat: row ? Number(row.dataset.seat) : null } : null;
  });
  const addBot = (seat) => page.locator(`.seat[data-seat="${seat}"] .add-bot`);

  // Tab from seat 1's "Add bot" to seat 2's, and press it with Enter: the
  // bot sits there and focus goes on to seat 3's "Add bot" (not seat 1's).
  await addBot(1).focus();
  await page.keyboard.press('Tab');
  expect(await focused()).toEqual({ cls: 'add-bot', id: '', seat: 2 });
  await page.keyboard.press('Enter');
  await expect(page.locator('.seat[data-seat="2"].bot')).toHaveCount(1);
  await expect.poll(focused).toEqual({ cls: 'add-bot', id: '', seat: 3 });

  // Someone else takes seat 1 meanwhile: the room is rebuilt, and focus
  // stays on seat 3's button.
  const res = await page.request.post(`/api/lobbies/${id}/join`, { data: { name: 'Bob', seat: 1 } });
  expect(res.ok()).toBe(true);
  await expect(page.locator('.seat[data-seat="1"] .seat-name')).toContainText('Bob');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  expect(await focused()).toEqual({ cls: 'add-bot', id: '', seat: 3 });

  // The last empty seat filled by Space: focus moves to Start.
  await page.keyboard.press('Space');
  await expect(page.locator('.seat[data-seat="3"].bot')).toHaveCount(1);
  await expect(page.locator('#start')).toBeEnabled();
  await expect.poll(focused).toEqual({ cls: 'primary', id: 'start', seat: null });

  // Removing seat 2's bot by keyboard: focus lands on that seat's new "Add bot".
  await page.locator('.seat[data-seat="2"] .remove-bot').focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('.seat[data-seat="2"].empty')).toHaveCount(1);
  await expect.poll(focused).toEqual({ cls: 'add-bot', id: '', seat: 2 });
});

test('when the turn comes back to the roll, focus moves to Roll dice, but not out of a text field being typed in', async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  watchErrors(page, 'Ann');
  await createLobby(page, { name: 'Ann', lobby: 'Turn focus test' });
  for (let i = 1; i < 4; i++) {
    await page.locator('.add-bot').first().click();
    await expect(page.locator('.seat.bot')).toHaveCount(i);
  }
  await page.click('#start');
  // Ann's opening by the helpers' clicks, up to her first roll.
  for (;;) {
    const s = await state(page);
    // (Right after the start the page may not have the game's first update yet.)
    if (s.view && s.view.phase === 'pre_roll' && s.view.active === s.you.seat && !s.busy) break;
    if (!(await uiStep(page))) await page.waitForTimeout(40);
  }
  const roll = page.locator('#roll');
  /** Rolls, then ends the turn, with `focus` run in the same task as the End turn click (before any reply can arrive). */
  const playTurn = async (focus) => {
    await roll.click();
    await waitState(page, (s) => s.view.phase !== 'pre_roll', 'the roll');
    for (;;) {
      const s = await state(page);
      if (s.legal.some((a) => a.type === 'end_turn') && !s.busy) break;
      // A 7: discard and move the robber first.
      if (!(await uiStep(page, { endTurn: false }))) await page.waitForTimeout(40);
    }
    const turn = (await state(page)).view.turn;
    await page.evaluate(`(() => { document.getElementById('end-turn').click(); (${focus})(); })()`);
    await waitState(page, (s) => s.view.turn > turn, 'the turn to end');
    // The bots play; the game comes back to Ann's roll and draws its button.
    // A discard or a bot's offer meanwhile is answered without moving focus
    // (through the page's own action path, as a click would).
    for (;;) {
      const s = await state(page);
      if (s.view.active === s.you.seat && s.view.phase === 'pre_roll') break;
      const answer = !s.busy && s.legal.find((a) => a.type === 'discard' || a.type === 'decline_trade');
      if (answer) await page.evaluate((a) => window.catan.act(a), answer);
      else await page.waitForTimeout(40);
    }
    await expect(roll).toBeEnabled();
  };
  // Focus left on the game log (not a text field) moves to Roll dice.
  await playTurn(() => document.getElementById('log-list').focus());
  await expect(roll).toBeFocused();
  // Focus in the chat box stays there, and what is typed stays whole.
  await playTurn(() => document.getElementById('chat-input').focus());
  await page.keyboard.type('good luck');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await expect(page.locator('#chat-input')).toBeFocused();
  await expect(page.locator('#chat-input')).toHaveValue('good luck');
});
