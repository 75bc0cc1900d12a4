// Language (issue 11, item 12): every page takes its words from the one
// catalogue in i18n.js. Chosen German on the home page, a walk through
// every page a player sees (home, finished games, waiting room, table, the
// end-of-game summary, the replay) shows no English word of the catalogue,
// neither in the text nor in the labels a screen reader reads, and the
// choice survives reloads and page changes.

import { expect } from '@playwright/test';
import { watchErrors, test } from './helpers.js';

/**
 * The English fragments to look for: each catalogue string whose German
 * differs, cut at its `{placeholders}`, keeping the pieces with a word in
 * them. They are matched as whole words, case and all.
 */
async function englishFragments(page) {
  return page.evaluate(async () => {
    const { CATALOGUE } = await import('/js/i18n.js');
    const { en, de } = CATALOGUE;
    const out = new Map();
    for (const [key, text] of Object.entries(en)) {
      // The picker names each language in that language, by design.
      if (de[key] === text || key === 'lang.name') continue;
      for (const piece of text.split(/\{\w+\}/)) {
        const p = piece.trim();
        if (/\p{L}{2}/u.test(p) && !de[key].includes(p)) out.set(p, key);
      }
    }
    return [...out];
  });
}

/**
 * What a person sees or hears on the page now: the visible text, the
 * labels and tooltips of visible elements, placeholders, the SVG titles
 * (tooltips on the board) and the page title.
 */
function shownWords(page) {
  return page.evaluate(() => {
    const seen = [document.title, document.body.innerText];
    for (const node of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
      if (!node.checkVisibility()) continue;
      for (const a of ['aria-label', 'title', 'placeholder']) if (node.hasAttribute(a)) seen.push(node.getAttribute(a));
    }
    for (const node of document.querySelectorAll('svg title')) if (node.parentElement.checkVisibility()) seen.push(node.textContent);
    return seen.join('\n');
  });
}

/**
 * Names people typed (lobbies, players; other tests' lobbies are listed
 * too) are theirs, not the catalogue's: they are cut from the text first.
 */
async function typedNames(page) {
  const res = await page.request.get('/api/lobbies');
  const { lobbies } = await res.json();
  return lobbies.flatMap((l) => [l.name, ...l.seats.map((s) => s.name)]).filter(Boolean);
}

/** Fails with the English strings still shown (and their catalogue keys). */
async function expectNoEnglish(page, fragments, where) {
  let text = await shownWords(page);
  for (const n of await typedNames(page)) text = text.split(n).join(' ');

  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = [];
  for (const [p, key] of fragments) {
    const m = new RegExp(`(?<![\\p{L}\\d])${escape(p)}(?![\\p{L}\\d])`, 'u').exec(text);
    if (m) found.push(`${key}: “${p}” in “…${text.slice(Math.max(0, m.index - 30), m.index + p.length + 30)}…”`);
  }
  expect(found, `English left on the ${where}`).toEqual([]);

}

test('German everywhere: home, games list, waiting room, table, summary and replay', async ({ browser }) => {
  test.setTimeout(240_000);
  const page = await (await browser.newContext()).newPage();
  watchErrors(page, 'Anna');
  await page.goto('/');
  await expect(page.locator('#play-bots')).toHaveText('Play against bots');
  const fragments = await englishFragments(page);
  expect(fragments.length).toBeGreaterThan(300);

  // Chosen on the home page, and remembered from there on.
  await page.selectOption('#lang', 'de');
  await page.waitForLoadState('load');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.locator('#play-bots')).toHaveText('Gegen Bots spielen');
  await expect(page.locator('#lobbies-status')).not.toHaveText('Wird geladen…');
  await expectNoEnglish(page, fragments, 'home page');
  await page.reload();
  await expect(page.locator('#play-bots')).toHaveText('Gegen Bots spielen');

  // A refusal on the home page, in German.
  await page.fill('#display-name', '');
  await page.click('#create');
  await expect(page.locator('#error-box')).toContainText('Gib zuerst deinen Anzeigenamen ein.');
  await expectNoEnglish(page, fragments, 'home page with a refusal');

  // The list of finished games.
  await page.click('a[href="replays.html"]');
  await expect(page.locator('#games-status')).not.toHaveText('Wird geladen…');
  await expect(page.locator('#lang')).toHaveValue('de');
  await expectNoEnglish(page, fragments, 'list of finished games');

  // The waiting room, host's view, while it fills.
  await page.goto('/');
  await page.fill('#display-name', 'Anna');
  await page.fill('#lobby-name', 'Sprachprobe');
  await page.fill('#vp-target', '3');
  await page.fill('#bot-delay', '0');
  await page.check('#timer');
  await page.click('#create');
  await page.waitForURL(/game\.html\?id=/);
  const id = new URL(page.url()).searchParams.get('id');
  await expect(page.locator('.seat.human')).toHaveCount(1);
  await page.locator('.add-bot').first().click();
  await expect(page.locator('.seat.bot')).toHaveCount(1);
  await expectNoEnglish(page, fragments, 'waiting room');

  // The table, during the opening, played to its end by the tests'
  // autoplay (three points to win: a few turns).
  for (let i = 1; i < 3; i++) {
    await page.locator('.add-bot').first().click();
    await expect(page.locator('.seat.bot')).toHaveCount(i + 1);
  }
  await page.click('#start');
  await expect(page.locator('#board .hex')).toHaveCount(19);
  await expect(page.locator('#banner-text')).toContainText('am Zug');
  await expect(page.locator('#turn-timer')).toContainText('Noch');
  await expectNoEnglish(page, fragments, 'table');
  await page.goto(`/game.html?id=${id}&autoplay=1`);
  await expect(page.locator('#summary .celebration')).toBeVisible({ timeout: 180_000 });
  await expect(page.locator('#log-list li').first()).toContainText('beginnt');
  await expectNoEnglish(page, fragments, 'table with the end-of-game summary');

  // The replay of the finished game.
  await page.click('#open-replay');
  await page.waitForURL(/replay\.html\?game=/);
  await expect(page.locator('#step-no')).toHaveText(/^Schritt 0 von \d+$/);
  await page.click('#next');
  await expect(page.locator('#step-no')).toHaveText(/^Schritt 1 von \d+$/);
  await expectNoEnglish(page, fragments, 'replay page');
  await page.click('#last');
  await expect(page.locator('#summary .summary h2')).toContainText('gewinnt');
  await expectNoEnglish(page, fragments, 'replay page at the end');

  // A bad step is refused in German, and the choice still holds after a reload.
  await page.goto(`/replay.html?game=${id}&step=abc`);
  await expect(page.locator('#error-box')).toContainText('Einen Schritt „abc“ gibt es in diesem Spiel nicht');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.locator('#replay-title')).toContainText('Wiederholung');

  // And back to English from any page.
  await page.selectOption('#lang', 'en');
  await page.waitForLoadState('load');
  await expect(page.locator('#replay-title')).toContainText('Replay');
});
