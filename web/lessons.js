// Lessons for course pages: `index.html#lesson=averaging` (smoothness, diversity,
// robustness, latent) opens one lesson in its teaching state. Like app.js this file holds no
// numerics: the lesson (pkg/lessons/loink_web.js, `Lesson`) computes, formats and draws; this file
// builds the section from `lesson.info()`, fetches the lesson's fixed model files, forwards
// pointer and control events and persists the lesson's settings into the URL hash through
// window.loinkPlayground.set().
//
// API: window.loinkLessons = { ready (Promise → lesson name or null), state(), toCanvas(name, x, y) }.
// getState().lesson (window.loinkPlayground) is the lesson's measured values; on a lesson page
// window.loinkPlayground.ready resolves only after this module's `ready`.

// The lessons are their own wasm bundle (the playground's pkg/loink_web.js is built without
// them to stay small): it is fetched only when the hash names a lesson.

const $ = (id) => document.getElementById(id);
let lesson = null;
// The hash as the link gave it: the playground rewrites the hash with its full settings soon
// after its first frame, and a lesson reads keys the link names explicitly as the link author's
// choice. app.js captures it at its top level; reading location.hash here instead raced with that
// rewrite whenever this module arrived after the first frame (a loaded machine: the lesson then
// took the playground's default target for the link's).
const linkHash = window.loinkPlayground?.linkHash ?? location.hash;

function errorText(e) {
  return e instanceof Error ? e.message : String(e);
}

function note(text, isError = false) {
  const el = $('lesson-status');
  if (!el) return;
  el.textContent = text;
  el.classList.toggle('error', isError);
}

function guarded(fn) {
  try {
    return fn();
  } catch (e) {
    note(errorText(e), true);
    return undefined;
  }
}

function element(tag, props = {}, children = []) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k in el) el[k] = v;
    else el.setAttribute(k, v);
  }
  el.append(...children);
  return el;
}

function showReadouts() {
  const rows = guarded(() => lesson.readouts()) || [];
  $('lesson-readouts').replaceChildren(...rows.map(([label, text]) =>
    element('tr', {}, [element('th', { scope: 'row', textContent: label }), element('td', { textContent: text })])));
}

let persistTimer = 0;
/** Writes the lesson's settings into the playground (and so into the URL hash), debounced. */
function persist() {
  clearTimeout(persistTimer);
  persistTimer = setTimeout(() => {
    const s = guarded(() => lesson.settings());
    if (s) window.loinkPlayground.set(s);
  }, 120);
}

function buildControls(info) {
  return info.controls.map((c) => {
    const id = `lesson-control-${c.name}`;
    let input;
    if (c.kind === 'select') {
      input = element('select', { id, 'aria-label': c.label }, c.options.map((o) => new Option(o, o)));
      input.value = c.value;
    } else {
      input = element('input', { id, type: c.kind, min: c.min, max: c.max, step: c.step, 'aria-label': c.label });
      input.value = c.value;
    }
    const shown = element('output', { htmlFor: id, textContent: c.kind === 'range' ? c.value : '' });
    input.addEventListener(c.kind === 'range' ? 'input' : 'change', () => {
      guarded(() => lesson.setControl(c.name, input.value));
      if (c.kind === 'range') shown.textContent = input.value;
      showReadouts();
      persist();
    });
    return element('label', {}, [`${c.label} `, input, shown]);
  });
}

function bindPanel(name, canvas) {
  let dragging = false;
  const point = (e) => {
    const rect = canvas.getBoundingClientRect();
    return [e.clientX - rect.left, e.clientY - rect.top];
  };
  let pending = null;
  let queued = false;
  const send = (p) => {
    pending = p;
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      const [px, py] = pending;
      const world = guarded(() => lesson.pointer(name, px, py));
      if (!world) return;
      if (world.length === 2) {
        guarded(() => window.loinkPlayground.setTarget(world[0], world[1]));
      } else {
        showReadouts();
        persist();
      }
    });
  };
  canvas.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    dragging = true;
    canvas.setPointerCapture(e.pointerId);
    send(point(e));
    e.preventDefault();
  });
  canvas.addEventListener('pointermove', (e) => { if (dragging) send(point(e)); });
  const stop = (e) => {
    dragging = false;
    if (canvas.hasPointerCapture(e.pointerId)) canvas.releasePointerCapture(e.pointerId);
  };
  canvas.addEventListener('pointerup', stop);
  canvas.addEventListener('pointercancel', stop);
  canvas.addEventListener('keydown', (e) => {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[e.key];
    if (!steps) return;
    e.preventDefault();
    const k = e.shiftKey ? 10 : 1;
    const world = guarded(() => lesson.nudge(name, steps[0] * k, steps[1] * k));
    if (!world) return;
    if (world.length === 2) {
      guarded(() => window.loinkPlayground.setTarget(world[0], world[1]));
    } else {
      showReadouts();
      persist();
    }
  });
}

async function loadModels(info) {
  await Promise.all(info.models.map(async (m) => {
    try {
      const response = await fetch(new URL(`../${m.file}`, import.meta.url));
      if (!response.ok) throw new Error(`HTTP ${response.status} for ${m.file}`);
      lesson.loadModel(m.role, await response.text());
    } catch (e) {
      lesson.modelMissing(m.role, errorText(e));
    }
  }));
}

async function start() {
  // Not `ready`: on a lesson page that waits for this lesson.
  await window.loinkPlayground.firstFrame;
  if (!window.loinkPlayground.settings()?.lesson?.name) return null;
  const bundle = await import('../pkg/lessons/loink_web.js');
  await bundle.default();
  lesson = bundle.Lesson.fromHash(linkHash);
  if (!lesson) return null;
  const info = lesson.info();
  document.body.classList.add('lesson-mode');
  document.title = `${info.title} — LOInK lesson`;
  const panels = info.panels.map((p) => {
    const canvas = element('canvas', { id: `lesson-${p.name}`, role: p.interactive ? 'application' : 'img', 'aria-label': p.aria });
    if (p.interactive) canvas.tabIndex = 0;
    return element('figure', { className: `lesson-panel lesson-panel-${p.name}` }, [canvas]);
  });
  const section = element('section', { id: 'lesson', 'aria-labelledby': 'lesson-title', dataset: { lesson: info.name } }, [
    element('h2', { id: 'lesson-title', textContent: info.title }),
    element('p', { className: 'lesson-back' }, [
      element('a', { id: 'lesson-playground', href: info.playground, textContent: 'Open this model in the playground' }),
      ' · ',
      element('a', { href: '#', textContent: 'all experiments and lessons' }),
    ]),
    element('p', { className: 'lesson-text', textContent: info.text }),
    element('p', { className: 'lesson-try' }, [element('strong', { textContent: 'Try this: ' }), info.tryThis]),
    element('div', { className: 'lesson-controls' }, buildControls(info)),
    element('div', { className: `lesson-panels lesson-panels-${info.panels.length}` }, panels),
    element('table', { className: 'lesson-readouts' }, [element('tbody', { id: 'lesson-readouts' })]),
    element('p', { id: 'lesson-status', role: 'status', 'aria-live': 'polite' }),
  ]);
  document.body.prepend(section);
  for (const p of info.panels) {
    const canvas = $(`lesson-${p.name}`);
    lesson.attachCanvas(p.name, canvas);
    const rect = canvas.getBoundingClientRect();
    lesson.resize(p.name, rect.width, rect.height, window.devicePixelRatio || 1);
    if (p.interactive) bindPanel(p.name, canvas);
  }
  note('Loading the lesson models…');
  await loadModels(info);
  await window.loinkPlayground.set(lesson.settings());
  const state = window.loinkPlayground.getState();
  if (state) guarded(() => lesson.setTarget(state.target));
  window.loinkPlayground.setLessonState(() => lesson.state());
  window.loinkPlayground.on('update', (s) => {
    guarded(() => lesson.setTarget(s.target));
    showReadouts();
  });
  const observer = new ResizeObserver((entries) => {
    for (const entry of entries) {
      const rect = entry.target.getBoundingClientRect();
      guarded(() => lesson.resize(entry.target.id.replace(/^lesson-/, ''), rect.width, rect.height, window.devicePixelRatio || 1));
    }
  });
  for (const p of info.panels) observer.observe($(`lesson-${p.name}`));
  showReadouts();
  note('');
  return info.name;
}

const ready = start().catch((e) => {
  note(`The lesson could not start: ${errorText(e)}`, true);
  throw e;
});

window.loinkLessons = {
  ready,
  state() {
    return lesson ? lesson.state() : null;
  },
  /** World point → CSS pixel on lesson panel `name` (for tests and course pages). */
  toCanvas(name, x, y) {
    return lesson.worldToCanvas(name, x, y);
  },
};
