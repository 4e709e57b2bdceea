// The Franka Panda in the playground (#model=panda): the 3-D arm panel that orbits, the target
// dragged in the screen plane, in depth and on the insets, the keys, the link's view and latent
// slice, the latent probe that swings the elbow with the hand fixed, and the phone layout.
// Screenshots: tests/artifacts/panda.png, panda-orbited.png, panda-phone.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startAll, openPlayground, ARTIFACTS } from './harness.mjs';

let env;
before(async () => { env = await startAll(); });
after(async () => { await env?.close(); });

const HASH = '#model=panda&solver=loink-refine&refine=3';
const state = (page) => page.evaluate(() => window.loinkPlayground.getState());
const idle = (page) => page.evaluate(() => window.loinkPlayground.whenIdle());
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** A world point's place on the screen (page pixels) in the current view. */
async function screenPoint(page, p) {
  const [px, py] = await page.evaluate((q) => window.loinkPlayground.worldToCanvas(...q), p);
  const box = await page.locator('canvas#arm').boundingBox();
  return [box.x + px, box.y + py];
}

/** The target's depth along the view direction (toward the viewer) for a view [yaw, pitch]. */
function depth([yaw, pitch], p) {
  const [y, t] = [yaw * Math.PI / 180, pitch * Math.PI / 180];
  return Math.cos(t) * Math.cos(y) * p[0] + Math.cos(t) * Math.sin(y) * p[1] + Math.sin(t) * p[2];
}

test('the Panda opens converged in 3-D; setTarget(0.45, -0.2, 0.35) converges; a planar target is refused', async () => {
  const page = await openPlayground(env, { hash: HASH });
  await idle(page);
  let s = await state(page);
  assert.equal(s.model, 'panda');
  assert.equal(s.target.length, 3);
  assert.equal(s.q.length, 6);
  assert.equal(s.status, 'converged');
  assert.ok(s.residual <= 1e-6, `residual ${s.residual} m`);
  assert.equal(s.view3d.length, 2);
  s = await page.evaluate(() => window.loinkPlayground.setTarget(0.45, -0.2, 0.35));
  assert.deepEqual(s.target, [0.45, -0.2, 0.35]);
  assert.equal(s.status, 'converged');
  assert.ok(s.residual <= 1e-6, `residual ${s.residual} m`);
  await idle(page);
  s = await state(page);
  assert.ok(s.gap < 1, `gap ${s.gap} %`);
  const error = await page.evaluate(() => {
    try { window.loinkPlayground.setTarget(0.45, -0.2); return null; } catch (e) { return e.message; }
  });
  assert.match(error, /takes this view.s 3 coordinates \(x, y, z\), 2 given/);
  assert.deepEqual((await state(page)).target, [0.45, -0.2, 0.35]);
  // The arm panel says what to drag, in one line, and draws the depth cues.
  const svg = await page.evaluate(() => window.loinkPlayground.exportSvg('arm'));
  assert.match(svg, /Configuration in 3-D/);
  assert.match(svg, /drag the target ⊕ \(wheel or shift-drag: depth\)/);
  assert.match(svg, /top: x–y/);
  assert.match(svg, /side: x–z/);
  assert.match(svg, /global optimum \(reference\)/);
  await page.waitForFunction(() => window.loinkPlayground.getState().latentShown);
  const latent = await page.evaluate(() => window.loinkPlayground.exportSvg('latent'));
  assert.match(latent, /Latent slice z₁–z₂ at z₃ = 0\.00 of LOInK/);
  const landscape = await page.evaluate(() => window.loinkPlayground.exportSvg('landscape'));
  assert.match(landscape, /latent z₂ \(normalised; the other zᵢ = 0\)/);
  assert.match(landscape, /latent z₃ \(normalised; the other zᵢ = 0\)/);
  assert.match(landscape, /along z₁, z₂ and z₃ \(top to bottom\)/);
  await page.screenshot({ path: join(ARTIFACTS, 'panda.png'), fullPage: true });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a mouse drag from the target moves it in the screen plane; empty space turns the view; the wheel and PageUp move it', async () => {
  const page = await openPlayground(env, { hash: `${HASH}&target=0.45,-0.2,0.35` });
  await idle(page);
  const start = await state(page);
  // Drag the target 60 px right and 40 px up.
  const [x0, y0] = await screenPoint(page, start.target);
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  await page.mouse.move(x0 + 60, y0 - 40, { steps: 10 });
  await page.mouse.up();
  await frames(page);
  let s = await state(page);
  assert.equal(s.status, 'converged');
  assert.ok(Math.hypot(...s.target.map((v, i) => v - start.target[i])) > 0.05, `moved to ${s.target}`);
  assert.ok(Math.abs(depth(s.view3d, s.target) - depth(s.view3d, start.target)) < 1e-9, 'the drag keeps the depth');
  const [x1, y1] = await screenPoint(page, s.target);
  assert.ok(Math.abs(x1 - x0 - 60) < 1.5 && Math.abs(y1 - y0 + 40) < 1.5, `the target is under the pointer: ${x1 - x0}, ${y1 - y0}`);
  // canvasToWorld gives the point on the drag plane: the target itself at its own pixel.
  const box = await page.locator('canvas#arm').boundingBox();
  const back = await page.evaluate(([a, b]) => window.loinkPlayground.canvasToWorld(a, b), [x1 - box.x, y1 - box.y]);
  assert.ok(back.every((v, i) => Math.abs(v - s.target[i]) < 1e-9), `${back} vs ${s.target}`);

  // Orbit: a drag on empty space (the panel's lower left) turns the view, the target stays.
  const target = s.target;
  await page.mouse.move(box.x + 40, box.y + box.height - 120);
  await page.mouse.down();
  await page.mouse.move(box.x + 120, box.y + box.height - 100, { steps: 8 });
  await page.mouse.up();
  await frames(page);
  s = await state(page);
  assert.deepEqual(s.target, target);
  assert.ok(Math.abs(s.view3d[0] - start.view3d[0] + 40) < 1e-9, `yaw ${s.view3d[0]}`);
  assert.ok(Math.abs(s.view3d[1] - start.view3d[1] - 10) < 1e-9, `pitch ${s.view3d[1]}`);
  await page.waitForFunction(() => /view=/.test(location.hash));
  await page.locator('canvas#arm').screenshot({ path: join(ARTIFACTS, 'panda-orbited.png') });

  // PageUp on the focused panel: 1 cm up; the wheel: 1 cm toward the viewer.
  await page.locator('#arm').focus();
  await page.keyboard.press('PageUp');
  s = await state(page);
  assert.ok(Math.abs(s.target[2] - target[2] - 0.01) < 1e-9 && s.target[0] === target[0], `${s.target}`);
  const before = s;
  await page.mouse.move(x0, y0);
  await page.mouse.wheel(0, -100);
  await frames(page);
  s = await state(page);
  assert.ok(Math.abs(depth(s.view3d, s.target) - depth(s.view3d, before.target) - 0.01) < 1e-9, `${s.target}`);
  // Home: the first view again.
  await page.locator('#arm').focus();
  await page.keyboard.press('Home');
  assert.deepEqual((await state(page)).view3d, start.view3d);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a drag on the top inset sets x and y exactly and keeps z; on the side inset x and z', async () => {
  const page = await openPlayground(env, { hash: `${HASH}&target=0.45,-0.2,0.35` });
  await idle(page);
  const box = await page.locator('canvas#arm').boundingBox();
  // The insets stand in the panel's right column, the top one first, the side one under it:
  // the page says where (overlays(), CSS pixels of the canvas).
  const insets = await page.evaluate(() => window.loinkPlayground.overlays().filter((o) => o.kind === 'inset'));
  assert.equal(insets.length, 2);
  const [topInset, sideInset] = insets;
  const side = topInset.w;
  const topCentre = [box.x + topInset.x + side / 2, box.y + topInset.y + topInset.h / 2];
  await page.mouse.click(topCentre[0] + side * 0.2, topCentre[1]);
  await frames(page);
  let s = await state(page);
  assert.equal(s.target[2], 0.35, 'the top inset keeps z');
  assert.ok(s.target[0] > 0.1 && Math.abs(s.target[1]) < 0.05, `${s.target}`);
  const sideCentre = [box.x + sideInset.x + sideInset.w / 2, box.y + sideInset.y + sideInset.h / 2];
  await page.mouse.click(sideCentre[0] + side * 0.25, sideCentre[1] - side * 0.2);
  await frames(page);
  const t = s.target;
  s = await state(page);
  assert.equal(s.target[1], t[1], 'the side inset keeps y');
  assert.ok(s.target[2] > 0.35, `${s.target}`);
  assert.equal(s.status, 'converged');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a link keeps the view and the latent slice; dragging the probe swings the elbow with the hand fixed', async () => {
  const hash = `${HASH}&target=0.45,-0.2,0.35&view=30,40&axes=1,3`;
  const page = await openPlayground(env, { hash });
  await idle(page);
  let s = await state(page);
  assert.deepEqual(s.view3d, [30, 40]);
  assert.deepEqual(s.latentAxes, [1, 3]);
  assert.equal(await page.locator('#latent-axes').inputValue(), '1,3');
  assert.ok(await page.locator('#view-reset').isVisible());
  const answer = s.q;
  await page.locator('canvas#latent').scrollIntoViewIfNeeded();
  const box = await page.locator('canvas#latent').boundingBox();
  await page.mouse.click(box.x + box.width * 0.65, box.y + box.height * 0.4);
  await page.waitForFunction(() => window.loinkPlayground.getState().probe);
  s = await state(page);
  assert.equal(s.probe.z.length, 3);
  assert.equal(s.probe.z[1], 0, 'the slice z₁–z₃ keeps z₂');
  assert.ok(s.probe.residual < 1e-3, `the hand stays: ${s.probe.residual} m`);
  assert.ok(s.probe.q.some((v, i) => Math.abs(v - answer[i]) > 0.05), 'the arm swings');
  assert.ok(s.probe.cost > s.cost, `probe J ${s.probe.cost} vs answer ${s.cost}`);
  // PageUp on the latent panel moves the third axis, and the map follows its slice.
  await page.locator('#latent').focus();
  await page.keyboard.press('PageUp');
  s = await state(page);
  assert.ok(Math.abs(s.probe.z[1] - 0.05) < 1e-12, `${s.probe.z}`);
  await page.waitForFunction(() => window.loinkPlayground.getState().latentShown);
  await idle(page);
  const latent = await page.evaluate(() => window.loinkPlayground.exportSvg('latent'));
  assert.match(latent, /Latent slice z₁–z₃ at z₂ = 0\.05/);
  // The slice menu.
  await page.selectOption('#latent-axes', '2,3');
  await page.waitForFunction(() => /axes=2,3/.test(location.hash));
  assert.deepEqual(page.problems, []);
  // A two-number target in a Panda link is refused with a message.
  const flat = await openPlayground(env, { hash: '#model=panda&target=0.45,-0.2' });
  assert.equal((await state(flat)).target.length, 3);
  assert.match(await flat.locator('#status').textContent(), /2 numbers given, the target has 3 \(x,y,z\)/);
  for (const p of [page, flat]) await p.context().close();
});

test('figure=arm shows the 3-D panel alone; the phone layout keeps the arm panel first and whole', async () => {
  const figure = await openPlayground(env, { hash: `${HASH}&figure=arm` });
  await idle(figure);
  assert.ok(await figure.locator('canvas#arm').isVisible());
  assert.ok(!(await figure.locator('#view-reset').isVisible()), 'no buttons on a figure');
  const phone = await openPlayground(env, { hash: HASH, viewport: { width: 390, height: 844 }, dpr: 2 });
  await idle(phone);
  const box = await phone.locator('canvas#arm').boundingBox();
  assert.ok(box.width <= 390 && box.width > 300, `arm panel ${box.width} px wide`);
  const scroll = await phone.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scroll <= 390, `the page scrolls sideways: ${scroll} px`);
  // One finger on the target drags it.
  const s0 = await state(phone);
  const [px, py] = await phone.evaluate((q) => window.loinkPlayground.worldToCanvas(...q), s0.target);
  const cdp = await phone.context().newCDPSession(phone);
  const touch = (type, x, y) => cdp.send('Input.dispatchTouchEvent', {
    type, touchPoints: type === 'touchEnd' ? [] : [{ x: box.x + x, y: box.y + y }],
  });
  await touch('touchStart', px, py);
  await touch('touchMove', px + 20, py - 20);
  await touch('touchEnd');
  await frames(phone);
  const s1 = await state(phone);
  assert.notDeepEqual(s1.target, s0.target);
  await phone.screenshot({ path: join(ARTIFACTS, 'panda-phone.png') });
  for (const p of [figure, phone]) {
    assert.deepEqual(p.problems, []);
    await p.context().close();
  }
});

test('every solver runs on the Panda and says how good its answer is; σ draws the family as ghosts', async () => {
  const page = await openPlayground(env, { hash: `${HASH}&target=0.45,-0.2,0.35` });
  await idle(page);
  const solvers = await page.evaluate(() => window.loinkPlayground.settings() && [...document.querySelectorAll('#solver option')].map((o) => [o.value, o.disabled]));
  const names = solvers.map(([name]) => name);
  const offered = solvers.filter(([, disabled]) => !disabled).map(([name]) => name);
  // The two-link closed form and the pose task's closed-form search are offered, disabled, with
  // their reasons; every other solver runs.
  assert.deepEqual(offered, names.filter((n) => n !== 'analytic' && n !== 'closed-form-search'));
  for (const name of ['loink', 'loink-refine', 'flow', 'dls', 'reference']) assert.ok(offered.includes(name), `${name} in ${offered}`);
  for (const name of offered) {
    await page.evaluate((solver) => window.loinkPlayground.set({ solver }), name);
    await idle(page);
    const s = await state(page);
    assert.equal(s.solver, name);
    assert.equal(s.q.length, 6, name);
    assert.ok(Number.isFinite(s.residual) && Number.isFinite(s.margin), `${name}: ${s.residual}, ${s.margin}`);
    assert.ok(['converged', 'approximate', 'capped', 'unreachable', 'limits', 'unverified'].includes(s.status), `${name}: ${s.status}`);
    // The one-shot inverse (2 feedback rounds) lands within micrometres, 'approximate'; the
    // flow's one sample may miss; the others converge.
    if (name === 'loink') assert.ok(s.residual < 1e-4, `${name}: ${s.residual}`);
    else if (name !== 'flow') assert.equal(s.status, 'converged', `${name}: ${s.status} ${s.residual}`);
  }
  await page.evaluate(() => window.loinkPlayground.set({ solver: 'loink-refine', sigma: 0.5, samples: 8 }));
  await idle(page);
  const svg = await page.evaluate(() => window.loinkPlayground.exportSvg('arm'));
  assert.match(svg, /8 sampled solutions \(σ &gt; 0\)/);
  await page.locator('canvas#arm').screenshot({ path: join(ARTIFACTS, 'panda-sigma.png') });
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
