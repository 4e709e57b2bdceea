// The trainer's panel (`train=1`) and the run behind loinkPlayground.train(): a planar arm's
// LOInK trained from scratch in a Web Worker (web/train-worker.js, Rust's loink-web-train), so
// the page's frames never wait for it. Fetched only when a reader opens the panel or calls
// train(). Every two seconds of training the page's solver switches to the weights as they
// stand (useModel), so the arm, the landscape, the latent panel and the gap map show the
// learning. No numerics here: the settings are checked by Rust, the progress lines, the chart
// (SVG by plotters) and the model file are Rust's.

let ctx = null;
let worker = null;
/** The run in progress or last finished: {settings, resolve, reject, modelJson, measure,
 *  progress, before, live, paused, done}. */
let run = null;

const $ = (id) => document.getElementById(id);

/** Wires the panel once; returns show(state), called with every state. */
export function bind(context) {
  if (!ctx) {
    ctx = context;
    wire();
  }
  return show;
}

function show(state) {
  const open = Boolean(ctx.pg.settings()?.train) && state.controls.includes('train');
  if ($('train-panel').hidden === open) $('train-panel').hidden = !open;
  $('train-open').setAttribute('aria-expanded', String(open));
  // The arm the panel trains is the view's until a run starts.
  if (open && !run && ['planar2', 'planar3', 'planar4'].includes(state.problem)) $('train-problem').value = state.problem;
}

function wire() {
  $('train-start').addEventListener('click', () => {
    train(formSettings()).catch(() => { /* shown in the status lines */ });
  });
  $('train-pause').addEventListener('click', () => (run?.paused ? resume() : pause()));
  $('train-reset').addEventListener('click', reset);
  $('train-use').addEventListener('click', async () => {
    if (!run?.modelJson) return;
    await useLatest();
    ctx.change({ train: false });
  });
  $('train-download').addEventListener('click', download);
  $('train-close').addEventListener('click', () => ctx.change({ train: false }));
}

/** The panel's fields as train() settings (Rust refuses what is out of range, by name). */
function formSettings() {
  return {
    problem: $('train-problem').value,
    width: Number($('train-width').value),
    depth: Number($('train-depth').value),
    mu: Number($('train-mu').value),
    cost: `limits=${$('train-limits').value},com=${$('train-com').value}`,
    seed: Number($('train-seed').value),
    seconds: Number($('train-seconds').value),
  };
}

/** Shows the run's settings in the panel's fields (a call of train() from a course page). */
function showSettings(s) {
  $('train-problem').value = s.problem;
  $('train-width').value = String(s.width);
  $('train-depth').value = String(s.depth);
  $('train-mu').value = String(s.mu);
  $('train-seed').value = String(s.seed);
  $('train-seconds').value = String(s.seconds);
}

function buttons() {
  const active = Boolean(run && !run.done);
  $('train-start').disabled = active && !run.paused;
  $('train-pause').disabled = !active;
  $('train-pause').textContent = run?.paused ? 'Resume' : 'Pause';
  $('train-pause').setAttribute('aria-pressed', String(Boolean(run?.paused)));
  $('train-reset').disabled = !run;
  $('train-use').disabled = !run?.modelJson;
  $('train-download').disabled = !run?.modelJson;
}

function status(text, isError = false) {
  const el = $('train-status');
  el.textContent = text;
  el.classList.toggle('error', isError);
  if (isError) ctx.showStatus(text, true);
}

function ensureWorker() {
  if (worker) return worker;
  worker = new Worker(new URL('./train-worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = (event) => receive(event.data);
  worker.onerror = (event) => fail(`The trainer could not run: ${event.message || 'the worker failed to load'}`);
  return worker;
}

/** Starts a run of `options` (problem, seconds or steps, seed, width, depth, mu, cost, samples,
 *  batch, lr); resolves with {seconds, steps, modelJson} when its budget is spent. A run still
 *  going is stopped, its promise rejected. */
export function train(options = {}) {
  if (run && !run.done) {
    worker?.postMessage({ type: 'stop' });
    run.reject(new Error('training stopped: a new run started'));
  }
  return new Promise((resolve, reject) => {
    run = {
      settings: null,
      resolve,
      reject,
      modelJson: null,
      measure: null,
      progress: null,
      before: run?.before ?? ctx.pg.settings().model,
      paused: false,
      done: false,
    };
    buttons();
    status('Starting the trainer…');
    $('train-chart').replaceChildren();
    const box = $('train-chart').getBoundingClientRect();
    const chart = { width: Math.round(box.width) || 480, height: Math.round(Math.max(box.width * 0.75, 300)) || 360 };
    ensureWorker().postMessage({ type: 'start', settings: options, chart });
  });
}

function pause() {
  if (!run || run.done) return;
  run.paused = true;
  worker.postMessage({ type: 'pause' });
  buttons();
}

function resume() {
  if (!run || run.done) return;
  run.paused = false;
  worker.postMessage({ type: 'resume' });
  buttons();
}

/** Stops the run, forgets it and returns the view to the model it showed before. */
function reset() {
  if (!run) return;
  if (!run.done) {
    worker?.postMessage({ type: 'stop' });
    run.reject(new Error('training reset'));
  }
  const before = run.before;
  run = null;
  $('train-chart').replaceChildren();
  status('');
  buttons();
  if (before && before !== ctx.pg.settings().model) ctx.change({ model: before });
}

function fail(message) {
  if (!run) return;
  const failed = run;
  failed.done = true;
  status(message, true);
  buttons();
  failed.reject(new Error(message));
}

async function useLatest() {
  try {
    await ctx.useModel(run.modelJson);
  } catch (e) {
    status(`The trained weights could not be shown: ${e instanceof Error ? e.message : e}`, true);
  }
}

/** The chart's SVG text, shown as an image (a blob URL: the page writes no HTML, and an SVG in
 *  an <img> runs nothing). */
let chartUrl = null;
function showChart(svg) {
  if (!svg) return;
  let img = $('train-chart').querySelector('img');
  if (!img) {
    img = document.createElement('img');
    img.alt = 'Training: the loss terms by step; the one-shot error, the distance of the posture at z = 0 from the optimum and the gap, by training time';
    $('train-chart').replaceChildren(img);
  }
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  img.src = url;
  if (chartUrl) URL.revokeObjectURL(chartUrl);
  chartUrl = url;
}

function receive(message) {
  if (!run) return;
  switch (message.type) {
    case 'started':
      run.settings = message.settings;
      showSettings(message.settings);
      break;
    case 'progress':
      run.progress = message.progress;
      status(`${message.progress.summary}${run.measure ? ` — ${run.measure.summary}` : ''}`);
      showChart(message.chart);
      ctx.emit('train', progressEvent());
      break;
    case 'snapshot':
      run.modelJson = message.modelJson;
      run.measure = message.measure;
      showChart(message.chart);
      useLatest();
      if (message.final) {
        run.done = true;
        status(`Done: ${run.progress?.summary ?? ''} — ${message.measure.summary}`);
        ctx.emit('train', progressEvent());
        run.resolve({ seconds: run.progress?.seconds ?? 0, steps: run.progress?.step ?? 0, modelJson: run.modelJson });
      }
      buttons();
      break;
    case 'error':
      fail(message.message);
      break;
    default:
      break;
  }
}

/** What on('train', fn) listeners get. */
function progressEvent() {
  const p = run.progress ?? {};
  const m = run.measure ?? {};
  return {
    step: p.step ?? 0,
    seconds: p.seconds ?? 0,
    loss: p.loss,
    taskLoss: p.taskLoss,
    costLoss: p.costLoss,
    gapMedian: m.gapMedian,
    eeMedianM: m.eeMedianM,
    optimumDistanceRad: m.optimumDistanceRad,
    within1pct: m.within1pct,
    done: run.done,
  };
}

function download() {
  if (!run?.modelJson) return;
  const url = URL.createObjectURL(new Blob([run.modelJson], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `trained-${run.settings?.problem ?? 'model'}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
