// Feedback for what happens at the table (issue 11, item 3): a roll lights
// up the hexes that produce and shows each player's gains by their name
// (card types only in your own hand), the highlights go away by themselves,
// and with prefers-reduced-motion nothing moves.

import { expect } from '@playwright/test';
import { createLobby, shoot, shootBoth, uiStep, waitState, watchErrors, test } from './helpers.js';

async function botGame(page) {
  await createLobby(page, { name: 'Ann', lobby: 'Feedback test' });
  for (let i = 1; i < 4; i++) {
    await page.locator('.add-bot').first().click();
    await expect(page.locator('.seat.bot')).toHaveCount(i);
  }
  await page.click('#start');
  await expect(page.locator('#board .hex')).toHaveCount(19);
}

/**
 * Records, in the page, what the table shows each time a redraw leaves lit
 * hexes or gains on it: the dice, the lit hexes, every gain shown and where,
 * the last roll's `produced` event and the animations, all read in the
 * mutation callback right after that redraw. The flash lasts 2.5 s only, so
 * a test that saw it and read it in a later evaluation read, under load, a
 * table whose flash had gone (or a newer roll's).
 */
function recordFlashes(page) {
  return page.evaluate(() => {
    window.flashLooks = [];
    let lastKey = null;
    const look = () => {
      const S = window.catan.state;
      const lit = [...document.querySelectorAll('#board .hex.producing')];
      const gains = [...document.querySelectorAll('.gain')];
      if (!lit.length && !gains.length) return;
      // One look per flash: the first redraw that shows it.
      const key = `${S.fb.until}:${gains.length}`;
      if (key === lastKey) return;
      lastKey = key;
      const produced = S.history.flatMap((u) => u.events).filter((e) => e.type === 'produced').pop();
      window.flashLooks.push({
        me: S.you.seat,
        total: Number(document.getElementById('dice-total').textContent.replace(/\D/g, '')),
        lit: lit.map((g) => Number(g.dataset.hex)),
        numbers: S.view.board.hexes.map((h) => h.number),
        robber: S.view.robber,
        gains: produced ? produced.gains : null,
        shown: gains.map((g) => ({
          seat: Number(g.dataset.seat), text: g.textContent.trim(),
          area: g.closest('#me') ? 'me' : g.closest('.player') ? Number(g.closest('.player').dataset.seat) : null,
        })),
        animations: [...lit, ...gains, ...document.querySelectorAll('.die')].map((e) => getComputedStyle(e).animationName),
      });
    };
    // Only what the redraw changes: a toast is added when the update
    // arrives, before the frame that draws it, when the state is already
    // the new roll's and the board still the old one's.
    const watch = new MutationObserver(look);
    for (const id of ['board', 'dice', 'players', 'me']) {
      watch.observe(document.getElementById(id), { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
    }
  });
}

/** Plays Ann's moves until the page recorded a look that `pred` accepts (a function's source, run in the page). */
async function playUntilLook(page, pred, what) {
  const start = Date.now();
  for (;;) {
    const found = await page.evaluate((src) => window.flashLooks.find(new Function(`return (${src})`)()), pred.toString());
    if (found) return found;
    if (Date.now() - start > 120_000) throw new Error(`never saw ${what}`);
    if (!(await uiStep(page))) await page.waitForTimeout(40);
  }
}

test('a roll lights up the producing hexes and shows the gains, then both go', async ({ browser }, testInfo) => {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  watchErrors(page, 'Ann');
  await botGame(page);
  await recordFlashes(page);
  const look = await playUntilLook(page, (l) => l.shown.length > 0, 'gains after a roll');
  // The lit hexes are exactly those with the number the dice show (drawn by
  // the same frame), never the robber's.
  expect(look.lit.length).toBeGreaterThan(0);
  for (const h of look.lit) expect(look.numbers[h]).toBe(look.total);
  expect(look.lit).not.toContain(look.robber);
  // Others' gains are counts; one's own (if any) name the cards.
  for (const { text } of look.shown) expect(text).toMatch(/^\+\d+ cards?$|^\+\d+ (brick|wood|wool|wheat|ore)/);
  // Each gain shows on the area of the player who gained, as the server's
  // last `produced` event says, and nowhere else.
  const sum = (g) => Object.values(g).reduce((a, b) => a + b, 0);
  for (const [seat, g] of look.gains.entries()) {
    const mine = look.shown.filter((x) => x.seat === seat);
    const n = sum(g);
    if (!n) {
      expect(mine, `seat ${seat} gained nothing`).toEqual([]);
      continue;
    }
    if (seat === look.me) {
      // Your own gains name the cards, in your hand's heading and by your name.
      const words = Object.entries(g).filter(([, k]) => k > 0).map(([r, k]) => `+${k} ${r}`).join(', ');
      expect(mine.map((x) => x.area).sort()).toEqual([seat, 'me'].sort());
      for (const x of mine) expect(x.text).toBe(words);
    } else {
      expect(mine).toEqual([{ seat, area: seat, text: `+${n} card${n === 1 ? '' : 's'}` }]);
    }
  }

  // An artifact only: by the time it is taken the flash may have gone.
  await shootBoth(page, testInfo, 'roll-feedback');
  // The highlights go by themselves, without any input.
  await expect(page.locator('#board .hex.producing')).toHaveCount(0, { timeout: 8000 });
});

test('with prefers-reduced-motion the feedback shows without moving', async ({ browser }) => {
  const page = await (await browser.newContext({ reducedMotion: 'reduce' })).newPage();
  watchErrors(page, 'Ann');
  await botGame(page);
  await recordFlashes(page);
  const look = await playUntilLook(page, (l) => l.lit.length > 0, 'a lit hex');
  expect(look.animations.length).toBeGreaterThan(look.lit.length);
  expect(look.animations.every((n) => n === 'none'), look.animations.join()).toBe(true);
  await waitState(page, (x) => x.view.phase !== 'opening', 'the game past the opening');
});

/**
 * Records, in the page, what #roll-gains shows each time it fills and each
 * time its flash animation ends (read at that moment: the flash lasts
 * seconds only, so the test never polls for it, and a look read in a later
 * evaluation could see a newer roll or none).
 */
function recordRollGains(page) {
  return page.evaluate(() => {
    window.gainsSeen = [];
    const root = document.getElementById('roll-gains');
    const box = (node) => {
      const r = node.getBoundingClientRect();
      return { x: r.left, y: r.top, r: r.right, b: r.bottom };
    };
    // The roll each flash shows, read when it is drawn: when its animation
    // ends, the page may already hold a newer update not yet drawn.
    const rolls = new Map();
    const look = (why) => {
      const S = window.catan.state;
      const key = root.dataset.key;
      if (why === 'shown') {
        const produced = S.history.flatMap((u) => u.events).filter((e) => e.type === 'produced').pop();
        rolls.set(key, produced ? produced.gains : null);
      }
      window.gainsSeen.push({
        why, key, tab: S.tab, me: S.you.seat, gains: rolls.get(key),
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

/**
 * Plays Ann's moves until the page recorded a `why` look at a flash of roll
 * gains, among the looks recorded from index `from` on.
 */
async function playUntilSeen(page, why, from = 0) {
  const start = Date.now();
  const seen = () => page.evaluate(({ w, f }) => window.gainsSeen.slice(f).find((g) => g.why === w && g.items.length), { w: why, f: from });
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
  // Read once its animation is over (before, it is still growing into
  // place), by the page at that moment. A bot's roll right after can
  // replace a flash before its animation ends: then a later one's end is read.
  const settled = await playUntilSeen(page, 'end');
  expectGainsByTheBoard(settled);
  await shoot(page, testInfo, 'roll-gains-390x844');
  // They go by themselves.
  await expect(page.locator('#roll-gains')).toBeHidden({ timeout: 8000 });

  // With reduced motion the next roll's gains show at once, without moving
  // (only flashes recorded after the switch count).
  const from = await page.evaluate(() => window.gainsSeen.length);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const still = await playUntilSeen(page, 'shown', from);
  expect(still.items.every((i) => i.animation === 'none')).toBe(true);
  expectGainsByTheBoard(still);
});
