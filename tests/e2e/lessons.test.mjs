// End-to-end tests of the lessons in headless Chromium: each lesson URL opens
// in its teaching state, getState().lesson says what the lesson must show, and what the lesson
// text claims is what it measures. Screenshots go to tests/artifacts/lesson-*.png, each checked
// for what it must show (the target drawn, not hidden under a legend).
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

const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

async function shot(page, name) {
  await frames(page);
  await page.screenshot({ path: join(ARTIFACTS, `lesson-${name}.png`), fullPage: true });
}

/** Whether lesson canvas `panel` shows the target's colour (the ring, #d55e00) within 10 CSS px
 *  of world point `at`: the target is drawn there and nothing covers it. */
const targetShown = (page, panel, at) => page.evaluate(([name, x, y]) => {
  const [px, py] = window.loinkLessons.toCanvas(name, x, y);
  const canvas = document.getElementById(`lesson-${name}`);
  const d = canvas.width / canvas.getBoundingClientRect().width;
  const r = Math.round(10 * d);
  const img = canvas.getContext('2d').getImageData(Math.round(px * d) - r, Math.round(py * d) - r, 2 * r, 2 * r).data;
  let hits = 0;
  for (let i = 0; i < img.length; i += 4) {
    if (Math.abs(img[i] - 213) < 30 && Math.abs(img[i + 1] - 94) < 30 && img[i + 2] < 50) hits += 1;
  }
  return hits;
}, [panel, ...at]);

/** Drags with the mouse on lesson canvas `panel` from world point `from` to `to`. */
async function dragLesson(page, panel, from, to) {
  const box = await page.locator(`canvas#lesson-${panel}`).boundingBox();
  const px = (p) => page.evaluate(([n, x, y]) => window.loinkLessons.toCanvas(n, x, y), [panel, ...p]);
  const [a, b] = [await px(from), await px(to)];
  await page.mouse.move(box.x + a[0], box.y + a[1]);
  await page.mouse.down();
  await page.mouse.move(box.x + b[0], box.y + b[1], { steps: 10 });
  await page.mouse.up();
  // The pointer is handled in the next animation frame.
  await frames(page);
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
  await page.waitForFunction(() => /lesson=averaging/.test(location.hash) && /target=0\.[0-9]+,1\.[0-9]+/.test(location.hash));
  await shot(page, 'averaging');
  assert.ok(await targetShown(page, 'arm', moved.target) > 10, 'the target is not drawn on the arm panel');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('averaging: in the lower left LOInK says its chart cannot reach; weightless MDN components are not charted', async () => {
  const { page } = await openLesson('#lesson=averaging&target=-1,-1.2');
  const s = await lessonState(page);
  assert.deepEqual(s.target, [-1, -1.2]);
  assert.equal(s.loink_in_chart, false);
  assert.notEqual(s.loink_status, 'converged');
  assert.match(await page.locator('#lesson-readouts').textContent(), /outside its chart/);
  // The MDN still answers here, to its own fit (its components miss 4 mm median, 2 cm p95).
  assert.ok(s.mdn_miss_m <= 1e-2, `the MDN still answers: ${s.mdn_miss_m}`);
  const rows = await page.locator('#lesson-readouts tr').allTextContents();
  for (const c of s.mdn_components.filter((c) => c.weight < 0.02)) {
    assert.ok(rows.some((r) => r.includes(`π = ${c.weight.toFixed(2)}`) && r.includes('weight ≈ 0')), rows.join('\n'));
  }
  await shot(page, 'averaging-outside');
  assert.ok(await targetShown(page, 'arm', s.target) > 10, 'the lower-left target is hidden');
  // Inside the shaded chart LOInK lands: along r = 1.5, every target its chart reaches.
  for (const deg of [0, 45, 90, 135, -30, -80]) {
    const a = (deg * Math.PI) / 180;
    await page.evaluate(([x, y]) => window.loinkPlayground.setTarget(x, y), [1.5 * Math.cos(a), 1.5 * Math.sin(a)]);
    const t = await lessonState(page);
    if (t.loink_in_chart) assert.ok(t.loink_miss_m <= 1e-3, `${deg}°: LOInK misses by ${t.loink_miss_m}`);
  }
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

test('smoothness: where the optimum turns over, the larger μ moves the joints more gently; elsewhere μ does not matter', async () => {
  const { page } = await openLesson('#lesson=smoothness');
  const s = await lessonState(page);
  assert.equal(s.path, 'near-base');
  assert.deepEqual(s.missing_models, []);
  assert.equal(s.loink_jumps, 0, JSON.stringify(s.methods));
  assert.ok(s.methods.length >= 4);
  for (const m of s.methods) assert.ok(Number.isFinite(m.max_speed_rad_s), JSON.stringify(m));
  const speed = (st, mu) => st.methods.find((m) => m.mu === mu).max_speed_rad_s;
  assert.ok(speed(s, 0.2) < 0.8 * speed(s, 0.05), `μ = 0.2: ${speed(s, 0.2)}, μ = 0.05: ${speed(s, 0.05)}`);
  assert.ok(s.optimum_max_speed_rad_s > 5 * speed(s, 0.05), `the optimum moves at ${s.optimum_max_speed_rad_s}`);
  for (const m of s.methods.filter((m) => m.mu)) assert.equal(m.missed_frames, 0, JSON.stringify(m));
  await shot(page, 'smoothness');
  await page.locator('#lesson-control-path').selectOption('circle');
  await page.waitForFunction(() => window.loinkPlayground.getState().lesson.path === 'circle');
  const c = await lessonState(page);
  assert.ok(Math.abs(speed(c, 0.2) / speed(c, 0.05) - 1) < 0.15, `circle: ${speed(c, 0.2)} vs ${speed(c, 0.05)}`);
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

test('diversity at σ = 0: only answers that reach the target are compared, and none undercuts J*', async () => {
  const { page } = await openLesson('#lesson=diversity&sigma=0&seed=1');
  const s = await lessonState(page);
  assert.equal(s.reach_m, 1e-4);
  const compared = s.costs.filter((_, i) => s.reaches[i]);
  assert.ok(compared.length > 0, JSON.stringify(s));
  for (const c of compared) assert.ok(c >= s.optimum_cost * (1 - 1e-4), `J ${c} < J* ${s.optimum_cost}`);
  assert.ok(s.mean_gap_pct >= -1e-2, `mean gap ${s.mean_gap_pct} %`);
  assert.match(await page.locator('#lesson-readouts').textContent(), /only their costs are compared/);
  await shot(page, 'diversity-sigma0');
  assert.deepEqual(page.problems, []);
  await page.context().close();
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

test('robustness: nothing fails without noise or backlash; the closed loop takes up the dead band', async () => {
  const clean = await openLesson('#lesson=robustness&noise=0&deadband=0');
  for (const o of (await lessonState(clean.page)).current) {
    assert.deepEqual([o.true_fail, o.reported_fail_command, o.reported_fail_replay], [0, 0, 0], JSON.stringify(o));
  }
  await clean.page.context().close();
  const { page } = await openLesson('#lesson=robustness&noise=0&deadband=0.05');
  const by = Object.fromEntries((await lessonState(page)).current.map((o) => [o.method, o]));
  assert.equal(by.dls.true_fail, 0, JSON.stringify(by.dls));
  assert.ok(by.analytic.true_fail > 0 && by.loink.true_fail > 0, JSON.stringify(by));
  for (const o of Object.values(by)) assert.equal(o.reported_fail_command, 0, JSON.stringify(o));
  await shot(page, 'robustness-deadband');
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
  assert.ok(Number.isFinite(s1.optimum_cost) && s1.origin_cost >= s1.optimum_cost - 1e-6, JSON.stringify(s1));
  await page.waitForFunction(() => /z=[0-9.]+,-/.test(location.hash));
  // The plane takes the arrow keys.
  await page.locator('canvas#lesson-plane').focus();
  await page.keyboard.press('ArrowUp');
  const s2 = await lessonState(page);
  assert.ok(Math.abs(s2.z[1] - s1.z[1] - 0.05) < 1e-9, `${s2.z} after ${s1.z}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('latent: the default z reaches the target; a z in the grey breaks a limit and says so', async () => {
  const { page } = await openLesson('#lesson=latent');
  const s = await lessonState(page);
  assert.equal(s.reaches, true, JSON.stringify(s));
  assert.ok(s.residual_m <= 1e-3 && s.margin_rad >= 0, JSON.stringify(s));
  const far = await openLesson('#lesson=latent&z=-1.8,-1.8');
  const f = await lessonState(far.page);
  assert.equal(f.reaches, false);
  assert.ok(f.margin_rad < 0, JSON.stringify(f));
  assert.match(await far.page.locator('#lesson-readouts').textContent(), /past its limit/);
  await shot(far.page, 'latent-outside');
  assert.deepEqual(page.problems, []);
  await page.context().close();
  await far.page.context().close();
});

test('charts: where the set is in pieces one chart settles on a wrong one, the eight charts find the optimum', async () => {
  const { page, name } = await openLesson('#lesson=charts');
  assert.equal(name, 'charts');
  await page.waitForFunction(() => {
    const s = window.loinkPlayground.getState().lesson;
    return s && s.one && s.winner;
  });
  const s = await lessonState(page);
  assert.deepEqual(s.missing_models, []);
  assert.ok(s.pieces >= 2, `${s.pieces} pieces`);
  assert.equal(s.proposals.length, 8);
  // The winner is the cheapest converged proposal and within 1 % of J*.
  assert.equal(s.winner.status, 'converged');
  const converged = s.proposals.filter((p) => p.status === 'converged');
  assert.ok(converged.every((p) => p.cost >= s.winner.cost - 1e-12));
  assert.ok(s.winner.gap_pct <= 1, `winner ${s.winner.gap_pct} %`);
  // The single chart, with the same refinement, is far from the optimum (or infeasible).
  assert.ok(s.one.gap_pct === null || s.one.gap_pct > 10, `one chart ${s.one.gap_pct} %`);
  // The readouts say so in words.
  const text = await page.locator('#lesson-readouts').innerText();
  assert.match(text, /pieces/);
  assert.match(text, new RegExp(`chart ${s.winner.chart} wins`));
  assert.ok(await targetShown(page, 'arm', s.target) > 0, 'the target is drawn on the arm panel');
  await shot(page, 'charts');
  // Dragging the target recomputes both.
  await dragLesson(page, 'arm', s.target, [0.6, 0.3]);
  await page.waitForFunction(() => window.loinkPlayground.getState().lesson.target[0] > 0.5);
  const moved = await lessonState(page);
  assert.equal(moved.winner.status, 'converged');
  await page.close();
});

test('model-free: LOInK answers with one call to check, the flow pays eight, DLS tens', async () => {
  const { page, name } = await openLesson('#lesson=model-free');
  assert.equal(name, 'model-free');
  await page.waitForFunction(() => {
    const s = window.loinkPlayground.getState().lesson;
    return s && s.answers && s.answers.length === 3;
  });
  const s = await lessonState(page);
  assert.deepEqual(s.missing_models, []);
  const by = Object.fromEntries(s.answers.map((a) => [a.solver, a]));
  assert.equal(by.loink.calls, 1);
  assert.equal(by.flow.calls, 8);
  assert.ok(by.dls.calls >= 10, `dls ${by.dls.calls} calls`);
  assert.ok(by.loink.residual < 1e-4, `LOInK misses by ${by.loink.residual} m`);
  assert.ok(Math.abs(by.loink.effort_gap_pct) < 1, `LOInK effort ${by.loink.effort_gap_pct} %`);
  const text = await page.locator('#lesson-readouts').innerText();
  assert.match(text, /0 calls to answer \+ 1 to check/);
  assert.match(text, /8 simulator calls/);
  assert.ok(await targetShown(page, 'arms', s.target) > 0, 'the target is drawn on the arms panel');
  await shot(page, 'model-free');
  await dragLesson(page, 'arms', s.target, [-0.015, 0.13]);
  await page.waitForFunction(() => window.loinkPlayground.getState().lesson.target[0] < -0.01);
  const moved = await lessonState(page);
  assert.equal(moved.answers.find((a) => a.solver === 'loink').calls, 1);
  await page.close();
});

test('every lesson opens in a plain iframe of a static page', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 1400 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  await page.goto(`${env.base}/tests/iframe.html`);
  const frames = page.frames().filter((f) => f !== page.mainFrame());
  assert.equal(frames.length, 6);
  const names = [];
  // Each lesson starts when it first comes on screen.
  for (const f of frames) {
    await (await f.frameElement()).scrollIntoViewIfNeeded();
    names.push(await f.evaluate(() => window.loinkLessons.ready));
  }
  assert.deepEqual(names.sort(), ['averaging', 'charts', 'diversity', 'latent', 'robustness', 'smoothness']);
  await page.screenshot({ path: join(ARTIFACTS, 'lesson-iframes.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test('a course page of six lesson iframes starts only the one on screen, and each as it scrolls in', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${env.base}/tests/iframe.html`);
  const frames = page.frames().filter((f) => f !== page.mainFrame());
  assert.equal(frames.length, 6);
  const activeOf = (f) => f.evaluate(() => window.loinkPlayground?.getState()?.active ?? false);
  const started = (f) => f.evaluate(() => document.documentElement.dataset.interactiveAtMs !== undefined);
  assert.equal(await frames[0].evaluate(() => window.loinkLessons.ready), 'averaging');
  assert.equal(await activeOf(frames[0]), true);
  // The five below the fold have loaded their wasm but solved and drawn nothing.
  for (const f of frames.slice(1)) {
    await f.waitForFunction(() => window.loinkPlayground !== undefined);
    // Two animation frames in each: its visibility observer has had its first say.
    await f.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
  for (const [i, f] of frames.slice(1).entries()) {
    assert.equal(await activeOf(f), false, `frame ${i + 2} active off screen`);
    assert.equal(await started(f), false, `frame ${i + 2} started off screen`);
  }
  // Scrolled in, one starts; the others stay idle.
  await (await frames[3].frameElement()).scrollIntoViewIfNeeded();
  assert.equal(await frames[3].evaluate(() => window.loinkLessons.ready), 'robustness');
  assert.equal(await activeOf(frames[3]), true);
  assert.equal(await activeOf(frames[4]), false);
  assert.deepEqual(problems, []);
  await context.close();
});

test('on a lesson page `ready` resolves with the lesson\'s figures in getState().lesson', async () => {
  // The lessons' script held back 1.5 s: `ready` must wait for it, not for the first frame.
  for (const hash of ['#lesson=smoothness', '#lesson=model-free']) {
    const page = await openPlayground(env, { hash, viewport: { width: 1280, height: 1100 }, delay: { 'web/lessons.js': 1500 } });
    const lesson = await page.evaluate(() => window.loinkPlayground.ready.then(() => window.loinkPlayground.getState().lesson));
    assert.ok(lesson && typeof lesson === 'object', `${hash}: getState().lesson is ${JSON.stringify(lesson)} when ready resolves`);
    // What each lesson measured: the smoothness tracks, the model-free answers.
    const measured = hash.includes('smoothness') ? lesson.methods : lesson.answers ?? lesson.methods;
    assert.ok(Array.isArray(measured) && measured.length > 0, `${hash}: ${JSON.stringify(lesson).slice(0, 300)}`);
    assert.deepEqual(page.problems, [], hash);
    await page.context().close();
  }
});

test('climbing: the upper feet carry more on a wall, equal on the ceiling; under minimum norm posture hardly matters', async () => {
  const { page, name } = await openLesson('#lesson=climbing');
  assert.equal(name, 'climbing');
  await page.waitForFunction(() => window.loinkPlayground.getState().lesson?.rows?.length === 25);
  const s = await lessonState(page);
  assert.deepEqual(s.missing_models, []);
  assert.equal(s.rule, 'stiffness');
  assert.equal(s.span, 0.5);
  assert.equal(s.clearance, 0.08);
  const at = (state, gamma) => state.rows.find((r) => r.gamma === gamma);
  const wall = at(s, 90);
  const ceiling = at(s, 180);
  // docs/climber.md at (90°, 0.5 m, 8 cm): the optimum needs 22.5 / 20.8 N, the neutral stance 26.5 / 16.9 N.
  assert.ok(Math.abs(wall.loink[0] - 22.5) < 0.3 && Math.abs(wall.loink[1] - 20.8) < 0.3, JSON.stringify(wall));
  assert.ok(Math.abs(wall.neutral[0] - 26.5) < 0.1 && Math.abs(wall.neutral[1] - 16.9) < 0.1, JSON.stringify(wall));
  assert.ok(wall.neutral[0] - wall.loink[0] > 3, 'LOInK spares the upper feet');
  assert.ok(Math.abs(ceiling.loink[0] - ceiling.loink[1]) < 0.5, `ceiling ${ceiling.loink}`);
  // LOInK's larger pull is near the bottom of the band of every posture (its cost also keeps the
  // ankles centred and the body near parallel, so it is not the bare min-max posture).
  const peak = Math.max(...wall.loink);
  assert.ok(peak - wall.spread[0] < 1.5 && wall.spread[1] - peak > 5, JSON.stringify(wall));
  const stiffSpread = wall.spread[1] - wall.spread[0];
  const text = await page.locator('#lesson-readouts').innerText();
  assert.match(text, /vertical wall: LOInK's posture/);
  await shot(page, 'climbing');
  // Minimum norm: the same footholds, a band of postures an order of magnitude narrower.
  await page.selectOption('#lesson-control-rule', 'min-norm');
  await page.waitForFunction(() => window.loinkPlayground.getState().lesson.rule === 'min-norm');
  const m = await lessonState(page);
  const minWall = at(m, 90);
  const minSpread = minWall.spread[1] - minWall.spread[0];
  assert.ok(minSpread < stiffSpread / 5, `spread ${minSpread} N under min-norm vs ${stiffSpread} N`);
  await page.waitForFunction(() => /rule=min-norm/.test(location.hash));
  await shot(page, 'climbing-min-norm');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('redundancy-3d: the Panda\'s elbow swings through the latent with the hand fixed; direct regression misses where LOInK reaches', async () => {
  const { page, name } = await openLesson('#lesson=redundancy-3d');
  assert.equal(name, 'redundancy-3d');
  await page.waitForFunction(() => window.loinkPlayground.getState().lesson?.regression);
  const s = await lessonState(page);
  assert.deepEqual(s.missing_models, []);
  assert.deepEqual(s.target, [0.45, -0.2, 0.35]);
  assert.equal(s.swings.length, 3);
  for (const swing of s.swings) {
    const middle = swing.z.length >> 1;
    const held = swing.z.map((z, i) => i).filter((i) => swing.z[i] >= swing.held[0] && swing.z[i] <= swing.held[1]);
    // z = 0 is the cheapest posture the hand reaches the target in along every axis.
    assert.ok(held.every((i) => swing.cost[middle] <= swing.cost[i] + 1e-3), `axis ${swing.axis}`);
    assert.ok(held.every((i) => swing.miss[i] <= 1e-3), `axis ${swing.axis}`);
  }
  assert.ok(Math.max(...s.swings[0].elbow.filter(Number.isFinite)) > 0.1, 'the elbow swings by decimetres');
  assert.ok(Math.abs(s.swings[0].cost[s.swings[0].z.length >> 1] - s.optimum) / s.optimum < 0.05);
  assert.equal(s.targets, 120);
  assert.ok(s.loink.median_miss < 1e-4 && s.loink.within_mm === 120, JSON.stringify(s.loink));
  assert.ok(s.regression.median_miss > 0.1 && s.regression.within_mm < 12, JSON.stringify({ ...s.regression, miss: undefined }));
  const text = await page.locator('#lesson-readouts').innerText();
  assert.match(text, /direct regression: miss/);
  await shot(page, 'redundancy-3d');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('pieces: local solvers stop on other pieces of the answers; LOInK + refine 3 is within 1 % of J* more often than each', async () => {
  const { page, name } = await openLesson('#lesson=pieces');
  assert.equal(name, 'pieces');
  await page.waitForFunction(() => window.loinkPlayground.getState().lesson?.tallies?.length === 3);
  const s = await lessonState(page);
  // The lesson's tabletop target, its quaternion normalised on entry.
  const target = [0.3854, -0.0190, 0.1905, 0.2918, -0.1697, 0.9282, 0.1567];
  assert.ok(s.target.every((v, i) => Math.abs(v - target[i]) < 1e-3), `${s.target}`);
  assert.ok(Math.abs(s.optimum - 1.7743) < 0.002, `J* ${s.optimum}`);
  assert.ok(s.pieces >= 2, `${s.pieces} pieces`);
  const [loink, dls, local] = s.landings;
  assert.equal(loink.solver, 'loink');
  assert.ok(loink.gap_pct !== null && loink.gap_pct <= 1, `LOInK lands ${loink.gap_pct} % above J*`);
  // DLS and the local optimiser from mid-range stop on other pieces on this target.
  assert.ok(local.gap_pct === null || local.gap_pct > 1, `local ${local.gap_pct} %`);
  assert.equal(dls.solver, 'dls');
  assert.ok(dls.gap_pct === null || dls.gap_pct > 1, `DLS ${dls.gap_pct} %`);
  assert.ok(s.held_out >= 95, `${s.held_out} held-out targets with a reference`);
  const [t, d, l] = s.tallies;
  assert.ok(t.within_1pct > d.within_1pct && t.within_1pct > l.within_1pct, JSON.stringify(s.tallies));
  const text = await page.locator('#lesson-readouts').innerText();
  assert.match(text, /reference optimum J\*/);
  await shot(page, 'pieces');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

/** planar3's tip, written out again from docs/planar3.md (links 0.5, 0.4, 0.3 m). */
function planar3Tip(q) {
  let [x, y, s] = [0, 0, 0];
  [0.5, 0.4, 0.3].forEach((l, i) => { s += q[i]; x += l * Math.cos(s); y += l * Math.sin(s); });
  return [x, y];
}

test('boundary: every row replays to its residual; the reference reaches inside the edge and says unreachable past it; the target walks the line', async () => {
  const opened = Date.now();
  const { page, name } = await openLesson('#lesson=boundary');
  console.log(`boundary lesson ready ${Date.now() - opened} ms after the page was asked for`);
  assert.equal(name, 'boundary');
  for (const edge of ['reach', 'limit']) {
    if (edge === 'limit') {
      await page.locator('#lesson-control-edge').selectOption('limit');
      await page.waitForFunction(() => window.loinkPlayground.getState().lesson.edge === 'limit');
      await page.waitForFunction(() => /edge=limit/.test(location.hash));
    }
    const s = await lessonState(page);
    assert.deepEqual(s.missing_models, []);
    assert.equal(s.edge, edge);
    const methods = new Set(s.sweep.map((r) => r.method));
    assert.deepEqual([...methods].sort(), ['dls-cold', 'dls-warm', 'loink', 'loink-refine', 'reference']);
    assert.ok(s.sweep.length >= 5 * 290, `${s.sweep.length} rows`);
    for (const r of s.sweep) {
      assert.deepEqual(Object.keys(r).sort(), ['d_m', 'iterations', 'method', 'q', 'residual_m', 'status', 'target']);
      const p = planar3Tip(r.q);
      const replayed = Math.hypot(p[0] - r.target[0], p[1] - r.target[1]);
      assert.ok(Math.abs(replayed - r.residual_m) <= 1e-9, `${edge}: ${JSON.stringify(r)} replays to ${replayed}`);
      if (r.status === 'converged') assert.ok(replayed <= 1e-6, JSON.stringify(r));
      if (r.method === 'reference' && r.d_m <= -1e-3) assert.equal(r.status, 'converged', JSON.stringify(r));
      if (r.method === 'reference' && r.d_m >= 1e-3) assert.equal(r.status, 'unreachable', JSON.stringify(r));
    }
    const ds = s.sweep.filter((r) => r.method === 'reference').map((r) => r.d_m);
    assert.ok(ds[0] < -0.2 && ds.at(-1) > 0.049, `${edge}: d from ${ds[0]} to ${ds.at(-1)}`);
    assert.equal(s.reseed.length, 3);
    for (const r of s.reseed) assert.ok(r.stale_iterations > 0 && r.measured_iterations > 0 && r.loink_iterations > 0, JSON.stringify(r));
    const text = await page.locator('#lesson-readouts').innerText();
    assert.match(text, /converged up to d = /);
    assert.match(text, /stale seed/);
    await shot(page, `boundary-${edge}`);
    assert.ok(await targetShown(page, 'arm', s.target) > 10, `${edge}: the target is drawn on the arm panel`);
  }
  // Dragging the target moves it along the line, to the point nearest the pointer.
  const s = await lessonState(page);
  const to = [s.line.start[0] + 0.1 * s.line.direction[0], s.line.start[1] + 0.1 * s.line.direction[1]];
  await dragLesson(page, 'arm', s.target, [to[0] + 0.02, to[1] + 0.02]);
  await page.waitForFunction((d) => Math.abs(window.loinkPlayground.getState().lesson.d_m - d) > 0.01, s.d_m);
  const moved = await lessonState(page);
  const along = (moved.target[0] - s.line.start[0]) * s.line.direction[0] + (moved.target[1] - s.line.start[1]) * s.line.direction[1];
  assert.ok(Math.abs(along - 0.1) < 0.03, `the target is ${along} m along the line`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('boundary embeds at 390 px wide with the arm and its target in view', async () => {
  const page = await openPlayground(env, { hash: '#lesson=boundary&embed=1', viewport: { width: 390, height: 844 } });
  assert.equal(await page.evaluate(() => window.loinkLessons.ready), 'boundary');
  const s = await lessonState(page);
  const box = await page.locator('canvas#lesson-arm').boundingBox();
  assert.ok(box.width > 300 && box.width <= 390, `the arm panel is ${box.width} px wide`);
  assert.ok(await targetShown(page, 'arm', s.target) > 10, 'the target is drawn and nothing covers it');
  await page.screenshot({ path: join(ARTIFACTS, 'lesson-boundary-390.png'), fullPage: true });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('collision: the board in the cost keeps the arm clear; a board moved after training is hit by the model, not by the reference', async () => {
  const { page, name } = await openLesson('#lesson=collision');
  assert.equal(name, 'collision');
  await page.waitForFunction(() => {
    const l = window.loinkPlayground.getState().lesson;
    return l?.with && l?.without && l?.reference;
  });
  const s = await lessonState(page);
  assert.deepEqual(s.missing_models, []);
  assert.deepEqual(s.target, [0.62, -0.15, 0.2]);
  assert.equal(s.learned_z, 0.45);
  assert.equal(s.moved, false);
  // The joint centring alone puts a link in the board; the shelf model's answer is clear of it.
  assert.equal(s.without.clear, false, s.without.readout);
  assert.ok(s.without.clearance_mm < 0, `${s.without.clearance_mm} mm`);
  assert.equal(s.with.clear, true, s.with.readout);
  assert.equal(s.with.status, 'converged');
  assert.equal(s.reference.clear, true, s.reference.readout);
  assert.equal(s.heights.length, s.with.board_mm.length);
  let text = await page.locator('#lesson-readouts').innerText();
  assert.match(text, /touch \([0-9.]+ mm deep\)/);
  assert.match(text, /where the shelf model learned it/);
  await shot(page, 'collision');
  // Lower the board in the page: the model's answer stays where it was, clear of the board it
  // learned and into the new one; the reference follows the board.
  await page.locator('#lesson-control-shelf').fill('0.36');
  await page.waitForFunction(() => window.loinkPlayground.getState().lesson.moved === true);
  const m = await lessonState(page);
  assert.equal(m.shelf_z, 0.36);
  assert.deepEqual(m.with.q, s.with.q);
  assert.equal(m.with.clear, false, m.with.readout);
  assert.equal(m.with_learned_clear, true);
  assert.equal(m.reference.clear, true, m.reference.readout);
  text = await page.locator('#lesson-readouts').innerText();
  assert.match(text, /fixed at training time/);
  assert.match(text, /moved to z = 0\.36 m/);
  await page.waitForFunction(() => /lesson=collision/.test(location.hash) && /shelf=0\.36/.test(location.hash));
  await shot(page, 'collision-lowered');
  assert.deepEqual(page.problems, []);
  await page.context().close();
  // The link reproduces the lowered board.
  const again = await openLesson('#lesson=collision&shelf=0.36');
  await again.page.waitForFunction(() => window.loinkPlayground.getState().lesson?.with);
  const r = await lessonState(again.page);
  assert.equal(r.moved, true);
  assert.equal(r.with.clear, false);
  assert.deepEqual(again.page.problems, []);
  await again.page.context().close();
});
