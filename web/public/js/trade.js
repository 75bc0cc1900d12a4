// Trading: with the bank or a harbour at your best rate, and with players:
// offers to everyone or chosen players, accept / decline / counter-offer, and
// the active player choosing among those who accepted. Offers are not listed
// in the legal actions (their terms are open), so the composer checks what
// the rules say about who may offer and the server has the last word.

import { el, RESOURCES, emptySet, setText, total, fill } from './util.js';
import { t } from './i18n.js';

/** Fresh composer state. */
export function freshTrade() {
  return { give: emptySet(), get: emptySet(), to: null, bankGive: null, bankGet: null };
}

function counter(label, value, onChange, max, key) {
  return el('span', { class: 'counter', 'data-key': key },
    el('button', { type: 'button', 'aria-label': `${label}: one less`, class: 'less', disabled: value <= 0, onclick: () => onChange(value - 1) }, '−'),
    el('output', { 'aria-label': label }, String(value)),
    el('button', { type: 'button', 'aria-label': `${label}: one more`, class: 'more', disabled: value >= max, onclick: () => onChange(value + 1) }, '+'));
}

/** Whether this seat may make an offer now (RULES.md R26-R27). */
export function mayOffer(view, seat) {
  return seat !== null && view.phase === 'action';
}

/** The trade panel. */
export function renderTrade(root, ctx) {
  const { view, seat, legal, trade, name } = ctx;
  if (seat === null) {
    fill(root, el('p', { class: 'hint' }, 'You are watching: offers show above as they are made.'));
    return;
  }
  const me = view.players[seat];
  const hand = me.resources || emptySet();
  const set = (patch) => ctx.setTrade(patch);

  // Bank and harbours.
  const rates = me.bank_rates;
  const bankGive = trade.bankGive || RESOURCES.find((r, i) => hand[r] >= rates[i]) || 'brick';
  const bankGet = trade.bankGet || RESOURCES.find((r) => r !== bankGive) || 'wood';
  const bankAction = legal.find((a) => a.type === 'trade_bank' && a.give === bankGive && a.get === bankGet);
  const bank = el('div', { class: 'bank-trade', role: 'group', 'aria-label': 'Trade with the bank' },
    el('h3', {}, 'Bank and harbours'),
    el('p', { class: 'rates' }, 'Your rates: ', RESOURCES.map((r, i) => el('span', { class: `rate${rates[i] < 4 ? ' better' : ''}` }, `${r} ${rates[i]}:1`))),
    el('label', { for: 'bank-give' }, 'Give '),
    el('select', { id: 'bank-give', onchange: (ev) => set({ bankGive: ev.target.value }) },
      RESOURCES.map((r, i) => el('option', { value: r, selected: r === bankGive }, `${rates[i]} ${r}`))),
    el('label', { for: 'bank-get' }, ' for 1 '),
    el('select', { id: 'bank-get', onchange: (ev) => set({ bankGet: ev.target.value }) },
      RESOURCES.map((r) => el('option', { value: r, selected: r === bankGet }, r))),
    ' ',
    el('button', { type: 'button', id: 'bank-trade', disabled: ctx.busy || !bankAction, onclick: () => ctx.act(bankAction) }, 'Trade'));

  // Offer composer.
  const others = view.players.map((p) => p.seat).filter((s) => s !== seat);
  const active = view.active === seat;
  const overlap = RESOURCES.some((r) => trade.give[r] > 0 && trade.get[r] > 0);
  const holds = RESOURCES.every((r) => trade.give[r] <= (hand[r] || 0));
  const canSend = mayOffer(view, seat) && total(trade.give) > 0 && total(trade.get) > 0 && !overlap && holds && !ctx.busy;
  const to = active ? trade.to : null;
  // The composer keeps its terms until the server takes the offer: a
  // refused offer can be fixed and sent again.
  const offer = async () => {
    const ok = await ctx.act({ type: 'offer_trade', give: trade.give, get: trade.get, to: to && to.length < others.length ? to : null });
    if (ok) ctx.setTrade({ give: emptySet(), get: emptySet() });
  };
  const composer = el('div', { class: 'offer-composer', role: 'group', 'aria-label': 'Offer a trade' },
    el('h3', {}, active ? 'Offer a trade' : `Counter-offer to ${name(view.active)}`),
    el('table', { class: 'offer-grid' },
      el('thead', {}, el('tr', {}, el('th', {}, ''), el('th', { scope: 'col' }, 'You give'), el('th', { scope: 'col' }, 'You get'))),
      el('tbody', {}, RESOURCES.map((r) => el('tr', { 'data-resource': r },
        el('th', { scope: 'row' }, r),
        el('td', {}, counter(`give ${r}`, trade.give[r], (v) => set({ give: { ...trade.give, [r]: v } }), hand[r] || 0, `give-${r}`)),
        el('td', {}, counter(`get ${r}`, trade.get[r], (v) => set({ get: { ...trade.get, [r]: v } }), 19, `get-${r}`)))))),
    active
      ? el('fieldset', { class: 'recipients' }, el('legend', {}, 'Offer to'),
        others.map((s) => el('label', {}, el('input', {
          type: 'checkbox', name: 'offer-to', value: s, checked: !trade.to || trade.to.includes(s),
          onchange: (ev) => {
            const cur = new Set(trade.to || others);
            if (ev.target.checked) cur.add(s); else cur.delete(s);
            set({ to: [...cur].sort() });
          },
        }), ` ${name(s)}`)))
      : null,
    overlap ? el('p', { class: 'hint' }, 'A resource cannot be on both sides.') : null,
    !holds ? el('p', { class: 'hint' }, 'You do not hold what you offer.') : null,
    el('button', { type: 'button', id: 'make-offer', class: 'primary', disabled: !canSend || (active && trade.to && trade.to.length === 0), onclick: offer },
      active ? 'Make offer' : 'Send counter-offer'),
    el('button', { type: 'button', onclick: () => set({ give: emptySet(), get: emptySet() }) }, 'Clear'));

  fill(root, el('h2', {}, t('trade.title')), view.phase === 'action' ? composer : el('p', { class: 'hint' }, t('trade.afterRoll')), view.phase === 'action' && active ? bank : null);
}

/**
 * The open offers as cards by the hand (#offers), worded for this viewer:
 * an offer to you with Accept / Decline / Counter; your own offer with each
 * recipient's answer (accepts, declines, counters, still thinking) and the
 * "Trade with X" buttons right there; offers between others as a line.
 */
export function renderOffers(root, ctx) {
  const { view, legal, name, seat } = ctx;
  root.hidden = !view.offers.length;
  if (!view.offers.length) {
    fill(root);
    return;
  }
  const find = (type, offer) => legal.find((a) => a.type === type && a.offer === offer);
  const hand = seat !== null ? view.players[seat].resources : null;
  const cards = view.offers.map((o) => {
    const mine = o.maker === seat;
    const toMe = seat !== null && !mine && o.to.includes(seat);
    const accept = find('accept_trade', o.id);
    const decline = find('decline_trade', o.id);
    const cancel = find('cancel_trade', o.id);
    const confirms = legal.filter((a) => a.type === 'confirm_trade' && a.offer === o.id);
    const accepted = seat !== null && o.accepted.includes(seat);
    const declined = seat !== null && o.declined.includes(seat);
    let head;
    if (mine) head = [el('strong', {}, o.counter ? 'Your counter-offer' : 'Your offer'), ': you give ', give(o.give), ' and get ', get(o.get), '.'];
    else if (toMe) head = [el('strong', {}, name(o.maker)), o.counter ? ' counter-offers: ' : ' offers you ', get(o.give), ' for your ', give(o.get), '.'];
    else head = [el('strong', {}, name(o.maker)), o.counter ? ' counter-offers ' : ' offers ', setText(o.give), ' for ', setText(o.get),
      o.to.length && !o.counter ? ` to ${o.to.map(name).join(', ')}` : '', '.'];
    const answers = mine && !o.counter ? el('ul', { class: 'answers' }, o.to.map((s) => {
      const countered = view.offers.some((c) => c.counter && c.maker === s && c.id > o.id);
      const [mark, word, cls] = o.accepted.includes(s) ? ['✓', 'accepts', 'yes']
        : o.declined.includes(s) ? ['✗', 'declines', 'no']
          : countered ? ['↺', 'made a counter-offer', 'counter'] : ['…', 'is thinking', 'wait'];
      return el('li', { class: `answer answer-${cls}`, 'data-seat': s }, el('span', { 'aria-hidden': 'true', class: 'mark' }, mark), ` ${name(s)} ${word}`);
    })) : null;
    const lacking = toMe && !accept && !accepted && !declined && hand && !Object.entries(o.get).every(([r, n]) => (hand[r] || 0) >= n)
      ? el('p', { class: 'hint' }, `You do not hold ${setText(o.get)}.`) : null;
    const status = accepted ? el('p', { class: 'hint said' }, `You accepted. Waiting for ${name(o.maker)} to choose.`)
      : declined ? el('p', { class: 'hint said' }, 'You declined.') : null;
    const canCounter = toMe && !o.counter && view.phase === 'action';
    return el('li', { class: `offer${toMe ? ' offer-to-me' : ''}${mine ? ' offer-mine' : ''}`, 'data-offer': o.id },
      el('p', { class: 'offer-head' }, head),
      answers, status, lacking,
      el('div', { class: 'offer-buttons' },
        toMe && !accepted && (accept || !o.counter) ? el('button', { type: 'button', class: 'accept primary', disabled: ctx.busy || !accept, onclick: () => sendOnce(ctx, `accept-${o.id}`, accept) }, t('offer.accept')) : null,
        toMe && accepted ? el('button', { type: 'button', class: 'accept', disabled: true }, t('offer.accepted')) : null,
        toMe && decline ? el('button', { type: 'button', class: 'decline', disabled: ctx.busy, onclick: () => sendOnce(ctx, `decline-${o.id}`, decline) }, t('offer.decline')) : null,
        canCounter ? el('button', { type: 'button', class: 'counter-offer', onclick: () => { ctx.setTrade({ give: { ...o.get }, get: { ...o.give }, to: [o.maker] }); ctx.showTab('trade'); } }, t('offer.counter')) : null,
        confirms.map((a) => el('button', { type: 'button', class: 'confirm primary', 'data-seat': a.with, disabled: ctx.busy, onclick: () => sendOnce(ctx, `confirm-${o.id}`, a) }, t('offer.tradeWith', { name: name(a.with) }))),
        cancel ? el('button', { type: 'button', class: 'cancel-offer', disabled: ctx.busy, onclick: () => sendOnce(ctx, `cancel-${o.id}`, cancel) }, t('offer.withdraw')) : null));
  });
  fill(root, el('h2', {}, t('offers.title')), el('ul', { class: 'offers' }, cards));
}

const give = (set) => el('span', { class: 'give' }, setText(set));
const get = (set) => el('span', { class: 'get' }, setText(set));

/**
 * Sends an answer at most once per offer: a second click while the first is
 * on its way, or after the server took it, sends nothing.
 */
function sendOnce(ctx, key, action) {
  if (!action || ctx.sent.has(key)) return;
  ctx.sent.add(key);
  ctx.act(action).then((ok) => {
    if (!ok) ctx.sent.delete(key);
  });
}
