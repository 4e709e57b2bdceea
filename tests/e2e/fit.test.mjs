// The page fits the screens it is read on: a 768-px tablet, and an embedded frame (README's
// 900 × 700 iframe, a 768 × 1024 one) that shows all four panels and one line of readouts
// with nothing to scroll. Screenshots go to tests/artifacts/fit-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startAll, openPlayground, ARTIFACTS } from './harness.mjs';

let env;
before(async () => { env = await startAll(); });
after(async () => { await env?.close(); });

const PANELS = ['arm', 'landscape', 'latent', 'gapmap'];

/** The boxes of the page's parts, in CSS pixels. */
const layout = (page) => page.evaluate((panels) => {
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y, w: r.width, h: r.height, right: r.right, bottom: r.bottom };
  };
  return {
    scrollWidth: document.documentElement.scrollWidth,
    scrollHeight: document.documentElement.scrollHeight,
    innerWidth,
    innerHeight,
    panels: Object.fromEntries(panels.map((p) => [p, box(document.getElementById(p))])),
    model: box(document.getElementById('model')),
    readouts: box(document.getElementById('readouts')),
  };
}, PANELS);

test('at 768 px nothing overflows: the model menu and every panel fit the width', async () => {
  const page = await openPlayground(env, { viewport: { width: 768, height: 1024 } });
  const l = await layout(page);
  assert.ok(l.scrollWidth <= 768, `the page is ${l.scrollWidth} px wide`);
  assert.ok(l.model.right <= 768, `the model menu ends at ${l.model.right} px`);
  for (const p of PANELS) assert.ok(l.panels[p].right <= 768, `${p} ends at ${l.panels[p].right}`);
  await page.screenshot({ path: join(ARTIFACTS, 'fit-768.png'), fullPage: true });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

for (const [width, height] of [[900, 700], [768, 1024]]) {
  test(`embed=1 fits a ${width} × ${height} frame: four panels in a grid, one line of readouts`, async () => {
    const page = await openPlayground(env, { hash: '#embed=1', viewport: { width, height } });
    const l = await layout(page);
    assert.ok(l.scrollHeight <= height + 1, `the document is ${l.scrollHeight} px tall in a ${height}-px frame`);
    assert.ok(l.scrollWidth <= width, `the document is ${l.scrollWidth} px wide`);
    for (const p of PANELS) {
      const b = l.panels[p];
      assert.ok(b.w > 0.3 * width && b.h > 0.25 * height, `${p} is ${b.w} × ${b.h}`);
      assert.ok(b.bottom <= height + 1 && b.right <= width + 1, `${p} is cut off: ${JSON.stringify(b)}`);
    }
    // Two columns and two rows.
    assert.ok(Math.abs(l.panels.arm.y - l.panels.landscape.y) < 2 && l.panels.latent.y > l.panels.arm.bottom - 2);
    assert.ok(l.readouts.h > 0 && l.readouts.h < 30, `readouts are ${l.readouts.h} px tall`);
    assert.equal(await page.locator('[data-readout="residual"]').isVisible(), true);
    assert.equal(await page.locator('#controls').isVisible(), false);
    // The canvases were resized to their cells (drawn at their displayed size).
    const sized = await page.evaluate((ids) => ids.every((id) => {
      const c = document.getElementById(id);
      return Math.abs(c.width - Math.round(c.getBoundingClientRect().width)) <= 1;
    }), PANELS);
    assert.ok(sized, 'a canvas is not drawn at its displayed size');
    await page.screenshot({ path: join(ARTIFACTS, `fit-embed-${width}x${height}.png`) });
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('embed=1 with readouts_hide=1 shows the panels alone', async () => {
  const page = await openPlayground(env, { hash: '#embed=1&readouts_hide=1', viewport: { width: 900, height: 700 } });
  assert.equal(await page.locator('#readouts').isVisible(), false);
  const l = await layout(page);
  assert.ok(l.scrollHeight <= 701);
  await page.context().close();
});
