// The page's own state across re-renders, and its test hooks: production
// pages (the server says `test_hooks: false`) keep no hooks; the waiting
// room keeps a name being typed and the chosen bot kind while the lobby
// changes; a refused offer leaves the composer as it was.

import { expect } from '@playwright/test';
import { createLobby, drive, state, waitState, watchErrors, test } from './helpers.js';

test('a production page keeps no test hooks, even with ?autoplay=1', async ({ browser }) => {
  const host = await (await browser.newContext()).newPage();
  watchErrors(host, 'host');
  const id = await createLobby(host, { name: 'Host', lobby: 'Hooks test' });

  const ctx = await browser.newContext();
  // The same server, as production would answer.
  await ctx.route('**/api/config', (route) => route.fulfill({ json: { test_hooks: false } }));
  const page = await ctx.newPage();
  watchErrors(page, 'production page');
  const asked = [];
  page.on('request', (r) => asked.push(new URL(r.url()).pathname));
  await page.goto(`/game.html?id=${id}&autoplay=1`);
  await expect(page.locator('.seat.human')).toHaveCount(1);
  expect(asked).toContain('/api/config');
  expect(asked.some((p) => p.endsWith('/autoplay.js'))).toBe(false);
  expect(await page.evaluate(() => typeof window.catan)).toBe('undefined');

  // The test server's own answer turns them on (so the check above can fail).
  const hooked = await (await browser.newContext()).newPage();
  await hooked.goto(`/game.html?id=${id}`);
  await expect(hooked.locator('.seat.human')).toHaveCount(1);
  expect(await hooked.evaluate(() => Array.isArray(window.catan.state.history))).toBe(true);

  // Only the public files are served.
  for (const p of ['/package.json', '/tests/helpers.js', '/playwright.config.js', '/node_modules/.package-lock.json']) {
    expect((await page.request.get(p)).status(), p).toBe(404);
  }
  await ctx.close();
});

test('the waiting room keeps a name being typed and the chosen bot kind while the lobby changes', async ({ browser }) => {
  const ann = await (await browser.newContext()).newPage();
  const bob = await (await browser.newContext()).newPage();
  watchErrors(ann, 'Ann');
  watchErrors(bob, 'Bob');
  const id = await createLobby(ann, { name: 'Ann', lobby: 'Room state test' });
  await bob.goto(`/game.html?id=${id}`);
  await bob.fill('#join-name', '');
  await bob.locator('#join-name').pressSequentially('Bo');

  // Ann picks the easy bot kind and seats one: both rooms re-render.
  await ann.selectOption('#bot-kind', 'easy');
  await ann.locator('.add-bot').first().click();
  await expect(bob.locator('.seat.bot')).toHaveCount(1);
  await expect(ann.locator('.seat.bot')).toHaveCount(1);
  // Bob's half-typed name, its focus and caret survived the re-render.
  await expect(bob.locator('#join-name')).toHaveValue('Bo');
  await expect(bob.locator('#join-name')).toBeFocused();
  await bob.keyboard.type('b');
  await expect(bob.locator('#join-name')).toHaveValue('Bob');
  // Ann's choice survived too, and the next bot is of that kind.
  await expect(ann.locator('#bot-kind')).toHaveValue('easy');
  await ann.locator('.add-bot').first().click();
  await expect(ann.locator('.seat.bot')).toHaveCount(2);
  await expect(ann.locator('.seat.bot .seat-kind')).toHaveText(['bot (easy)', 'bot (easy)']);
  await bob.click('#join');
  await expect(ann.locator('.seat[data-seat="3"] .seat-name')).toContainText('Bob');
});

test('a refused offer leaves the composer as it was; a taken one clears it', async ({ browser }) => {
  const ctx = await browser.newContext();
  const ann = await ctx.newPage();
  watchErrors(ann, 'Ann');
  // The server's socket, with the first offer's reply replaced by a refusal
  // (a real one needs a rule the composer cannot see, such as classic phases
  // after building).
  let refuseNext = false;
  await ann.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => {
      const msg = JSON.parse(String(m));
      if (refuseNext && msg.type === 'action' && msg.action.type === 'offer_trade') {
        refuseNext = false;
        ws.send(JSON.stringify({ type: 'rejected', id: msg.id, code: 'trading_after_building', message: 'classic phases: no trading after building this turn' }));
        return;
      }
      server.send(m);
    });
    server.onMessage((m) => ws.send(m));
  });
  const id = await createLobby(ann, { name: 'Ann', lobby: 'Composer test', players: 3 });
  expect(id).toBeTruthy();
  await ann.locator('.add-bot').first().click();
  await ann.locator('.add-bot').first().click();
  await ann.click('#start');
  const ready = (s) => !!s.view && s.view.phase === 'action' && s.view.active === s.you.seat
    && Object.values(s.view.players[s.you.seat].resources).some((n) => n > 0);
  await drive([ann], async () => ready(await state(ann)), { endTurn: () => true, timeout: 120_000 });
  const s = await waitState(ann, ready, 'Ann to trade');
  const hand = s.view.players[s.you.seat].resources;
  const give = Object.keys(hand).find((r) => hand[r] > 0);
  const get = ['brick', 'wood', 'wool', 'wheat', 'ore'].find((r) => r !== give);
  await ann.locator(`[aria-label="give ${give}: one more"]`).click();
  await ann.locator(`[aria-label="get ${get}: one more"]`).click();
  refuseNext = true;
  await ann.click('#make-offer');
  await expect(ann.locator('#error-box')).toContainText('no trading after building');
  await expect(ann.locator(`output[aria-label="give ${give}"]`)).toHaveText('1');
  await expect(ann.locator(`output[aria-label="get ${get}"]`)).toHaveText('1');
  // Sent again, the server takes it and the composer empties.
  await ann.click('#make-offer');
  await expect(ann.locator('.offer').first()).toContainText('Your offer');
  await expect(ann.locator(`output[aria-label="give ${give}"]`)).toHaveText('0');
  await ctx.close();
});
