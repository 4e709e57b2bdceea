// The Panda's hand placed and turned (#model=panda-pose): the target a frame with the hand's
// own, setTarget with seven numbers, the link's target, `q` turning the target about its own z
// axis, the ring, the elbow line (a latent drag swings the arm with the hand held), the pieces
// in the landscape, the phone layout, the tool-axis view, the two-finger twist. Screenshots:
// tests/artifacts/pose.png, pose-phone.png, pose-axis.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startAll, openPlayground, ARTIFACTS } from './harness.mjs';

let env;
before(async () => { env = await startAll(); });
after(async () => { await env?.close(); });

const HASH = '#model=panda-pose&solver=loink-refine&refine=3';
// docs/pose.md's first tabletop target (x, y, z, qw, qx, qy, qz) and its J*.
const FIRST = [0.3088, -0.4336, 0.5452, 0.3473, 0.7982, -0.4689, -0.1497];
const FIRST_OPTIMUM = 0.3116;
const state = (page) => page.evaluate(() => window.loinkPlayground.getState());
const idle = (page) => page.evaluate(() => window.loinkPlayground.whenIdle());

/** The angle (rad) between two unit quaternions (w first); q and −q are the same turn. */
function between(a, b) {
  const dot = Math.abs(a.reduce((s, v, i) => s + v * b[i], 0));
  return 2 * Math.acos(Math.min(1, dot));
}

/** The drawn robot's height (CSS px) over the arm panel's. */
async function robotShare(page) {
  return page.evaluate(() => {
    const ys = window.loinkPlayground.robotPoints().map((p) => p[1]);
    return (Math.max(...ys) - Math.min(...ys)) / document.getElementById('arm').getBoundingClientRect().height;
  });
}

test('a pose link without a solver opens converged on LOInK + refine, the robot filling its panel', async () => {
  for (const name of ['panda-pose', 'panda-axis']) {
    const page = await openPlayground(env, { hash: `#model=${name}`, viewport: { width: 1280, height: 900 } });
    await idle(page);
    const s = await state(page);
    assert.equal(s.model, name);
    assert.equal(s.solver, 'loink-refine', name);
    assert.equal(s.status, 'converged', `${name}: ${s.message}`);
    const share = await robotShare(page);
    assert.ok(share >= 0.45, `${name}: the robot spans ${(100 * share).toFixed(1)} % of the arm panel's height`);
    // The model card says what the view opens with.
    await page.click('#model-card summary');
    await page.waitForFunction(() => document.querySelectorAll('#model-card-rows tr').length > 0);
    const rows = await page.locator('#model-card-rows tr').evaluateAll((trs) => Object.fromEntries(trs.map((tr) => [tr.cells[0].textContent, tr.cells[1].textContent])));
    assert.equal(rows['the view opens with'], 'LOInK + refinement', name);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
  // The classical closed-form search runs on the pose view (and only there: not on the tool axis).
  {
    const page = await openPlayground(env, { hash: '#model=panda-pose&solver=closed-form-search' });
    const s = await state(page);
    assert.equal(s.solver, 'closed-form-search');
    assert.equal(s.status, 'converged', s.message);
    assert.ok(s.residual <= 1e-9 && s.angle <= 1e-9, `${s.residual} m, ${s.angle} rad`);
    await page.evaluate(() => window.loinkPlayground.set({ model: 'panda-axis', solver: 'closed-form-search' }));
    assert.notEqual((await state(page)).solver, 'closed-form-search');
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
  // A link's solver wins; the menu's switch to a pose view takes the view's own.
  const page = await openPlayground(env, { hash: '#model=panda-pose&solver=loink', viewport: { width: 1280, height: 900 } });
  assert.equal((await state(page)).solver, 'loink');
  await page.evaluate(() => window.loinkPlayground.set({ model: 'panda-axis' }));
  assert.equal((await state(page)).solver, 'loink-refine');
  await page.evaluate(() => window.loinkPlayground.set({ model: 'panda-pose', solver: 'dls' }));
  assert.equal((await state(page)).solver, 'dls');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the pose view opens converged; setTarget with seven numbers converges near J*; wrong counts are refused', async () => {
  const page = await openPlayground(env, { hash: HASH });
  await idle(page);
  let s = await state(page);
  assert.equal(s.model, 'panda-pose');
  assert.deepEqual(s.columns, ['x', 'y', 'z', 'qw', 'qx', 'qy', 'qz']);
  assert.equal(s.target.length, 7);
  assert.equal(s.q.length, 7);
  assert.equal(s.status, 'converged', s.message);
  assert.ok(s.residual <= 1e-6 && s.angle <= 1e-6, `${s.residual} m, ${s.angle} rad`);
  assert.equal(s.turning, true);
  s = await page.evaluate((t) => window.loinkPlayground.setTarget(...t), FIRST);
  assert.equal(s.status, 'converged', s.message);
  assert.ok(s.residual <= 1e-6 && s.angle <= 1e-6, `${s.residual} m, ${s.angle} rad`);
  // The quaternion is normalised on entry: the state's target is the unit one.
  const norm = Math.hypot(...s.target.slice(3));
  assert.ok(Math.abs(norm - 1) < 1e-12, `|q| = ${norm}`);
  assert.ok(between(s.target.slice(3), FIRST.slice(3)) < 1e-9);
  await idle(page);
  s = await state(page);
  assert.ok(Math.abs(s.cost - FIRST_OPTIMUM) <= 0.01 * FIRST_OPTIMUM + 5e-4,
    `cost ${s.cost} against J* ${FIRST_OPTIMUM}`);
  for (const wrong of [FIRST.slice(0, 3), FIRST.slice(0, 6), [...FIRST, 0]]) {
    const error = await page.evaluate((t) => {
      try { window.loinkPlayground.setTarget(...t); return null; } catch (e) { return e.message; }
    }, wrong);
    assert.match(error, /takes this view's 7 coordinates \(x, y, z, qw, qx, qy, qz\)/);
  }
  const zero = await page.evaluate(() => {
    try { window.loinkPlayground.setTarget(0.3, 0, 0.5, 0, 0, 0, 0); return null; } catch (e) { return e.message; }
  });
  assert.match(zero, /quaternion/);
  assert.deepEqual((await state(page)).target.slice(0, 3), FIRST.slice(0, 3));
  // The link keeps the target in its columns.
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /target=0\.3088,-0\.4336,0\.5452,/);
  // Readouts: the position in mm, the orientation in degrees.
  assert.equal(await page.locator('[data-readout="residual-unit"]').textContent(), 'mm');
  assert.ok(await page.locator('[data-control="angle"]').isVisible());
  // The arm panel draws both frames and says how to turn the target.
  const svg = await page.evaluate(() => window.loinkPlayground.exportSvg('arm'));
  // The legend wraps its entries to its column: the words may break across text lines.
  assert.match(svg.replace(/\s*<\/text>\s*<text[^>]*>\s*/g, ' '), /target frame: x red, y green, z blue; thin: the hand's/);
  assert.match(svg, /its ring to turn it/);
  // The landscape draws the pieces of the answers along q7.
  const landscape = await page.evaluate(() => window.loinkPlayground.exportSvg('landscape'));
  assert.match(landscape, /swept along q7/);
  assert.match(landscape, /optimum \(reference\), J\* = 0\.31/);
  await page.screenshot({ path: join(ARTIFACTS, 'pose.png'), fullPage: true });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('q turns the target 5° about its own z axis; shift+arrow tilts it; the position stays', async () => {
  const page = await openPlayground(env, { hash: `${HASH}&target=${FIRST.join(',')}` });
  await idle(page);
  const before = (await state(page)).target;
  await page.locator('canvas#arm').focus();
  await page.keyboard.press('q');
  let s = await state(page);
  assert.deepEqual(s.target.slice(0, 3), before.slice(0, 3));
  const turned = between(s.target.slice(3), before.slice(3));
  assert.ok(Math.abs(turned - 5 * Math.PI / 180) < 1e-9, `turned ${turned} rad`);
  // About its own z: the tool axis (the third column of the rotation) is where it was.
  const axis = ([w, x, y, z]) => [2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)];
  const [a, b] = [axis(before.slice(3)), axis(s.target.slice(3))];
  assert.ok(a.every((v, i) => Math.abs(v - b[i]) < 1e-9), `${a} vs ${b}`);
  await page.keyboard.press('e');
  s = await state(page);
  assert.ok(between(s.target.slice(3), before.slice(3)) < 1e-9);
  await page.keyboard.press('Shift+ArrowUp');
  s = await state(page);
  assert.deepEqual(s.target.slice(0, 3), before.slice(0, 3));
  assert.ok(Math.abs(between(s.target.slice(3), before.slice(3)) - 5 * Math.PI / 180) < 1e-9);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the ring turns the target about the viewing axis; a latent drag swings the elbow with the hand held', async () => {
  const page = await openPlayground(env, { hash: `${HASH}&target=${FIRST.join(',')}` });
  await idle(page);
  const before = await state(page);
  // Grab the ring to the right of the target and drag it a quarter turn up.
  const [px, py] = await page.evaluate((t) => window.loinkPlayground.worldToCanvas(t[0], t[1], t[2]), before.target);
  const box = await page.locator('canvas#arm').boundingBox();
  const [cx, cy] = [box.x + px, box.y + py];
  await page.mouse.move(cx + 40, cy);
  await page.mouse.down();
  for (let k = 1; k <= 6; k += 1) {
    const a = (k / 6) * (Math.PI / 4);
    await page.mouse.move(cx + 40 * Math.cos(a), cy - 40 * Math.sin(a));
  }
  await page.mouse.up();
  let s = await state(page);
  assert.deepEqual(s.target.slice(0, 3), before.target.slice(0, 3));
  const turned = between(s.target.slice(3), before.target.slice(3));
  assert.ok(Math.abs(turned - Math.PI / 4) < 0.02, `the ring turned ${turned} rad`);
  // The elbow line: a drag on the latent panel changes q, the hand within 5 mm and 1°.
  await page.evaluate((t) => window.loinkPlayground.setTarget(...t), FIRST);
  await idle(page);
  s = await state(page);
  await page.locator('canvas#latent').scrollIntoViewIfNeeded();
  const latent = await page.locator('canvas#latent').boundingBox();
  await page.mouse.move(latent.x + latent.width * 0.5, latent.y + latent.height * 0.5);
  await page.mouse.down();
  await page.mouse.move(latent.x + latent.width * 0.56, latent.y + latent.height * 0.5);
  await page.mouse.up();
  const probe = await page.evaluate(() => window.loinkPlayground.getState().probe);
  assert.ok(probe, 'a probe');
  assert.ok(probe.q.some((v, i) => Math.abs(v - s.q[i]) > 1e-3), 'the probe swings the arm');
  assert.ok(probe.residual <= 5e-3, `hand ${probe.residual} m off`);
  assert.ok(probe.angle <= Math.PI / 180, `hand ${probe.angle} rad off`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('on a phone the arm comes first and the legend stays off the hand', async () => {
  const page = await openPlayground(env, { hash: HASH, viewport: { width: 390, height: 844 }, dpr: 2 });
  await idle(page);
  const arm = await page.locator('canvas#arm').boundingBox();
  const readouts = await page.locator('#readouts').boundingBox();
  assert.ok(arm.y < readouts.y, 'the arm panel above the readouts');
  const svg = await page.evaluate(() => window.loinkPlayground.exportSvg('arm'));
  assert.doesNotMatch(svg, /target frame: x red/);
  await page.screenshot({ path: join(ARTIFACTS, 'pose-phone.png'), fullPage: true });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the tool-axis view: the target an arrow, six numbers, a latent plane of elbow and turn', async () => {
  const page = await openPlayground(env, { hash: '#model=panda-axis&solver=loink-refine&refine=3' });
  await idle(page);
  let s = await state(page);
  assert.equal(s.model, 'panda-axis');
  assert.deepEqual(s.columns, ['x', 'y', 'z', 'ax', 'ay', 'az']);
  assert.equal(s.status, 'converged', s.message);
  // A tabletop target: the axis 30° off straight down, 5 % long (normalised on entry).
  const axis = [0.5, 0, -Math.sqrt(3) / 2].map((v) => 1.05 * v);
  s = await page.evaluate((t) => window.loinkPlayground.setTarget(...t), [0.45, 0.1, 0.3, ...axis]);
  assert.equal(s.status, 'converged', s.message);
  assert.ok(s.residual <= 1e-6 && s.angle <= 1e-6, `${s.residual} m, ${s.angle} rad`);
  assert.ok(Math.abs(Math.hypot(...s.target.slice(3)) - 1) < 1e-12, `${s.target}`);
  const refused = (t) => page.evaluate((t) => {
    try { window.loinkPlayground.setTarget(...t); return null; } catch (e) { return e.message; }
  }, t);
  assert.match(await refused(FIRST), /takes this view's 6 coordinates \(x, y, z, ax, ay, az\)/);
  // An axis far from unit length is a mistake, not a direction: refused, nothing changes.
  assert.match(await refused([0.45, 0.1, 0.3, 1, 0, -2]), /axis \(ax,ay,az\): its length/);
  assert.equal((await state(page)).target.length, 6);
  const svg = await page.evaluate(() => window.loinkPlayground.exportSvg('arm'));
  assert.match(svg.replace(/\s*<\/text>\s*<text[^>]*>\s*/g, ' '), /target tool axis; thin: the hand's/);
  await idle(page);
  const latent = await page.evaluate(() => window.loinkPlayground.exportSvg('latent'));
  assert.match(latent, /Latent plane/);
  await page.screenshot({ path: join(ARTIFACTS, 'pose-axis.png'), fullPage: true });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('on a touch screen a two-finger twist turns the target about the viewing axis', async () => {
  const page = await openPlayground(env, {
    hash: `${HASH}&target=${FIRST.join(',')}`, viewport: { width: 390, height: 844 }, dpr: 2,
  });
  await idle(page);
  const before = await state(page);
  const box = await page.locator('canvas#arm').boundingBox();
  const [px, py] = await page.evaluate((t) => window.loinkPlayground.worldToCanvas(t[0], t[1], t[2]), before.target);
  const cdp = await page.context().newCDPSession(page);
  const at = (x, y, id) => ({ x: box.x + x, y: box.y + y, id });
  const first = at(px, py, 0);
  const send = (type, touchPoints) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints });
  // The first finger on the target, the second 60 px to its right, swept a quarter turn
  // counter-clockwise about the first.
  await send('touchStart', [first]);
  await send('touchStart', [first, at(px + 60, py, 1)]);
  for (let k = 1; k <= 8; k += 1) {
    const a = (k / 8) * (Math.PI / 2);
    await send('touchMove', [first, at(px + 60 * Math.cos(a), py - 60 * Math.sin(a), 1)]);
  }
  await send('touchEnd', []);
  await idle(page);
  const s = await state(page);
  const moved = Math.hypot(...s.target.slice(0, 3).map((v, i) => v - before.target[i]));
  assert.ok(moved < 1e-3, `the position moved ${moved} m`);
  const turned = between(s.target.slice(3), before.target.slice(3));
  assert.ok(Math.abs(turned - Math.PI / 2) < 0.03, `the twist turned ${turned} rad`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
