// The Panda under a shelf (#model=panda-shelf): the scene drawn, the answer's clearance read by
// its collision spheres, the links that overlap named and red, the spheres shown by a toggle
// whose state a link keeps, and the arm ducking under the board as the target moves along it.
// Screenshots: tests/artifacts/shelf.png, shelf-spheres.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startAll, openPlayground, ARTIFACTS } from './harness.mjs';

let env;
before(async () => { env = await startAll(); });
after(async () => { await env?.close(); });

const state = (page) => page.evaluate(() => window.loinkPlayground.getState());
// The first answer, without waiting for the idle work (the reference and the latent maps take
// a minute on two cores under this cost: the page stays interactive, a test need not wait).
const answered = (page) => page.waitForFunction(() => window.loinkPlayground.getState()?.q?.length === 6);
const armSvg = (page) => page.evaluate(() => window.loinkPlayground.exportSvg('arm'));

test('the shelf view opens converged and clear, draws the board and reads the clearance', async () => {
  const page = await openPlayground(env, { hash: '#model=panda-shelf' });
  await answered(page);
  const s = await state(page);
  assert.equal(s.model, 'panda-shelf');
  assert.equal(s.solver, 'loink-refine', 'the card names the view\'s solver');
  assert.equal(s.status, 'converged');
  assert.ok(s.residual <= 1e-6, `residual ${s.residual} m`);
  assert.ok(s.collision, 'a robot with spheres reports its clearance');
  assert.equal(s.collision.clear, true, s.collision.readout);
  assert.ok(s.collision.clearanceMm > 0 && s.collision.clearanceMm < 1000, `${s.collision.clearanceMm} mm`);
  assert.deepEqual(s.collision.touching, []);
  assert.equal(s.collision.spheres, false);
  const svg = await armSvg(page);
  assert.match(svg, /spheres: clear by \d+\.\d mm \(\w+ and (the )?\w+\)/);
  assert.ok(/fill="rgba\(150,150,150,0\.22\)"/.test(svg), 'the board\'s faces are drawn');
  assert.ok(await page.locator('#spheres-toggle').isVisible());
  await page.screenshot({ path: join(ARTIFACTS, 'shelf.png'), fullPage: true });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a target in the board: the links that touch are named and red; the toggle draws every sphere and a link keeps it', async () => {
  const page = await openPlayground(env, { hash: '#model=panda-shelf&solver=dls' });
  await answered(page);
  // The board's underside, straight ahead: DLS from mid-range keeps the elbow up, in the board.
  let s = await page.evaluate(() => window.loinkPlayground.setTarget(0.6, 0, 0.44));
  assert.equal(s.collision.clear, false, s.collision.readout);
  assert.ok(s.collision.clearanceMm < 0);
  assert.ok(s.collision.touching.length > 0);
  assert.ok(s.collision.touching.some((link) => s.collision.between.includes(link)), `${s.collision.touching} vs ${s.collision.between}`);
  assert.match(s.collision.readout, /touch \(\d+\.\d mm deep\)/);
  let svg = await armSvg(page);
  assert.match(svg, /touch \(\d+\.\d mm deep\)/);
  // Sphere fills: red (204, 37, 41) on a link that overlaps, blue (0, 114, 178) on the others.
  const fills = (text, rgb) => (text.match(new RegExp(`fill="rgba\\(${rgb},0\\.18\\)"`, 'g')) ?? []).length;
  const red = fills(svg, '204,37,41');
  assert.ok(red > 0, 'the overlapping links\' spheres are drawn red');
  assert.equal(fills(svg, '0,114,178'), 0, 'the other spheres wait for the toggle');
  await page.locator('#spheres').check();
  await page.waitForFunction(() => /spheres=1/.test(location.hash));
  s = await state(page);
  assert.equal(s.collision.spheres, true);
  svg = await armSvg(page);
  assert.equal(fills(svg, '204,37,41'), red, 'the same links stay red');
  assert.ok(fills(svg, '0,114,178') > 10, 'every sphere is drawn');
  await page.locator('canvas#arm').screenshot({ path: join(ARTIFACTS, 'shelf-spheres.png') });
  // The link opens with the spheres shown; a bad value is refused with a message.
  const linked = await openPlayground(env, { hash: '#model=panda-shelf&spheres=1' });
  await answered(linked);
  assert.equal((await state(linked)).collision.spheres, true);
  assert.equal(await linked.locator('#spheres').isChecked(), true);
  const bad = await openPlayground(env, { hash: '#model=panda-shelf&spheres=yes' });
  await answered(bad);
  assert.match(await bad.locator('#status').textContent(), /spheres='yes' is not 1 or 0/);
  // A robot without spheres shows no toggle and no clearance.
  const plain = await openPlayground(env, { hash: '#model=panda' });
  await answered(plain);
  assert.equal((await state(plain)).collision ?? null, null);
  assert.ok(!(await plain.locator('#spheres-toggle').isVisible()));
  for (const p of [page, linked, bad, plain]) {
    assert.deepEqual(p.problems, []);
    await p.context().close();
  }
});

test('along the board the learned answer ducks: converged and clear by its spheres at every step', async () => {
  const page = await openPlayground(env, { hash: '#model=panda-shelf' });
  await answered(page);
  const steps = [];
  for (let k = 0; k <= 8; k++) {
    const y = -0.4 + 0.1 * k;
    const s = await page.evaluate((yy) => window.loinkPlayground.setTarget(0.62, yy, 0.25), y);
    steps.push([y.toFixed(1), s.status, s.collision.clear, s.collision.readout]);
  }
  const bad = steps.filter(([, status, clear]) => status !== 'converged' || !clear);
  assert.ok(bad.length <= 1, `not converged and clear: ${JSON.stringify(bad)}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
