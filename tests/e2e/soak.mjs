// Soak test of the playground — run by hand, not part of `npm test`:
//
//   node tests/e2e/soak.mjs            # SOAK_SOLVES=1000000 by default
//   SOAK_SOLVES=50000 node tests/e2e/soak.mjs
//   SOAK_MAX_SECONDS=3000 node tests/e2e/soak.mjs   # stop after the round that passes 50 min
//                                                    # (figures say stoppedEarly and the count)
//
// Drives the real page in headless Chromium: rounds of random targets through
// window.loinkPlayground.setTarget (each a solve; the page redraws the panels once per animation
// frame, and the round yields to an animation frame after every ~16 ms of solves so drawing
// interleaves as in a real session), one hostile target (NaN, ±∞, 1e300, null, undefined,
// strings, booleans, BigInt, objects) in every 50, real pointer drags on canvas#arm, rapid model and
// solver switches, and viewport resizes between rounds. Checks: no console error or page error,
// no failed or third-party request, no NaN/Infinity/undefined in any readout or in the numbers
// of a non-invalid state, every hostile target refused with an error and the next good one
// answered, and wasm linear memory bounded (captured by wrapping WebAssembly.instantiate*, so
// the page needs no test hook). Prints the figures as JSON and exits 1 on any violation.
import { startAll, openPlayground } from './harness.mjs';

const TOTAL = Number(process.env.SOAK_SOLVES || 1_000_000);
const ROUND = Number(process.env.SOAK_ROUND || 5_000);
const MAX_SECONDS = Number(process.env.SOAK_MAX_SECONDS || Infinity);
/** Allowed growth of wasm memory after the warm-up rounds (every model loaded once). */
const MEMORY_BOUND_BYTES = 16 * 1024 * 1024;
const VIEWPORTS = [[1280, 1000], [800, 900], [1920, 1080], [600, 1200], [1024, 768]];

const captureMemory = () => {
  const keep = (result) => {
    const instance = result.instance || result;
    if (instance?.exports?.memory) window.__loinkWasmMemory = instance.exports.memory;
    return result;
  };
  for (const name of ['instantiate', 'instantiateStreaming']) {
    const original = WebAssembly[name];
    if (original) WebAssembly[name] = (...args) => original.apply(WebAssembly, args).then(keep);
  }
};

/** One round inside the page: `count` random targets, one hostile in 50. */
async function round({ count, reach, seed }) {
  let s = seed >>> 0;
  const random = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 4294967296);
  // Non-numbers are refused by type in Rust (setTarget passes them raw: null is not x = 0).
  const hostile = [NaN, Infinity, -Infinity, 1e300, -1e300, 'x', undefined, {}, null, '0.5', true, 1n];
  const out = { solves: 0, refused: 0, notRefused: 0, frames: 0, bad: [], statuses: {} };
  const badText = /NaN|Infinity|undefined/;
  let lastYield = performance.now();
  for (let i = 0; i < count; i++) {
    if (performance.now() - lastYield > 16) {
      await new Promise((r) => requestAnimationFrame(r));
      out.frames++;
      lastYield = performance.now();
    }
    if (i % 50 === 49) {
      const h = hostile[((i / 50) | 0) % hostile.length];
      try {
        window.loinkPlayground.setTarget(h, random());
        out.notRefused++;
        if (out.bad.length < 5) out.bad.push(`hostile ${String(h)} was not refused`);
      } catch { out.refused++; }
      continue;
    }
    const r = 1.3 * reach * Math.sqrt(random());
    const phi = 2 * Math.PI * random();
    const state = window.loinkPlayground.setTarget(r * Math.cos(phi), r * Math.sin(phi));
    out.solves++;
    out.statuses[state.status] = (out.statuses[state.status] || 0) + 1;
    for (const [name, text] of Object.entries(state.readouts || {})) {
      if (badText.test(String(text)) && out.bad.length < 5) out.bad.push(`readout ${name} = ${text} (${state.status})`);
    }
    if (state.status !== 'invalid') {
      for (const key of ['residual', 'cost', 'margin']) {
        if (!Number.isFinite(state[key]) && out.bad.length < 5) out.bad.push(`${key} = ${state[key]} (${state.status})`);
      }
      if (!state.q.every(Number.isFinite) && out.bad.length < 5) out.bad.push(`q = ${state.q}`);
    }
  }
  for (const el of document.querySelectorAll('[data-readout]')) {
    if (badText.test(el.textContent) && out.bad.length < 5) out.bad.push(`DOM readout ${el.dataset.readout} = ${el.textContent}`);
  }
  return out;
}

async function drag(page, steps) {
  const box = await page.locator('canvas#arm').boundingBox();
  const at = (u, v) => [box.x + box.width * u, box.y + box.height * v];
  await page.mouse.move(...at(0.5, 0.5));
  await page.mouse.down();
  for (let k = 0; k < steps; k++) {
    const t = k / steps;
    await page.mouse.move(...at(0.5 + 0.4 * Math.cos(7 * t), 0.5 + 0.4 * Math.sin(5 * t)));
  }
  await page.mouse.up();
}

const env = await startAll();
let exitCode = 0;
try {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 1000 } });
  await context.addInitScript(captureMemory);
  const page = await context.newPage();
  page.problems = [];
  page.on('console', (m) => { if (m.type() === 'error') page.problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => page.problems.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => page.problems.push(`requestfailed: ${r.url()}`));
  page.on('request', (r) => { if (!r.url().startsWith(env.base) && !/^(data|blob):/.test(r.url())) page.problems.push(`third-party: ${r.url()}`); });
  await page.goto(`${env.base}/index.html`);
  await page.evaluate(() => window.loinkPlayground.ready);
  const models = await page.evaluate(async () => {
    const { Playground } = await import('/pkg/loink_web.js');
    return Playground.knownModels().map((m) => m.name);
  });
  const memory = () => page.evaluate(() => window.__loinkWasmMemory?.buffer.byteLength ?? null);
  const figures = { total: TOTAL, round: ROUND, models, solves: 0, pointerEvents: 0, refused: 0, notRefused: 0,
    switches: 0, resizes: 0, frames: 0, statuses: {}, bad: [], memory: { start: await memory() } };
  figures.memory.max = figures.memory.start;
  const started = Date.now();
  let r = 0;
  let warmMemory = null;
  figures.stoppedEarly = false;
  while (figures.solves + figures.pointerEvents < TOTAL) {
    if ((Date.now() - started) / 1000 > MAX_SECONDS) {
      figures.stoppedEarly = true;
      break;
    }
    const model = models[r % models.length];
    await page.evaluate((m) => window.loinkPlayground.set({ model: m }), model);
    const solvers = await page.evaluate(() =>
      [...document.querySelectorAll('#solver option')].filter((o) => !o.disabled).map((o) => o.value));
    const solver = solvers[(r * 7 + 3) % solvers.length];
    await page.evaluate((s) => window.loinkPlayground.set({ solver: s }), solver);
    figures.switches += 2;
    // The reference sweep is the ground truth, ~ms a frame: smaller rounds.
    const count = Math.min(solver === 'reference' ? ROUND / 20 : ROUND, TOTAL - figures.solves - figures.pointerEvents);
    // Targets out to 1.3 × reach: planar2's links are 1 + 1 m, the others reach 1.2 m.
    const reach = model.startsWith('planar2') ? 2.0 : 1.2;
    const got = await page.evaluate(round, { count, reach, seed: r + 1 });
    figures.solves += got.solves;
    figures.refused += got.refused;
    figures.notRefused += got.notRefused;
    figures.frames += got.frames;
    for (const [k, v] of Object.entries(got.statuses)) figures.statuses[`${model}/${solver}/${k}`] = (figures.statuses[`${model}/${solver}/${k}`] || 0) + v;
    figures.bad.push(...got.bad.map((b) => `${model}/${solver}: ${b}`));
    await drag(page, 40);
    figures.pointerEvents += 40;
    const [w, h] = VIEWPORTS[r % VIEWPORTS.length];
    await page.setViewportSize({ width: w, height: h });
    figures.resizes++;
    r++;
    figures.memory.max = Math.max(figures.memory.max ?? 0, (await memory()) ?? 0);
    if (r === models.length * 2) warmMemory = await memory();
    if (r % 20 === 0) {
      console.error(`[soak] ${figures.solves + figures.pointerEvents} solves (${figures.frames} yielded frames), ${((Date.now() - started) / 1000).toFixed(0)} s, memory ${await memory()} B, problems ${page.problems.length}, bad ${figures.bad.length}`);
    }
  }
  figures.rounds = r;
  figures.seconds = (Date.now() - started) / 1000;
  figures.memory.afterWarmUp = warmMemory;
  figures.memory.end = await memory();
  figures.memory.bound = MEMORY_BOUND_BYTES;
  figures.problems = page.problems.slice(0, 20);
  figures.problemCount = page.problems.length;
  const grew = warmMemory === null ? 0 : figures.memory.end - warmMemory;
  const failures = [];
  if (figures.problemCount) failures.push(`${figures.problemCount} console/page/request problems`);
  if (figures.bad.length) failures.push(`${figures.bad.length} NaN/invalid readouts or unrefused hostile targets`);
  if (figures.notRefused) failures.push(`${figures.notRefused} hostile targets accepted`);
  if (figures.stoppedEarly) failures.push(`stopped at SOAK_MAX_SECONDS=${MAX_SECONDS} after ${figures.solves + figures.pointerEvents} of ${TOTAL} solves`);
  if (figures.memory.end === null) failures.push('wasm memory was not captured');
  if (grew > MEMORY_BOUND_BYTES) failures.push(`wasm memory grew ${grew} B after warm-up (bound ${MEMORY_BOUND_BYTES})`);
  figures.failures = failures;
  console.log(JSON.stringify(figures, null, 2));
  exitCode = failures.length ? 1 : 0;
} finally {
  await env.close();
}
process.exit(exitCode);
