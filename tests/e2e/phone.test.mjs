// Phones: at 390 × 844 with touch the panels stack, the controls wrap, nothing overflows
// sideways, and a touch drag on the arm panel moves the target.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startAll, ARTIFACTS } from './harness.mjs';

let env;
before(async () => { env = await startAll(); });
after(async () => { await env?.close(); });

async function openPhone(hash = '') {
  const context = await env.browser.newContext({
    viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true,
  });
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') page.problems.push(m.text()); });
  await page.goto(`${env.base}/index.html${hash}`);
  await page.evaluate(() => window.loinkPlayground.ready);
  return page;
}

/** A touch drag through Chromium's input pipeline (touch events become pointer events). */
async function touchDrag(page, from, to, steps = 10) {
  const cdp = await page.context().newCDPSession(page);
  const point = ([x, y]) => [{ x, y }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(from) });
  for (let i = 1; i <= steps; i++) {
    const f = i / steps;
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchMove', touchPoints: point([from[0] + f * (to[0] - from[0]), from[1] + f * (to[1] - from[1])]),
    });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

test('at 390 × 844 the panels stack, the controls wrap and nothing overflows sideways', async () => {
  const page = await openPhone();
  const layout = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    panels: [...document.querySelectorAll('#panels .panel')].map((p) => p.getBoundingClientRect().toJSON()),
    widest: Math.max(...[...document.querySelectorAll('body *')].map((el) => el.getBoundingClientRect().right)),
  }));
  assert.ok(layout.scrollWidth <= 390, `the page is ${layout.scrollWidth} px wide`);
  assert.ok(layout.widest <= 391, `an element reaches ${layout.widest} px`);
  assert.equal(layout.panels.length, 4);
  for (let i = 1; i < 4; i++) {
    assert.ok(Math.abs(layout.panels[i].left - layout.panels[0].left) < 1, 'panels side by side');
    assert.ok(layout.panels[i].top >= layout.panels[i - 1].bottom, 'panels overlap');
  }
  await page.screenshot({ path: join(ARTIFACTS, 'phone-390.png'), fullPage: false });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a touch drag on the arm panel moves the target', async () => {
  const page = await openPhone('#model=planar3&target=0.6,0.3');
  await page.locator('canvas#arm').scrollIntoViewIfNeeded();
  const at = async (x, y) => {
    const [px, py] = await page.evaluate(([a, b]) => window.loinkPlayground.worldToCanvas(a, b), [x, y]);
    const box = await page.locator('canvas#arm').boundingBox();
    return [box.x + px, box.y + py];
  };
  await touchDrag(page, await at(0.6, 0.3), await at(0.3, 0.7));
  const s = await page.evaluate(() => window.loinkPlayground.getState());
  assert.ok(Math.hypot(s.target[0] - 0.3, s.target[1] - 0.7) < 0.02, `target ${s.target}`);
  assert.ok(s.residual < 1e-3, `residual ${s.residual} m at the dragged target`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('on a phone the arm panel comes first: its top is within the first 60 % of the screen', async () => {
  for (const hash of ['', '#model=soft4']) {
    const page = await openPhone(hash);
    const box = await page.evaluate(() => {
      window.scrollTo(0, 0);
      return document.getElementById('panel-arm').getBoundingClientRect().toJSON();
    });
    assert.ok(box.top <= 0.6 * 844, `${hash || 'bare page'}: the arm panel starts ${box.top} px down`);
    // The readouts and the status follow it; the controls are still there, below.
    const below = await page.evaluate(() => ['readouts', 'status', 'controls'].map((id) => document.getElementById(id).getBoundingClientRect().top));
    assert.ok(below.every((top) => top >= box.bottom - 1), `${below} vs ${box.bottom}`);
    await page.screenshot({ path: join(ARTIFACTS, `phone-first-screen${hash ? '-soft4' : ''}.png`), fullPage: false });
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});
