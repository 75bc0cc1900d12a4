// Shared steps of the browser tests: creating and joining lobbies through
// the pages, reading a page's game state (window.catan, read-only), and
// playing a seat's turn by clicking the same controls a person would.

import { test as base, expect } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Where screenshots go (ignored by git). */
export const SHOTS = path.resolve(here, '..', 'test-results', 'screenshots');
/** The README's table screenshot. */
export const DOCS_SHOT = path.resolve(here, '..', '..', 'docs', 'screenshot-table.png');

/**
 * Playwright's `test`, closing every browser context a test opened with
 * `browser.newContext()` when it ends (Playwright closes only its own
 * `context` fixture). Without it each test's pages stayed open for the rest
 * of the run, connected to their lobbies and redrawing every update, so the
 * later tests ran beside dozens of live pages.
 */
export const test = base.extend({
  closeContexts: [async ({ browser }, use) => {
    await use();
    await Promise.all(browser.contexts().map((c) => c.close()));
  }, { auto: true }],
});

/** Saves a screenshot as a test artifact (and attaches it to the report). */
export async function shoot(page, testInfo, name, extraPath) {
  fs.mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name}.png`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: file, fullPage: false });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
  // The README's copy is a tracked file: refresh it only when asked (or when missing).
  if (extraPath && (process.env.UPDATE_SCREENSHOTS === '1' || !fs.existsSync(extraPath))) {
    fs.mkdirSync(path.dirname(extraPath), { recursive: true });
    fs.copyFileSync(file, extraPath);
  }
  return file;
}

/**
 * Saves `name` at the page's size and `name-390x844` at a phone's (the
 * viewport is resized for the second and put back), both as artifacts.
 */
export async function shootBoth(page, testInfo, name) {
  await shoot(page, testInfo, name);
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await shoot(page, testInfo, `${name}-390x844`);
  await page.setViewportSize(size);
}

/** Fails the test on any uncaught page error. */

export function watchErrors(page, label) {
  page.on('pageerror', (e) => {
    throw new Error(`${label}: page error: ${e.message}`);
  });
}

/** Creates a lobby from the home page; returns its id (the page ends in its room). */
export async function createLobby(page, { name, lobby, players = 4, board = 'random', botDelay = 0, vpTarget = 10 }) {
  await page.goto('/');
  await page.fill('#display-name', name);
  await page.fill('#lobby-name', lobby);
  await page.selectOption('#players', String(players));
  await page.selectOption('#board-mode', board);
  await page.fill('#vp-target', String(vpTarget));
  await page.fill('#bot-delay', String(botDelay));
  await page.click('#create');
  await page.waitForURL(/game\.html\?id=/);
  await expect(page.locator('.seat.human')).toHaveCount(1);
  return new URL(page.url()).searchParams.get('id');
}

/** A page's game state as the page holds it. */
export function state(page) {
  return page.evaluate(() => {
    const s = window.catan.state;
    return { version: s.version, view: s.view, legal: s.legal, you: s.you, over: s.over, busy: s.busy, error: s.error };
  });
}

/** Waits until `pred(state)` holds for the page. */
export async function waitState(page, pred, what, timeout = 60_000) {
  const start = Date.now();
  for (;;) {
    const s = await state(page);
    if (s.view && pred(s)) return s;
    if (Date.now() - start > timeout) throw new Error(`timed out waiting for ${what}`);
    await page.waitForTimeout(50);
  }
}

/**
 * Makes one move for the page's seat through the UI if it has one.
 * `endTurn: false` leaves the turn open after the roll; `answerOffers:
 * false` never answers a trade offer (it waits instead). Returns whether it acted.
 */
export async function uiStep(page, { endTurn = true, answerOffers = true } = {}) {
  const s = await state(page);
  if (!s.view || !s.legal.length || s.busy) return false;
  const types = new Set(s.legal.map((a) => a.type));
  if (!answerOffers && s.view.active !== s.you.seat && (types.has('accept_trade') || types.has('decline_trade'))) return false;


  const before = s.version;
  if (types.has('discard')) {
    const owed = s.view.discards_owed[s.you.seat];
    for (let i = 0; i < owed; i++) await page.locator('.discard .more:not([disabled])').first().click();
    await page.click('#discard-done');
  } else if (s.view.phase === 'opening' || (s.view.phase === 'move_robber' && types.has('move_robber'))) {
    const target = page.locator('.vertex-target, .edge-target, .hex-target').first();
    await target.click();
    if (s.view.phase === 'move_robber') {
      // A hex with more than one choice opens the chooser of whom to rob;
      // click() can return before the page has drawn it, so wait for the
      // chooser or for the move itself before looking.
      await page.waitForFunction((v) => window.catan.state.version > v || window.catan.state.error
        || document.querySelector('.victim'), before, { timeout: 15_000 });
      if (await page.locator('.victim').count()) await page.locator('.victim').first().click();
    }
  } else if (types.has('roll_dice')) {
    await page.click('#roll');
  } else if (types.has('end_turn') && endTurn) {
    await page.click('#end-turn');
  } else if (types.has('decline_trade') && s.view.active !== s.you.seat) {
    // An offer already declined keeps its button, disabled: a person
    // answers each offer once.
    const decline = page.locator('.offer .decline:not([disabled])');
    if (!(await decline.count())) return false;
    await decline.first().click();
  } else {
    return false;
  }
  await page.waitForFunction((v) => window.catan.state.version > v || window.catan.state.error, before, { timeout: 15_000 });
  return true;
}

/** Plays the humans' moves (through the UI) until `done()` holds. */
export async function drive(pages, done, { endTurn = () => true, timeout = 90_000 } = {}) {
  const start = Date.now();
  while (!(await done())) {
    if (Date.now() - start > timeout) {
      // Say where each page stood, so that a stall can be told from slowness.
      const where = await Promise.all(pages.map(async (p) => {
        const s = await state(p);
        const v = s.view || {};
        return `seat ${s.you && s.you.seat}: turn ${v.turn}, phase ${v.phase}, active ${v.active}, `
          + `busy ${s.busy}, legal [${[...new Set((s.legal || []).map((a) => a.type))].join(', ')}], `
          + `offers ${(v.offers || []).length}, error ${JSON.stringify(s.error)}`;
      }));
      throw new Error(`drive: timed out; ${where.join('; ')}`);
    }
    let acted = false;
    for (const p of pages) acted = (await uiStep(p, { endTurn: endTurn(p) })) || acted;
    if (!acted) await pages[0].waitForTimeout(60);
  }
}

/**
 * Where the board is drawn against its frame (`.board-wrap`, which clips
 * what overflows it), read in one evaluation: the SVG's box, the union of
 * every hex and harbour drawn (what must show), and the top row of hexes,
 * as { l, t, r, b } boxes in CSS px.
 */
export function boardLayout(page) {
  return page.evaluate(() => {
    const box = (r) => ({ l: r.left, t: r.top, r: r.right, b: r.bottom });
    const frame = box(document.querySelector('.board-wrap').getBoundingClientRect());
    const svg = box(document.getElementById('board').getBoundingClientRect());
    const hexes = [...document.querySelectorAll('#board .hex')].map((h) => box(h.getBoundingClientRect()));
    const parts = [...hexes, ...[...document.querySelectorAll('#board .harbour')].map((h) => box(h.getBoundingClientRect()))];
    const drawn = {
      l: Math.min(...parts.map((p) => p.l)), t: Math.min(...parts.map((p) => p.t)),
      r: Math.max(...parts.map((p) => p.r)), b: Math.max(...parts.map((p) => p.b)),
    };
    const top = Math.min(...hexes.map((h) => h.t));
    return { frame, svg, drawn, topRow: hexes.filter((h) => h.t < top + 5), viewport: { l: 0, t: 0, r: innerWidth, b: innerHeight } };
  });
}

/** Whether box `a` lies inside box `b` (half a pixel of rounding allowed). */
export function within(a, b) {
  return a.l >= b.l - 0.5 && a.t >= b.t - 0.5 && a.r <= b.r + 0.5 && a.b <= b.b + 0.5;
}

/** Whether boxes `a` and `b` overlap by more than half a pixel. */
export function overlaps(a, b) {
  return Math.min(a.r, b.r) - Math.max(a.l, b.l) > 0.5 && Math.min(a.b, b.b) - Math.max(a.t, b.t) > 0.5;
}

/** Expects the whole board (its SVG and every hex and harbour) inside its frame and the viewport. */
export async function expectBoardFits(page, what) {
  const b = await boardLayout(page);
  const say = (x) => `${what}: ${x} ${JSON.stringify(b)}`;
  expect(within(b.svg, b.frame), say('the board inside its frame')).toBe(true);
  expect(within(b.drawn, b.frame), say('every hex and harbour inside the frame')).toBe(true);
  expect(within(b.frame, b.viewport), say('the frame inside the viewport')).toBe(true);
  return b;
}
