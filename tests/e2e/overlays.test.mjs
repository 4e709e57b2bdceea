// Nothing covers the robot: on every view of the playground, at 1280 × 900 and on a phone
// (390 × 844), the boxes drawn over canvas#arm (loinkPlayground.overlays(): legends, the loads
// bars, the 3-D insets, the first-visit hint) hold neither the target's canvas point
// (worldToCanvas) nor any joint or link corner of the drawn robot (robotPoints()), and no two
// of them overlap. A screenshot of each arm panel lands in tests/artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startAll, openPlayground, ARTIFACTS } from './harness.mjs';

let env;
before(async () => { env = await startAll(); });
after(async () => { await env?.close(); });

const VIEWS = ['planar3', 'planar3-wide-charts', 'planar4', 'soft4', 'climber', 'panda', 'panda-pose', 'panda-axis'];
const SIZES = [{ width: 1280, height: 900 }, { width: 390, height: 844 }];
const KINDS = new Set(['legend', 'hint', 'bars', 'inset']);

const inside = (box, [x, y]) => x > box.x && x < box.x + box.w && y > box.y && y < box.y + box.h;
const overlap = (a, b) => a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 && a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5;

for (const viewport of SIZES) {
  for (const model of VIEWS) {
    test(`${model} at ${viewport.width} × ${viewport.height}: no overlay covers the robot, its target or another overlay`, async () => {
      const page = await openPlayground(env, { hash: `#model=${model}`, viewport });
      await page.evaluate(() => window.loinkPlayground.whenIdle());
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const seen = await page.evaluate(() => {
        const pg = window.loinkPlayground;
        const s = pg.getState();
        const t = s.target;
        const point = s.view3d ? pg.worldToCanvas(t[0], t[1], t[2]) : pg.worldToCanvas(t[0], t[1]);
        const canvas = document.getElementById('arm').getBoundingClientRect();
        return { overlays: pg.overlays(), robot: pg.robotPoints(), target: point, size: [canvas.width, canvas.height], hint: !document.getElementById('hint').hidden };
      });
      await page.locator('#panel-arm').screenshot({ path: join(ARTIFACTS, `overlays-${model}-${viewport.width}.png`) });
      const { overlays, robot, target, size } = seen;
      assert.ok(robot.length >= 3, `the robot is drawn (${robot.length} points)`);
      assert.ok(seen.hint && overlays.some((o) => o.kind === 'hint'), 'the first-visit hint is shown and reported');
      assert.ok(overlays.some((o) => o.kind === 'legend'), 'the legend is reported');
      if (model === 'climber') assert.ok(overlays.some((o) => o.kind === 'bars'), 'the loads bars are reported');
      if (model.startsWith('panda')) assert.equal(overlays.filter((o) => o.kind === 'inset').length, 2);
      const [tx, ty] = target;
      assert.ok(tx > 0 && ty > 0 && tx < size[0] && ty < size[1], `the target ${target} is on the canvas ${size}`);
      for (const o of overlays) {
        assert.ok(KINDS.has(o.kind), `kind ${o.kind}`);
        assert.ok([o.x, o.y, o.w, o.h].every(Number.isFinite) && o.w > 0 && o.h > 0, JSON.stringify(o));
        assert.ok(!inside(o, target), `the ${o.kind} box ${JSON.stringify(o)} covers the target at ${target}`);
        const covered = robot.filter((p) => inside(o, p));
        assert.deepEqual(covered, [], `the ${o.kind} box ${JSON.stringify(o)} covers the robot`);
      }
      for (let i = 0; i < overlays.length; i++) {
        for (let j = i + 1; j < overlays.length; j++) {
          assert.ok(!overlap(overlays[i], overlays[j]), `${JSON.stringify(overlays[i])} overlaps ${JSON.stringify(overlays[j])}`);
        }
      }
      assert.deepEqual(page.problems, []);
      await page.context().close();
    });
  }
}

test('overlays follow the target: the climber dragged across its sector keeps the legend and bars off it', async () => {
  const page = await openPlayground(env, { hash: '#model=climber', viewport: { width: 1280, height: 900 } });
  for (const [span, deg, h] of [[0.7, 60, 0.1], [0.7, 178, 0.1], [0.3, 120, 0.05], [0.65, 95, 0.15]]) {
    const a = (deg * Math.PI) / 180;
    const check = await page.evaluate(([y1, y2, y3]) => {
      const pg = window.loinkPlayground;
      pg.setTarget(y1, y2, y3);
      return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r({
        overlays: pg.overlays(), robot: pg.robotPoints(), target: pg.worldToCanvas(y1, y2),
      }))));
    }, [span * Math.cos(a), span * Math.sin(a), h]);
    for (const o of check.overlays.filter((b) => b.kind !== 'hint')) {
      assert.ok(!inside(o, check.target), `${o.kind} covers the target at ${deg}°`);
      assert.deepEqual(check.robot.filter((p) => inside(o, p)), [], `${o.kind} covers the robot at ${deg}°`);
    }
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
