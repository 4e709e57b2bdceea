// The in-browser trainer's worker: it runs pkg/train/ (crate loink-web-train) in slices of
// about 100 ms, so it can hear a pause between them, and posts what Rust returns. No numerics
// here: the settings, the progress, the measurements and the model file are all Rust's.
//
// Messages in:  {type: 'start', settings, chart: {width, height}} | {type: 'pause'}
//               | {type: 'resume'} | {type: 'stop'}
// Messages out: {type: 'started', settings} | {type: 'progress', progress, chart?}
//               | {type: 'snapshot', measure, modelJson, final, chart} | {type: 'error', message}
// (chart: the live chart's SVG text, Rust's plotters drawing, at most every CHART_MS.)

import init, { Trainer } from '../pkg/train/loink_web_train.js';

/** Wall time per slice (ms): long enough to amortise the message, short enough to pause. */
const SLICE_MS = 100;
/** Training time between two snapshots (ms): the page's solver switches to each. */
const SNAPSHOT_MS = 2000;
/** Least time between two charts sent (ms). */
const CHART_MS = 500;

let chartSize = { width: 480, height: 360 };
let chartAt = -Infinity;

let trainer = null;
let running = false;
let sinceSnapshot = 0;
let ready = null;
/** Which chain of slices may run: a start, a resume or a stop begins a new one, so a slice
 *  already scheduled by the old chain ends it instead of running beside the new one. */
let chain = 0;

const errorText = (e) => (e instanceof Error ? e.message : String(e));

function chart() {
  chartAt = performance.now();
  return trainer.chartSvg(chartSize.width, chartSize.height);
}

function snapshot(final) {
  const measure = trainer.measure();
  self.postMessage({ type: 'snapshot', measure, modelJson: trainer.modelJson(), final, chart: chart() });
}

function loop(own) {
  if (own !== chain || !running || !trainer) return;
  try {
    const started = performance.now();
    const progress = trainer.run(SLICE_MS);
    sinceSnapshot += performance.now() - started;
    const message = { type: 'progress', progress };
    if (performance.now() - chartAt >= CHART_MS) message.chart = chart();
    self.postMessage(message);
    if (progress.done) {
      running = false;
      snapshot(true);
      trainer.free();
      trainer = null;
      return;
    }
    if (sinceSnapshot >= SNAPSHOT_MS) {
      sinceSnapshot = 0;
      snapshot(false);
    }
  } catch (e) {
    running = false;
    self.postMessage({ type: 'error', message: errorText(e) });
    return;
  }
  setTimeout(() => loop(own), 0);
}

function begin() {
  running = true;
  chain += 1;
  loop(chain);
}

self.onmessage = async (event) => {
  const message = event.data || {};
  try {
    if (message.type === 'start') {
      ready ??= init();
      await ready;
      trainer?.free();
      trainer = new Trainer(message.settings ?? {});
      if (message.chart) chartSize = message.chart;
      self.postMessage({ type: 'started', settings: trainer.settings() });
      snapshot(false);
      sinceSnapshot = 0;
      begin();
    } else if (message.type === 'pause') {
      running = false;
      chain += 1;
    } else if (message.type === 'resume') {
      if (trainer && !running) begin();
    } else if (message.type === 'stop') {
      running = false;
      chain += 1;
      trainer?.free();
      trainer = null;
    }
  } catch (e) {
    running = false;
    trainer = null;
    self.postMessage({ type: 'error', message: errorText(e) });
  }
};
