// The table's layout and its trades (issue 11, items 1 and 2): at 1280x800
// everything fits one screen without page scrolling; on a phone (390x844)
// the board fills the width, the panels are one tap away, board targets are
// at least 32 CSS px; a bot's offer to a person arrives where the eye is and
// can be taken at the default bot speed, and a second Accept sends nothing;
// on a phone the Log tab opens on its latest lines.

import { expect } from '@playwright/test';
import { createLobby, expectBoardFits, overlaps, shoot, shootBoth, state, uiStep, waitState, watchErrors, test } from './helpers.js';

/** Creates a lobby of `name` and bots and starts it; returns its id. */
async function botGame(page, { name = 'Ann', players = 4, botDelay = 0 } = {}) {
  const id = await createLobby(page, { name, lobby: `${name}'s layout test`, players, botDelay });
  for (let i = 1; i < players; i++) {
    await page.locator('.add-bot').first().click();
    await expect(page.locator('.seat.bot')).toHaveCount(i);
  }
  await page.click('#start');
  await expect(page.locator('#board .hex')).toHaveCount(19);
  return id;
}

/** The box of `locator`, which must lie wholly inside the viewport. */
async function inside(page, locator, what) {
  const vp = page.viewportSize();
  // The page redraws its sections whole: a box read while one is being
  // replaced is null, so read it again until the element is there.
  let box = null;
  await expect.poll(async () => {
    box = await locator.boundingBox().catch(() => null);
    return box;
  }, { message: `${what} is on the page` }).not.toBeNull();

  expect(box.x, `${what} left`).toBeGreaterThanOrEqual(0);
  expect(box.y, `${what} top`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what} right`).toBeLessThanOrEqual(vp.width + 0.5);
  expect(box.y + box.height, `${what} bottom`).toBeLessThanOrEqual(vp.height + 0.5);
  return box;
}

async function noPageScroll(page) {
  const vp = page.viewportSize();
  const size = await page.evaluate(() => ({ w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight }));
  expect(size.w).toBeLessThanOrEqual(vp.width);
  expect(size.h).toBeLessThanOrEqual(vp.height);
}

test('at 1280x800 the whole table fits one screen without page scrolling', async ({ browser }, testInfo) => {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  watchErrors(page, 'Ann');
  await botGame(page);
  await waitState(page, (s) => s.view.phase === 'opening' && s.legal.length > 0, 'Ann to place');
  await expect(page.locator('.vertex-target').first()).toBeVisible();
  await noPageScroll(page);
  const board = await inside(page, page.locator('#board'), 'board');
  expect(board.width).toBeGreaterThan(450);
  await expectBoardFits(page, '1280x800');
  for (const [sel, what] of [['#banner', 'banner'], ['#controls', 'actions'], ['#me', 'hand'], ['#players', 'players'],
    ['.log', 'log'], ['#trade', 'trade panel'], ['.vertex-target >> nth=0', 'a settlement spot']]) {
    await inside(page, page.locator(sel), what);
  }
  // Build buttons show their cost; the hand's cards have an icon each.
  await expect(page.locator('#controls [data-action="build_road"] .cost')).toHaveText('1 brick, 1 wood');
  await expect(page.locator('#controls [data-action="build_city"] .cost')).toHaveText('2 wheat, 3 ore');
  await expect(page.locator('#me .card .icon')).toHaveCount(5);
  await shoot(page, testInfo, 'table-1280x800');
  await ctx.close();
});

test('on a phone the board fills the width, each panel is one tap away and spots are 32 px targets', async ({ browser }, testInfo) => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await ctx.newPage();
  watchErrors(page, 'Ann');
  await botGame(page);
  await waitState(page, (s) => s.view.phase === 'opening' && s.legal.length > 0, 'Ann to place');
  await noPageScroll(page);
  const board = await inside(page, page.locator('#board'), 'board');
  expect(board.width).toBeGreaterThan(370);
  // The whole board at first sight: nothing of it clipped by its frame.
  const fit = await expectBoardFits(page, '390x844');
  // The island fills the width: it is not shrunk to leave room for the rest.
  expect(fit.drawn.r - fit.drawn.l, 'the drawn board spans the width').toBeGreaterThan(340);
  // A toast (the longest kind, as the page's CSS lays it out) stays off
  // the top row of hexes.
  const toast = await page.evaluate(() => {
    const node = document.createElement('div');
    node.className = 'toast';
    node.textContent = 'Bot 3 moved the robber to the 10 mountains and stole a card from Bot 2';
    document.getElementById('toasts').append(node);
    // Where it rests once its entrance is over.
    for (const a of node.getAnimations()) a.finish();
    const r = node.getBoundingClientRect();
    node.remove();
    return { l: r.left, t: r.top, r: r.right, b: r.bottom };
  });
  for (const hex of fit.topRow) expect(overlaps(toast, hex), `toast ${JSON.stringify(toast)} over a top-row hex ${JSON.stringify(hex)}`).toBe(false);
  expect(toast.t, 'the toast inside the frame').toBeGreaterThanOrEqual(fit.frame.t - 0.5);
  // Pinch zoom stays possible: the page does not turn the browser's zoom off.
  const zoom = await page.evaluate(() => ({
    meta: document.querySelector('meta[name=viewport]').content,
    touch: getComputedStyle(document.getElementById('board')).touchAction,
  }));
  expect(zoom.meta).not.toMatch(/user-scalable\s*=\s*(no|0)|maximum-scale\s*=\s*1(\.0*)?\b/);
  expect(zoom.touch).not.toMatch(/none|pan-x pan-y$/);
  // Settlement spots: at least 32 CSS px to tap.
  const spots = page.locator('.vertex-target');
  // The state arrives before the frame that draws it.
  await expect(spots.first()).toBeVisible();
  for (const spot of (await spots.all()).slice(0, 5)) {
    const box = await inside(page, spot, 'settlement spot');
    expect(box.width).toBeGreaterThanOrEqual(32);
    expect(box.height).toBeGreaterThanOrEqual(32);
  }
  await shoot(page, testInfo, 'phone-play');
  for (const [tab, sel] of [['players', '#players'], ['log', '.log'], ['trade', '#trade'], ['play', '#controls']]) {
    await page.locator(`#tab-${tab}`).tap();
    await expect(page.locator(`#tab-${tab}`)).toHaveAttribute('aria-selected', 'true');
    await inside(page, page.locator(sel), `${tab} panel`);
    const tabBox = await inside(page, page.locator(`#tab-${tab}`), `${tab} tab`);
    expect(tabBox.height).toBeGreaterThanOrEqual(32);
  }
  await inside(page, page.locator('#me'), 'hand');
  // Road spots after the settlement: also 32 px across.
  await page.locator('.vertex-target').first().tap();
  await expect(page.locator('.edge-target').first()).toBeVisible();
  for (const spot of await page.locator('.edge-target').all()) {
    const box = await inside(page, spot, 'road spot');
    expect(Math.max(box.width, box.height)).toBeGreaterThanOrEqual(32);
    expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(20);
  }
  await noPageScroll(page);
  await shoot(page, testInfo, 'phone-road');
  await ctx.close();
});

test('a person takes a bot\'s offer at the default bot speed, and a second Accept sends nothing', async ({ browser }, testInfo) => {
  // Bots offer only when one or two cards short, so the test arms the bot
  // after Ann (the server's `test_bot_offer` hook, test servers only) to
  // offer her one card for one at its next turn; the offer, the bot's wait
  // for her answer and its confirmation are the ordinary ones.
  test.setTimeout(240_000);
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  watchErrors(page, 'Ann');
  // Every action the page sends, and the server's replies by request id.
  const sent = [];
  const replies = new Map();
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => {
      try {
        const m = JSON.parse(String(f.payload));
        if (m.type === 'action') sent.push(m);
      } catch { /* not JSON */ }
    });
    ws.on('framereceived', (f) => {
      try {
        const m = JSON.parse(String(f.payload));
        if ((m.type === 'accepted' || m.type === 'rejected') && m.id) replies.set(m.id, m);
      } catch { /* not JSON */ }
    });
  });
  // The home page's default bot think time (800 ms), not the tests' 0.
  const botDelay = Number(await (async () => { await page.goto('/'); return page.locator('#bot-delay').inputValue(); })());
  expect(botDelay).toBeGreaterThanOrEqual(800);
  await botGame(page, { botDelay });
  const me = (await waitState(page, (x) => x.you && x.you.kind === 'seat', 'Ann seated')).you.seat;
  const bot = (me + 1) % 4;
  const armed = await page.evaluate(([b, to]) => window.catan.send({ type: 'test_bot_offer', bot: b, to }), [bot, me]);
  expect(armed.type).toBe('accepted');
  // The card of the armed bot's offer to Ann that she can take (its Accept
  // is enabled). Other bots may offer her trades of their own meanwhile:
  // those are left alone.
  const armedOffers = () => page.evaluate((b) => window.catan.state.view.offers.filter((o) => o.maker === b).map((o) => o.id), bot);
  const takeable = page.locator('#offers .offer-to-me').filter({ has: page.locator('button.accept:not([disabled])') });
  const start = Date.now();
  let shot = false;
  let offerId = null;
  // Ann plays her own turns (never answering offers) until the bot's turn
  // brings the offer (it waits for a turn when Ann holds a card to ask for),
  // then takes it. The bot offers once a turn: on a busy machine the test
  // can be slower than the bot's wait for her answer, and then it takes the
  // next turn's offer (one that closed first was not kept from her).
  while (offerId === null) {
    if (Date.now() - start > 200_000) throw new Error('the armed bot never offered Ann a trade she could take');
    const ids = await armedOffers();
    const shown = await takeable.evaluateAll((els) => els.map((e) => Number(e.dataset.offer)));
    const found = shown.find((x) => ids.includes(x));
    const id = found === undefined ? null : String(found);
    if (id !== null) {
      const open = page.locator(`#offers [data-offer="${id}"]`);
      const accept = open.locator('button.accept:not([disabled])');
      // In view, unless it closed meanwhile (then the next one is checked).
      const seen = await inside(page, open, 'the offer card').then(() => inside(page, accept, 'Accept')).then(() => true, async (e) => {
        if (await accept.count()) throw e;
        return false;
      });
      if (!seen) continue;
      if (!shot) {

        await shootBoth(page, testInfo, 'trade-card');
        shot = true;
      }
      if (await accept.click({ timeout: 2000 }).then(() => true, () => false)) offerId = Number(id);
      continue;
    }
    // Never answering offers here: the step reads the state afresh, so an
    // offer that arrived meanwhile is left for the test to take.
    if (!(await uiStep(page, { answerOffers: false }))) await page.waitForTimeout(100);
  }
  // A second click (the button is disabled by then; force the click through) sends nothing.
  await page.locator(`#offers [data-offer="${offerId}"] button.accept`).click({ force: true, timeout: 2000 }).catch(() => {});

  const s = await waitState(page, (x) => !x.view.offers.some((o) => o.id === offerId) || x.view.offers.find((o) => o.id === offerId).accepted.includes(x.you.seat),
    'the server to hear Ann accept', 20_000);
  expect(s.error).toBeNull();
  // One accept reached the game. The page may have sent it twice only when
  // the first arrived at an old version (stale_version, retried at the new
  // one): never twice at the same version, as a second click would.
  const accepts = sent.filter((m) => m.action.type === 'accept_trade' && m.action.offer === offerId);
  await expect.poll(() => accepts.every((m) => replies.has(m.id))).toBe(true);
  expect(accepts.filter((m) => replies.get(m.id).type === 'accepted')).toHaveLength(1);
  for (const m of accepts) {
    const r = replies.get(m.id);
    if (r.type === 'rejected') expect(r.code).toBe('stale_version');
  }
  expect(new Set(accepts.map((m) => m.version)).size).toBe(accepts.length);
  // The bot confirms with Ann: the trade is done, hands and log say so.
  const offer = (await state(page)).view.offers.find((o) => o.id === offerId);
  expect(offer ? offer.maker : bot).toBe(bot);
  await page.waitForFunction((id) => window.catan.state.history.some((u) => u.events.some((e) => e.type === 'traded' && e.offer === id)), offerId, { timeout: 30_000 });
  const traded = await page.evaluate((id) => window.catan.state.history.flatMap((u) => u.events).find((e) => e.type === 'traded' && e.offer === id), offerId);
  expect([traded.maker, traded.taker]).toEqual([bot, me]);
  await expect(page.locator('#log-list')).toContainText(`gave 1 ${Object.keys(traded.gave).find((r) => traded.gave[r])} to Ann`);
  await ctx.close();
});


test('on a phone the Log tab opens on the latest lines', async ({ browser }) => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await ctx.newPage();
  watchErrors(page, 'Ann');
  await botGame(page);
  // Play on the Play tab until it is Ann's roll after the opening, with more
  // lines in the log than its panel shows; then nothing moves until she rolls.
  const start = Date.now();
  for (;;) {
    const s = await state(page);
    const lines = await page.locator('#log-list li').count();
    if (s.view.phase === 'pre_roll' && s.view.active === s.you.seat && lines >= 20 && !s.busy) break;
    if (Date.now() - start > 120_000) throw new Error('never reached Ann\'s roll');
    if (!(await uiStep(page))) await page.waitForTimeout(40);
  }
  await page.locator('#tab-log').tap();
  await expect(page.locator('#tab-log')).toHaveAttribute('aria-selected', 'true');
  // The list scrolls (it holds more than it shows), and its last line is in view.
  const last = page.locator('#log-list li').last();
  await expect.poll(() => page.evaluate(() => {
    const list = document.getElementById('log-list');
    const l = list.getBoundingClientRect();
    const r = list.lastElementChild.getBoundingClientRect();
    return { scrolls: list.scrollHeight > list.clientHeight, inView: r.top >= l.top - 0.5 && r.bottom <= l.bottom + 0.5 };
  })).toEqual({ scrolls: true, inView: true });
  await inside(page, last, 'the latest log line');
  await ctx.close();
});

test('on a phone the Play panel shows its first action in view: Roll dice after a turn ended from the bottom row', async ({ browser }, testInfo) => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await ctx.newPage();
  watchErrors(page, 'Ann');
  await botGame(page);
  // Ann's turns by the buttons: End turn is in the last row, so pressing it
  // brings that row into view; her next roll must still be in view.
  const start = Date.now();
  let turns = 0;
  for (;;) {
    const s = await state(page);
    if (s.view.phase === 'pre_roll' && s.view.active === s.you.seat && !s.busy) {
      if (turns >= 2) break;
      turns += 1;
      await page.locator('#roll').tap();
      await page.waitForFunction(() => window.catan.state.view.phase !== 'pre_roll' || window.catan.state.error);
      continue;
    }
    if (Date.now() - start > 150_000) throw new Error('never reached Ann\'s third roll');
    if (!(await uiStep(page))) await page.waitForTimeout(40);
  }
  await expect(page.locator('#roll')).toBeEnabled();
  // The first enabled action lies inside the screen and inside its panel's
  // visible part (not scrolled away within the panel).
  const look = await page.evaluate(() => {
    const pane = document.getElementById('controls');
    const first = pane.querySelector('.action-buttons button:not([disabled])');
    const r = (e) => { const b = e.getBoundingClientRect(); return { t: b.top, b: b.bottom, l: b.left, r: b.right }; };
    return { id: first.id, first: r(first), pane: r(pane), scrollTop: pane.scrollTop };
  });
  expect(look.id).toBe('roll');
  await inside(page, page.locator('#roll'), 'Roll dice');
  expect(look.first.t, `Roll dice ${JSON.stringify(look)}`).toBeGreaterThanOrEqual(look.pane.t - 0.5);
  expect(look.first.b, `Roll dice ${JSON.stringify(look)}`).toBeLessThanOrEqual(look.pane.b + 0.5);
  await inside(page, page.locator('#controls [data-action="build_road"]'), 'Build road');
  await noPageScroll(page);
  await shoot(page, testInfo, 'phone-roll-390x844');
  await ctx.close();
});

test('on a phone the hand keeps its height when a long name wraps the banner onto two lines', async ({ browser }, testInfo) => {
  test.setTimeout(240_000);
  const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
  const ann = await (await browser.newContext(phone)).newPage();
  const max = await (await browser.newContext(phone)).newPage();
  watchErrors(ann, 'Ann');
  watchErrors(max, 'Max');
  const long = 'Maximiliane Alexandra von Wolkenstein';
  const id = await createLobby(ann, { name: 'Ann', lobby: 'Banner wrap test' });
  await max.goto(`/game.html?id=${id}`);
  await max.fill('#join-name', long);
  await max.click('#join');
  await expect(ann.locator('.seat-name', { hasText: long })).toHaveCount(1);
  for (let i = 1; i < 3; i++) {
    await ann.locator('.add-bot').first().click();
    await expect(ann.locator('.seat.bot')).toHaveCount(i);
  }
  await ann.click('#start');
  // Ann's page while the game waits for Ann (a one-line banner) and while
  // it waits for Max (the banner names Max and wraps), read when drawn.
  const look = () => ann.evaluate(() => {
    const me = document.getElementById('me');
    const text = document.getElementById('banner-text');
    const line = parseFloat(getComputedStyle(text).lineHeight);
    const cards = document.querySelector('#me .hand').getBoundingClientRect();
    return {
      banner: text.textContent, lines: Math.round(text.scrollHeight / line),
      cardsBottom: cards.bottom, handBottom: me.getBoundingClientRect().bottom,
      hand: me.getBoundingClientRect().height, handNeeds: me.scrollHeight, handShows: me.clientHeight,
    };
  });
  const seen = {};
  const maxSeat = (await waitState(max, (s) => s.you && s.you.kind === 'seat', 'Max seated')).you.seat;
  while (!seen.ann || !seen.max) {
    const s = await state(ann);
    if (s.view.phase !== 'opening') throw new Error('the opening ended before both were seen');
    const who = s.view.active === s.you.seat ? 'ann' : s.view.active === maxSeat ? 'max' : null;
    if (who && !seen[who]) {
      await expect(ann.locator('#banner-text')).toContainText(who === 'max' ? long : 'Your turn');
      seen[who] = await look();
      if (who === 'max') await shoot(ann, testInfo, 'banner-wrap-390x844');
    }
    let acted = false;
    for (const p of [ann, max]) acted = (await uiStep(p)) || acted;
    if (!acted) await ann.waitForTimeout(40);
  }
  // Max's sentence takes more lines than Ann's.
  expect(seen.max.lines, JSON.stringify(seen)).toBeGreaterThan(seen.ann.lines);
  // The hand is as tall as with Ann's shorter banner.
  expect(seen.max.hand, JSON.stringify(seen)).toBeGreaterThanOrEqual(seen.ann.hand - 0.5);
  await noPageScroll(ann);
});

test('on a phone the zoom buttons enlarge the board inside its frame, it pans when zoomed, a tap still builds, and reset shows it whole', async ({ browser }, testInfo) => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await ctx.newPage();
  watchErrors(page, 'Ann');
  await botGame(page);
  await waitState(page, (s) => s.view.phase === 'opening' && s.legal.some((a) => a.type === 'build_settlement'), 'Ann to place');
  await expect(page.locator('.vertex-target').first()).toBeVisible();
  const zoomIn = page.getByRole('button', { name: 'Zoom in' });
  const zoomOut = page.getByRole('button', { name: 'Zoom out' });
  const reset = page.getByRole('button', { name: 'Show the whole board' });
  for (const [b, what] of [[zoomIn, 'Zoom in'], [zoomOut, 'Zoom out'], [reset, 'Show the whole board']]) {
    const box = await inside(page, b, what);
    expect(box.width, what).toBeGreaterThanOrEqual(32);
    expect(box.height, what).toBeGreaterThanOrEqual(32);
  }
  const hexWidth = () => page.evaluate(() => document.querySelector('#board .hex').getBoundingClientRect().width);
  const frameBox = () => page.locator('.board-wrap').boundingBox();
  const w1 = await hexWidth();
  const frame1 = await frameBox();
  await expectBoardFits(page, 'before zooming');
  await zoomIn.tap();
  await zoomIn.tap();
  // Twice the size on screen, in the same frame.
  await expect.poll(hexWidth).toBeGreaterThan(w1 * 1.9);
  expect(await frameBox()).toEqual(frame1);
  await noPageScroll(page);
  // A finger drags the zoomed board: what shows moves.
  const scrolled = () => page.evaluate(() => { const b = document.getElementById('board-scroll'); return [b.scrollLeft, b.scrollTop]; });
  const before = await scrolled();
  const cdp = await ctx.newCDPSession(page);
  const [x0, y0] = [Math.round(frame1.x + frame1.width / 2), Math.round(frame1.y + frame1.height / 2)];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: x0, y: y0 }] });
  for (let i = 1; i <= 8; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x0 - i * 12, y: y0 - i * 9 }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await expect.poll(scrolled).not.toEqual(before);
  // And a wheel scrolls it.
  const dragged = await scrolled();
  await page.mouse.move(x0, y0);
  await page.mouse.wheel(40, 30);
  await expect.poll(scrolled).not.toEqual(dragged);
  await shoot(page, testInfo, 'zoomed-390x844');
  // A tap on a settlement spot in view builds there.
  const spot = await page.evaluate(() => {
    const f = document.getElementById('board-scroll').getBoundingClientRect();
    for (const t of document.querySelectorAll('.vertex-target')) {
      const r = t.getBoundingClientRect();
      const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
      if (x > f.left + 20 && x < f.right - 60 && y > f.top + 20 && y < f.bottom - 20) return t.dataset.vertex;
    }
    return null;
  });
  expect(spot, 'a settlement spot in view when zoomed').not.toBeNull();
  const version = (await state(page)).version;
  await page.locator(`.vertex-target[data-vertex="${spot}"]`).tap();
  const after = await waitState(page, (s) => s.version > version, 'the settlement');
  expect(after.view.players[after.you.seat].settlements).toContain(Number(spot));
  // Reset: the whole board again, at its first size.
  await reset.tap();
  await expect.poll(hexWidth).toBeCloseTo(w1, 0);
  await expectBoardFits(page, 'after reset');
  await expect(zoomOut).toBeDisabled();
  await ctx.close();
});
