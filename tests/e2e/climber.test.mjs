// The climbing robot in the playground (#model=climber): the side view on its wall, the front
// foot dragged around the rear one, the body's clearance on a slider, the presets, the magnet
// pull each foot needs against the neutral stance's, and the latent probe moving the robot along
// its self-motion. Screenshots: tests/artifacts/climber.png, tests/artifacts/climber-ceiling.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startAll, openPlayground, dragArm, ARTIFACTS } from './harness.mjs';

let env;
before(async () => { env = await startAll(); });
after(async () => { await env?.close(); });

const state = (page) => page.evaluate(() => window.loinkPlayground.getState());
const idle = (page) => page.evaluate(() => window.loinkPlayground.whenIdle());
const HASH = '#model=climber&solver=loink-refine&refine=3';

test('the climber opens on its wall converged, with each foot\'s magnet pull beside the neutral stance\'s', async () => {
  const page = await openPlayground(env, { hash: HASH, viewport: { width: 1280, height: 1100 } });
  await idle(page);
  const s = await state(page);
  assert.equal(s.model, 'climber');
  assert.deepEqual(s.target, [0, 0.5, 0.08]);
  assert.equal(s.q.length, 5);
  assert.equal(s.status, 'converged');
  assert.ok(s.residual <= 1e-6, `residual ${s.residual} m`);
  assert.ok(s.gap < 1, `gap ${s.gap} %`);
  // The optimum of docs/climber.md at (90°, 0.5 m, 8 cm): 22.5 / 20.8 N per foot, the neutral
  // stance 26.5 / 16.9 N.
  assert.equal(s.loads.length, 2);
  const [front, rear] = s.loads;
  assert.ok(Math.abs(front.needed - 22.5) < 0.2 && Math.abs(rear.needed - 20.8) < 0.2, JSON.stringify(s.loads));
  assert.ok(Math.abs(front.neutral - 26.5) < 0.1 && Math.abs(rear.neutral - 16.9) < 0.1, JSON.stringify(s.loads));
  assert.equal(front.available, 147);
  const arm = await page.evaluate(() => window.loinkPlayground.exportSvg('arm'));
  assert.match(arm, /magnet pull needed per foot/);
  assert.match(arm, /needs [34]\.\d N less on the front \(upper\) feet than the neutral stance/);
  // The legend wraps its entries to its column: the words may break across text lines.
  assert.match(arm.replace(/\s*<\/text>\s*<text[^>]*>\s*/g, ' '), /where the front foot may stand/);
  const landscape = await page.evaluate(() => window.loinkPlayground.exportSvg('landscape'));
  assert.match(landscape, /along z₁ \(top\) and z₂ \(bottom\)/);
  assert.doesNotMatch(landscape, /computing/);
  // The latent plane marks the poses outside the useful domain (an ankle past its range).
  await page.waitForFunction(() => window.loinkPlayground.getState().latentShown);
  const latent = await page.evaluate(() => window.loinkPlayground.exportSvg('latent'));
  assert.match(latent, /pale: an ankle past its range or the body on the wall/);
  assert.ok(await page.locator('#height').isVisible());
  assert.equal(await page.locator('[data-target-value=height]').textContent(), '8.0 cm');
  await page.screenshot({ path: join(ARTIFACTS, 'climber.png'), fullPage: true });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('dragging the front foot turns the wall and keeps the clearance; the slider sets the clearance', async () => {
  const page = await openPlayground(env, { hash: HASH });
  await dragArm(page, [0, 0.5], [-0.3, 0.4]);
  let s = await state(page);
  assert.ok(Math.abs(s.target[0] + 0.3) < 0.01 && Math.abs(s.target[1] - 0.4) < 0.01, `${s.target}`);
  assert.equal(s.target[2], 0.08, 'the pointer keeps the clearance');
  assert.equal(s.status, 'converged');
  // The slider: three steps of 5 mm with the keyboard.
  await page.locator('#height').focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  s = await state(page);
  assert.ok(Math.abs(s.target[2] - 0.095) < 1e-9, `${s.target}`);
  assert.ok(Math.abs(s.target[0] + 0.3) < 0.01, 'the slider keeps the feet');
  assert.equal(s.status, 'converged');
  await page.waitForFunction(() => /target=[^&]*,0\.095/.test(location.hash));
  // The arrow keys on the arm panel move the foot and keep the clearance too.
  await page.locator('#arm').focus();
  await page.keyboard.press('ArrowUp');
  const moved = await state(page);
  assert.ok(Math.abs(moved.target[1] - s.target[1] - 0.01) < 1e-9 && moved.target[2] === s.target[2], `${moved.target}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the ceiling preset: the feet share the load equally, the optimum is the symmetric stance', async () => {
  const page = await openPlayground(env, { hash: HASH });
  await page.click('button[data-preset=ceiling]');
  await idle(page);
  const s = await state(page);
  assert.deepEqual(s.target, [-0.5, 0, 0.09]);
  assert.equal(s.status, 'converged');
  const [front, rear] = s.loads;
  // docs/climber.md: 17.9 / 17.7 N per foot at J*.
  assert.ok(Math.abs(front.needed - rear.needed) < 0.5, JSON.stringify(s.loads));
  assert.ok(s.gap < 1, `gap ${s.gap} %`);
  await page.locator('#arm').screenshot({ path: join(ARTIFACTS, 'climber-ceiling.png') });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the latent probe moves the robot along its self-motion: the feet stay, the cost rises', async () => {
  const page = await openPlayground(env, { hash: HASH });
  await page.waitForFunction(() => window.loinkPlayground.getState().latentShown);
  await page.locator('canvas#latent').scrollIntoViewIfNeeded();
  const box = await page.locator('canvas#latent').boundingBox();
  await page.mouse.click(box.x + box.width * 0.62, box.y + box.height * 0.45);
  await page.waitForFunction(() => window.loinkPlayground.getState().probe);
  const s = await state(page);
  assert.deepEqual(s.target, [0, 0.5, 0.08]);
  assert.ok(s.probe.residual < 1e-3, `probe misses by ${s.probe.residual} m`);
  assert.ok(s.probe.cost > s.cost, `probe J ${s.probe.cost} vs answer ${s.cost}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a target of the wrong size is refused with the count the view takes, and nothing changes', async () => {
  const page = await openPlayground(env, { hash: HASH });
  const before = await state(page);
  const error = await page.evaluate(() => {
    try { window.loinkPlayground.setTarget(0.1, 0.5); return null; } catch (e) { return e.message; }
  });
  assert.match(error, /takes this view.s 3 coordinates \(y1, y2, y3\), 2 given/);
  assert.deepEqual((await state(page)).target, before.target);
  assert.match(await page.locator('#status').textContent(), /takes this view.s 3 coordinates/);
  // A link with a planar target opens the climber at its default target, and says why.
  const planar = await openPlayground(env, { hash: '#model=climber&target=0.6,0.3' });
  const s = await state(planar);
  assert.deepEqual(s.target, [0, 0.5, 0.08]);
  assert.match(await planar.locator('#status').textContent(), /2 numbers given, the target has 3 \(y1,y2,y3\)/);
  // And a planar view refuses a climber's target.
  const flat = await openPlayground(env, { hash: '#model=planar3&target=0,0.5,0.08' });
  assert.equal((await state(flat)).target.length, 2);
  assert.match(await flat.locator('#status').textContent(), /3 numbers given, the target has 2/);
  for (const p of [page, planar, flat]) await p.context().close();
});
