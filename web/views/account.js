// Who plays: the header's player button, the first-visit name prompt, and the account dialog
// (choose or change the name, protect it with a password, log in on another device, log out).
// Names are user input and only ever go into text nodes and input values.
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { me } from '../me.js';
import { prefs } from '../prefs.js';

const header = document.getElementById('me-btn');

const SVG = 'http://www.w3.org/2000/svg';

// A head and shoulders, for the player button.
function personIcon() {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', 'me-icon');
  svg.setAttribute('aria-hidden', 'true');
  const head = document.createElementNS(SVG, 'circle');
  for (const [k, v] of Object.entries({ cx: 12, cy: 8, r: 4.5 })) head.setAttribute(k, v);
  const body = document.createElementNS(SVG, 'path');
  body.setAttribute('d', 'M3 22c0-5 4-8.5 9-8.5s9 3.5 9 8.5z');
  svg.append(head, body);
  return svg;
}

// The header's button: the player's name (to the account dialog), or an invitation to choose one.
export function initAccount() {
  const draw = (p) => {
    header.replaceChildren(personIcon(), h('span', { class: 'me-name', id: 'me-name' }, p ? p.name : t('me.choose')));
    header.classList.toggle('named', !!p);
    header.setAttribute('aria-label', p ? t('me.label', { name: p.name }) : t('me.choose'));
  };
  me.onChange(draw);
  header.addEventListener('click', () => openAccount());
  draw(me.get());
  me.load();
}

// Redraws the header's button in the page's language.
export function redrawAccount() {
  const p = me.get();
  header.querySelector('.me-name')?.replaceChildren(p ? p.name : t('me.choose'));
}

// A name form: the input and its button; `done(player)` after the server took the name.
function nameForm(id, label, err, done) {
  const input = h('input', {
    id: `${id}-input`,
    maxlength: 24,
    autocomplete: 'nickname',
    spellcheck: 'false',
    required: true,
    value: me.get()?.name || '',
    'aria-label': t('me.name'),
  });
  const form = h(
    'form',
    { class: 'row name-form', id: `${id}-form` },
    input,
    h('button', { type: 'submit', class: 'primary', id: `${id}-save` }, label),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    err.textContent = '';
    try {
      done(await me.rename(input.value));
    } catch (x) {
      err.textContent = x.message;
    }
  });
  return { form, input };
}

// The first-visit prompt above the page: choose a name now, or later from the header.
export function showWelcome(wanted) {
  let box = document.getElementById('welcome');
  const show = wanted && me.get() === null && !prefs.welcomed();
  if (!show) return box?.remove();
  if (box) return;
  const err = h('p', { class: 'error', role: 'alert' });
  const { form } = nameForm('welcome', t('welcome.save'), err, () => {
    prefs.setWelcomed();
    box.remove();
  });
  box = h(
    'section',
    { class: 'welcome card', id: 'welcome', 'aria-labelledby': 'welcome-title' },
    h('h2', { id: 'welcome-title' }, t('welcome.title')),
    h('p', { class: 'help' }, t('welcome.text')),
    form,
    h(
      'div',
      { class: 'row welcome-more' },
      h(
        'button',
        { type: 'button', class: 'link', id: 'welcome-login', onclick: () => openAccount('login') },
        t('welcome.login'),
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'link',
          id: 'welcome-later',
          onclick: () => {
            prefs.setWelcomed();
            box.remove();
          },
        },
        t('welcome.later'),
      ),
    ),
    err,
  );
  document.querySelector('header').after(box);
  // Gone once a name is chosen elsewhere (the dialog, a log-in).
  const off = me.onChange((p) => {
    if (p) {
      off();
      box.remove();
    }
  });
}

// The account dialog; `focus` 'login' opens on the log-in form, `why` says why a name is asked for.
// Resolves with the player (or null) when it closes.
export function openAccount(focus = null, why = null) {
  document.getElementById('account')?.close();
  const dlg = h('dialog', { class: 'account card', id: 'account', 'aria-labelledby': 'account-title' });
  const close = () => dlg.close();

  // Runs an account request; the dialog then shows the new state, or what went wrong.
  async function act(err, fn, done = null) {
    err.textContent = '';
    dlg.querySelector('#account-note').textContent = '';
    try {
      await fn();
      if (!dlg.open) return;
      render();
      if (done) dlg.querySelector('#account-note').textContent = done;
    } catch (x) {
      err.textContent = x.message;
    }
  }

  function render() {
    const p = me.get();
    const err = h('p', { class: 'error', role: 'alert', id: 'account-error' });
    const note = h('p', { class: 'note', role: 'status', id: 'account-note' });
    const { form: nameF, input: nameI } = nameForm('name', t(p ? 'me.rename' : 'welcome.save'), err, (np) => {
      prefs.setWelcomed();
      if (!p) close();
      else note.textContent = t('me.renamed', { name: np.name });
    });
    const parts = [
      h('h2', { id: 'account-title' }, t(p ? 'me.title' : 'me.choose')),
      why && !p ? h('p', { class: 'help', id: 'account-why' }, why) : null,
      h('label', { for: 'name-input', class: 'field-label' }, t('me.name')),
      nameF,
      h('p', { class: 'help' }, t('me.name.help')),
    ];
    if (p) {
      parts.push(
        h(
          'p',
          {},
          h('a', { href: `#/player/${encodeURIComponent(p.id)}`, id: 'my-page', onclick: close }, t('me.page')),
        ),
      );
      if (p.account) {
        parts.push(
          h('p', { class: 'help', id: 'account-state' }, t('me.account.has')),
          h('button', { type: 'button', id: 'logout', onclick: () => act(err, () => me.logOut()) }, t('me.logout')),
        );
      } else {
        const pw = h('input', {
          type: 'password',
          id: 'password',
          autocomplete: 'new-password',
          minlength: 8,
          required: true,
        });
        const signup = h(
          'form',
          { class: 'signup' },
          h('h3', {}, t('me.signup')),
          h('p', { class: 'help' }, t('me.signup.help')),
          h('label', { for: 'password', class: 'field-label' }, t('me.password')),
          h(
            'div',
            { class: 'row' },
            pw,
            h('button', { type: 'submit', id: 'signup', class: 'primary' }, t('me.signup.button')),
          ),
        );
        signup.addEventListener('submit', (e) => {
          e.preventDefault();
          act(err, () => me.signUp(pw.value), t('me.signup.done'));
        });
        parts.push(signup);
      }
    }
    const ln = h('input', { id: 'login-name', autocomplete: 'username', maxlength: 24, required: true });
    const lp = h('input', { type: 'password', id: 'login-password', autocomplete: 'current-password', required: true });
    const login = h(
      'form',
      { class: 'login' },
      h('label', { for: 'login-name', class: 'field-label' }, t('me.name')),
      ln,
      h('label', { for: 'login-password', class: 'field-label' }, t('me.password.login')),
      lp,
      h('div', { class: 'row' }, h('button', { type: 'submit', id: 'login', class: 'primary' }, t('me.login.button'))),
    );
    login.addEventListener('submit', (e) => {
      e.preventDefault();
      act(err, async () => {
        await me.logIn(ln.value, lp.value);
        prefs.setWelcomed();
        close();
      });
    });
    parts.push(
      h(
        'details',
        { class: 'login-box', id: 'login-box', open: focus === 'login' },
        h('summary', {}, t(p ? 'me.login.another' : 'me.login')),
        login,
      ),
      err,
      note,
      h(
        'div',
        { class: 'row end' },
        h('button', { type: 'button', id: 'account-close', onclick: close }, t('settings.close')),
      ),
    );
    dlg.replaceChildren(...parts.filter(Boolean));
    return focus === 'login' ? ln : nameI;
  }

  const result = new Promise((resolve) => {
    dlg.addEventListener('close', () => {
      dlg.remove();
      resolve(me.get());
    });
  });
  const first = render();
  document.body.append(dlg);
  dlg.showModal();
  first.focus();
  return result;
}

// The player, asking for a name first when there is none; null if the visitor closes the dialog.
export async function needName(why) {
  const p = await me.load();
  if (p) return p;
  return openAccount(null, why);
}
