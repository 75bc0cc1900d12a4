// The log survives a reload (issue 11, item 5): the server sends each
// viewer its redacted past steps before the snapshot, so the page's log has
// the same lines after a reload as before, and a spectator who arrives late
// reads the whole game so far without any card a spectator may not see.

import { expect } from '@playwright/test';
import { createLobby, drive, state, waitState, watchErrors, test } from './helpers.js';

const logLines = (page) => page.locator('#log-list li').allTextContents();

/** Creates a lobby, fills its other three seats with bots and starts; returns its id. */
async function startWithBots(page, options) {
  const id = await createLobby(page, options);
  for (let i = 1; i < 4; i++) {
    await page.locator('.add-bot').first().click();
    await expect(page.locator('.seat.bot')).toHaveCount(i);
  }
  await page.click('#start');
  return id;
}

/**
 * From now on the page's sockets reach a server older than this one:
 * `refuse(hello)` says how it answers a hello it does not take (`refusal`:
 * the `rejected` message's code and text; `close`: the close it then
 * sends, if any), or null to pass the hello on. Returns the hellos said.
 */
async function olderServer(page, refuse) {
  const hellos = [];
  await page.routeWebSocket(/\/api\/lobbies\/[^/]+\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((text) => {
      const msg = JSON.parse(String(text));
      if (msg.type === 'hello') hellos.push(msg);
      const no = msg.type === 'hello' ? refuse(msg) : null;
      if (!no) {
        server.send(text);
        return;
      }
      ws.send(JSON.stringify({ type: 'rejected', id: null, ...no.refusal }));
      if (no.close) ws.close(no.close);
    });
  });
  return hellos;
}

test('the log has the same lines after a reload, and a late spectator\'s log holds no card type', async ({ browser }) => {
  const ann = await (await browser.newContext()).newPage();
  watchErrors(ann, 'Ann');
  const id = await startWithBots(ann, { name: 'Ann', lobby: 'History test' });
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

test('a reconnect is sent only the steps it missed, and its log is the one a reload builds', async ({ browser }) => {
  const ann = await (await browser.newContext()).newPage();
  watchErrors(ann, 'Ann');
  // Bots a little slow, so that their turns are still being played when
  // Ann's socket drops just after she ends hers.
  const id = await startWithBots(ann, { name: 'Ann', lobby: 'Resume test', botDelay: 300 });
  const hers = (s) => !!s.view && s.view.turn >= 5 && s.view.active === s.you.seat && s.view.phase === 'action';
  await drive([ann], async () => hers(await state(ann)), { endTurn: () => true, timeout: 150_000 });
  const before = await waitState(ann, hers, 'Ann\'s turn, rolled');

  // A spectator keeps the game going (bots wait while nobody is there).
  const eve = await (await browser.newContext()).newPage();
  watchErrors(eve, 'Eve');
  await eve.goto(`/game.html?id=${id}`);
  await waitState(eve, (s) => s.version >= before.version, 'the spectator\'s table');
  // The lobby lookup a reconnect makes first is held, so that the bots
  // play on while Ann is away; the new socket's frames are recorded.
  let release;
  let asked = 0;
  const held = new Promise((r) => { release = r; });
  await ann.route(`**/api/lobbies/${id}/node`, async (route) => { asked += 1; await held; await route.continue(); });
  const sent = [];
  const got = [];
  ann.on('websocket', (ws) => {
    ws.on('framesent', (f) => sent.push(String(f.payload)));
    ws.on('framereceived', (f) => got.push(String(f.payload)));
  });
  await ann.click('#end-turn');
  const ended = await waitState(ann, (s) => s.version > before.version && s.view.active !== s.you.seat, 'the turn passed');
  await ann.evaluate(() => window.catan.socket().close());
  const away = (await state(ann)).version;
  expect(away).toBeGreaterThanOrEqual(ended.version);
  // The bots play while she is away (the server's lobby says how far).
  await waitState(eve, (s) => s.version > away + 2, 'the bots\' moves', 60_000);
  expect(asked, 'the reconnect asked where the lobby lives').toBe(1);
  expect((await state(ann)).version, 'Ann is still away').toBe(away);
  release();
  const back = await waitState(ann, (s) => s.view.turn > before.view.turn && s.view.active === s.you.seat, 'Ann\'s next turn', 90_000);

  const hello = sent.map((t) => JSON.parse(t)).find((m) => m.type === 'hello');
  expect(hello.since).toBe(away);
  const history = got.map((t) => JSON.parse(t)).find((m) => m.type === 'history');
  expect(history.since).toBe(away);
  expect(history.steps.length).toBeGreaterThan(2);
  expect(history.steps[0].version).toBe(away + 1);
  const lines = await logLines(ann);

  // A reload builds the log from the whole history: the same lines.
  await ann.unroute(`**/api/lobbies/${id}/node`);
  await ann.reload();
  await waitState(ann, (s) => s.version === back.version, 'the reloaded table');
  await expect(ann.locator('#log-list li')).toHaveCount(lines.length);
  expect(await logLines(ann)).toEqual(lines);
});

test('a server that does not know since is said hello to again without it, and the log is whole', async ({ browser }) => {
  const ann = await (await browser.newContext()).newPage();
  watchErrors(ann, 'Ann');
  await startWithBots(ann, { name: 'Ann', lobby: 'Old server test' });
  const hers = (s) => !!s.view && s.view.turn >= 5 && s.view.active === s.you.seat && s.view.phase === 'action';
  await drive([ann], async () => hers(await state(ann)), { endTurn: () => true, timeout: 150_000 });
  const before = await waitState(ann, hers, 'Ann\'s turn, rolled');
  const lines = await logLines(ann);

  // From now on the page's sockets reach a server that refuses `since`
  // as every server before it did: an unknown field.
  const hellos = await olderServer(ann, (hello) => ('since' in hello
    ? { refusal: { code: 'bad_json', message: 'unknown field "since"' } }
    : null));
  await ann.evaluate(() => window.catan.socket().close());
  await expect.poll(() => hellos.length).toBe(2);
  expect(hellos[0].since).toBe(before.version);
  expect('since' in hellos[1]).toBe(false);
  await expect.poll(async () => (await ann.evaluate(() => window.catan.state.connection))).toBe('open');
  await waitState(ann, (s) => s.version === before.version, 'the table again');
  expect((await state(ann)).error).toBeNull();
  // The whole history replaced the log: the same lines as before.
  await expect(ann.locator('#log-list li')).toHaveCount(lines.length);
  expect(await logLines(ann)).toEqual(lines);
});

test('a server that speaks only protocol 1 is said hello to again in it, and the table plays on', async ({ browser }) => {
  const ann = await (await browser.newContext()).newPage();
  watchErrors(ann, 'Ann');
  await startWithBots(ann, { name: 'Ann', lobby: 'Protocol 1 test' });
  await waitState(ann, (s) => !!s.view, 'the table');

  // From now on the page's sockets reach a server that speaks protocol 1
  // only (a cluster node not upgraded yet): it refuses newer versions and
  // closes, and the page tries the version below each time.
  const hellos = await olderServer(ann, (hello) => (hello.protocol !== 1
    ? {
      refusal: { code: 'unsupported_protocol', message: 'this server speaks protocol 1' },
      close: { code: 4003, reason: 'unsupported protocol' },
    }
    : null));
  await ann.evaluate(() => window.catan.socket().close());
  await expect.poll(() => hellos.map((h) => h.protocol)).toEqual([3, 2, 1]);
  await expect.poll(async () => (await ann.evaluate(() => window.catan.state.connection))).toBe('open');
  // Updates with the board in (version 1) play on as well: two turns more.
  const from = (await state(ann)).view.turn;
  await drive([ann], async () => (await state(ann)).view.turn >= from + 2, { endTurn: () => true, timeout: 150_000 });
  const s = await state(ann);
  expect(s.error).toBeNull();
  expect(s.view.board.hexes).toHaveLength(19);
  await expect(ann.locator('#conn-banner')).toBeHidden();
});

test('an update whose changes the page cannot apply is not shown: the page asks for the game again and plays on', async ({ browser }) => {
  const ann = await (await browser.newContext()).newPage();
  watchErrors(ann, 'Ann');
  await startWithBots(ann, { name: 'Ann', lobby: 'Changes test' });
  await waitState(ann, (s) => !!s.view, 'the table');

  // From now on the first update that carries changes is lost on its way
  // (it should never happen: a socket delivers in order, and one that
  // falls behind is closed), so the next one's changes are from a version
  // the page does not have. One that leaves Ann nothing to do, so that a
  // bot's move comes next.
  const asked = [];
  let lost = null;
  await ann.routeWebSocket(/\/api\/lobbies\/[^/]+\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((text) => {
      asked.push(JSON.parse(String(text)).type);
      server.send(text);
    });
    server.onMessage((text) => {
      const msg = JSON.parse(String(text));
      if (lost === null && msg.type === 'update' && msg.changes && msg.legal.length === 0) {
        lost = msg.version;
        return;
      }
      ws.send(text);
    });
  });
  await ann.evaluate(() => window.catan.socket().close());
  await expect.poll(async () => (await ann.evaluate(() => window.catan.state.connection))).toBe('open');
  const from = (await state(ann)).view.turn;
  await drive([ann], async () => (await state(ann)).view.turn >= from + 2, { endTurn: () => true, timeout: 150_000 });
  expect(lost).not.toBeNull();
  expect(asked).toContain('resync');
  const s = await state(ann);
  expect(s.version).toBeGreaterThan(lost);
  expect(s.error).toBeNull();
  expect(s.view.board.hexes).toHaveLength(19);
  await expect(ann.locator('#conn-banner')).toBeHidden();
});
