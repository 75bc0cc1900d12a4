// Feedback for what happens at the table (issue 11, item 3): a roll lights
// up the hexes that produce and shows each player's gains by their name
// (card types only in your own hand), the highlights go away by themselves,
// and with prefers-reduced-motion nothing moves.

import { test, expect } from '@playwright/test';
import { createLobby, shoot, shootBoth, state, uiStep, waitState, watchErrors } from './helpers.js';

async function botGame(page) {
  await createLobby(page, { name: 'Ann', lobby: 'Feedback test' });
  for (let i = 1; i < 4; i++) {
    await page.locator('.add-bot').first().click();
    await expect(page.locator('.seat.bot')).toHaveCount(i);
  }
  await page.click('#start');
  await expect(page.locator('#board .hex')).toHaveCount(19);
}

/** Plays Ann's moves until `locator` shows; returns the state then. */
async function playUntil(page, locator, what) {
  const start = Date.now();
  while (!(await locator.count())) {
    if (Date.now() - start > 120_000) throw new Error(`never saw ${what}`);
    if (!(await uiStep(page))) await page.waitForTimeout(40);
  }
  return state(page);
}

test('a roll lights up the producing hexes and shows the gains, then both go', async ({ browser }, testInfo) => {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  watchErrors(page, 'Ann');
  await botGame(page);
  const gains = page.locator('#players .gain');
  const s = await playUntil(page, gains, 'gains after a roll');
  // The lit hexes are exactly those with the number the dice show (read in
  // one go: both are drawn by the same frame), never the robber's.
  const seen = await page.evaluate(() => ({
    total: Number(document.getElementById('dice-total').textContent.replace(/\D/g, '')),
    lit: [...document.querySelectorAll('#board .hex.producing')].map((g) => Number(g.dataset.hex)),
  }));
  for (const h of seen.lit) {
    expect(s.view.board.hexes[h].number).toBe(seen.total);
  }
  // Others' gains are counts; one's own (if any) name the cards.
  for (const text of await page.locator('#players .gain').allTextContents()) expect(text).toMatch(/^\+\d+ cards?$|^\+\d+ (brick|wood|wool|wheat|ore)/);
  // Each gain shows on the area of the player who gained, as the server's
  // last `produced` event says, and nowhere else (read after the page's
  // next frame, so the drawing and the events are of the same moment).
  const now = await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => {
    const S = window.catan.state;
    const produced = S.history.flatMap((u) => u.events).filter((e) => e.type === 'produced').pop();
    resolve({
      me: S.you.seat,
      gains: produced.gains,
      shown: [...document.querySelectorAll('.gain')].map((g) => ({
        seat: Number(g.dataset.seat), text: g.textContent.trim(),
        area: g.closest('#me') ? 'me' : g.closest('.player') ? Number(g.closest('.player').dataset.seat) : null,
      })),
    });
  }))));
  const sum = (g) => Object.values(g).reduce((a, b) => a + b, 0);
  for (const [seat, g] of now.gains.entries()) {
    const mine = now.shown.filter((x) => x.seat === seat);
    const n = sum(g);
    if (!n) {
      expect(mine, `seat ${seat} gained nothing`).toEqual([]);
      continue;
    }
    if (seat === now.me) {
      // Your own gains name the cards, in your hand's heading and by your name.
      const words = Object.entries(g).filter(([, k]) => k > 0).map(([r, k]) => `+${k} ${r}`).join(', ');
      expect(mine.map((x) => x.area).sort()).toEqual([seat, 'me'].sort());
      for (const x of mine) expect(x.text).toBe(words);
    } else {
      expect(mine).toEqual([{ seat, area: seat, text: `+${n} card${n === 1 ? '' : 's'}` }]);
    }
  }

  await shootBoth(page, testInfo, 'roll-feedback');
  // The highlights go by themselves, without any input.
  await expect(page.locator('#board .hex.producing')).toHaveCount(0, { timeout: 8000 });
});

test('with prefers-reduced-motion the feedback shows without moving', async ({ browser }) => {
  const page = await (await browser.newContext({ reducedMotion: 'reduce' })).newPage();
  watchErrors(page, 'Ann');
  await botGame(page);
  await playUntil(page, page.locator('#board .hex.producing'), 'a lit hex');
  const names = await page.locator('#board .hex.producing, #players .gain, .die').evaluateAll((els) => els.map((e) => getComputedStyle(e).animationName));
  expect(names.length).toBeGreaterThan(0);
  expect(names.every((n) => n === 'none')).toBe(true);
  await waitState(page, (x) => x.view.phase !== 'opening', 'the game past the opening');
});

/**
 * Records, in the page, what #roll-gains shows each time it fills and each
 * time its flash animation ends (read at that moment: the flash lasts
 * seconds only, so the test never polls for it).
 */
function recordRollGains(page) {
  return page.evaluate(() => {
    window.gainsSeen = [];
    const root = document.getElementById('roll-gains');
    const box = (node) => {
      const r = node.getBoundingClientRect();
      return { x: r.left, y: r.top, r: r.right, b: r.bottom };
    };
    const look = (why) => {
      const S = window.catan.state;
      const produced = S.history.flatMap((u) => u.events).filter((e) => e.type === 'produced').pop();
      window.gainsSeen.push({
        why, key: root.dataset.key, version: S.version, tab: S.tab, me: S.you.seat, gains: produced ? produced.gains : null,
        playersShown: document.getElementById('players').checkVisibility(),
        viewport: { x: 0, y: 0, r: innerWidth, b: innerHeight },
        board: box(document.querySelector('.board-wrap')),
        items: [...root.querySelectorAll('.roll-gain')].map((g) => ({
          seat: Number(g.dataset.seat), who: g.querySelector('.roll-gain-who').textContent, text: g.querySelector('strong').textContent,
          box: box(g), visible: g.checkVisibility({ opacityProperty: true, visibilityProperty: true }), animation: getComputedStyle(g).animationName,
        })),
      });
    };
    root.addEventListener('animationend', () => look('end'));
    new MutationObserver(() => { if (root.children.length) look('shown'); }).observe(root, { childList: true });
  });
}

/** Plays Ann's moves until the page recorded a `why` look at a flash of roll gains other than `not`'s. */
async function playUntilSeen(page, why, not = null) {
  const start = Date.now();
  const seen = () => page.evaluate(({ w, k }) => window.gainsSeen.find((g) => g.why === w && g.key !== k && g.items.length), { w: why, k: not });
  for (;;) {
    const g = await seen();
    if (g) return g;
    if (Date.now() - start > 120_000) throw new Error(`never saw the roll gains (${why})`);
    if (!(await uiStep(page))) await page.waitForTimeout(40);
  }
}

/** Checks one look: every gain of the roll, by the board, inside the screen, on the Play tab. */
function expectGainsByTheBoard(look) {
  const inside = (a, b) => a.x >= b.x - 0.5 && a.y >= b.y - 0.5 && a.r <= b.r + 0.5 && a.b <= b.b + 0.5;
  expect(look.tab).toBe('play');
  expect(look.playersShown, 'the Players tab stays closed').toBe(false);
  const gained = look.gains.map((g, seat) => ({ seat, g, n: Object.values(g).reduce((a, b) => a + b, 0) })).filter((x) => x.n > 0);
  expect(look.items.map((i) => i.seat)).toEqual(gained.map((x) => x.seat));
  for (const { seat, g, n } of gained) {
    const item = look.items.find((i) => i.seat === seat);
    expect(item.visible).toBe(true);
    expect(inside(item.box, look.viewport), `seat ${seat}'s gain inside the viewport: ${JSON.stringify(item.box)}`).toBe(true);
    expect(inside(item.box, look.board), `seat ${seat}'s gain on the board: ${JSON.stringify(item.box)}`).toBe(true);
    if (seat === look.me) {
      expect(item.who).toBe('You');
      expect(item.text).toBe(Object.entries(g).filter(([, k]) => k > 0).map(([r, k]) => `+${k} ${r}`).join(', '));
    } else {
      expect(item.text).toBe(`+${n} card${n === 1 ? '' : 's'}`);
    }
  }
}

test('on a phone a roll\'s gains flash by the board, inside the screen, without changing tabs (also with reduced motion)', async ({ browser }, testInfo) => {
  const page = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })).newPage();
  watchErrors(page, 'Ann');
  await botGame(page);
  await recordRollGains(page);
  // A roll that gave someone cards: the gains flash in, then stay put.
  const shown = await playUntilSeen(page, 'shown');
  expect(shown.items.every((i) => i.animation === 'roll-gain-in')).toBe(true);
  // Read once its animation is over (before, it is still growing into place).
  const settled = await page.evaluate((key) => new Promise((resolve) => {
    const done = () => window.gainsSeen.find((g) => g.why === 'end' && g.key === key);
    const wait = () => (done() ? resolve(done()) : setTimeout(wait, 20));
    wait();
  }), shown.key);
  expectGainsByTheBoard(settled);
  await shoot(page, testInfo, 'roll-gains-390x844');
  // They go by themselves.
  await expect(page.locator('#roll-gains')).toBeHidden({ timeout: 8000 });

  // With reduced motion the next roll's gains show at once, without moving.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const still = await playUntilSeen(page, 'shown', settled.key);
  expect(still.items.every((i) => i.animation === 'none')).toBe(true);
  expectGainsByTheBoard(still);
});
