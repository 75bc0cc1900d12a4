// The words of the pages in one catalogue, in English and German (the
// game's first language), chosen in the header and remembered. `t(key,
// params)` looks a string up ("{name}" placeholders are filled in);
// elements with `data-i18n="key"` in the HTML get their text from it.
// A key missing in German falls back to English, and a key missing in
// both shows itself, so a gap is visible instead of an empty control.

const LANG = 'catan.lang';

const en = {
  'lang.name': 'English',
  'header.sounds': 'Sounds',
  'header.language': 'Language',
  'skip.game': 'Skip to the game',
  'tab.play': 'Play',
  'tab.trade': 'Trade',
  'tab.players': 'Players',
  'tab.log': 'Log',
  'log.title': 'Game log',
  'chat.title': 'Chat',
  'chat.placeholder': 'Say something',
  'chat.send': 'Send',
  'dice.stats': 'Dice statistics',
  'dice.none': 'No roll yet',
  'act.roll': 'Roll dice',
  'act.road': 'Build road',
  'act.settlement': 'Build settlement',
  'act.city': 'Build city',
  'act.dev': 'Buy development card',
  'act.end': 'End turn',
  'act.play': 'Play {card}',
  'act.cancel': 'Cancel',
  'hand.title': 'Your hand',
  'hand.devs': 'Development cards',
  'hand.none': 'None.',
  'hand.watching': 'You are watching. Hands are hidden; card counts are public.',
  'players.title': 'Players',
  'offers.title': 'Open offers',
  'offer.accept': 'Accept',
  'offer.accepted': 'Accepted',
  'offer.decline': 'Decline',
  'offer.counter': 'Counter…',
  'offer.withdraw': 'Withdraw',
  'offer.tradeWith': 'Trade with {name}',
  'trade.title': 'Trade',
  'trade.afterRoll': 'Trading opens after the roll.',
  'timer.left': '{time} left for {who}',
  'timer.hurry': ' — hurry!',
  'timer.you': 'you',
  'banner.spectating': 'Spectating',
};

const de = {
  'lang.name': 'Deutsch',
  'header.sounds': 'Töne',
  'header.language': 'Sprache',
  'skip.game': 'Zum Spiel springen',
  'tab.play': 'Spielen',
  'tab.trade': 'Handeln',
  'tab.players': 'Spieler',
  'tab.log': 'Verlauf',
  'log.title': 'Spielverlauf',
  'chat.title': 'Chat',
  'chat.placeholder': 'Etwas sagen',
  'chat.send': 'Senden',
  'dice.stats': 'Würfelstatistik',
  'dice.none': 'Noch nicht gewürfelt',
  'act.roll': 'Würfeln',
  'act.road': 'Straße bauen',
  'act.settlement': 'Siedlung bauen',
  'act.city': 'Stadt bauen',
  'act.dev': 'Entwicklungskarte kaufen',
  'act.end': 'Zug beenden',
  'act.play': '{card} ausspielen',
  'act.cancel': 'Abbrechen',
  'hand.title': 'Deine Karten',
  'hand.devs': 'Entwicklungskarten',
  'hand.none': 'Keine.',
  'hand.watching': 'Du schaust zu. Die Hände sind verdeckt; die Kartenzahlen sind öffentlich.',
  'players.title': 'Spieler',
  'offers.title': 'Offene Angebote',
  'offer.accept': 'Annehmen',
  'offer.accepted': 'Angenommen',
  'offer.decline': 'Ablehnen',
  'offer.counter': 'Gegenangebot…',
  'offer.withdraw': 'Zurückziehen',
  'offer.tradeWith': 'Mit {name} handeln',
  'trade.title': 'Handel',
  'trade.afterRoll': 'Gehandelt wird nach dem Würfeln.',
  'timer.left': 'Noch {time} für {who}',
  'timer.hurry': ' — beeil dich!',
  'timer.you': 'dich',
  'banner.spectating': 'Zuschauer',
};

/** The catalogue, by language code. */
export const CATALOGUE = { en, de };

function stored() {
  try {
    return JSON.parse(localStorage.getItem(LANG) || 'null');
  } catch {
    return null;
  }
}

/** The chosen language ('en' unless German was chosen). */
export function lang() {
  const l = stored();
  return CATALOGUE[l] ? l : 'en';
}

/** Remembers the language. */
export function setLang(l) {
  try {
    localStorage.setItem(LANG, JSON.stringify(CATALOGUE[l] ? l : 'en'));
  } catch {
    // Storage disabled: the choice lasts for this page only.
  }
}

/** The string for `key` in the chosen language, with `{name}` filled from `params`. */
export function t(key, params = {}) {
  const s = CATALOGUE[lang()][key] ?? en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** Fills every `[data-i18n]` element under `root` and sets the page's language. */
export function translatePage(root = document) {
  document.documentElement.lang = lang();
  for (const node of root.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll('[data-i18n-placeholder]')) node.setAttribute('placeholder', t(node.dataset.i18nPlaceholder));
}

/** A language picker (`<select>`): choosing reloads the page in that language. */
export function languagePicker(select) {
  for (const [code, words] of Object.entries(CATALOGUE)) {
    const o = document.createElement('option');
    o.value = code;
    o.textContent = words['lang.name'];
    o.selected = code === lang();
    select.append(o);
  }
  select.addEventListener('change', () => {
    setLang(select.value);
    location.reload();
  });
}
