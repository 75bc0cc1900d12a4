// The hidden-card flows of one person against three bots, played only by
// clicking the page's controls (never window.catan.act, never autoplay):
// discards after a 7 through the discard dialog (R19a), moving the robber
// and picking a victim (R19b-c, R47), buying development cards (R31) that
// stay locked for the turn they were bought (R32), and playing them (R34-R38).
// A second test drops the page's real game socket and watches the page
// reconnect by itself.
//
// Dice are random, so the first test plays until every flow has happened at
// least once, starting a new game (at most 4) if a game ends first. The
// person never builds, so the hand grows past 7 and sevens make it discard;
// it trades with the bank only for a development card's missing resource
// (on a board with ore on 2, 3 and 4 alone it might otherwise never buy one).

import { expect } from '@playwright/test';
import { GEO } from '../public/js/geometry.js';
import { createLobby, drive, shoot, state, uiStep, watchErrors, test } from './helpers.js';

// A click that cannot happen fails within seconds instead of at the test's end.
test.use({ actionTimeout: 20_000 });

const PLAYABLE = ['knight', 'road_building', 'invention', 'monopoly'];
/** Turns after which a game still missing something is left for a new one. */
const MAX_TURNS = 160;
/** Resources in the engine's order (that of `bank_rates`). */
const RES = ['brick', 'wood', 'wool', 'wheat', 'ore'];
const NAME = 'Cara';
const sum = (set) => Object.values(set).reduce((a, b) => a + b, 0);
/** Dots on a number token: how often a hex produces. */
const pips = (n) => (n ? 6 - Math.abs(7 - n) : 0);

/** The page's updates after version `v` (each: version, seat that acted, events, view). */
function updatesSince(page, v) {
  return page.evaluate((from) => window.catan.state.history.filter((h) => h.version > from), v);
}

/**
 * Clicks a control that sends an action, then waits for the page's own
 * update. Returns that update ({ version, seat, events, view }), or null when
 * the server answered stale_version (the game moved on meanwhile: the caller
 * looks again). Any other refusal fails the test.
 */
async function act(page, locator) {
  const s = await state(page);
  await locator.click();
  await page.waitForFunction(({ v, seat }) => window.catan.state.history.some((h) => h.version > v && h.seat === seat)
    || window.catan.state.error, { v: s.version, seat: s.you.seat }, { timeout: 15_000 });
  const mine = (await updatesSince(page, s.version)).find((h) => h.seat === s.you.seat);
  if (mine) return mine;
  const { error } = await state(page);
  if (/moved on/.test(error)) return null;
  throw new Error(`the server refused a click: ${error}`);
}

/** Waits until the page shows its state (it redraws on the next animation frame). */
async function settled(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** A new lobby: the person, three bots, and a spectator watching from another browser. */
async function newGame(browser, n) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  watchErrors(page, `${NAME} (game ${n})`);
  // 20 points (the form's maximum) keeps the bots playing longest.
  const id = await createLobby(page, { name: NAME, lobby: `Cards test ${n}`, vpTarget: 20 });
  for (let i = 0; i < 3; i++) {
    await page.locator('.add-bot').first().click();
    await expect(page.locator('.seat.bot')).toHaveCount(i + 1);
  }
  const spectatorCtx = await browser.newContext();
  const spectator = await spectatorCtx.newPage();
  watchErrors(spectator, `spectator (game ${n})`);
  await spectator.goto(`/game.html?id=${id}`);
  await expect(spectator.locator('#join')).toBeVisible();
  await page.click('#start');
  await expect(page.locator('#board .hex')).toHaveCount(19);
  await expect(spectator.locator('#board .hex')).toHaveCount(19);
  const names = await page.evaluate(() => window.catan.state.lobby.seats.map((s) => s.name));
  return { page, spectator, names, close: async () => { await ctx.close(); await spectatorCtx.close(); } };
}

/** Opening placement: a settlement on the spot with the most production, then any road. */
async function placeOpening(page, s) {
  if (s.view.opening_settlement === null) {
    const spots = s.legal.filter((a) => a.type === 'build_settlement').map((a) => a.vertex);
    const worth = (v) => GEO.vertices[v].hexes.reduce((n, h) => n + pips(s.view.board.hexes[h].number), 0);
    const best = spots.reduce((a, b) => (worth(b) > worth(a) ? b : a));
    await act(page, page.locator(`.vertex-target[data-vertex="${best}"]`));
  } else {
    await act(page, page.locator('.edge-target').first());
  }
}

/**
 * Discards through the dialog (R19a): the count shown follows the clicks and
 * the Discard button is enabled only at exactly the owed number.
 */
async function discard(page, s, g, seen) {
  const me = s.you.seat;
  const owed = s.view.discards_owed[me];
  const hand = { ...s.view.players[me].resources };
  const held = sum(hand);
  expect(owed).toBe(Math.floor(held / 2));
  const dialog = page.locator('.discard');
  const done = page.locator('#discard-done');
  await expect(dialog).toContainText(`Discard ${owed} cards`);
  const chosen = await page.evaluate(() => Object.values(window.catan.state.ui.discard).reduce((a, b) => a + b, 0));
  if (chosen === 0) {
    // Give up the most plentiful cards, one click each.
    const left = { ...hand };
    let last = null;
    for (let i = 0; i < owed; i++) {
      await expect(dialog).toContainText(`chosen ${i} of ${owed}`);
      await expect(done).toBeDisabled();
      last = Object.keys(left).reduce((a, b) => (left[b] > left[a] ? b : a));
      left[last] -= 1;
      await dialog.locator(`li[data-resource="${last}"] .more`).click();
    }
    await expect(dialog).toContainText(`chosen ${owed} of ${owed}`);
    await expect(done).toBeEnabled();
    await expect(done).toHaveText(`Discard ${owed}/${owed}`);
    // No more can be chosen than owed ...
    await expect(dialog.locator('.more:not([disabled])')).toHaveCount(0);
    // ... and one fewer disables the button again.
    await dialog.locator(`li[data-resource="${last}"] [aria-label="one ${last} less"]`).click();
    await expect(dialog).toContainText(`chosen ${owed - 1} of ${owed}`);
    await expect(done).toBeDisabled();
    await dialog.locator(`li[data-resource="${last}"] .more`).click();
    await expect(done).toBeEnabled();
    if (!seen.has('discard')) await shoot(page, g.testInfo, 'cards-discard');
  } else {
    // A retry after the game moved on (bots discard at the same moment): the choice is kept.
    await expect(dialog).toContainText(`chosen ${owed} of ${owed}`);
  }
  const u = await act(page, done);
  if (!u) return;
  const ev = u.events.find((e) => e.type === 'discarded' && e.seat === me);
  expect(ev, 'a discarded event for the person').toBeTruthy();
  expect(sum(ev.cards)).toBe(owed);
  expect(u.view.discards_owed[me]).toBe(0);
  expect(u.view.players[me].resource_count).toBe(held - owed);
  expect(sum(u.view.players[me].resources)).toBe(held - owed);
  seen.add('discard');
}

/**
 * Moves the robber by clicking a highlighted hex, and a victim button when
 * the hex has more than one (R19b-c, R35). `type` is move_robber or
 * play_knight. Checks the robber's hex, the steal as the thief sees it (the
 * card's type) and as the spectator sees it (no type: R47).
 */
async function robber(page, s, g, seen, type) {
  const me = s.you.seat;
  const mine = new Set([...s.view.players[me].settlements, ...s.view.players[me].cities]);
  const byHex = new Map();
  for (const a of s.legal.filter((x) => x.type === type)) {
    if (!byHex.has(a.hex)) byHex.set(a.hex, []);
    if (a.victim !== null && a.victim !== undefined) byHex.get(a.hex).push(a.victim);
  }
  // Like a person: somewhere with the most people to rob, not on one's own buildings.
  const score = (h) => byHex.get(h).length * 100 - (GEO.hexes[h].vertices.some((v) => mine.has(v)) ? 50 : 0)
    + pips(s.view.board.hexes[h].number);
  const hex = [...byHex.keys()].reduce((a, b) => (score(b) > score(a) ? b : a));
  const victims = byHex.get(hex);
  await expect(page.locator('.hex-target')).toHaveCount(byHex.size);
  // Robber mode dims only the hexes the robber cannot go to; number tokens stay as they are.
  await expect(page.locator('#board .hex.dimmed')).toHaveCount(19 - byHex.size);
  for (const h of byHex.keys()) await expect(page.locator(`#board .hex[data-hex="${h}"]`)).not.toHaveClass(/dimmed/);
  expect(await page.locator('#board .token').evaluateAll((ts) => ts.every((t) => getComputedStyle(t).opacity === '1' && getComputedStyle(t).filter === 'none'))).toBe(true);
  const target = page.locator(`.hex-target[data-hex="${hex}"]`);
  let victim = victims.length ? victims[0] : null;
  let u;
  if (victims.length > 1) {
    await target.click();
    const buttons = page.locator('.victim');
    await expect(buttons).toHaveCount(victims.length);
    // Rob whoever holds the most cards.
    victim = victims.reduce((a, b) => (s.view.players[b].resource_count > s.view.players[a].resource_count ? b : a));
    // Each victim button names the player and how many cards they hold.
    const n = s.view.players[victim].resource_count;
    await expect(page.locator(`.victim[data-seat="${victim}"]`)).toHaveText(`${g.names[victim]} (${n} card${n === 1 ? '' : 's'})`);
    u = await act(page, page.locator(`.victim[data-seat="${victim}"]`));
    seen.add('victim button');
  } else {
    u = await act(page, target);
  }
  expect(u, 'the robber move was accepted').toBeTruthy();
  expect(u.view.robber).toBe(hex);
  await expect(page.locator(`#board .robber[data-hex="${hex}"]`)).toHaveCount(1);
  expect(u.events).toContainEqual({ type: 'robber_moved', seat: me, hex });
  const stole = u.events.find((e) => e.type === 'stole');
  if (victim === null) {
    expect(stole).toBeUndefined();
    return;
  }
  // The thief learns the card; it moved from the victim's hand to the thief's.
  expect(stole).toMatchObject({ thief: me, victim });
  expect(stole.resource).toBeTruthy();
  expect(u.view.players[me].resources[stole.resource]).toBe(s.view.players[me].resources[stole.resource] + 1);
  expect(u.view.players[victim].resource_count).toBe(s.view.players[victim].resource_count - 1);
  await expect(page.locator('#log-list')).toContainText(`${NAME} stole 1 ${stole.resource} from ${g.names[victim]}.`);
  // The spectator sees that a card was stolen, and from whom, but not which.
  await g.spectator.waitForFunction((v) => window.catan.state.version >= v, u.version, { timeout: 15_000 });
  const seenBySpectator = (await updatesSince(g.spectator, u.version - 1)).find((h) => h.version === u.version);
  const theirs = seenBySpectator.events.find((e) => e.type === 'stole');
  expect(theirs).toMatchObject({ thief: me, victim });
  expect(theirs.resource ?? null).toBeNull();
  await expect(g.spectator.locator('#log-list')).toContainText(`${NAME} stole a card from ${g.names[victim]}.`);
  seen.add(type === 'move_robber' ? 'robber on a 7' : 'robber by a knight');
}

/** Buys one development card (R31) and checks it is marked new and cannot be played this turn (R32). */
async function buy(page, s, g, seen) {
  const me = s.you.seat;
  const button = page.locator('[data-action="buy_development_card"]');
  await expect(button).toBeEnabled();
  const before = s.view.players[me];
  const u = await act(page, button);
  expect(u, 'the purchase was accepted').toBeTruthy();
  const ev = u.events.find((e) => e.type === 'dev_card_bought' && e.seat === me);
  expect(ev.card, 'the buyer learns the card').toBeTruthy();
  const card = ev.card;
  const after = u.view.players[me];
  expect(after.resource_count).toBe(before.resource_count - 3);
  expect(after.dev_card_count).toBe(before.dev_card_count + 1);
  expect(after.dev_cards[card]).toBe(before.dev_cards[card] + 1);
  expect(after.dev_cards_new[card]).toBe(before.dev_cards_new[card] + 1);
  // table.js marks cards bought this turn with a "N new" tag, and says what each card does.
  const tag = page.locator(`#me .devcard[data-card="${card}"] .tag.new`);
  await expect(tag).toHaveText(`${after.dev_cards_new[card]} new: playable next turn`);
  await expect(page.locator(`#me .devcard[data-card="${card}"] .devcard-effect`)).toHaveText(/\w+ .*\./);
  await expect(tag).toHaveAttribute('title', /Bought this turn/);
  g.boughtThisTurn.add(card);
  // With no older copy, and no card played yet this turn, only R32 keeps it from being played.
  if (PLAYABLE.includes(card) && after.dev_cards[card] === after.dev_cards_new[card] && !u.view.dev_card_played) {
    await settled(page);
    await expect(page.locator(`[data-action="play_${card}"]`)).toBeDisabled();
    expect((await state(page)).legal.some((a) => a.type === `play_${card}`)).toBe(false);
    if (!seen.has('bought card locked')) await shoot(page, g.testInfo, 'cards-bought');
    seen.add('bought card locked');
  }
}

/**
 * A bank or harbour trade (R28-R29) that brings the hand closer to a
 * development card, giving only what the card does not need; null if none.
 */
function tradeForCard(s) {
  const hand = s.view.players[s.you.seat].resources;
  const need = { brick: 0, wood: 0, wool: 1, wheat: 1, ore: 1 };
  const get = RES.find((r) => hand[r] < need[r]);
  if (!get) return null;
  const spare = (a) => hand[a.give] - need[a.give] - s.view.players[s.you.seat].bank_rates[RES.indexOf(a.give)];
  const options = s.legal.filter((a) => a.type === 'trade_bank' && a.get === get && spare(a) >= 0);
  return options.length ? options.reduce((a, b) => (spare(b) > spare(a) ? b : a)) : null;
}

/** Trades with the bank through the trade panel's two selects and its button. */
async function bankTrade(page, s, trade) {
  const me = s.you.seat;
  const before = s.view.players[me].resources;
  const rate = s.view.players[me].bank_rates[RES.indexOf(trade.give)];
  await page.selectOption('#bank-give', trade.give);
  await page.selectOption('#bank-get', trade.get);
  const button = page.locator('#bank-trade');
  await expect(button).toBeEnabled();
  const u = await act(page, button);
  expect(u.events.find((e) => e.type === 'bank_traded')).toMatchObject({ seat: me });
  const after = u.view.players[me].resources;
  expect(after[trade.give]).toBe(before[trade.give] - rate);
  expect(after[trade.get]).toBe(before[trade.get] + 1);
}

/** Plays one development card by its button and the dialog or board clicks it needs (R34-R38). */
async function play(page, s, g, seen, card) {
  const me = s.you.seat;
  const before = s.view.players[me];
  const button = page.locator(`[data-action="play_${card}"]`);
  await expect(button).toBeEnabled();
  await button.click();
  let u;
  if (card === 'knight') {
    await expect(page.locator('.choice')).toContainText('Knight: click a highlighted hex');
    await robber(page, s, g, seen, 'play_knight');
    u = (await updatesSince(page, s.version)).find((h) => h.seat === me);
    expect(u.events).toContainEqual({ type: 'knight_played', seat: me });
    expect(u.view.players[me].played_knights).toBe(before.played_knights + 1);
  } else if (card === 'monopoly') {
    // Name the resource the bank holds fewest of: the players hold the most of it.
    const res = Object.keys(s.view.bank).reduce((a, b) => (s.view.bank[b] < s.view.bank[a] ? b : a));
    const group = page.getByRole('group', { name: 'Monopoly' });
    u = await act(page, group.locator(`button.res-${res}`));
    const ev = u.events.find((e) => e.type === 'monopoly_played');
    expect(ev).toMatchObject({ seat: me, resource: res });
    expect(u.view.players[me].resources[res]).toBe(before.resources[res] + sum(ev.taken));
  } else if (card === 'invention') {
    // Take the pair the hand is shortest of.
    const pairs = s.legal.filter((a) => a.type === 'play_invention').map((a) => a.resources);
    const pair = pairs.reduce((a, b) => (sum(b.map((r) => before.resources[r])) < sum(a.map((r) => before.resources[r])) ? b : a));
    const group = page.getByRole('group', { name: 'Invention' });
    const done = page.locator('#invention-done');
    for (let i = 0; i < pair.length; i++) {
      await expect(done).toBeDisabled();
      await group.locator(`button.res-${pair[i]}`).click();
      await expect(group).toContainText(`(${pair.slice(0, i + 1).join(', ')})`);
    }
    u = await act(page, done);
    const ev = u.events.find((e) => e.type === 'invention_played');
    expect(ev.seat).toBe(me);
    for (const r of Object.keys(before.resources)) {
      const took = pair.filter((x) => x === r).length;
      expect(ev.taken[r]).toBe(took);
      expect(u.view.players[me].resources[r]).toBe(before.resources[r] + took);
    }
  } else if (card === 'road_building') {
    const dialog = page.locator('.choice');
    await expect(dialog).toContainText('Road Building: click up to 2');
    if (await page.locator('.edge-target').count() === 0) {
      // Nowhere to build: the card is still played, with no roads (R36).
      u = await act(page, page.locator('#rb-done'));
    } else {
      const v = s.version;
      await page.locator('.edge-target').first().click();
      await page.waitForFunction((x) => window.catan.state.version > x || window.catan.state.ui.rbEdges.length === 1
        || window.catan.state.error, v, { timeout: 15_000 });
      expect((await state(page)).error).toBeNull();
      if ((await state(page)).version === v) {
        // A second road may follow the first: its spots are highlighted now.
        await expect(dialog).toContainText('(1 chosen)');
        const second = page.locator('.edge-target').first();
        u = await act(page, (await second.count()) ? second : page.locator('#rb-done'));
      } else {
        u = (await updatesSince(page, v)).find((h) => h.seat === me);
      }
    }
    const ev = u.events.find((e) => e.type === 'road_building_played');
    expect(ev.seat).toBe(me);
    expect(u.view.players[me].roads.length).toBe(before.roads.length + ev.edges.length);
    for (const e of ev.edges) await expect(page.locator(`#board .road.seat-${me}[data-edge="${e}"]`)).toHaveCount(1);
  }
  expect(u, `${card} was played`).toBeTruthy();
  const after = u.view.players[me];
  expect(after.dev_cards[card]).toBe(before.dev_cards[card] - 1);
  expect(after.played[card]).toBe(before.played[card] + 1);
  expect(u.view.dev_card_played).toBe(true);
  // One card a turn (R34): every play button is off now.
  await settled(page);
  for (const c of PLAYABLE) await expect(page.locator(`[data-action="play_${c}"]`)).toBeDisabled();
  seen.add('card played');
  seen.add(`played ${card}`);
}

/** At the start of the person's turn: last turn's purchases are no longer new, and playable (R32). */
async function checkTurnStart(page, s, g, seen) {
  if (g.lastTurnChecked === s.view.turn) return;
  g.lastTurnChecked = s.view.turn;
  const me = s.view.players[s.you.seat];
  expect(Object.values(me.dev_cards_new).every((n) => n === 0)).toBe(true);
  await settled(page);
  await expect(page.locator('#me .tag.new')).toHaveCount(0);
  for (const card of g.boughtThisTurn) {
    if (!PLAYABLE.includes(card) || !me.dev_cards[card]) continue;
    await expect(page.locator(`[data-action="play_${card}"]`)).toBeEnabled();
    expect(s.legal.some((a) => a.type === `play_${card}`)).toBe(true);
    seen.add('bought card playable next turn');
  }
  g.boughtThisTurn = new Set();
}

/** Declines an open offer by its button; the bot may withdraw it first. */
async function declineOffer(page, offer) {
  const button = page.locator(`li.offer[data-offer="${offer}"] button.decline`);
  try {
    await button.click({ timeout: 5_000 });
  } catch (e) {
    // Gone before the click: the bot confirmed with someone else or withdrew.
    if (await button.count()) throw e;
    return;
  }
  // The answer shows (the offer lists the person as declining) or the offer closed.
  await page.waitForFunction((id) => {
    const { view, you, error } = window.catan.state;
    const o = view.offers.find((x) => x.id === id);
    return !o || o.declined.includes(you.seat) || error;
  }, offer, { timeout: 15_000 });
  // Once declined, the card says so and offers no second Decline (a
  // second click would send nothing); Accept stays, to change one's mind.
  const card = page.locator(`li.offer[data-offer="${offer}"]`);
  const declined = await page.evaluate((id) => {
    const { view, you } = window.catan.state;
    const o = view.offers.find((x) => x.id === id);
    return !!o && o.declined.includes(you.seat);
  }, offer);
  if (declined) {
    // (The bot may close the offer meanwhile: then the card is gone.)
    await expect(card.locator('button.decline')).toHaveCount(0);
    await expect.poll(async () => (await card.count()) === 0
      || (await card.locator('.said').allTextContents()).includes('You declined.')).toBe(true);
  }
}

/** Plays the person's moves until `seen` holds all of `wanted` or the game ends. */
async function playGame(g, seen, wanted, deadline) {
  const { page } = g;
  let last = { turn: -1, at: Date.now() };
  for (;;) {
    if (wanted.every((w) => seen.has(w))) return;
    if (Date.now() > deadline) throw new Error(`out of time; still missing: ${wanted.filter((w) => !seen.has(w)).join(', ')}`);
    const s = await state(page);
    // Bots act at once and the person ends each turn: a minute in one turn
    // is a stalled table, reported with what the page shows.
    if (s.view && s.view.turn !== last.turn) last = { turn: s.view.turn, at: Date.now() };
    else if (Date.now() - last.at > 60_000) {
      const extra = await page.evaluate(() => ({ connection: window.catan.state.connection, ui: window.catan.state.ui,
        recent: window.catan.state.history.slice(-6).map((h) => ({ version: h.version, seat: h.seat, events: h.events })) }));
      throw new Error(`the game stalled in turn ${s.view && s.view.turn} at version ${s.version}: phase ${s.view && s.view.phase}, active ${s.view && s.view.active}, `
        + `person ${s.you && s.you.seat}, busy ${s.busy}, error ${s.error}, legal ${JSON.stringify(s.legal).slice(0, 500)}, `
        + `owed ${s.view && JSON.stringify(s.view.discards_owed)}, page ${JSON.stringify(extra).slice(0, 4000)}`);
    }
    if (!s.view || s.busy) {
      await page.waitForTimeout(30);
      continue;
    }
    if (s.view.phase === 'finished' || s.over) return;
    // A game this long is one where the dice or the board keep something
    // from happening (rare): a new game is quicker than playing it out.
    if (s.view.turn > MAX_TURNS) return;
    const me = s.you.seat;
    const types = new Set(s.legal.map((a) => a.type));
    if (types.has('discard')) {
      await discard(page, s, g, seen);
    } else if (s.view.phase === 'opening' && s.legal.length) {
      await placeOpening(page, s);
    } else if (s.view.phase === 'move_robber' && types.has('move_robber')) {
      await robber(page, s, g, seen, 'move_robber');
    } else if (types.has('roll_dice')) {
      await checkTurnStart(page, s, g, seen);
      await act(page, page.locator('#roll'));
    } else if (s.view.phase === 'action' && s.view.active === me) {
      // Buy (trading toward a card if need be) before playing one, so that a
      // new card's lock is not hidden by a card already played this turn.
      const playable = PLAYABLE.filter((c) => types.has(`play_${c}`));
      const trade = types.has('buy_development_card') ? null : tradeForCard(s);
      if (types.has('buy_development_card')) await buy(page, s, g, seen);
      else if (trade) await bankTrade(page, s, trade);
      else if (!s.view.dev_card_played && playable.length) {
        await play(page, s, g, seen, playable.find((c) => !seen.has(`played ${c}`)) || playable[0]);
      } else await act(page, page.locator('#end-turn'));
    } else if (types.has('decline_trade')) {
      // A bot's offer to the person: declined by the page's button, as a
      // person would (a bot waits for people's answers to its offers).
      await declineOffer(page, s.legal.find((a) => a.type === 'decline_trade').offer);
    } else {
      // Someone else's move.
      await page.waitForTimeout(30);
    }
  }
}

test('a person discards (R19a), moves the robber and picks a victim (R19b-c, R47), buys (R31, R32) and plays development cards (R34-R38), all by the page\'s controls', async ({ browser }, testInfo) => {
  // Usually well under 2 minutes; the margin is for unlucky dice and a loaded machine.
  test.setTimeout(480_000);
  const started = Date.now();
  const deadline = started + 450_000;
  const wanted = ['discard', 'robber on a 7', 'victim button', 'bought card locked', 'card played'];
  const seen = new Set();
  let games = 0;
  while (!wanted.every((w) => seen.has(w)) && games < 4) {
    games += 1;
    const g = await newGame(browser, games);
    Object.assign(g, { testInfo, boughtThisTurn: new Set(), lastTurnChecked: null });
    await playGame(g, seen, wanted, deadline);
    const s = await state(g.page);
    // The spectator never learned a bought card (R31) nor a stolen one (R47).
    const leaked = await g.spectator.evaluate(() => window.catan.state.history.flatMap((h) => h.events)
      .filter((e) => (e.type === 'stole' && e.resource) || (e.type === 'dev_card_bought' && e.card)).length);
    expect(leaked).toBe(0);
    console.log(`cards game ${games}: version ${s.version}, phase ${s.view.phase}; seen so far: ${[...seen].join(', ')}`);
    await g.close();
  }
  testInfo.annotations.push({ type: 'timing', description: `${games} game(s), ${((Date.now() - started) / 1000).toFixed(1)} s; seen: ${[...seen].join(', ')}` });
  expect(wanted.filter((w) => !seen.has(w))).toEqual([]);
});

test('the reconnect banner appears when the connection drops and the page reconnects by itself', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext();
  const page = await context.newPage();
  watchErrors(page, 'player');
  // Every game socket of the page goes through this route: it opens the real
  // socket to the server and passes every message on both ways, noting the
  // server's snapshots. Closing its server side below closes that real socket
  // (the server sees the player go), and the page's socket closes with it.
  // A reconnection is let through after a pause, like a network slow to come back.
  const links = [];
  await page.routeWebSocket(/\/api\/lobbies\/[^/]+\/ws$/, async (ws) => {
    if (links.length) await new Promise((r) => setTimeout(r, 1500));
    const link = { snapshots: [] };
    link.server = ws.connectToServer();
    link.server.onMessage((m) => {
      const msg = JSON.parse(m);
      if (msg.type === 'snapshot') link.snapshots.push(msg);
      ws.send(m);
    });
    ws.onMessage((m) => link.server.send(m));
    links.push(link);
  });
  await createLobby(page, { name: 'Dora', lobby: 'Reconnect test' });
  for (let i = 0; i < 3; i++) {
    await page.locator('.add-bot').first().click();
    await expect(page.locator('.seat.bot')).toHaveCount(i + 1);
  }
  await page.click('#start');
  await expect(page.locator('#board .hex')).toHaveCount(19);
  // Play by clicks until it is the person's own turn after the opening: the
  // bots then wait for the person (no turn timer), so nothing moves meanwhile.
  const mine = (s) => s.view.phase === 'pre_roll' && s.view.active === s.you.seat && s.legal.length > 0 && !s.busy;
  await drive([page], async () => mine(await state(page)), { timeout: 120_000 });
  const before = await state(page);
  await expect(page.locator('#conn-banner')).toBeHidden();

  // Record what the banner shows from now on: its retry text lasts only the first backoff (0.5 s).
  await page.evaluate(() => {
    const banner = document.getElementById('conn-banner');
    window.bannerShown = [];
    new MutationObserver(() => window.bannerShown.push({ hidden: banner.hidden, text: banner.textContent }))
      .observe(banner, { attributes: true, childList: true, subtree: true, characterData: true });
  });
  const sockets = links.length;
  await links[sockets - 1].server.close({ code: 4000, reason: 'dropped by the test' });

  const banner = page.locator('#conn-banner');
  // While the route holds the reconnection back, the banner says so ...
  await expect(banner).toBeVisible();
  await expect(banner).toContainText(/Reconnecting|Retrying/);
  // ... and it goes away by itself once the page is back.
  await expect(banner).toBeHidden({ timeout: 30_000 });
  const shown = await page.evaluate(() => window.bannerShown);
  expect(shown.some((b) => !b.hidden && /^Connection lost \(.+\)\. Retrying in \d+(\.\d+)?s/.test(b.text))).toBe(true);
  expect(shown.some((b) => !b.hidden && /Reconnecting \(attempt 1\)/.test(b.text))).toBe(true);
  expect(shown.at(-1).hidden).toBe(true);
  expect(links.length).toBe(sockets + 1);

  // The table is intact: the new socket brought a fresh snapshot of the same
  // position (nobody moves while it is the person's turn) with the same legal
  // actions, and the page shows it.
  const link = links[sockets];
  await expect.poll(() => link.snapshots.length).toBe(1);
  const snap = link.snapshots[0];
  expect(snap.version).toBe(before.version);
  expect(snap.view).toEqual(before.view);
  expect(snap.legal).toEqual(before.legal);
  await settled(page);
  const after = await state(page);
  expect(after.version).toBe(snap.version);
  expect(after.view).toEqual(snap.view);
  expect(after.legal).toEqual(snap.legal);
  expect(await page.evaluate(() => window.catan.state.connection)).toBe('open');
  await expect(page.locator('#roll')).toBeEnabled();
  // The new socket carries actions: the roll goes through.
  expect(await uiStep(page)).toBe(true);
  expect((await state(page)).version).toBeGreaterThan(before.version);
  await context.close();
});
