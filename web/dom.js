// Small DOM helpers shared by the views: building elements and speaking to screen readers.
export const main = document.getElementById('main');
const announcer = document.getElementById('announce');

// h('button', {id: 'x', onclick: f}, 'text', child) builds an element.
export function h(tag, attrs = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, '');
    else if (v !== false && v != null) el.setAttribute(k, v);
  }
  for (const k of kids.flat()) if (k != null && k !== false) el.append(k.nodeType ? k : document.createTextNode(k));
  return el;
}

// Says a message in the page's live region (read out by screen readers, shown by the game view).
export function say(msg) {
  announcer.textContent = '';
  setTimeout(() => {
    announcer.textContent = msg;
  }, 30);
}

// N2 position string -> board in ring order and captures.
export function parsePos(s) {
  const [rows, toMove, cb, ca] = s.split(' ');
  const [b, a] = rows.split('/').map((r) => r.split(',').map(Number));
  return { board: [...b, ...a], toMove, caps: { B: Number(cb), A: Number(ca) } };
}
