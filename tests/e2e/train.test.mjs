// The in-browser trainer (web/train.js, web/train-worker.js, pkg/train/): it trains planar2
// from scratch into a file the native loader reads, the page keeps drawing while it trains, bad
// settings are refused by name, and the bare playground never fetches it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startAll, ROOT, ARTIFACTS } from './harness.mjs';

let env;
before(async () => { env = await startAll(); });
after(async () => { await env?.close(); });

async function open(hash, viewport = { width: 1280, height: 1000 }) {
  const context = await env.browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${env.base}/index.html${hash}`);
  await page.evaluate(() => window.loinkPlayground.ready);
  return { page, context, errors };
}

/** The native `loink` binary (built by `cargo test --release` before this step; built here if not). */
function loink(args) {
  execFileSync(join(ROOT, 'scripts', 'build-cli.sh'), [], { cwd: ROOT, stdio: 'inherit' });
  return execFileSync(join(ROOT, 'target', 'release', 'loink'), args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The first run's step count: about ten seconds of training on one core. */
const STEPS = 800;

test('planar2 trains from scratch in the page; the exported file is read by `loink eval` like a shipped one', async () => {
  const { page, context, errors } = await open('#model=planar2&train=1');
  const result = await page.evaluate(async (STEPS) => {
    const seen = [];
    window.loinkPlayground.on('train', (p) => seen.push(p));
    // A run of a fixed step count: its weights are the same on any machine and under any load
    // (a run of `seconds` trains as many steps as the machine manages).
    const r = await window.loinkPlayground.train({ problem: 'planar2', steps: STEPS, seed: 1 });
    return { ...r, events: seen, state: window.loinkPlayground.getState() };
  }, STEPS);
  console.log(`planar2: ${result.steps} steps in ${result.seconds.toFixed(1)} s`);
  assert.equal(result.steps, STEPS);
  const last = result.events.at(-1);
  assert.equal(last.done, true);
  assert.equal(last.step, result.steps);
  assert.ok(Number.isFinite(last.loss) && last.loss < result.events[0].loss, `loss ${result.events[0].loss} → ${last.loss}`);
  assert.ok(last.gapMedian <= 0.01, `median gap ${last.gapMedian}`);
  assert.ok(last.eeMedianM < 0.05, `one-shot error ${last.eeMedianM} m`);
  // The view follows the weights: it shows the trained slot, whose card says how it was trained.
  assert.equal(result.state.model, 'trained-planar2');
  assert.equal(result.state.learned, true);
  const file = join(ARTIFACTS, 'trained-planar2.json');
  writeFileSync(file, result.modelJson);
  const card = JSON.parse(result.modelJson).about;
  assert.match(card.description, /trained in the browser/);
  assert.match(card.command, /loinkPlayground\.train\(\{problem: 'planar2', steps: \d+, seed: 1/);
  // Held-out targets over planar2's whole reach: the shipped network, on the same elbow chart,
  // reaches half of them (the other elbow branch is another chart's), and the trained one as many.
  const targets = join(ARTIFACTS, 'targets-planar2.csv');
  loink(['targets', '--problem', 'planar2', '--count', '300', '--seed', '7', '--out', targets]);
  const within = (model) => {
    const out = loink(['eval', '--model', model, '--refine', '3', '--targets', targets, '--out', join(ARTIFACTS, 'eval-planar2.csv')]);
    const found = /within 1% ([0-9.]+)%/.exec(out);
    assert.ok(found, out);
    return Number(found[1]);
  };
  const shipped = within(join(ROOT, 'web', 'models', 'planar2.json'));
  const trained = within(file);
  assert.ok(trained >= shipped - 2, `within 1 % of J*: trained ${trained} %, shipped ${shipped} %`);
  // Download saves the same text.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#train-download')]);
  assert.equal(download.suggestedFilename(), 'trained-planar2.json');
  await page.screenshot({ path: join(ARTIFACTS, 'train-planar2.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test('while the worker trains, the page keeps drawing: frames keep coming and nothing blocks the page', async () => {
  const { page, context, errors } = await open('#model=planar3-h28w&train=1');
  const frames = await page.evaluate(async () => {
    const intervals = [];
    const drawn = [];
    const tasks = [];
    // Long tasks of the page's thread (over 50 ms each, by the browser's own measure).
    const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) tasks.push(e.duration); });
    observer.observe({ type: 'longtask' });
    let last = performance.now();
    let running = true;
    const tick = (t) => {
      intervals.push(t - last);
      last = t;
      if (running) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    let updates = 0;
    const off = window.loinkPlayground.on('update', (s) => { updates += 1; drawn.push(s.frameMs); });
    // Two points of the view's target while the worker trains: the page must answer both.
    const moved = [];
    const run = window.loinkPlayground.train({ problem: 'planar3', steps: 600, seed: 2 });
    for (const target of [[1.2, 0.8], [0.9, -1.1]]) {
      await new Promise((r) => setTimeout(r, 1000));
      window.loinkPlayground.setTarget(...target);
      moved.push(window.loinkPlayground.getState().target);
    }
    const result = await run;
    running = false;
    off();
    observer.disconnect();
    const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
    return {
      steps: result.steps,
      seconds: result.seconds,
      frames: intervals.length,
      updates,
      moved,
      longestGap: Math.max(...intervals.slice(5)),
      longestTask: Math.max(0, ...tasks),
      interval: median(intervals.slice(5)),
      drawn: median(drawn.filter((v) => v > 0)),
    };
  });
  // Times are printed, never asserted: a busy machine is slower, not wrong.
  console.log('frames while training (ms):', JSON.stringify(frames));
  assert.equal(frames.steps, 600);
  // Frames keep coming: one animation frame every generous 200 ms at the least …
  assert.ok(frames.frames >= frames.seconds * 5, JSON.stringify(frames));
  // … the page still answers a moved target while the worker trains …
  assert.ok(frames.updates >= 2, JSON.stringify(frames));
  assert.deepEqual(frames.moved.map((t) => t.map((v) => Math.round(v * 10) / 10)), [[1.2, 0.8], [0.9, -1.1]]);
  // … and nothing holds the page's thread for long: the worker yields, the page never stalls.
  assert.ok(frames.longestTask <= 200, JSON.stringify(frames));
  assert.ok(frames.longestGap <= 1000, JSON.stringify(frames));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a bad setting is refused with its name, and the view stays as it was', async () => {
  const { page, context } = await open('#model=planar3-h28w&train=1');
  for (const [settings, word] of [
    [{ problem: 'planar3', width: 0 }, "'width'"],
    [{ problem: 'planar3', mu: NaN }, "'mu'"],
    [{ problem: 'panda' }, "'problem'"],
    [{ problem: 'planar3', seconds: -1 }, "'seconds'"],
    [{ problem: 'planar3', colour: 'red' }, 'colour'],
  ]) {
    const message = await page.evaluate(async (s) => {
      try {
        await window.loinkPlayground.train(s);
        return 'accepted';
      } catch (e) {
        return e.message;
      }
    }, settings);
    assert.ok(message.includes(word), `${JSON.stringify(settings)}: ${message}`);
    assert.ok((await page.textContent('#train-status')).includes(word));
    assert.equal(await page.evaluate(() => window.loinkPlayground.getState().model), 'planar3-h28w');
  }
  const refused = await page.evaluate(async () => {
    try {
      await window.loinkPlayground.useModel('{"format": "loink-model"');
      return 'accepted';
    } catch (e) {
      return e.message;
    }
  });
  assert.notEqual(refused, 'accepted');
  assert.equal(await page.evaluate(() => window.loinkPlayground.getState().model), 'planar3-h28w');
  await context.close();
});

test('useModel loads a planar file into its slot; a link to the slot says its weights are not in it', async () => {
  const { page, context } = await open('#model=planar3-h28w');
  const name = await page.evaluate(async () => {
    const text = await (await fetch('web/models/planar3-h16.json')).text();
    return window.loinkPlayground.useModel(text);
  });
  assert.equal(name, 'trained-planar3');
  const state = await page.evaluate(() => window.loinkPlayground.getState());
  assert.equal(state.model, 'trained-planar3');
  assert.equal(state.learned, true);
  assert.ok(await page.$('#model option[value="trained-planar3"]'));
  await context.close();
  const fresh = await open('#model=trained-planar3');
  const s = await fresh.page.evaluate(() => window.loinkPlayground.getState());
  assert.equal(s.model, 'trained-planar3');
  assert.equal(s.learned, false);
  assert.ok(s.status === 'converged' || s.status === 'invalid', s.status);
  await fresh.context.close();
});

test('the lesson "watch G learn" opens the trainer beside the playground\'s panels and the shipped network\'s figures', async () => {
  const { page, context, errors } = await open('#lesson=training');
  const lesson = await page.evaluate(() => window.loinkPlayground.getState().lesson);
  assert.equal(lesson.lesson, 'training');
  assert.ok(lesson.shipped_error_m > 0 && lesson.shipped_error_m < 0.02, JSON.stringify(lesson));
  assert.ok(lesson.shipped_distance_rad > 0 && lesson.shipped_distance_rad < 0.2, JSON.stringify(lesson));
  assert.equal(await page.locator('#train-panel').isVisible(), true);
  assert.equal(await page.locator('#arm').isVisible(), true);
  assert.equal(await page.locator('#latent').isVisible(), true);
  assert.equal(await page.inputValue('#train-problem'), 'planar3');
  const model = await page.evaluate(async () => {
    await window.loinkPlayground.train({ problem: 'planar3', seconds: 4, seed: 1 });
    return window.loinkPlayground.getState().model;
  });
  assert.equal(model, 'trained-planar3');
  assert.match(await page.textContent('#train-status'), /^Done: step \d+/);
  const chart = await page.evaluate(async () => {
    const img = document.querySelector('#train-chart img');
    await img.decode(); // the SVG text parsed and drew as an image
    return { src: img.src, alt: img.alt, width: img.naturalWidth, height: img.naturalHeight };
  });
  assert.match(chart.src, /^blob:/);
  assert.ok(chart.alt.length > 20 && chart.width > 100 && chart.height > 100, JSON.stringify(chart));
  await page.screenshot({ path: join(ARTIFACTS, 'lesson-training.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test('the panel: a pause stops the clock, Use this model keeps the weights, Reset returns to the model before', async () => {
  const { page, context, errors } = await open('#model=planar3-h28w&train=1');
  await page.selectOption('#train-problem', 'planar2');
  await page.fill('#train-seconds', '5');
  await page.click('#train-start');
  await page.waitForFunction(() => /^step \d+ · [1-9]/.test(document.getElementById('train-status').textContent));
  await page.click('#train-pause');
  assert.equal(await page.getAttribute('#train-pause', 'aria-pressed'), 'true');
  await page.waitForTimeout(500); // the slice running at the click reports once more
  const paused = await page.textContent('#train-status');
  await page.waitForTimeout(2500);
  assert.equal(await page.textContent('#train-status'), paused, 'the run went on while paused');
  await page.click('#train-pause');
  await page.waitForFunction(() => /^Done: step \d+ · 5\.0 s of 5 s/.test(document.getElementById('train-status').textContent), null, { timeout: 30_000 });
  assert.equal(await page.isDisabled('#train-use'), false);
  await page.click('#train-use');
  await page.waitForFunction(() => document.getElementById('train-panel').hidden);
  assert.equal(await page.evaluate(() => window.loinkPlayground.getState().model), 'trained-planar2');
  await page.waitForFunction(() => !/train=1/.test(location.hash)); // the hash follows, debounced
  await page.click('#train-open');
  await page.waitForFunction(() => !document.getElementById('train-panel').hidden);
  await page.click('#train-reset');
  await page.waitForFunction(() => window.loinkPlayground.getState().model === 'planar3-h28w');
  assert.equal(await page.textContent('#train-status'), '');
  assert.deepEqual(errors, []);
  await context.close();
});
