// The model-free soft arm in the playground (#model=soft4): the arm drawn as it bends, LOInK's
// answer with its simulator calls, the flow baseline (one sample, then the best of K with its
// family of shapes), black-box DLS, the twist-profile panel, the 2-D latent plane and the gap
// map. Screenshots: tests/artifacts/soft4.png, tests/artifacts/soft4-flow.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startAll, openPlayground, ARTIFACTS } from './harness.mjs';

let env;
before(async () => { env = await startAll(); });
after(async () => { await env?.close(); });

const state = (page) => page.evaluate(() => window.loinkPlayground.getState());
const settled = (solver) => (page) => page.waitForFunction((name) => {
  const s = window.loinkPlayground.getState();
  return s.solver === name && s.learned && !s.optimumPending;
}, solver);

test('LOInK on the soft arm: one simulator call, within 1 % of J*, the arm and its panels drawn', async () => {
  const page = await openPlayground(env, {
    hash: '#model=soft4&feedback=0&target=0.01,0.125',
    viewport: { width: 1280, height: 1100 },
  });
  await settled('loink')(page);
  await page.waitForFunction(() => window.loinkPlayground.getState().latentShown);
  const s = await state(page);
  assert.equal(s.model, 'soft4');
  assert.equal(s.q.length, 4);
  assert.ok(s.residual < 1e-4, `residual ${s.residual} m`);
  assert.ok(['approximate', 'converged'].includes(s.status), s.status);
  assert.equal(s.readouts['sim-calls'], '1');
  assert.ok(s.controls.includes('sim-calls'));
  assert.ok(Number.isFinite(s.optimum) && s.gap < 1, `gap ${s.gap} %`);
  const landscape = await page.evaluate(() => window.loinkPlayground.exportSvg('landscape'));
  assert.match(landscape, /Each rod.s twist/);
  assert.match(landscape, /optimum, J\* = /);
  const latent = await page.evaluate(() => window.loinkPlayground.exportSvg('latent'));
  assert.match(latent, /z₂/);
  // The readout is on screen, and the menu offers the flow once its file has loaded.
  assert.equal(await page.locator('[data-readout="sim-calls"]').textContent(), '1');
  assert.ok(await page.locator('[data-control="sim-calls"]').isVisible());
  await page.waitForFunction(() => [...document.querySelectorAll('#solver option')]
    .some((o) => o.value === 'flow' && !o.disabled));
  await page.screenshot({ path: join(ARTIFACTS, 'soft4.png'), fullPage: true });
  // Black-box DLS pays for its finite differences in simulator calls.
  await page.evaluate(() => window.loinkPlayground.set({ solver: 'dls' }));
  await settled('dls')(page);
  const dls = await state(page);
  assert.ok(Number(dls.readouts['sim-calls']) > 20, dls.readouts['sim-calls']);
  await page.close();
});

test('the flow: z = 0 costs one call, the best of 8 costs eight and shows its family', async () => {
  const page = await openPlayground(env, {
    hash: '#model=soft4&solver=flow&target=-0.012,0.13',
    viewport: { width: 1280, height: 1100 },
  });
  await settled('flow')(page);
  const one = await state(page);
  assert.equal(one.solver, 'flow');
  assert.equal(one.readouts['sim-calls'], '1');
  assert.ok(one.residual < 2e-3, `residual ${one.residual} m`);
  await page.evaluate(() => window.loinkPlayground.set({ sigma: 0.5, samples: 8, seed: 3 }));
  await page.waitForFunction(() => window.loinkPlayground.getState().readouts['sim-calls'] === '8');
  await settled('flow')(page);
  const arm = await page.evaluate(() => window.loinkPlayground.exportSvg('arm'));
  // The legend wraps its entries to its column: the words may break across text lines.
  assert.match(arm.replace(/\s*<\/text>\s*<text[^>]*>\s*/g, ' '), /8 sampled solutions, J \d/);
  const best = await state(page);
  assert.ok(best.cost <= one.cost + 1e-9 || best.residual <= 2 * one.residual + 1e-6,
    `best of 8 (J ${best.cost}, miss ${best.residual}) against z = 0 (J ${one.cost}, miss ${one.residual})`);
  await page.screenshot({ path: join(ARTIFACTS, 'soft4-flow.png'), fullPage: true });
  await page.close();
});

test('bad flow settings in a link are refused with a warning, and the planar menu has no flow', async () => {
  const page = await openPlayground(env, { hash: '#model=planar3-h28w&solver=flow' });
  await page.waitForFunction(() => window.loinkPlayground.getState().active);
  const s = await state(page);
  assert.notEqual(s.solver, 'flow');
  const names = await page.evaluate(() => window.loinkPlayground.models().map((m) => m.name));
  assert.ok(names.includes('soft4'));
  const menu = await page.locator('#model option').evaluateAll((os) => os.map((o) => o.value));
  assert.ok(menu.includes('soft4') && !menu.includes('soft4-flow'), menu.join(','));
  await page.close();
});

test('every experiment link opens converged or approximate, inside the limits', async () => {
  const page = await openPlayground(env, { viewport: { width: 1280, height: 1100 } });
  const links = await page.evaluate(() => [...document.querySelectorAll('#experiments-list a')].map((a) => a.getAttribute('href')));
  assert.ok(links.length >= 4 && links.some((h) => h.includes('soft4')), `${links}`);
  await page.context().close();
  for (const hash of links) {
    const view = await openPlayground(env, { hash, viewport: { width: 1280, height: 1100 } });
    await view.waitForFunction(() => window.loinkPlayground.getState().learned);
    const s = await state(view);
    assert.ok(['converged', 'approximate'].includes(s.status), `${hash}: ${s.status} at ${s.target}`);
    assert.ok(s.margin >= -1e-6, `${hash}: limit margin ${s.margin}`);
    assert.deepEqual(view.problems, [], hash);
    await view.context().close();
  }
});

test('soft4 at a planar target (0.6, 0.3): every solver answers inside the limits', async () => {
  const page = await openPlayground(env, { hash: '#model=soft4&target=0.6,0.3', viewport: { width: 1280, height: 1100 } });
  await page.waitForFunction(() => window.loinkPlayground.getState().learned);
  const solvers = await page.evaluate(() => [...document.querySelectorAll('#solver option')].filter((o) => !o.disabled).map((o) => o.value));
  assert.ok(solvers.includes('loink') && solvers.includes('dls'), `${solvers}`);
  for (const solver of solvers) {
    await page.evaluate((name) => window.loinkPlayground.set({ solver: name }), solver);
    const s = await state(page);
    assert.deepEqual(s.target, [0.6, 0.3], solver);
    assert.equal(s.status, 'unreachable', `${solver}: ${s.status}`);
    assert.ok(s.margin >= -1e-6, `${solver}: limit margin ${s.margin}`);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('switching the model menu from a planar view to soft4 moves an unreachable target to its default, and says so', async () => {
  const page = await openPlayground(env, { hash: '#model=planar3-h28w&target=0.6,0.3', viewport: { width: 1280, height: 1100 } });
  await page.selectOption('#model', 'soft4');
  await page.waitForFunction(() => window.loinkPlayground.getState().model === 'soft4' && window.loinkPlayground.getState().learned);
  const s = await state(page);
  assert.deepEqual(s.target, [0.012, 0.124]);
  assert.ok(['converged', 'approximate'].includes(s.status), s.status);
  assert.ok(s.margin >= -1e-6, `margin ${s.margin}`);
  // The page reopened on the full bundle; the status line says why the target moved.
  await page.waitForFunction(() => /out of reach of soft4/.test(document.getElementById('status').textContent));
  assert.match(await page.locator('#status').textContent(), /moved to its default target \(0\.012, 0\.124\)/);
  // The link the page rewrites holds the new target; reloading it gives the same view, no word.
  await page.waitForFunction(() => /target=0\.012,0\.124/.test(location.hash));
  await page.reload();
  await page.evaluate(() => window.loinkPlayground.ready);
  assert.deepEqual((await state(page)).target, [0.012, 0.124]);
  assert.doesNotMatch(await page.locator('#status').textContent(), /out of reach/);
  await page.context().close();
});

test('the soft arm is drawn in millimetres, the planar arms in metres', async () => {
  const page = await openPlayground(env, { hash: '#model=soft4', viewport: { width: 1280, height: 1100 } });
  await page.waitForFunction(() => window.loinkPlayground.getState().learned);
  const arm = await page.evaluate(() => window.loinkPlayground.exportSvg('arm'));
  assert.match(arm, />x \(mm\)</);
  assert.match(arm, />y \(mm\)</);
  assert.match(arm, />100</, 'a tick at 100 mm');
  assert.doesNotMatch(arm, />0\.05</);
  await page.evaluate(() => window.loinkPlayground.whenIdle());
  const gap = await page.evaluate(() => window.loinkPlayground.exportSvg('gapmap'));
  assert.match(gap, />x \(mm\)</);
  await page.context().close();
  const planar = await openPlayground(env, { viewport: { width: 1280, height: 1100 } });
  assert.match(await planar.evaluate(() => window.loinkPlayground.exportSvg('arm')), />x \(m\)</);
  await planar.context().close();
});
