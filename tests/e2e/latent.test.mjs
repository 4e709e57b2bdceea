// The central idea, touchable on the front page: dragging on the latent panel picks a latent
// point z, and the arm panel shows the pose G⁻¹([y; z]) it gives for the same target; z = 0 is
// the cheapest. The arrow keys move z, Escape clears it, and the link keeps it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startAll, openPlayground, ARTIFACTS } from './harness.mjs';

let env;
before(async () => { env = await startAll(); });
after(async () => { await env?.close(); });

const state = (page) => page.evaluate(() => window.loinkPlayground.getState());

/** Drags on canvas#latent from fraction `from` to fraction `to` of its width and height, once
 *  the panel shows its latent map (it is computed while the page idles after a move). */
async function dragLatent(page, from, to) {
  for (let i = 0; i < 200 && !(await page.evaluate(() => window.loinkPlayground.getState().latentShown)); i++) {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
  }
  await page.locator('canvas#latent').scrollIntoViewIfNeeded();
  const box = await page.locator('canvas#latent').boundingBox();
  const at = ([fx, fy]) => [box.x + fx * box.width, box.y + fy * box.height];
  await page.mouse.move(...at(from));
  await page.mouse.down();
  await page.mouse.move(...at(to), { steps: 8 });
  await page.mouse.up();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

test('dragging on the latent plane shows another pose reaching the same target, costlier than z = 0', async () => {
  const page = await openPlayground(env, { hash: '#model=planar4&target=0.7,0.35' });
  const before = await state(page);
  assert.ok(before.probe == null);
  await dragLatent(page, [0.45, 0.5], [0.6, 0.35]);
  const s = await state(page);
  assert.ok(s.probe, 'no probe after a drag');
  assert.equal(s.probe.z.length, 2);
  assert.ok(Math.hypot(...s.probe.z) > 0.1, `z ${s.probe.z}`);
  assert.deepEqual(s.target, before.target, 'the target did not move');
  assert.ok(s.probe.residual < 1e-3, `the probe's pose misses by ${s.probe.residual}`);
  const moved = Math.max(...s.probe.q.map((v, i) => Math.abs(v - s.q[i])));
  assert.ok(moved > 0.05, `the probe's pose equals LOInK's (${moved} rad)`);
  assert.ok(s.probe.cost >= s.cost - 1e-6, `z ${s.probe.z} costs ${s.probe.cost} < z = 0's ${s.cost}`);
  await page.waitForFunction(() => /[#&]probe=-?[0-9.]+,-?[0-9.]+/.test(location.hash));
  // The arrow keys move z in steps of 0.05; Escape clears it.
  await page.locator('canvas#latent').focus();
  await page.keyboard.press('ArrowRight');
  const nudged = await state(page);
  assert.ok(Math.abs(nudged.probe.z[0] - s.probe.z[0] - 0.05) < 1e-9, `${nudged.probe.z} after ${s.probe.z}`);
  await page.locator('#panel-latent').screenshot({ path: join(ARTIFACTS, 'latent-probe.png') });
  await page.locator('#panel-arm').screenshot({ path: join(ARTIFACTS, 'latent-probe-arm.png') });
  // A link with the probe reproduces it.
  const link = await page.evaluate(() => location.hash);
  await page.keyboard.press('Escape');
  assert.ok((await state(page)).probe == null);
  await page.waitForFunction(() => !location.hash.includes('probe='));
  const again = await openPlayground(env, { hash: link });
  const s2 = await state(again);
  assert.deepEqual(s2.probe?.z, nudged.probe.z);
  assert.deepEqual(s2.probe?.q, nudged.probe.q);
  assert.deepEqual(page.problems, []);
  assert.deepEqual(again.problems, []);
  await page.context().close();
  await again.context().close();
});

test('the latent line of planar3 takes a probe too; a model without a latent space refuses one', async () => {
  const page = await openPlayground(env, { hash: '#target=0.6,0.3' });
  await dragLatent(page, [0.5, 0.5], [0.7, 0.5]);
  const s = await state(page);
  assert.equal(s.probe?.z.length, 1, JSON.stringify(s.probe));
  assert.ok(s.probe.z[0] > 0.1, `z ${s.probe.z}`);
  const bad = await openPlayground(env, { hash: '#model=planar2&solver=loink&probe=0.5' });
  const b = await state(bad);
  assert.ok(b.probe == null);
  assert.match(await bad.locator('#status').textContent(), /probe/);
  await page.context().close();
  await bad.context().close();
});
