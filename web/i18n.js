// Translations: one JSON catalogue per language under /static/i18n/, the same format as the
// terminal game's (a flat object of key to message; `{name}` is filled in; a message that depends
// on a number has one key per plural form: `key.one`, `key.few`, `key.many`, `key.other`).
import { prefs } from './prefs.js';

export const LANGS = ['en', 'es', 'ca', 'ru', 'de'];
let table = {};
let fallback = {};
let current = 'en';

export function lang() {
  return current;
}

export async function setLang(l) {
  if (!LANGS.includes(l)) l = 'en';
  prefs.setLang(l); // remembered at once, even if the page is left before loading
  const load = async (x) => (await fetch(`/static/i18n/${x}.json`)).json();
  if (!Object.keys(fallback).length) fallback = await load('en');
  table = l === 'en' ? fallback : await load(l);
  current = l;
  document.documentElement.lang = l;
  apply(document);
}

export function initialLang() {
  const saved = prefs.lang();
  if (saved && LANGS.includes(saved)) return saved;
  const nav = (navigator.language || 'en').slice(0, 2).toLowerCase();
  return LANGS.includes(nav) ? nav : 'en';
}

const fill = (s, vars) => {
  for (const [k, v] of Object.entries(vars)) s = s.replaceAll(`{${k}}`, v);
  return s;
};

// t('key', {n: 3}) replaces {n} in the message.
export function t(key, vars = {}) {
  return fill(table[key] ?? fallback[key] ?? key, vars);
}

// tn('stones', 3) picks the plural form of the language for 3 and fills in {n}.
export function tn(key, n, vars = {}) {
  const form = new Intl.PluralRules(current).select(n);
  const s = table[`${key}.${form}`] ?? table[`${key}.other`] ?? fallback[`${key}.${form}`] ?? fallback[`${key}.other`];
  return fill(s ?? key, { n, ...vars });
}

// Elements with data-i18n get their text; data-i18n-label their aria-label.
export function apply(root) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
}
