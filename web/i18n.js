// Translations: one JSON catalogue per language under /static/i18n/; the choice is remembered.
export const LANGS = ['en', 'es', 'ca', 'ru', 'de'];
let table = {};
let fallback = {};
let current = 'en';

export function lang() { return current; }

export async function setLang(l) {
  if (!LANGS.includes(l)) l = 'en';
  localStorage.setItem('vlt.lang', l); // remembered at once, even if the page is left before loading
  const load = async (x) => (await fetch(`/static/i18n/${x}.json`)).json();
  if (!Object.keys(fallback).length) fallback = await load('en');
  table = l === 'en' ? fallback : await load(l);
  current = l;
  document.documentElement.lang = l;
  apply(document);
}

export function initialLang() {
  const saved = localStorage.getItem('vlt.lang');
  if (saved && LANGS.includes(saved)) return saved;
  const nav = (navigator.language || 'en').slice(0, 2).toLowerCase();
  return LANGS.includes(nav) ? nav : 'en';
}

// t('key', {n: 3}) replaces {n} in the message.
export function t(key, vars = {}) {
  let s = table[key] ?? fallback[key] ?? key;
  for (const [k, v] of Object.entries(vars)) s = s.replaceAll(`{${k}}`, v);
  return s;
}

// Elements with data-i18n get their text; data-i18n-label their aria-label.
export function apply(root) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
}
