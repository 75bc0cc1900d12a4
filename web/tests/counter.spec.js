// A counter-offer taken (issue 11, item 2; RULES.md R27, SCENARIO.md):
// Ann offers Bob a trade, Bob answers with a counter-offer from the card's
// Counter button, Ann takes it with "Trade with Bob". Confirming closes that
// counter-offer only: it leaves both pages at once, the trade is done, and
// the offer it answered stays open exactly as long as the game keeps it,
// still marked as countered by Bob on Ann's card.

import { expect } from '@playwright/test';
import { createLobby, drive, state, waitState, watchErrors, test } from './helpers.js';

const RES = ['brick', 'wood', 'wool', 'wheat', 'ore'];

test('R27: a confirmed counter-offer closes, the trade is done, the answered offer shows as the game keeps it', async ({ browser }) => {
  // Up to three games of at most 180 s each (a game takes 10-60 s).
  test.setTimeout(600_000);
  const ann = await (await browser.newContext()).newPage();
  const bob = await (await browser.newContext()).newPage();
  watchErrors(ann, 'Ann');
  watchErrors(bob, 'Bob');
  // Play until it is Ann's action phase with Ann holding a card X and Bob
  // a card Y that is not X. A game can end first (a poor board once gave
  // Bob nothing but wood in 84 turns while Ann held only wood and wheat),
  // so games are played until one offers the chance.
  let plan = null;
  for (let game = 1; !plan; game++) {
    expect(game, 'three games in a row without a turn where Ann and Bob could trade').toBeLessThan(4);
    plan = await playUntilTradable(ann, bob, game);
  }
  // Ann offers 1 X for 1 Y to Bob alone.
  await ann.locator(`tr[data-resource="${plan.give}"] [aria-label="give ${plan.give}: one more"]`).click();
  await ann.locator(`tr[data-resource="${plan.get}"] [aria-label="get ${plan.get}: one more"]`).click();
  // Each click shows in the composer before the offer goes (a click lost
  // to a redraw between press and release once left it empty, so the send
  // button never came on).
  await expect(ann.locator(`output[aria-label="give ${plan.give}"]`)).toHaveText('1');
  await expect(ann.locator(`output[aria-label="get ${plan.get}"]`)).toHaveText('1');
  for (const box of await ann.locator('input[name="offer-to"]').all()) {
    if (Number(await box.getAttribute('value')) !== plan.bobSeat) await box.uncheck();
  }
  await ann.click('#make-offer');
  const original = (await waitState(ann, (s) => s.view.offers.some((o) => o.maker === plan.annSeat), 'Ann\'s offer'))
    .view.offers.find((o) => o.maker === plan.annSeat).id;


  // Bob counters from the card: the composer comes filled with the mirror
  // of Ann's terms, which he sends as they are.
  const card = bob.locator(`#offers [data-offer="${original}"]`);
  await card.locator('.counter-offer').click();
  await expect(bob.locator('#make-offer')).toHaveText('Send counter-offer');
  await bob.click('#make-offer');
  const bobs = (o) => o.counter && o.maker === plan.bobSeat;
  const s1 = await waitState(ann, (s) => s.view.offers.some(bobs), 'Bob\'s counter-offer');
  const counter = s1.view.offers.find(bobs);

  await expect(ann.locator(`#offers [data-offer="${original}"] .answer[data-seat="${plan.bobSeat}"]`)).toHaveClass(/answer-counter/);

  // Ann takes the counter-offer.
  await ann.locator(`#offers [data-offer="${counter.id}"] .confirm[data-seat="${plan.bobSeat}"]`).click();
  await expect(ann.locator('#log-list')).toContainText(`Bob gave 1 ${plan.get} to Ann for 1 ${plan.give}`);
  // The counter-offer is closed on both pages.
  for (const p of [ann, bob]) await expect(p.locator(`#offers [data-offer="${counter.id}"]`)).toHaveCount(0);
  // The offer it answered: open in the game (confirming closes only the
  // offer confirmed), so shown on both pages, and still marked as countered.
  const s2 = await waitState(ann, (s) => !s.view.offers.some((o) => o.id === counter.id), 'the counter-offer closed');
  const stillOpen = s2.view.offers.some((o) => o.id === original);
  expect(stillOpen).toBe(true);
  for (const p of [ann, bob]) await expect(p.locator(`#offers [data-offer="${original}"]`)).toHaveCount(1);
  await expect(ann.locator(`#offers [data-offer="${original}"] .answer[data-seat="${plan.bobSeat}"]`)).toHaveClass(/answer-counter/);
  await expect(ann.locator(`#offers [data-offer="${original}"] .answer[data-seat="${plan.bobSeat}"]`)).toContainText('Bob made a counter-offer');
  // Ann withdraws it; then it is gone everywhere.
  await ann.locator(`#offers [data-offer="${original}"] .cancel-offer`).click();
  for (const p of [ann, bob]) await expect(p.locator(`#offers [data-offer="${original}"]`)).toHaveCount(0);
});

/**
 * Starts a game of Ann, Bob and a bot, and plays it through the pages until
 * it is Ann's action phase with a card Ann holds and a different one Bob
 * holds (both pages at the same version): returns the plan of that trade,
 * or null when the game ended first.
 */
async function playUntilTradable(ann, bob, game) {
  const id = await createLobby(ann, { name: 'Ann', lobby: `Counter-offer test ${game}`, players: 3 });
  await bob.goto(`/game.html?id=${id}`);
  await bob.fill('#join-name', 'Bob');
  await bob.click('#join');
  await expect(ann.locator('.seat[data-seat="1"] .seat-name')).toContainText('Bob');
  await ann.locator('.add-bot').first().click();
  await expect(ann.locator('.seat.bot')).toHaveCount(1);
  await ann.click('#start');
  for (const p of [ann, bob]) await expect(p.locator('#board .hex')).toHaveCount(19);

  let plan = null;
  let over = false;
  // Ann ends her turn only after both pages were seen at the same version
  // without a trade to make: a check made while Bob's page still lagged
  // behind proves nothing.
  let seenInSync = false;
  await drive([ann, bob], async () => {
    const a = await state(ann);
    const b = await state(bob);
    if (a.view.phase === 'finished') {
      over = true;
      return true;
    }
    seenInSync = b.version === a.version;
    if (a.view.phase !== 'action' || a.view.active !== a.you.seat || !seenInSync) return false;
    const mine = a.view.players[a.you.seat].resources;
    const his = b.view.players[b.you.seat].resources;
    for (const give of RES.filter((r) => mine[r] > 0)) {
      const get = RES.find((r) => r !== give && his[r] > 0);
      if (get) {
        plan = { give, get, annSeat: a.you.seat, bobSeat: b.you.seat };
        return true;
      }
    }
    return false;
  }, { timeout: 180_000, endTurn: (p) => p !== ann || seenInSync });
  return over ? null : plan;
}
