// End-to-end tests of the playground in Debian's headless Chromium.
// Run with scripts/test-e2e.sh (or `cd tests && node --test e2e/`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startAll, openPlayground, dragArm, armPoint, ARTIFACTS } from './harness.mjs';

let env;
before(async () => { env = await startAll(); });
after(async () => { await env?.close(); });

const state = (page) => page.evaluate(() => window.loinkPlayground.getState());
const nextFrames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
const PANELS = ['arm', 'landscape', 'latent', 'gapmap'];

test('the page loads with no console error, all panels sized for the pixel ratio', async () => {
  for (const dpr of [1, 2]) {
    const page = await openPlayground(env, { dpr });
    for (const id of PANELS) {
      const size = await page.evaluate((name) => {
        const c = document.getElementById(name);
        const r = c.getBoundingClientRect();
        return { w: c.width, h: c.height, cw: r.width, ch: r.height };
      }, id);
      assert.ok(Math.abs(size.w - Math.round(size.cw * dpr)) <= 1, `${id} width ${JSON.stringify(size)} at dpr ${dpr}`);
      assert.ok(Math.abs(size.h - Math.round(size.ch * dpr)) <= 1, `${id} height ${JSON.stringify(size)} at dpr ${dpr}`);
    }
    for (const name of ['residual', 'cost', 'gap', 'margin', 'status', 'iterations', 'solve-us', 'frame-ms']) {
      const text = await page.locator(`[data-readout="${name}"]`).textContent();
      assert.ok(text && text.trim().length > 0, `readout ${name} is empty`);
    }
    const s = await state(page);
    assert.equal(s.status, 'converged', JSON.stringify(s));
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test('the page sets a strict Content-Security-Policy', async () => {
  const page = await openPlayground(env);
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'(;|$)/);
  assert.match(csp, /connect-src 'self'/);
  assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'/);
  const inline = await page.evaluate(() => [...document.scripts].filter((s) => !s.src).length);
  assert.equal(inline, 0, 'no inline script');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('dragging on canvas#arm to a reachable point moves the arm there (classical solvers)', async () => {
  const page = await openPlayground(env, { hash: '#solver=dls' });
  for (const [solver, target, tol] of [['dls', [0.35, 0.75], 1e-9], ['reference', [0.7, -0.2], 1e-9]]) {
    await page.evaluate((s) => window.loinkPlayground.set({ solver: s }), solver);
    await dragArm(page, [0.6, 0.3], target);
    const s = await state(page);
    assert.equal(s.solver, solver);
    // The pointer lands on a pixel: the target is within half a pixel of the intended point.
    assert.ok(Math.hypot(s.target[0] - target[0], s.target[1] - target[1]) < 0.01, JSON.stringify(s.target));
    assert.equal(s.status, 'converged', JSON.stringify(s));
    assert.ok(s.residual <= tol, `${solver} residual ${s.residual}`);
    assert.equal(s.q.length, 3);
    assert.ok(Number.isFinite(s.gap) && s.gap >= -1e-6, `gap ${s.gap}`);
    assert.equal(await page.locator('[data-readout="status"]').textContent(), 'converged');
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('dragging with LOInK reaches the target (1e-3 m; 1e-9 m with refinement)', async (t) => {
  // The bare page, as a newcomer opens it: the default model and the default feedback rounds.
  const page = await openPlayground(env);
  const model = (await page.evaluate(() => window.loinkPlayground.models())).find((m) => m.default);
  assert.ok(model, 'the catalog names a default model');
  const defaults = await page.evaluate(() => window.loinkPlayground.settings());
  assert.equal(defaults.solver, 'loink');
  assert.ok(defaults.feedback > 0, `default feedback ${defaults.feedback}`);
  assert.equal(await page.locator('#feedback').inputValue(), String(defaults.feedback));
  const targets = [[0.4, 0.6], [0.7, 0.1], [0.5, -0.6], [0.9, 0.5], [0.0, 0.9]];
  const runs = [
    ['loink', { solver: 'loink' }, 1e-3],
    ['loink-refine', { solver: 'loink-refine', refine: 10 }, 1e-9],
    // The paper's one-shot inverse, reported for comparison (its bar is the model's: README).
    ['one-shot', { solver: 'loink', feedback: 0 }, Infinity],
  ];
  const residuals = {};
  for (const [name, settings, tol] of runs) {
    await page.evaluate((s) => window.loinkPlayground.set(s), settings);
    residuals[name] = [];
    let from = [0.6, 0.3];
    for (const target of targets) {
      await dragArm(page, from, target);
      from = target;
      const s = await state(page);
      assert.equal(s.solver, settings.solver, JSON.stringify(s.warnings));
      assert.equal(s.model, model.name);
      assert.equal(s.learned, true);
      // The residual is the forward-kinematics replay of q, and the status says how good it is.
      assert.ok(Number.isFinite(s.residual) && s.q.length === 3);
      assert.ok(['converged', 'approximate', 'capped', 'limits'].includes(s.status), s.status);
      assert.ok(s.residual <= tol, `${name} residual ${s.residual} m at ${target}`);
      residuals[name].push(s.residual);
    }
  }
  const mm = (v) => v.map((r) => (r * 1e3).toFixed(4)).join(', ');
  t.diagnostic(`LOInK with ${defaults.feedback} feedback rounds: ${mm(residuals.loink)} mm; one-shot: ${mm(residuals['one-shot'])} mm`);
  // Feedback keeps a round only when it lowers the residual, so it cannot lose to one shot by
  // more than the warm-start noise of the first inverse.
  residuals.loink.forEach((r, i) => assert.ok(r <= residuals['one-shot'][i] + 1e-7, `target ${targets[i]}: ${r} vs one-shot ${residuals['one-shot'][i]}`));
  // The link says which inverse the view shows.
  await page.waitForFunction(() => /[#&]feedback=0(&|$)/.test(location.hash));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('an unreachable point is labelled unreachable in words next to the arm', async () => {
  const page = await openPlayground(env, { hash: '#solver=dls' });
  const label = page.locator('#unreachable');
  assert.equal(await label.isVisible(), false);
  await dragArm(page, [0.6, 0.3], [1.35, 0.1]);
  const s = await state(page);
  assert.equal(s.status, 'unreachable', JSON.stringify(s));
  assert.equal(await label.isVisible(), true);
  assert.match(await label.textContent(), /unreachable/i);
  assert.equal(await page.locator('[data-readout="status"]').textContent(), 'unreachable');
  // The label sits over the arm panel.
  const panel = await page.locator('#panel-arm').boundingBox();
  const box = await label.boundingBox();
  assert.ok(box.x >= panel.x && box.y >= panel.y && box.x + box.width <= panel.x + panel.width + 1);
  // Back to a reachable point: the label goes away.
  await dragArm(page, [1.35, 0.1], [0.5, 0.4]);
  assert.equal(await label.isVisible(), false);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a URL hash round-trips: read at start, rewritten on change, reproduced on reload', async () => {
  const hash = '#model=planar4&solver=dls&target=0.5,0.4&sigma=0.25&samples=5&seed=42&refine=7&feedback=5';
  const page = await openPlayground(env, { hash });
  let s = await state(page);
  assert.equal(s.model, 'planar4');
  assert.equal(s.solver, 'dls');
  assert.deepEqual(s.target, [0.5, 0.4]);
  assert.equal(await page.locator('#model').inputValue(), 'planar4');
  assert.equal(await page.locator('#seed').inputValue(), '42');
  assert.equal(await page.locator('#refine').inputValue(), '7');
  assert.equal(await page.locator('#feedback').inputValue(), '5');
  await page.waitForFunction((h) => location.hash === h, hash);
  // A change rewrites the hash…
  await page.locator('#solver').selectOption('reference');
  await page.evaluate(() => window.loinkPlayground.setTarget(0.45, 0.35));
  await page.waitForFunction(() => location.hash.includes('solver=reference') && location.hash.includes('target=0.45,0.35'));
  const rewritten = await page.evaluate(() => location.hash);
  s = await state(page);
  // …and opening the rewritten link reproduces the state.
  const again = await openPlayground(env, { hash: rewritten });
  const s2 = await state(again);
  for (const key of ['model', 'solver', 'target', 'q', 'cost', 'status']) {
    assert.deepEqual(s2[key], s[key], key);
  }
  assert.deepEqual(page.problems, []);
  assert.deepEqual(again.problems, []);
  await page.context().close();
  await again.context().close();
});

test('a mangled link still opens a working page and says what it ignored', async () => {
  const page = await openPlayground(env, { hash: '#model=../../etc/passwd&solver=eval&target=NaN,1&sigma=1e999&foo=1' });
  const s = await state(page);
  const [fallback] = await page.evaluate(() => window.loinkPlayground.models());
  assert.equal(s.model, fallback.name, 'an unknown model name opens the default');
  // The one-shot learned answer (the link names no feedback): a working solve, within 5 mm.
  assert.ok(['converged', 'approximate'].includes(s.status), s.status);
  assert.ok(s.residual < 5e-3, `residual ${s.residual}`);
  assert.match(await page.locator('#status').textContent(), /ignored/);
  // Only same-origin requests, and none for the hostile model name.
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('embed=1 shows the panels and one line of readouts; NAME_hide=1 hides one control', async () => {
  const page = await openPlayground(env, { hash: '#embed=1' });
  for (const sel of ['#controls', 'header', 'footer', '#status', '#cost-definition']) {
    assert.equal(await page.locator(sel).isVisible(), false, sel);
  }
  // One line of readouts stays: an embedded figure still says how good its answer is.
  assert.equal(await page.locator('[data-readout="status"]').isVisible(), true);
  for (const id of PANELS) assert.equal(await page.locator(`canvas#${id}`).isVisible(), true, id);
  await page.context().close();

  const one = await openPlayground(env, { hash: '#model_hide=1&seed_hide=1' });
  assert.equal(await one.locator('[data-control="model"]').isVisible(), false);
  assert.equal(await one.locator('[data-control="seed"]').isVisible(), false);
  assert.equal(await one.locator('[data-control="solver"]').isVisible(), true);
  assert.equal(await one.locator('#controls').isVisible(), true);
  assert.deepEqual(one.problems, []);
  await one.context().close();
});

test('keyboard: the arm canvas takes focus and arrow keys move the target by 1 cm', async () => {
  const page = await openPlayground(env, { hash: '#solver=dls&target=0.5,0.3' });
  await page.locator('canvas#arm').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowUp');
  let s = await state(page);
  assert.ok(Math.abs(s.target[0] - 0.51) < 1e-9 && Math.abs(s.target[1] - 0.31) < 1e-9, JSON.stringify(s.target));
  await page.keyboard.press('Shift+ArrowLeft');
  s = await state(page);
  assert.ok(Math.abs(s.target[0] - 0.41) < 1e-9, JSON.stringify(s.target));
  for (const id of ['model', 'solver', 'sigma', 'samples', 'seed', 'refine', 'feedback']) {
    assert.ok(await page.locator(`#${id}`).getAttribute('aria-label'), `${id} has an ARIA label`);
  }
  assert.ok(await page.locator('canvas#arm').getAttribute('aria-label'));
  await page.context().close();
});

test('bad input through the API is refused with a readable error and the page keeps working', async () => {
  const page = await openPlayground(env, { hash: '#solver=dls' });
  const before = await state(page);
  for (const [x, y] of [[NaN, 0], [Infinity, 0], [1e300, 0], [0, -Infinity]]) {
    const err = await page.evaluate(([a, b]) => {
      try { window.loinkPlayground.setTarget(a, b); return null; } catch (e) { return e.message; }
    }, [x, y]);
    assert.ok(err && /finite|from the base/.test(err), `setTarget(${x}, ${y}) → ${err}`);
    assert.deepEqual((await state(page)).target, before.target);
  }
  assert.match(await page.locator('#status').textContent(), /finite|from the base/);
  const good = await page.evaluate(() => window.loinkPlayground.setTarget(0.4, 0.5));
  assert.equal(good.status, 'converged');
  // No panic reached the console (the hook would log "internal error").
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the wheel over a panel scrolls the page (no scroll hijack)', async () => {
  const page = await openPlayground(env, { viewport: { width: 900, height: 500 } });
  const [x, y] = await armPoint(page, 0.2, 0.2);
  await page.mouse.move(x, y);
  const y0 = await page.evaluate(() => scrollY);
  await page.mouse.wheel(0, 300);
  await page.waitForFunction((start) => scrollY > start, y0);
  await page.context().close();
});

test('update events fire after every frame', async () => {
  const page = await openPlayground(env, { hash: '#solver=dls' });
  const count = await page.evaluate(async () => {
    let n = 0;
    const off = window.loinkPlayground.on('update', () => { n += 1; });
    window.loinkPlayground.setTarget(0.5, 0.5);
    window.loinkPlayground.setTarget(0.55, 0.5);
    off();
    window.loinkPlayground.setTarget(0.6, 0.5);
    return n;
  });
  assert.equal(count, 2);
  await page.context().close();
});

test('screenshots of each panel (dpr 1 and 2) are saved as test artifacts', async () => {
  for (const [dpr, hash] of [[1, '#solver=dls&target=0.45,0.55'], [2, '#solver=reference&target=0.7,-0.3'], [1, '#model=planar3-wide&solver=reference&target=0.3,0.6']]) {
    const page = await openPlayground(env, { dpr, hash });
    // The deferred work (reference sweeps, latent map, gap map) finishes first.
    await page.evaluate(() => window.loinkPlayground.whenIdle());
    await nextFrames(page);
    const s = await state(page);
    const tag = `${s.model}-dpr${dpr}`;
    // What the screenshots must show: the arm drawn in the solver's colour (#0072b2, it reaches
    // the target) and the gap map's cells (viridis, not blank).
    const counts = await page.evaluate(() => {
      const count = (id, test) => {
        const c = document.getElementById(id);
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (test(d[i], d[i + 1], d[i + 2])) n += 1;
        return n;
      };
      return {
        arm: count('arm', (r, g, b) => r < 20 && Math.abs(g - 114) < 20 && Math.abs(b - 178) < 20),
        gap: count('gapmap', (r, g, b) => Math.abs(r - 68) < 25 && g < 60 && Math.abs(b - 84) < 30),
      };
    });
    assert.equal(s.status, 'converged', s.message);
    assert.ok(counts.arm > 100 * dpr * dpr, `${tag}: the arm is not drawn (${counts.arm} px)`);
    assert.ok(counts.gap > 100, `${tag}: the gap map is blank (${counts.gap} px)`);
    for (const id of PANELS) {
      await page.locator(`#panel-${id}`).screenshot({ path: join(ARTIFACTS, `${tag}-${id}.png`) });
    }
    await page.screenshot({ path: join(ARTIFACTS, `${tag}-page.png`), fullPage: true });
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test('play runs one loop however often the settings change while playing', async () => {
  const page = await openPlayground(env, { hash: '#solver=dls&play=1' });
  // Updates per 60 animation frames of play: one solve and draw per frame (counted in frames,
  // not seconds, so a slow machine gives the same count).
  const rate = () => page.evaluate(() => new Promise((resolve) => {
    let n = 0;
    let frames = 0;
    const off = window.loinkPlayground.on('update', () => { n += 1; });
    const count = () => {
      frames += 1;
      if (frames < 60) requestAnimationFrame(count);
      else { off(); resolve(n); }
    };
    requestAnimationFrame(count);
  }));
  const before = await rate();
  for (let i = 0; i < 10; i++) {
    await page.locator('#samples').fill(String(i + 1));
    await page.locator('#samples').dispatchEvent('change');
  }
  assert.equal((await page.evaluate(() => window.loinkPlayground.settings())).play, true);
  const after = await rate();
  assert.ok(before > 10, `playing gives ${before} updates in 60 frames`);
  // Eleven loops (the fault) would give ~11×; allow frame-rate noise, not a second loop.
  assert.ok(after <= 1.5 * before, `${before} updates in 60 frames before ten changes, ${after} after`);
  await page.evaluate(() => window.loinkPlayground.set({ play: false }));
  const stopped = await rate();
  assert.ok(stopped <= 2, `${stopped} updates in 60 frames after play stopped`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
