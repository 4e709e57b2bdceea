// End-to-end tests of the five lessons in headless Chromium: each lesson URL opens
// in its teaching state and getState().lesson says what the lesson must show. Screenshots go
// to tests/artifacts/lesson-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startAll, openPlayground, ARTIFACTS } from './harness.mjs';

let env;
before(async () => { env = await startAll(); });
after(async () => { await env.close(); });

async function openLesson(hash, delay = {}) {
  const page = await openPlayground(env, { hash, viewport: { width: 1280, height: 1100 }, delay });
  const name = await page.evaluate(() => window.loinkLessons.ready);
  return { page, name };
}

const lessonState = (page) => page.evaluate(() => window.loinkPlayground.getState().lesson);

async function shot(page, name) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path: join(ARTIFACTS, `lesson-${name}.png`), fullPage: true });
}

/** Drags with the mouse on lesson canvas `panel` from world point `from` to `to`. */
async function dragLesson(page, panel, from, to) {
  const box = await page.locator(`canvas#lesson-${panel}`).boundingBox();
  const px = (p) => page.evaluate(([n, x, y]) => window.loinkLessons.toCanvas(n, x, y), [panel, ...p]);
  const [a, b] = [await px(from), await px(to)];
  await page.mouse.move(box.x + a[0], box.y + a[1]);
  await page.mouse.down();
  await page.mouse.move(box.x + b[0], box.y + b[1], { steps: 10 });
  await page.mouse.up();
  await page.waitForTimeout(300);
}

test('averaging: the MSE answer misses, the MDN and LOInK land on the target', async () => {
  const { page, name } = await openLesson('#lesson=averaging');
  assert.equal(name, 'averaging');
  const s = await lessonState(page);
  assert.deepEqual(s.missing_models, []);
  assert.deepEqual(s.target, [1.0, 0.8]);
  assert.ok(s.mse_miss_m >= 1e-2, `mse miss ${s.mse_miss_m}`);
  assert.ok(s.mdn_miss_m <= 5e-3, `mdn miss ${s.mdn_miss_m}`);
  assert.ok(s.loink_miss_m <= 5e-3, `loink miss ${s.loink_miss_m}`);
  assert.ok(['converged', 'approximate'].includes(s.loink_status), s.loink_status);
  assert.notEqual(s.mse_status, 'converged');
  const branches = new Set(s.mdn_components.filter((c) => c.weight > 0.1 && c.miss_m < 2e-2).map((c) => c.branch));
  assert.deepEqual([...branches].sort(), ['q2<0', 'q2>=0'], JSON.stringify(s.mdn_components));
  // Dragging the target moves the playground's target and the lesson follows it.
  await dragLesson(page, 'arm', [1.0, 0.8], [0.5, 1.2]);
  const moved = await page.evaluate(() => window.loinkPlayground.getState());
  assert.ok(Math.hypot(moved.target[0] - 0.5, moved.target[1] - 1.2) < 0.03, `target ${moved.target}`);
  assert.deepEqual(moved.lesson.target, moved.target);
  await page.waitForTimeout(300);
  assert.match(page.url(), /lesson=averaging/);
  await shot(page, 'averaging');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a lesson link keeps its teaching target when web/lessons.js arrives after the hash rewrite', async () => {
  // The page rewrites location.hash with its full settings (target=0.6,0.3 included) ~150 ms
  // after its first frame; a lessons module arriving later must still read the link's own keys.
  const { page } = await openLesson('#lesson=averaging', { 'web/lessons.js': 1500 });
  assert.match(await page.evaluate(() => location.hash), /target=/, 'the hash was rewritten first');
  const s = await lessonState(page);
  assert.deepEqual(s.target, [1.0, 0.8]);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('smoothness: LOInK makes no jump on the default path', async () => {
  const { page } = await openLesson('#lesson=smoothness');
  const s = await lessonState(page);
  assert.equal(s.path, 'circle');
  assert.deepEqual(s.missing_models, []);
  assert.equal(s.loink_jumps, 0, JSON.stringify(s.methods));
  assert.ok(s.methods.length >= 3);
  for (const m of s.methods) assert.ok(Number.isFinite(m.max_speed_rad_s), JSON.stringify(m));
  await shot(page, 'smoothness');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('diversity: the same seed gives the same samples, another seed others', async () => {
  const hash = '#lesson=diversity&sigma=0.6&seed=7';
  const a = await openLesson(hash);
  const sa = await lessonState(a.page);
  assert.deepEqual(sa.missing_models, []);
  assert.ok(sa.samples.length >= 8, `${sa.samples.length} samples`);
  assert.equal(sa.seed, 7);
  await shot(a.page, 'diversity');
  assert.deepEqual(a.page.problems, []);
  await a.page.context().close();
  const b = await openLesson(hash);
  const sb = await lessonState(b.page);
  assert.deepEqual(sb.samples, sa.samples);
  await b.page.context().close();
  const c = await openLesson('#lesson=diversity&sigma=0.6&seed=8');
  const sc = await lessonState(c.page);
  assert.notDeepEqual(sc.samples, sa.samples);
  await c.page.context().close();
});

test('robustness: error grows with noise and the replayed status reports the misses', async () => {
  const { page } = await openLesson('#lesson=robustness&noise=0.05&deadband=0');
  const s = await lessonState(page);
  assert.deepEqual(s.missing_models, []);
  const by = Object.fromEntries(s.current.map((o) => [o.method, o]));
  assert.deepEqual(Object.keys(by).sort(), ['analytic', 'dls', 'loink']);
  const clean = s.curve.find((o) => o.method === 'analytic' && o.noise === 0);
  assert.ok(clean.median_error_m < 1e-9, JSON.stringify(clean));
  assert.ok(by.analytic.median_error_m > 1e-2, JSON.stringify(by.analytic));
  for (const o of s.current) assert.equal(o.reported_fail_replay, o.true_fail, JSON.stringify(o));
  assert.equal(by.analytic.reported_fail_command, 0);
  await shot(page, 'robustness');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('latent: dragging z moves the arm along the self-motion set, the target stays', async () => {
  const { page } = await openLesson('#lesson=latent&z=0,0');
  const s0 = await lessonState(page);
  assert.deepEqual(s0.missing_models, []);
  assert.deepEqual(s0.z, [0, 0]);
  await dragLesson(page, 'plane', [0, 0], [1.0, -0.6]);
  await shot(page, 'latent');
  const s1 = await lessonState(page);
  assert.ok(Math.hypot(s1.z[0] - 1.0, s1.z[1] + 0.6) < 0.1, `z ${s1.z}`);
  assert.deepEqual(s1.target, s0.target);
  assert.ok(s1.residual_m <= 5e-3, `residual ${s1.residual_m}`);
  const moved = Math.max(...s1.q.map((v, i) => Math.abs(v - s1.origin_q[i])));
  assert.ok(moved > 0.05, `the pose did not change (${moved} rad)`);
  assert.ok(s1.origin_cost <= s1.cost, `origin ${s1.origin_cost} vs z ${s1.cost}`);
  await page.waitForTimeout(300);
  assert.match(page.url(), /z=[0-9.]+,-/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('every lesson opens in a plain iframe of a static page', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 1400 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  await page.goto(`${env.base}/tests/iframe.html`);
  const frames = page.frames().filter((f) => f !== page.mainFrame());
  assert.equal(frames.length, 5);
  const names = [];
  for (const f of frames) names.push(await f.evaluate(() => window.loinkLessons.ready));
  assert.deepEqual(names.sort(), ['averaging', 'diversity', 'latent', 'robustness', 'smoothness']);
  await page.screenshot({ path: join(ARTIFACTS, 'lesson-iframes.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});
