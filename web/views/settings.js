// The settings dialog (animation speed, sound, evaluation bar, coordinates, theme), opened from
// the header; every choice is remembered (prefs.js) and applies at once.
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { prefs } from '../prefs.js';

// Theme and coordinates are page-wide: attributes on <html> that base.css and board.css follow.
export function applyLook() {
  document.documentElement.dataset.theme = prefs.get('theme');
  document.documentElement.dataset.coords = prefs.get('coords');
}

export function openSettings() {
  const field = (name) =>
    h(
      'div',
      { class: 'field' },
      h('label', { for: `set-${name}` }, t(`settings.${name}`)),
      h(
        'select',
        {
          id: `set-${name}`,
          onchange: (e) => {
            prefs.set(name, e.target.value);
            applyLook();
          },
        },
        prefs
          .choices(name)
          .map((v) => h('option', { value: v, selected: prefs.get(name) === v }, t(`settings.${name}.${v}`))),
      ),
    );
  const dlg = h(
    'dialog',
    { class: 'settings card', id: 'settings', 'aria-labelledby': 'settings-title' },
    h(
      'form',
      { method: 'dialog' },
      h('h2', { id: 'settings-title' }, t('settings.title')),
      ['speed', 'sound', 'eval', 'coords', 'theme'].map(field),
      h(
        'div',
        { class: 'row' },
        h('button', { class: 'primary', id: 'settings-close', value: 'close' }, t('settings.close')),
      ),
    ),
  );
  dlg.addEventListener('close', () => dlg.remove());
  document.body.append(dlg);
  dlg.showModal();
}
