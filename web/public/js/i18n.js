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
  'res.brick': 'brick', 'res.wood': 'wood', 'res.wool': 'wool', 'res.wheat': 'wheat', 'res.ore': 'ore',
  'terrain.hills': 'hills', 'terrain.forest': 'forest', 'terrain.pasture': 'pasture', 'terrain.fields': 'fields', 'terrain.mountains': 'mountains',
  'hex.named': 'the {n} {terrain}', 'hex.terrain': 'the {terrain}', 'hex.desert': 'the desert', 'hex.sea': 'the sea', 'hex.other': 'another hex',
  'list.and': ' and ',
  'set.nothing': 'nothing',
  'log.opener': '{who} rolled highest and opens the game.',
  'log.settlement': '{who} built a settlement.',
  'log.road': '{who} built a road.',
  'log.city': '{who} built a city.',
  'log.opening': '{who} took {cards} for the second settlement.',
  'log.rolled': '{who} rolled {a} + {b} = {sum}.',
  'log.rolledFor': 'The dice were rolled for {who}: {a} + {b} = {sum}.',
  'log.produced': 'Production: {parts}.',
  'log.nothing': 'Nothing was produced.',
  'log.short': ' The bank ran short of {list}.',
  'log.owed': 'Discards owed: {parts}.',
  'log.discarded': '{who} discarded {cards}.',
  'log.robber': '{who} moved the robber to {place}.',
  'log.stoleKnown': '{thief} stole 1 {res} from {victim}.',
  'log.stole': '{thief} stole a card from {victim}.',
  'log.boughtKnown': '{who} bought a development card: {card}.',
  'log.bought': '{who} bought a development card.',
  'log.knight': '{who} played a Knight.',
  'log.roadBuilding1': '{who} played Road Building (1 road).',
  'log.roadBuilding': '{who} played Road Building ({n} roads).',
  'log.invention': '{who} played Invention and took {cards}.',
  'log.monopoly': '{who} played Monopoly on {res} and took {n}.',
  'log.bank': '{who} traded {gave} to the bank for {got}.',
  'log.offer': '{who} offers {give} for {get}{to}.',
  'log.offerTo': ' to {list}',
  'log.counter': ' (counter-offer)',
  'log.accepts': '{who} accepts {whose}.',
  'log.declines': '{who} declines {whose}.',
  'log.whose': "{name}'s offer",
  'log.theOffer': 'the offer',
  'log.traded': '{maker} gave {gave} to {taker} for {got}.',
  'log.roadAside': 'Longest Road is set aside.',
  'log.longest': '{who} takes Longest Road ({n}).',
  'log.army': '{who} takes Largest Army ({n} knights).',
  'log.turn': 'Turn {n}: {who}.',
  'log.won': '{who} wins with {n} points!',
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
  'res.brick': 'Lehm', 'res.wood': 'Holz', 'res.wool': 'Wolle', 'res.wheat': 'Getreide', 'res.ore': 'Erz',
  'terrain.hills': 'Hügelland', 'terrain.forest': 'Wald', 'terrain.pasture': 'Weideland', 'terrain.fields': 'Ackerland', 'terrain.mountains': 'Gebirge',
  'hex.named': '{terrain} {n}', 'hex.terrain': '{terrain}', 'hex.desert': 'die Wüste', 'hex.sea': 'das Meer', 'hex.other': 'ein anderes Feld',
  'list.and': ' und ',
  'set.nothing': 'nichts',
  'log.opener': '{who} hat am höchsten gewürfelt und beginnt.',
  'log.settlement': '{who} hat eine Siedlung gebaut.',
  'log.road': '{who} hat eine Straße gebaut.',
  'log.city': '{who} hat eine Stadt gebaut.',
  'log.opening': '{who} erhält {cards} für die zweite Siedlung.',
  'log.rolled': '{who} würfelt {a} + {b} = {sum}.',
  'log.rolledFor': 'Für {who} wurde gewürfelt: {a} + {b} = {sum}.',
  'log.produced': 'Ertrag: {parts}.',
  'log.nothing': 'Kein Ertrag.',
  'log.short': ' Der Bank fehlte: {list}.',
  'log.owed': 'Abwerfen müssen: {parts}.',
  'log.discarded': '{who} wirft {cards} ab.',
  'log.robber': '{who} versetzt den Räuber auf {place}.',
  'log.stoleKnown': '{thief} zieht 1 {res} von {victim}.',
  'log.stole': '{thief} zieht eine Karte von {victim}.',
  'log.boughtKnown': '{who} kauft eine Entwicklungskarte: {card}.',
  'log.bought': '{who} kauft eine Entwicklungskarte.',
  'log.knight': '{who} spielt einen Ritter.',
  'log.roadBuilding1': '{who} spielt Straßenbau (1 Straße).',
  'log.roadBuilding': '{who} spielt Straßenbau ({n} Straßen).',
  'log.invention': '{who} spielt Erfindung und nimmt {cards}.',
  'log.monopoly': '{who} spielt Monopol auf {res} und erhält {n}.',
  'log.bank': '{who} tauscht {gave} mit der Bank gegen {got}.',
  'log.offer': '{who} bietet {give} für {get}{to}.',
  'log.offerTo': ' an {list}',
  'log.counter': ' (Gegenangebot)',
  'log.accepts': '{who} nimmt {whose} an.',
  'log.declines': '{who} lehnt {whose} ab.',
  'log.whose': 'das Angebot von {name}',
  'log.theOffer': 'das Angebot',
  'log.traded': '{maker} gibt {taker} {gave} für {got}.',
  'log.roadAside': 'Die längste Handelsstraße wird beiseitegelegt.',
  'log.longest': '{who} hat die längste Handelsstraße ({n}).',
  'log.army': '{who} hat die größte Rittermacht ({n} Ritter).',
  'log.turn': 'Zug {n}: {who}.',
  'log.won': '{who} gewinnt mit {n} Punkten!',
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
