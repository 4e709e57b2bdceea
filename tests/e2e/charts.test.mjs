// The multi-chart model in the playground (#model=planar3-wide-charts): every chart's proposal
// is reported and drawn as a ghost in its chart's colour, the answer is the cheapest feasible
// proposal, the latent panel shows the winning chart's latent line and the gap map covers the
// model. Screenshot: tests/artifacts/charts.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startAll, openPlayground, ARTIFACTS } from './harness.mjs';

let env;
before(async () => { env = await startAll(); });
after(async () => { await env?.close(); });

const state = (page) => page.evaluate(() => window.loinkPlayground.getState());
const settle = (page) => page.waitForFunction(() => {
  const s = window.loinkPlayground.getState();
  return s.learned && s.proposals.length > 0 && !s.optimumPending && s.latentShown;
});

/** Pixels of the gap map in the dark end of viridis (small gaps). */
const darkCells = (page) => page.evaluate(() => {
  const canvas = document.getElementById('gapmap');
  const img = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let hits = 0;
  for (let i = 0; i < img.length; i += 4) {
    if (Math.abs(img[i] - 68) < 25 && img[i + 1] < 60 && Math.abs(img[i + 2] - 84) < 30) hits += 1;
  }
  return hits;
});

test('eight charts propose, the cheapest feasible proposal answers, within 1 % of J*', async () => {
  const page = await openPlayground(env, {
    hash: '#model=planar3-wide-charts&solver=loink-refine&refine=3&target=0,-0.55',
    viewport: { width: 1280, height: 1100 },
  });
  await settle(page);
  const s = await state(page);
  assert.equal(s.model, 'planar3-wide-charts');
  assert.equal(s.proposals.length, 8);
  assert.deepEqual(s.proposals.map((p) => p.chart), [0, 1, 2, 3, 4, 5, 6, 7]);
  assert.equal(s.status, 'converged');
  assert.ok(Number.isInteger(s.chart), `winning chart ${s.chart}`);
  const winner = s.proposals[s.chart];
  assert.equal(winner.status, 'converged');
  assert.ok(Math.abs(winner.cost - s.cost) < 1e-9, `${winner.cost} vs ${s.cost}`);
  for (const p of s.proposals.filter((p) => p.status === 'converged')) {
    assert.ok(p.cost >= s.cost - 1e-12, `chart ${p.chart} is cheaper than the answer`);
  }
  assert.ok(s.gap <= 1, `gap ${s.gap} %`);
  // Every proposal is judged by replay: a status each, the losers' costs no lower unless they
  // miss the target or break a limit.
  const statuses = new Set(['converged', 'approximate', 'limits', 'capped', 'unreachable']);
  assert.ok(s.proposals.every((p) => statuses.has(p.status)), JSON.stringify(s.proposals.map((p) => p.status)));
  // The latent panel names the winning chart; the landscape colours pieces by chart.
  const shown = await page.evaluate(() => window.loinkPlayground.exportSvg('latent'));
  assert.match(shown, new RegExp(`winning chart \\(${s.chart} of 8\\)`));
  const landscape = await page.evaluate(() => window.loinkPlayground.exportSvg('landscape'));
  assert.match(landscape, /coloured by the chart covering/);
  const arm = await page.evaluate(() => window.loinkPlayground.exportSvg('arm'));
  assert.match(arm, new RegExp(`chart ${s.chart}: wins`));
  await page.screenshot({ path: join(ARTIFACTS, 'charts.png'), fullPage: true });
  // The one-chart model on the same target lands on a costlier piece.
  await page.evaluate(() => window.loinkPlayground.set({ model: 'planar3-wide' }));
  await page.waitForFunction(() => {
    const t = window.loinkPlayground.getState();
    return t.model === 'planar3-wide' && t.learned && !t.optimumPending;
  });
  const one = await state(page);
  assert.deepEqual(one.proposals, []);
  assert.equal(one.chart ?? null, null);
  assert.ok(!(one.gap <= 1), `the one chart is within 1 % here (${one.gap} %)`);
  await page.close();
});

test('the gap map covers the charts model', async () => {
  const page = await openPlayground(env, { hash: '#model=planar3-wide-charts', viewport: { width: 1280, height: 1100 } });
  await settle(page);
  // The map fills while the page idles: cells of small gaps (viridis' dark end) appear.
  await page.locator('canvas#gapmap').scrollIntoViewIfNeeded();
  await page.evaluate(() => window.loinkPlayground.whenIdle());
  const hits = await darkCells(page);
  assert.ok(hits >= 50, `${hits} gap-map cells drawn`);
  await page.close();
});
