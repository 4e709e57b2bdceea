// The playground's JavaScript: it forwards events to Rust and shows what Rust returns.
// No kinematics and no numerics live here: pixel → world mapping, solving, formatting,
// URL-hash parsing and drawing are all calls into pkg/loink_web.js.
//
// Public API for course pages and tests: window.loinkPlayground (docs/embedding.md).

import initSlim, { Playground as SlimPlayground } from '../pkg/loink_web.js';

// A multi-chart model runs on the full bundle (pkg/lessons/), loaded only for it (Rust says
// which: knownModels().fullBundle) and on lesson pages; everything else on the slim one.
let Playground = SlimPlayground;
let fullBundle = false;

const needsFullBundle = (name) => !fullBundle
  && Playground.knownModels().some((m) => m.name === name && m.fullBundle);

/** Initialises the bundle the link's model needs; a lesson page runs on the full bundle (its
 *  lesson's model may need it, and web/lessons.js loads that bundle anyway). */
async function init() {
  await initSlim();
  if (!lessonPage && !needsFullBundle(SlimPlayground.parseHash(location.hash).settings.model)) return;
  const full = await import('../pkg/lessons/loink_web.js');
  await full.default();
  Playground = full.Playground;
  fullBundle = true;
}

performance.mark('loink:app-start');

// Captured before anything here can rewrite the hash (scheduleHash runs after the first frame).
const linkHash = location.hash;

// A lesson page loads the lessons' script and styles (web/lessons.js then fetches their wasm
// bundle); the playground downloads neither.
const lessonPage = /(^#|&)lesson=/.test(linkHash);
if (lessonPage) {
  const css = document.createElement('link');
  css.rel = 'stylesheet';
  css.href = new URL('lessons.css', import.meta.url).href;
  document.head.append(css);
  const loaded = import('./lessons.js');
  loaded.catch((e) => showStatus(`The lesson could not load: ${errorText(e)}`, true));
  // Until web/lessons.js arrives and replaces it: its `ready`, forwarded.
  window.loinkLessons = { ready: loaded.then(() => window.loinkLessons.ready) };
}

// The page's panels, as Rust lists them (Playground.panels()), once the wasm is in.
let PANELS = [];
const listeners = { update: new Set(), train: new Set() };
let pg = null;
let state = null;
let dragging = false;
let pendingPointer = null;
let frameQueued = false;
let drawQueued = false;
let idleQueued = false;
let playing = false;
let hashTimer = 0;
let lessonState = null;

const $ = (id) => document.getElementById(id);

function showStatus(text, isError = false) {
  const el = $('status');
  el.textContent = text;
  el.classList.toggle('error', isError);
}

function errorText(e) {
  return e instanceof Error ? e.message : String(e);
}

/** Runs a call into Rust; a failure is shown in the status line, never thrown at the page. */
function guarded(fn) {
  try {
    return fn();
  } catch (e) {
    showStatus(errorText(e), true);
    return undefined;
  }
}

/** Shows each control where it acts (Rust says which act in this view) unless the link hides it. */
let hiddenByLink = [];
function showControls() {
  const hide = hiddenByLink;
  for (const el of document.querySelectorAll('[data-control]')) {
    const name = el.dataset.control;
    const acts = !state || state.controls.includes(name);
    const hidden = hide.includes(name) || !acts;
    if (el.hidden !== hidden) el.hidden = hidden;
  }
}

/** The readouts' texts, and what each counts in this view as its title. */
function showReadouts() {
  const definition = $('cost-definition');
  if (definition && definition.textContent !== state.costDefinition) definition.textContent = state.costDefinition;
  for (const [name, text] of Object.entries(state.readouts)) {
    const el = document.querySelector(`[data-readout="${name}"]`);
    if (el) el.textContent = text;
  }
  for (const [name, note] of Object.entries(state.readoutNotes)) {
    const el = document.querySelector(`[data-readout="${name}"]`)?.parentElement;
    if (el && el.title !== note) el.title = note;
  }
}

/** The model card, filled from Rust while it is open (and when it opens). */
function showModelCard() {
  if (!$('model-card').open) return;
  const card = guarded(() => pg.modelCard());
  if (card === undefined) return;
  if (!card) {
    $('model-card-title').textContent = 'No learned model in this view (a classical solver needs none).';
    for (const id of ['model-card-rows', 'model-card-reproduces', 'model-card-not', 'model-card-command']) $(id).replaceChildren();
    return;
  }
  $('model-card-title').textContent = card.title;
  $('model-card-rows').replaceChildren(...card.rows.map(([label, text]) => {
    const tr = document.createElement('tr');
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = label;
    const td = document.createElement('td');
    td.textContent = text;
    tr.append(th, td);
    return tr;
  }));
  $('model-card-reproduces').textContent = card.reproduces;
  $('model-card-not').textContent = card.notReproduced;
  if ($('model-card-command').textContent !== card.command) $('model-card-command').textContent = card.command;
}

/** Controls only views of the full bundle have, each a module fetched by those views alone:
 *  the target's controls beyond the pointer and the view's named targets
 *  (web/target-controls.js), the 3-D view's input (web/view3d.js). Once loaded, a module's
 *  `show(state)` sees every state, so it can hide what another view does not have. */
const viewModules = {};
let armGrab = null;
function showViewModule(file, wanted) {
  if (!wanted && !viewModules[file]) return;
  viewModules[file] ??= import(file).then((m) => m.bind({ pg, $, guarded, render, queueDraw, change, setArmGrab: (f) => (armGrab = f) }));
  const shown = state;
  viewModules[file].then((show) => show(shown)).catch((e) => showStatus(`${file} could not load: ${errorText(e)}`, true));
}
/** The trainer's panel and runs (web/train.js), fetched when a link opens the panel or the
 *  page trains: {train, show}. */
let trainerModule = null;
function trainer() {
  trainerModule ??= import('./train.js').then((m) => ({
    train: m.train,
    show: m.bind({ pg, change, useModel, showStatus, emit }),
  }));
  return trainerModule;
}
function showTrainer() {
  // Fetched when a link or the button opens the panel; once here it sees every state.
  if (!trainerModule && !(pg.settings().train && state.controls.includes('train'))) return;
  const shown = state;
  trainer().then((t) => t.show(shown)).catch((e) => showStatus(`The trainer could not load: ${errorText(e)}`, true));
}

/** Calls every `event` listener with `payload`; a failing listener is reported, not thrown. */
function emit(event, payload) {
  for (const fn of listeners[event]) {
    try { fn(payload); } catch (e) { console.warn(`loinkPlayground ${event} listener failed:`, e); }
  }
}

/** Loads a planar arm's model file text into its problem's slot of trained models and shows
 *  it (Rust refuses another problem or kind, and nothing changes). */
async function useModel(json) {
  const name = pg.useModel(json);
  if (!$('model').querySelector(`option[value="${name}"]`)) fillModelMenu();
  if (pg.settings().model !== name) {
    await change({ model: name });
  } else {
    render(guarded(() => pg.state()));
    queueDraw();
  }
  return name;
}

function showTargetControls() {
  showViewModule('./target-controls.js', state.targetControls?.length || state.presets?.length);
  showViewModule('./view3d.js', state.view3d);
}

function render(next) {
  if (!next) return;
  state = next;
  showReadouts();
  showModelCard();
  showTargetControls();
  showTrainer();
  showControls();
  $('unreachable').hidden = !state.unreachable;
  // Both sit on the caption band: the message about this target outranks the first-visit hint.
  $('hint').classList.toggle('yielding', Boolean(state.unreachable));
  const notes = state.warnings.length ? ` (${state.warnings.join('; ')})` : '';
  showStatus(state.message + notes, false);
  emit('update', state);
  scheduleHash();
  scheduleIdle();
}

/** Rewrites the URL hash (debounced) so the address always reproduces the view. */
function scheduleHash() {
  clearTimeout(hashTimer);
  const shown = location.hash;
  hashTimer = setTimeout(() => {
    // A navigation since (a link clicked, the back button) wins: its hashchange, which may not
    // have run yet, applies it. Rewriting it here would swallow that navigation.
    if (location.hash !== shown) return;
    const hash = pg.hash();
    if (hash !== location.hash) history.replaceState(null, '', hash);
  }, 150);
}

/** Callers of whenIdle() waiting for the deferred work to finish. */
const idleWaiters = [];

/** Deferred work (reference sweep on planar4, the gap map) in idle animation frames. */
function scheduleIdle() {
  if (idleQueued) return;
  idleQueued = true;
  requestAnimationFrame(() => {
    idleQueued = false;
    drawNow();
    const budget = dragging || playing ? 1 : 6;
    const more = guarded(() => pg.idle(budget));
    if (more) {
      if (!dragging) refreshState();
      scheduleIdle();
    } else {
      if (more === false) refreshState();
      if (!idleQueued) for (const resolve of idleWaiters.splice(0)) resolve();
    }
  });
}

/** Redraws the panels (and fills in the gap) at most once per animation frame. */
function queueDraw() {
  if (drawQueued) return;
  drawQueued = true;
  requestAnimationFrame(() => {
    drawQueued = false;
    drawNow();
  });
}

/** Called once after the next drawFrame attempt (the start waits for its full frame). */
const afterDraw = [];

/** Draws the panels if a solve happened since the last frame, then shows the completed state. */
function drawNow() {
  if (guarded(() => pg.drawFrame())) render(guarded(() => pg.state()));
  for (const fn of afterDraw.splice(0)) fn();
}

/** A solve that happens inside an animation frame (pointer, keys, play): draw right away. */
function solveAndDraw(solve) {
  const next = guarded(solve);
  if (!next) return;
  const drew = guarded(() => pg.drawFrame());
  render(drew ? guarded(() => pg.state()) : next);
}

function refreshState() {
  const next = guarded(() => pg.state());
  if (next) {
    state = next;
    showReadouts();
  }
}

function canvasPoint(canvas, event) {
  const rect = canvas.getBoundingClientRect();
  return [event.clientX - rect.left, event.clientY - rect.top];
}

/** Coalesces pointer moves into one solve per animation frame: `solveAt(px, py)` is the
 *  Playground call of the dragged canvas. */
function queuePointer(point, solveAt) {
  pendingPointer = [point, solveAt];
  if (frameQueued) return;
  frameQueued = true;
  requestAnimationFrame(() => {
    frameQueued = false;
    const pending = pendingPointer;
    pendingPointer = null;
    if (pending) solveAndDraw(() => pending[1](pending[0][0], pending[0][1]));
  });
}

/** Pointer drags and arrow keys on an interactive canvas. `solveAt(px, py)` answers a
 *  pointer, `nudge(dx, dy)` an arrow key (Shift: ten steps), `escape()` the Escape key;
 *  `grab(event, point)`, when it gives one, is the call that answers this drag instead (the 3-D
 *  view: the target, the orbit or the depth). Only the pointer that began the drag moves it. */
function bindDrag(canvas, { solveAt, nudge, escape, grab }) {
  let solveDrag = solveAt;
  let dragPointer = null;
  canvas.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    dragging = true;
    canvas.setPointerCapture(e.pointerId);
    canvas.focus({ preventScroll: true });
    const point = canvasPoint(canvas, e);
    solveDrag = grab?.(e, point) ?? solveAt;
    dragPointer = e.pointerId;
    queuePointer(point, solveDrag);
    e.preventDefault();
  });
  canvas.addEventListener('pointermove', (e) => {
    if (dragging && e.pointerId === dragPointer) queuePointer(canvasPoint(canvas, e), solveDrag);
  });
  const stop = (e) => {
    if (!dragging) return;
    dragging = false;
    if (grab) pg.release?.();
    if (canvas.hasPointerCapture(e.pointerId)) canvas.releasePointerCapture(e.pointerId);
    scheduleIdle();
  };
  canvas.addEventListener('pointerup', stop);
  canvas.addEventListener('pointercancel', stop);
  canvas.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && escape) {
      e.preventDefault();
      render(guarded(escape));
      queueDraw();
      return;
    }
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[e.key];
    if (!steps) return;
    e.preventDefault();
    const k = e.shiftKey ? 10 : 1;
    render(guarded(() => nudge(steps[0] * k, steps[1] * k)));
    queueDraw();
  });
}

function bindPointer() {
  bindDrag($('arm'), {
    solveAt: (px, py) => pg.pointer(px, py),
    nudge: (dx, dy) => pg.nudge(dx, dy),
    grab: (e, point) => armGrab?.(e, point),
  });
  bindDrag($('latent'), {
    solveAt: (px, py) => pg.latentPointer(px, py),
    nudge: (dx, dy) => pg.nudgeProbe(dx, dy),
    escape: () => pg.clearProbe(),
  });
}

function bindResize() {
  const resize = (name) => {
    const canvas = $(name);
    const rect = canvas.getBoundingClientRect();
    guarded(() => pg.resize(name, rect.width, rect.height, window.devicePixelRatio || 1));
  };
  const observer = new ResizeObserver((entries) => {
    for (const entry of entries) resize(entry.target.id);
    refreshState();
  });
  for (const name of PANELS) observer.observe($(name));
  // devicePixelRatio changes (zoom, moving to another screen) do not resize the element.
  const watchDpr = () => {
    matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`).addEventListener('change', () => {
      for (const name of PANELS) resize(name);
      watchDpr();
    }, { once: true });
  };
  watchDpr();
}

// ---- controls ------------------------------------------------------------------------------

/** The model menu: one group per problem (its default first), each model by its card's line. */
function fillModelMenu() {
  const groups = new Map();
  for (const m of Playground.knownModels()) {
    // A flow is a problem's baseline solver, fetched with its models; a regressor a lesson's.
    if (m.kind !== 'loink' && m.kind !== 'charts') continue;
    if (!groups.has(m.problem)) {
      const group = document.createElement('optgroup');
      group.label = `${m.problem} — ${m.problemTitle}`;
      groups.set(m.problem, group);
    }
    groups.get(m.problem).append(new Option(`${m.name}: ${m.label}`, m.name));
  }
  // Models trained (or loaded by useModel) in this page: they live here only.
  const trained = pg ? pg.trainedModels() : [];
  if (trained.length) {
    const group = document.createElement('optgroup');
    group.label = 'Trained in this page';
    group.append(...trained.map(([name, , label]) => new Option(`${name}: ${label}`, name)));
    groups.set('trained', group);
  }
  $('model').replaceChildren(...groups.values());
}

function fillSolverMenu() {
  const select = $('solver');
  select.replaceChildren(...pg.solvers().map((s) => {
    const option = new Option(s.available ? s.label : `${s.label} — ${s.reason}`, s.name);
    option.disabled = !s.available;
    return option;
  }));
}

function showSettings(s) {
  $('model').value = s.model;
  fillSolverMenu();
  $('solver').value = s.solver;
  $('sigma').value = String(s.sigma);
  $('sigma-value').textContent = String(s.sigma);
  $('samples').value = String(s.samples);
  $('seed').value = String(s.seed);
  $('refine').value = String(s.refine);
  $('feedback').value = String(s.feedback);
  playing = s.play;
  $('play').setAttribute('aria-pressed', String(s.play));
  document.body.classList.toggle('embed', s.embed);
  document.body.classList.toggle('figure', Boolean(s.figure));
  if ((document.body.dataset.figure ?? '') !== (s.figure ?? '')) document.body.dataset.figure = s.figure ?? '';
  hiddenByLink = s.hide;
  showControls();
  if (playing) startPlay();
}

/** Applies a partial settings change through Rust (which validates and clamps it). */
async function change(partial) {
  const next = { ...pg.settings(), ...partial };
  // A new model without a target of its own carries the current one over: Rust replaces it by
  // the new problem's default target when that problem cannot reach it, and says so.
  const carried = next.model !== pg.settings().model && !('target' in partial);
  // A view opens with the solver its model's card names, unless this change names one.
  if (next.model !== pg.settings().model && !('solver' in partial)) {
    const opening = Playground.knownModels().find((m) => m.name === next.model)?.openingSolver;
    if (opening) next.solver = opening;
  }
  if (needsFullBundle(next.model)) {
    // Reopened on the bundle that runs it, with these settings (sessionStorage keeps the word
    // that the target was carried for the one load).
    const hash = guarded(() => Playground.hashOf(next));
    if (!hash) return;
    if (carried) {
      try { sessionStorage.setItem(CARRIED_TARGET, JSON.stringify(next.target)); } catch { /* no storage: judged as a link's */ }
    }
    history.replaceState(null, '', hash);
    location.reload();
    return;
  }
  if (next.model !== pg.settings().model) await ensureModel(next.model);
  if (carried) guarded(() => pg.carryTarget(next.target));
  const warnings = guarded(() => pg.apply(next));
  showSettings(pg.settings());
  render(guarded(() => pg.state()));
  if (warnings && warnings.length) showStatus(warnings.join('; '), true);
}

function bindControls() {
  $('model').addEventListener('change', (e) => change({ model: e.target.value }));
  $('solver').addEventListener('change', (e) => change({ solver: e.target.value }));
  $('sigma').addEventListener('input', (e) => change({ sigma: Number(e.target.value) }));
  $('samples').addEventListener('change', (e) => change({ samples: Number(e.target.value) }));
  $('seed').addEventListener('change', (e) => change({ seed: Number(e.target.value) }));
  $('refine').addEventListener('change', (e) => change({ refine: Number(e.target.value) }));
  $('feedback').addEventListener('change', (e) => change({ feedback: Number(e.target.value) }));
  $('new-seed').addEventListener('click', () => {
    const seed = guarded(() => Playground.newSeed());
    if (seed !== undefined) change({ seed });
  });
  $('play').addEventListener('click', () => change({ play: !pg.settings().play }));
  $('train-open').addEventListener('click', () => change({ train: !pg.settings().train }));
  $('export-png').addEventListener('click', exportPng);
  $('export-svg').addEventListener('click', exportSvg);
  $('export-json').addEventListener('click', exportJson);
  window.addEventListener('hashchange', (event) => {
    // The hash navigated to (history.replaceState, which rewrites the view's own hash, fires
    // no hashchange); the view already showing it has nothing to apply.
    const hash = new URL(event.newURL).hash;
    if (hash === pg.hash()) return;
    applyHash(hash);
  });
}

// ---- way in, first-visit hint, sharing -------------------------------------------------------

/** The experiments and lessons the page holds, each a link (the list is Rust's). */
function fillWayIn() {
  const entries = Playground.experiments();
  for (const [kind, list] of [['experiment', 'experiments-list'], ['lesson', 'lessons-list']]) {
    $(list).replaceChildren(...entries.filter((e) => e.kind === kind).map((e) => {
      const a = document.createElement('a');
      a.href = e.hash;
      a.textContent = e.title;
      a.title = e.line;
      a.dataset.wayIn = kind;
      return a;
    }));
  }
}

const HINT_KEY = 'loink-playground-hint-used';

/** "Drag the target" on the arm panel until the visitor has moved it once (remembered where the
 *  browser lets the page store it). */
function bindHint() {
  let used = false;
  try { used = localStorage.getItem(HINT_KEY) === '1'; } catch { /* storage refused: show it */ }
  const hint = $('hint');
  hint.hidden = used;
  if (used) return;
  const done = () => {
    hint.hidden = true;
    try { localStorage.setItem(HINT_KEY, '1'); } catch { /* nothing to remember it in */ }
    $('arm').removeEventListener('pointerdown', done);
    $('arm').removeEventListener('keydown', done);
  };
  $('arm').addEventListener('pointerdown', done);
  $('arm').addEventListener('keydown', done);
}

/** This view's full link. */
function viewUrl(hash) {
  return `${location.href.split('#')[0]}${hash}`;
}

/** Copies `text`; where the browser refuses, `fallback()` shows it to copy by hand. */
async function copyText(text, fallback) {
  try {
    if (!navigator.clipboard) throw new Error('no clipboard');
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    fallback();
    return false;
  }
}

async function copyLink() {
  const url = viewUrl(pg.hash());
  const copied = await copyText(url, () => {
    $('share-fallback').hidden = false;
    $('share-url').value = url;
    $('share-url').focus();
    $('share-url').select();
  });
  if (copied) {
    $('share-fallback').hidden = true;
    showStatus('Link copied: it opens exactly this view.');
  }
}

function bindShare() {
  $('copy-link').addEventListener('click', copyLink);
  $('model-card').addEventListener('toggle', showModelCard);
  // The embed builder (web/embed.js) is fetched when first opened: most visits never open it.
  $('embed-open').addEventListener('click', () => import('./embed.js')
    .then((m) => m.openEmbed({ pg, Playground, viewUrl, guarded, copyText }))
    .catch((e) => showStatus(`The embed builder could not load: ${errorText(e)}`, true)));
  $('embed-close').addEventListener('click', () => $('embed-builder').close());
}

function download(name, href) {
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
}

function exportPng() {
  const stem = `loink-${state.model}-${state.solver}`;
  for (const name of PANELS) download(`${stem}-${name}.png`, $(name).toDataURL('image/png'));
}

/** Panel `name` as SVG text, drawn by the same Rust code as the canvas, its link inside; at
 *  `width × height` CSS px when given. */
function panelSvg(name, width, height) {
  return pg.exportSvg(name, viewUrl(pg.hash()), width, height);
}

function exportSvg() {
  const stem = `loink-${state.model}-${state.solver}`;
  for (const name of PANELS) {
    const text = guarded(() => panelSvg(name));
    if (text === undefined) return;
    const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
    download(`${stem}-${name}.svg`, url);
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}

function exportJson() {
  const text = guarded(() => pg.stateJson());
  if (text === undefined) return;
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  download(`loink-${state.model}-${state.solver}-state.json`, url);
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The one play loop: at most one animation-frame chain runs, however often the settings change
 *  while playing (each change calls this again). */
let playLoop = false;
function startPlay() {
  if (playLoop) return;
  playLoop = true;
  const step = (time) => {
    if (!playing) {
      playLoop = false;
      return;
    }
    // Paused while off screen or in a hidden tab (the target resumes where the clock is).
    if (!dragging && onScreen && !document.hidden) solveAndDraw(() => pg.tick(time));
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}

// ---- models --------------------------------------------------------------------------------

const modelLoads = new Map();

/** Fetches a model file's text (an error for an HTTP failure). */
async function fetchText(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.text();
}

// index.html's preload hint names the catalog's default model: its file is requested while the
// solver compiles, and used when the link names that model and the catalog lists that file.
const early = new Map([...document.querySelectorAll('link[rel=preload][data-model]')].map((link) => {
  const text = fetchText(link.href);
  text.catch(() => {}); // reported when used; unused (another model) it is no error
  return [link.dataset.model, { url: link.href, text }];
}));

/** Fetches a model file named in the fixed catalog (never a URL from the hash), with its
 *  problem's flow baseline when the catalog lists one. */
function ensureModel(name) {
  const known = Playground.knownModels();
  const entry = known.find((m) => m.name === name);
  if (!entry) return Promise.resolve();
  return Promise.all(known.filter((m) => m === entry || (m.kind === 'flow' && m.problem === entry.problem)).map(fetchModel));
}

/** Fetches and loads one catalog entry's file, once. */
function fetchModel({ name, file }) {
  if (!modelLoads.has(name)) {
    const url = new URL(`../${file}`, import.meta.url).href;
    const hinted = early.get(name);
    modelLoads.set(name, (async () => {
      try {
        const text = await (hinted?.url === url ? hinted.text : fetchText(url));
        performance.mark('loink:model-fetched');
        pg.loadModel(name, text);
        performance.mark('loink:model-loaded');
      } catch (e) {
        showStatus(`Could not load the ${name} model (${errorText(e)}); classical solvers only.`, true);
      }
    })());
  }
  return modelLoads.get(name);
}

async function applyHash(hash) {
  const parsed = Playground.parseHash(hash);
  if (needsFullBundle(parsed.settings.model)) {
    location.reload();
    return;
  }
  // Lessons are their own page (their bundle loads at start): entering or leaving one reloads.
  if ((parsed.settings.lesson?.name ?? null) !== (pg.settings().lesson?.name ?? null)) {
    location.reload();
    return;
  }
  await ensureModel(parsed.settings.model);
  applyParsed(parsed);
}

/** Applies parsed link settings (solves and draws every panel once; at the start only the arm
 *  panel, the rest with the next frame) and shows them. */
function applyParsed(parsed, first = false) {
  const warnings = guarded(() => (first ? pg.applyFirst(parsed.settings) : pg.apply(parsed.settings))) || [];
  performance.mark('loink:applied');
  showSettings(pg.settings());
  render(guarded(() => pg.state()));
  const all = [...parsed.warnings, ...warnings];
  showLinkWarnings(all);
  return all;
}

function showLinkWarnings(warnings) {
  if (warnings.length) showStatus(`Link settings ignored: ${warnings.join('; ')}`, true);
}

// ---- start ---------------------------------------------------------------------------------

// The start draws each panel once: the link's model is fetched while the canvases are sized
// (without drawing); then applyFirst draws the arm panel (without the reachable region), the
// region is sampled, and the next frame draws the region and the other three panels.
/** Whether the view is on screen now (IntersectionObserver: inside an iframe it reports the
 *  frame's visibility in the top-level viewport), and whether it has ever been. */
let onScreen = false;
let active = false;
const firstOnScreen = new Promise((resolve) => {
  if (typeof IntersectionObserver !== 'function') {
    onScreen = true;
    resolve();
    return;
  }
  new IntersectionObserver((entries) => {
    onScreen = entries.some((e) => e.isIntersecting);
    if (onScreen) resolve();
  }).observe(document.documentElement);
});

/** sessionStorage key: the target the model menu carried to a model of the other bundle. */
const CARRIED_TARGET = 'loink:carried-target';

/** The carried target left by the page before it reopened (once), or null. */
function takeCarriedTarget() {
  try {
    const text = sessionStorage.getItem(CARRIED_TARGET);
    sessionStorage.removeItem(CARRIED_TARGET);
    const target = text ? JSON.parse(text) : null;
    return Array.isArray(target) ? target : null;
  } catch {
    return null;
  }
}

async function start() {
  const t0 = performance.now();
  await init();
  performance.mark('loink:wasm-ready');
  pg = new Playground();
  PANELS = Playground.panels();
  const carried = takeCarriedTarget();
  if (carried) guarded(() => pg.carryTarget(carried));
  const parsed = Playground.parseHash(location.hash);
  const model = ensureModel(parsed.settings.model);
  for (const name of PANELS) {
    pg.attachCanvas(name, $(name));
    const rect = $(name).getBoundingClientRect();
    pg.setSize(name, rect.width, rect.height, window.devicePixelRatio || 1);
  }
  fillModelMenu();
  fillWayIn();
  bindHint();
  bindPointer();
  bindControls();
  bindShare();
  performance.mark('loink:bound');
  await model;
  // Nothing heavy (solving, panels, reference passes, the gap map) before the view has been on
  // screen: a course page of many embeds starts each as it scrolls in.
  await firstOnScreen;
  active = true;
  // First the arm panel and the readouts (interactive), then the other panels one frame later.
  const linkWarnings = applyParsed(parsed, true);
  bindResize();
  document.documentElement.dataset.interactiveAtMs = performance.now().toFixed(1);
  interactiveReady();
  // The reachable region (~25 ms) is not on the way to the first frame: it is sampled now,
  // before the full frame draws it.
  guarded(() => pg.prepare());
  performance.mark('loink:prepared');
  await new Promise((resolve) => {
    afterDraw.push(resolve);
    queueDraw();
  });
  showLinkWarnings(linkWarnings); // the full frame's state replaced the status line
  const firstFrameMs = performance.now() - t0;
  document.documentElement.dataset.firstFrameMs = firstFrameMs.toFixed(1);
  document.documentElement.dataset.readyAtMs = performance.now().toFixed(1);
  return firstFrameMs;
}

let interactiveReady;
let interactiveFailed;
const interactive = new Promise((resolve, reject) => {
  interactiveReady = resolve;
  interactiveFailed = reject;
});
interactive.catch(() => {}); // the failure is reported by `ready` and the status line

/** `?bench=1` on a benchmark build: after the first frame, time 1,000 frames and the solvers (all
 *  in Rust) and show the report; tests/e2e/bench.mjs reads window.loinkBench. */
async function benchMode(firstFrameMs) {
  const frames = Number(new URLSearchParams(location.search).get('frames')) || 1000;
  await new Promise((r) => setTimeout(r, 50));
  if (typeof pg.bench !== 'function') {
    showStatus('This build carries no benchmark: tests/e2e/bench.mjs builds one (scripts/build-web.sh --bench).', true);
    return;
  }
  const report = guarded(() => pg.bench(frames));
  if (!report) return;
  report.firstFrameMs = firstFrameMs;
  const pre = document.createElement('pre');
  pre.id = 'bench-result';
  pre.textContent = JSON.stringify(report, null, 2);
  document.body.prepend(pre);
  window.loinkBench = report;
}

const firstFrame = start().then((firstFrameMs) => {
  if (new URLSearchParams(location.search).get('bench') === '1') benchMode(firstFrameMs);
  return firstFrameMs;
}).catch((e) => {
  showStatus(`The playground could not start: ${errorText(e)}`, true);
  interactiveFailed(e);
  throw e;
});
// A lesson page is ready when its lesson is: web/lessons.js waits for the first frame, then
// builds the lesson and fills getState().lesson.
const ready = lessonPage
  ? firstFrame.then(async (firstFrameMs) => {
    await window.loinkLessons.ready;
    return firstFrameMs;
  })
  : firstFrame;

window.loinkPlayground = {
  ready,
  firstFrame,
  interactive,
  linkHash,
  /** setTarget(...coordinates): the view's task columns — x, y on a planar view, y1, y2, y3 on
   *  the climber's, x, y, z on a 3-D arm's, x, y, z, qw, qx, qy, qz on a full pose's (Rust
   *  refuses another count, saying the one it takes). */
  setTarget(...coordinates) {
    try {
      // Raw values: Rust refuses non-numbers by type (Number(null) would be 0).
      const next = pg.setTarget(coordinates);
      render(next);
      queueDraw();
      return next;
    } catch (e) {
      showStatus(errorText(e), true);
      throw e;
    }
  },
  /** Resolves once the deferred work for the current view (reference sweep, latent map, gap
   *  map, the re-timing of the solve) is done. */
  whenIdle() {
    return new Promise((resolve) => {
      idleWaiters.push(resolve);
      scheduleIdle();
    });
  },
  /** Panel `name` ('arm', 'landscape', 'latent', 'gapmap') as SVG text: the same drawing as
   *  the canvas, the view's link in its metadata. */
  exportSvg(name, width, height) {
    return panelSvg(name, width, height);
  },
  /** The state; before the view has first been on screen only `{active: false}` (nothing has
   *  been solved yet). */
  getState() {
    if (!pg || !active) return { active: false };
    const s = pg.state();
    s.active = true;
    if (lessonState) s.lesson = lessonState();
    return s;
  },
  /** web/lessons.js registers the function whose value becomes getState().lesson. */
  setLessonState(fn) {
    lessonState = fn;
  },
  /** Trains the view's planar arm's LOInK from scratch in a worker: `options` {problem,
   *  seconds, seed, width, depth, mu, cost, steps, samples, batch, lr} (web/train.js); resolves
   *  with {seconds, steps, modelJson}. The view follows the weights as they train; progress
   *  goes to on('train', fn) as {step, loss, gapMedian, …}. */
  train(options) {
    return firstFrame.then(() => trainer()).then((t) => t.train(options));
  },
  /** Loads a planar arm's model file text (a trained one, e.g. train()'s modelJson) into the
   *  view; resolves with its model name (`trained-planar3`, …). */
  useModel(modelJson) {
    return firstFrame.then(() => useModel(modelJson)).catch((e) => {
      showStatus(errorText(e), true);
      throw e;
    });
  },
  on(event, fn) {
    if (!listeners[event]) throw new Error(`unknown event '${event}' (known: update, train)`);
    listeners[event].add(fn);
    return () => listeners[event].delete(fn);
  },
  set(partial) {
    return change(partial);
  },
  /** The current settings (the URL hash's keys, typed), e.g. settings().lesson.name. */
  settings() {
    return pg ? pg.settings() : null;
  },
  models() {
    return Playground.knownModels();
  },
  /** A world point's CSS pixel on canvas#arm: (x, y) on a planar view, (x, y, z) on a 3-D one. */
  worldToCanvas(x, y, z) {
    return pg.worldToCanvas(x, y, z);
  },
  canvasToWorld(px, py) {
    return pg.canvasToWorld(px, py);
  },
  /** What is drawn over canvas#arm, [{kind: 'legend'|'hint'|'bars'|'inset', x, y, w, h}] in CSS
   *  pixels of the canvas: the legends, loads bars and insets of the last frame (Rust's), and
   *  the page's first-visit hint and unreachable message while shown. */
  overlays() {
    const boxes = pg.drawnOverlays();
    const canvas = $('arm').getBoundingClientRect();
    for (const id of ['hint', 'unreachable']) {
      const box = $(id).getBoundingClientRect();
      if (box.width > 0 && box.height > 0) {
        boxes.push({ kind: 'hint', x: box.left - canvas.left, y: box.top - canvas.top, w: box.width, h: box.height });
      }
    }
    return boxes;
  },
  /** The robot as the last frame drew it: its joints and link corners, [[x, y], …] in CSS
   *  pixels of canvas#arm. */
  robotPoints() {
    return pg.robotPoints();
  },
};
