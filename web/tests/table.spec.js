// Two people and two bots at one table, watched by a third browser: the
// lobby fills and starts, both people place their opening pieces by
// clicking the board, rolls update hands, the spectator sees counts but
// never card types, the two people trade, and a reload restores the table.

import { expect } from '@playwright/test';
import { createLobby, drive, shoot, state, uiStep, waitState, watchErrors, DOCS_SHOT, test } from './helpers.js';

const RES = ['brick', 'wood', 'wool', 'wheat', 'ore'];

test('two humans and two bots: lobby, opening by clicks, rolls, spectator, trade, reload', async ({ browser }, testInfo) => {
  const ctxA = await browser.newContext();
  const ctxB = await browser.newContext();
  // The spectator uses a phone-sized screen.
  const ctxC = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const ann = await ctxA.newPage();
  const bob = await ctxB.newPage();
  const eve = await ctxC.newPage();
  watchErrors(ann, 'Ann');
  watchErrors(bob, 'Bob');
  watchErrors(eve, 'Eve');

  // Lobby: Ann creates, Bob joins by the invite link, Ann adds two bots.
  const id = await createLobby(ann, { name: 'Ann', lobby: 'Browser test table' });
  const invite = await ann.locator('#invite-link').inputValue();
  expect(invite).toContain(`game.html?id=${id}`);
  await bob.goto('/');
  await expect(bob.locator(`tr[data-lobby="${id}"]`)).toBeVisible();
  await shoot(bob, testInfo, 'lobby-list');
  await bob.goto(invite);
  await bob.fill('#join-name', 'Bob');
  await bob.click('#join');
  await expect(ann.locator('.seat[data-seat="1"] .seat-name')).toContainText('Bob');
  await expect(ann.locator('#start')).toBeDisabled();
  await ann.locator('.add-bot').first().click();
  await expect(ann.locator('.seat.bot')).toHaveCount(1);
  await ann.locator('.add-bot').first().click();
  await expect(ann.locator('.seat.bot')).toHaveCount(2);
  // The host can take a bot away again (and put one back).
  await ann.locator('.remove-bot').first().click();
  await expect(ann.locator('.seat.bot')).toHaveCount(1);
  await ann.locator('.add-bot').first().click();
  await expect(ann.locator('.seat.bot')).toHaveCount(2);
  await expect(ann.locator('#start')).toBeEnabled();
  await expect(bob.locator('.seat.bot')).toHaveCount(2);
  await shoot(ann, testInfo, 'lobby-room');
  // Eve watches from the start.
  await eve.goto(`/game.html?id=${id}`);
  await expect(eve.locator('#join')).toBeVisible();
  await ann.click('#start');
  for (const p of [ann, bob, eve]) await expect(p.locator('#board .hex')).toHaveCount(19);
  await expect(eve.locator('#banner')).toContainText('Spectating');

  // The phone layout fits the screen's width.
  expect(await eve.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expect(eve.locator('#board')).toBeVisible();

  // Opening: the first person to place does it with the keyboard (focus a spot, press Enter) ...
  const first = await waitState(ann, (s) => s.view.phase === 'opening' && [0, 1].includes(s.view.active) && (s.view.active === s.you.seat ? s.legal.length > 0 : true), 'a person to place');
  const placer = first.view.active === first.you.seat ? ann : bob;
  await expect(placer.locator('.vertex-target').first()).toBeVisible();
  await placer.locator('.vertex-target').first().focus();
  await placer.keyboard.press('Enter');
  await expect(placer.locator('.edge-target').first()).toBeVisible();
  // ... then both people click highlighted spots on the board.
  await drive([ann, bob], async () => (await state(ann)).view.phase !== 'opening', { timeout: 60_000 });
  for (const p of [ann, bob]) {
    const s = await state(p);
    const me = s.view.players[s.you.seat];
    expect(me.settlements.length).toBe(2);
    expect(me.roads.length).toBe(2);
    await expect(p.locator(`#board .settlement.seat-${s.you.seat}`)).toHaveCount(2);
  }
  // Settlements are drawn as houses; the seats' marks on them differ by shape.
  const marks = await ann.locator('#board .settlement').evaluateAll((gs) => gs.map((g) => ({
    seat: [...g.classList].find((c) => c.startsWith('seat-')),
    house: !!g.querySelector('path.house'),
    mark: g.querySelector('path.mark').getAttribute('d').replace(/[\d.-]+/g, 'n'),
  })));
  expect(marks.length).toBe(8);
  expect(marks.every((m) => m.house)).toBe(true);
  const shapeBySeat = new Map(marks.map((m) => [m.seat, m.mark]));
  expect(new Set(shapeBySeat.values()).size).toBe(4);

  // Rolls: play until some roll produced for someone, and every hand shown matches the views.
  const produced = () => ann.evaluate(() => window.catan.state.history.some((h) => h.events.some((e) => e.type === 'produced' && e.gains.some((g) => Object.values(g).some((n) => n > 0)))));
  await drive([ann, bob], produced, { timeout: 60_000 });
  for (const p of [ann, bob]) {
    const s = await state(p);
    const me = s.view.players[s.you.seat];
    for (const r of RES) await expect(p.locator(`#me .card[data-resource="${r}"]`)).toHaveAttribute('data-count', String(me.resources[r]));
  }
  await expect(ann.locator('#log-list')).toContainText('rolled');

  // The spectator sees counts for everyone and never a card type.
  const sv = await state(eve);
  expect(sv.you.kind).toBe('spectator');
  expect(sv.legal).toEqual([]);
  for (const p of sv.view.players) {
    expect(p.resources).toBeNull();
    expect(p.dev_cards).toBeNull();
    await expect(eve.locator(`.player[data-seat="${p.seat}"] .cards`)).toHaveAttribute('data-count', String(p.resource_count));
  }
  await expect(eve.locator('#me .hand')).toHaveCount(0);
  await expect(eve.locator('#controls button')).toHaveCount(0);

  // A trade between the two people: wait for a turn of Ann's where Ann holds X and Bob holds Y.
  let plan = null;
  await drive([ann, bob], async () => {
    const a = await state(ann);
    const b = await state(bob);
    if (a.view.phase !== 'action' || a.view.active !== a.you.seat || b.version !== a.version) return false;
    const mine = a.view.players[a.you.seat].resources;
    const his = b.view.players[b.you.seat].resources;
    const give = RES.find((r) => mine[r] > 0);
    const get = RES.find((r) => r !== give && his[r] > 0);
    if (give && get) plan = { give, get, annSeat: a.you.seat, bobSeat: b.you.seat, mine, his };
    return !!plan;
  }, { endTurn: (p) => p !== ann || true, timeout: 120_000 });
  await ann.locator(`tr[data-resource="${plan.give}"] [aria-label="give ${plan.give}: one more"]`).click();
  await ann.locator(`tr[data-resource="${plan.get}"] [aria-label="get ${plan.get}: one more"]`).click();
  // Offer to Bob only: untick the bots.
  for (const box of await ann.locator('input[name="offer-to"]').all()) {
    if (Number(await box.getAttribute('value')) !== plan.bobSeat) await box.uncheck();
  }
  await ann.click('#make-offer');
  const offer = bob.locator('.offer').last();
  await expect(offer).toContainText('Ann');
  await offer.locator('.accept').click();
  const confirm = ann.locator(`.offer .confirm[data-seat="${plan.bobSeat}"]`);
  await expect(confirm).toBeEnabled();
  await confirm.click();
  await expect(ann.locator('#log-list')).toContainText(`Ann gave 1 ${plan.give} to Bob for 1 ${plan.get}`);
  const a2 = await waitState(ann, (s) => s.view.offers.length === 0, 'the offer to close');
  expect(a2.view.players[plan.annSeat].resources[plan.give]).toBe(plan.mine[plan.give] - 1);
  expect(a2.view.players[plan.annSeat].resources[plan.get]).toBe(plan.mine[plan.get] + 1);
  await expect(eve.locator('#log-list')).toContainText(`Ann gave 1 ${plan.give} to Bob`);
  await shoot(ann, testInfo, 'table', DOCS_SHOT);

  // Chat reaches the other person and the spectator.
  await ann.fill('#chat-input', 'good trade!');
  await ann.press('#chat-input', 'Enter');
  await expect(bob.locator('#chat-list')).toContainText('Ann: good trade!');
  await expect(eve.locator('#chat-list')).toContainText('good trade!');

  // Reload mid-game restores the table exactly (it is Ann's move, so nothing changes meanwhile).
  const before = await state(ann);
  await ann.reload();
  const after = await waitState(ann, (s) => s.version === before.version, 'the reloaded table');
  expect(after.view).toEqual(before.view);
  expect(after.legal).toEqual(before.legal);
  await expect(ann.locator('#board .settlement, #board .city')).toHaveCount(before.view.players.reduce((n, p) => n + p.settlements.length + p.cities.length, 0));
  await expect(ann.locator('#end-turn')).toBeEnabled();

  // The spectator never received a hidden card type in any event.
  const leaked = await eve.evaluate(() => window.catan.state.history.flatMap((h) => h.events)
    .filter((e) => (e.type === 'stole' && e.resource) || (e.type === 'dev_card_bought' && e.card)).length);
  expect(leaked).toBe(0);
  await uiStep(ann);
  for (const c of [ctxA, ctxB, ctxC]) await c.close();
});
