// The way in and sharing: the page lists its experiments and lessons and each link opens its
// view; a lesson links back to the playground with its model; a first-visit hint leaves once
// the target has been dragged; "Copy link" and the embed builder's snippet reproduce a
// non-default view in a fresh page and in an iframe; where the clipboard is refused the link is
// shown to copy by hand.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startAll, openPlayground, dragArm } from './harness.mjs';

let env;
before(async () => { env = await startAll(); });
after(async () => { await env?.close(); });

const state = (page) => page.evaluate(() => window.loinkPlayground.getState());
const settings = (page) => page.evaluate(() => window.loinkPlayground.settings());
const set = (page, partial) => page.evaluate((p) => window.loinkPlayground.set(p), partial);
const setTarget = (page, x, y) => page.evaluate(([a, b]) => window.loinkPlayground.setTarget(a, b), [x, y]);

/** The view a link must reproduce: what is solved and shown, not the timing. */
function view(s, st) {
  return { model: s.model, solver: s.solver, target: s.target, q: s.q, status: s.status, sigma: st.sigma, samples: st.samples, seed: st.seed, refine: st.refine, feedback: st.feedback };
}

/** The same view: every setting equal, the joints to 1e-6 rad (the author's page may have
 *  reached them warm from the previous target, a fresh page solves cold; both stop at the same
 *  answer to the solver's tolerance). */
function assertSameView(got, want) {
  assert.deepEqual({ ...got, q: undefined }, { ...want, q: undefined });
  assert.equal(got.q.length, want.q.length);
  got.q.forEach((v, i) => assert.ok(Math.abs(v - want.q[i]) <= 1e-6, `q${i + 1}: ${v} vs ${want.q[i]}`));
}

test('the page lists every experiment and lesson; each link opens its view, a lesson links back', async () => {
  const page = await openPlayground(env);
  const experiments = await page.locator('a[data-way-in=experiment]').all();
  const lessons = await page.locator('a[data-way-in=lesson]').all();
  assert.ok(experiments.length >= 4, `${experiments.length} experiments`);
  assert.equal(lessons.length, 13);
  for (const a of [...experiments, ...lessons]) assert.ok((await a.getAttribute('title')).length > 10);
  // An experiment: the four-link arm with its own model, in this page.
  await page.locator('a[data-way-in=experiment]', { hasText: 'Four links' }).click();
  await page.waitForFunction(() => window.loinkPlayground.getState()?.model === 'planar4');
  // A lesson: the page becomes the lesson (its own bundle), which links back with its model.
  await Promise.all([
    page.waitForEvent('load'),
    page.locator('a[data-way-in=lesson]', { hasText: 'averaging' }).click(),
  ]);
  await page.evaluate(() => window.loinkLessons.ready);
  assert.equal(await page.locator('#lesson').getAttribute('data-lesson'), 'averaging');
  const back = page.locator('#lesson-playground');
  assert.equal(await back.getAttribute('href'), '#model=planar2');
  await Promise.all([page.waitForEvent('load'), back.click()]);
  await page.evaluate(() => window.loinkPlayground.ready);
  assert.equal((await state(page)).model, 'planar2');
  assert.equal(await page.locator('#lesson').count(), 0);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a first-visit hint on the arm panel leaves once the target has been dragged, and stays gone', async () => {
  const page = await openPlayground(env);
  const hint = page.locator('#hint');
  assert.equal(await hint.isVisible(), true);
  assert.match(await hint.textContent(), /Drag the target/);
  await dragArm(page, [0.6, 0.3], [0.5, 0.5]);
  assert.equal(await hint.isVisible(), false);
  await page.reload();
  await page.evaluate(() => window.loinkPlayground.ready);
  assert.equal(await page.locator('#hint').isVisible(), false, 'the hint came back after it was used');
  await page.context().close();
});

test('Copy link copies the full view; the link reproduces it in a fresh page and in an iframe', async () => {
  const page = await openPlayground(env);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.base });
  await set(page, { model: 'planar4', solver: 'loink-refine', sigma: 0.4, samples: 5, seed: 11, refine: 4, feedback: 1 });
  await setTarget(page, 0.45, 0.55);
  const want = view(await state(page), await settings(page));
  await page.click('#copy-link');
  await page.waitForFunction(() => /Link copied/.test(document.getElementById('status').textContent));
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/index\.html#model=planar4&/);
  const fresh = await openPlayground(env, { hash: `#${link.split('#')[1]}` });
  assertSameView(view(await state(fresh), await settings(fresh)), want);
  await fresh.context().close();
  // In an iframe of another page (same origin, as a course page would be).
  const host = await page.context().newPage();
  await host.goto(`${env.base}/tests/iframe.html`);
  const framed = await host.evaluate(async (src) => {
    const frame = document.createElement('iframe');
    frame.style.width = '1000px';
    frame.style.height = '800px';
    frame.src = src;
    document.body.prepend(frame);
    await new Promise((r) => frame.addEventListener('load', r, { once: true }));
    await frame.contentWindow.loinkPlayground.ready;
    const api = frame.contentWindow.loinkPlayground;
    return { s: api.getState(), st: api.settings() };
  }, link);
  assertSameView(view(framed.s, framed.st), want);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('where the clipboard is refused, the link is shown selected to copy by hand', async () => {
  const page = await openPlayground(env, { hash: '#model=planar3&target=0.5,0.6' });
  await page.evaluate(() => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) } });
  });
  await page.click('#copy-link');
  const field = page.locator('#share-url');
  await field.waitFor({ state: 'visible' });
  assert.match(await field.inputValue(), /#model=planar3&.*target=0\.5,0\.6/);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'share-url');
  await page.context().close();
});

test('the embed builder: every hideable control has a box, the snippet follows, and it opens the same view with those controls hidden', async () => {
  const page = await openPlayground(env);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.base });
  await set(page, { model: 'planar3-h38w', solver: 'dls', sigma: 0 });
  await setTarget(page, 0.3, 0.7);
  const want = view(await state(page), await settings(page));
  await page.click('#embed-open');
  assert.equal(await page.locator('#embed-builder').isVisible(), true);
  const boxes = await page.locator('#embed-options input[type=checkbox]').evaluateAll((els) => els.map((e) => e.name));
  for (const name of ['embed', 'hide:model', 'hide:solver', 'hide:readouts', 'hide:share']) assert.ok(boxes.includes(name), `${name} in ${boxes}`);
  await page.check('input[name="hide:solver"]');
  await page.uncheck('input[name=embed]');
  await page.fill('#embed-width', '640');
  const snippet = await page.inputValue('#embed-snippet');
  assert.match(snippet, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/index\.html#[^"]*solver_hide=1[^"]*" width="640" height="600"/);
  assert.doesNotMatch(snippet, /embed=1/);
  await page.check('input[name=embed]');
  assert.match(await page.inputValue('#embed-snippet'), /embed=1/);
  await page.click('#embed-copy');
  await page.waitForFunction(() => document.getElementById('embed-copied').textContent === 'Snippet copied.');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, await page.inputValue('#embed-snippet'));
  // The snippet, pasted into a page, shows the same view with the solver control hidden.
  const host = await page.context().newPage();
  await host.goto(`${env.base}/tests/iframe.html`);
  const framed = await host.evaluate(async (html) => {
    document.body.innerHTML = html;
    const frame = document.querySelector('iframe');
    frame.loading = 'eager';
    await new Promise((r) => frame.addEventListener('load', r, { once: true }));
    const w = frame.contentWindow;
    await w.loinkPlayground.ready;
    const doc = frame.contentDocument;
    const visible = (sel) => { const el = doc.querySelector(sel); return !!el && el.offsetParent !== null; };
    return {
      s: w.loinkPlayground.getState(),
      st: w.loinkPlayground.settings(),
      embed: doc.body.classList.contains('embed'),
      solverShown: visible('[data-control=solver]'),
      panels: visible('#panels'),
    };
  }, copied);
  assertSameView(view(framed.s, framed.st), want);
  assert.equal(framed.embed, true);
  assert.equal(framed.solverShown, false);
  assert.equal(framed.panels, true);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the model card shows the loaded model\'s μ and ν, how it was trained, and the command for this view', async () => {
  const page = await openPlayground(env, { hash: '#model=planar4&solver=loink-refine&target=0.5,0.45&refine=3&feedback=2' });
  await page.click('#model-card summary');
  const rows = await page.locator('#model-card-rows tr').evaluateAll((trs) => Object.fromEntries(trs.map((tr) => [tr.cells[0].textContent, tr.cells[1].textContent])));
  const file = await (await fetch(`${env.base}/web/models/planar4.json`)).json();
  assert.equal(Number(rows['μ (lower Lipschitz bound of G)']), file.hyper.mu);
  assert.equal(Number(rows['ν (upper Lipschitz bound of G)']), file.hyper.nu);
  assert.equal(rows['trained by'], file.about.command);
  // What the view reproduces and what it does not: the model file's own card, word for word.
  assert.equal(await page.locator('#model-card-reproduces').textContent(), file.about.reproduces);
  assert.equal(await page.locator('#model-card-not').textContent(), file.about.does_not);
  assert.match(file.about.reproduces, /z = 0/);
  assert.equal(await page.locator('#model-card-command').textContent(),
    "printf 'x,y\\n0.5,0.45\\n' > T.csv && loink eval --model web/models/planar4.json --feedback 2 --refine 3 --targets T.csv --out R.csv");
  // It follows the view: another target, another command.
  await setTarget(page, 0.4, 0.5);
  assert.match(await page.locator('#model-card-command').textContent(), /0\.4,0\.5/);
  await set(page, { solver: 'dls' });
  assert.match(await page.locator('#model-card-command').textContent(), /--robot planar4 --solver dls/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('figure=NAME shows that panel alone, filling the page, and the link keeps it', async () => {
  for (const name of ['arm', 'gapmap']) {
    const page = await openPlayground(env, { hash: `#model=planar3&target=0.5,0.5&figure=${name}`, viewport: { width: 800, height: 600 } });
    const layout = await page.evaluate(() => ({
      shown: [...document.querySelectorAll('#panels .panel')].filter((p) => p.offsetParent !== null).map((p) => p.id),
      box: document.querySelector('#panels .panel:not([style*="none"])') && [...document.querySelectorAll('#panels .panel')].find((p) => p.offsetParent !== null).getBoundingClientRect().toJSON(),
      chrome: [...document.querySelectorAll('.chrome, #readouts')].some((el) => el.offsetParent !== null),
      scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
    }));
    assert.deepEqual(layout.shown, [`panel-${name}`]);
    assert.equal(layout.chrome, false);
    assert.ok(layout.box.width >= 790 && layout.box.height >= 590, JSON.stringify(layout.box));
    assert.ok(layout.scroll[0] <= 800 && layout.scroll[1] <= 600, `scrolls: ${layout.scroll}`);
    assert.equal((await settings(page)).figure, name);
    await page.waitForFunction((n) => location.hash.includes(`figure=${n}`), name);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  }
});

test('every panel exports as SVG from the same drawing: it parses, names its panel, carries its link', async () => {
  const page = await openPlayground(env, { hash: '#model=planar3&target=0.5,0.45&sigma=0.3' });
  await page.evaluate(() => window.loinkPlayground.whenIdle());
  for (const name of ['arm', 'landscape', 'latent', 'gapmap']) {
    const info = await page.evaluate((n) => {
      const text = window.loinkPlayground.exportSvg(n);
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      const root = doc.documentElement;
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        root: root.nodeName,
        title: root.querySelector('title')?.textContent,
        link: root.querySelector('metadata link')?.getAttribute('href'),
        texts: [...root.querySelectorAll('text')].map((t) => t.textContent),
        shapes: root.querySelectorAll('line, polyline, polygon, circle, rect').length,
        images: root.querySelectorAll('image').length,
        width: Number(root.getAttribute('width')),
        canvasWidth: document.getElementById(n).getBoundingClientRect().width,
      };
    }, name);
    assert.equal(info.error, null, `${name}: ${info.error}`);
    assert.equal(info.root, 'svg');
    assert.equal(info.title, `LOInK playground, ${name} panel`);
    assert.match(info.link, /#model=planar3&.*target=0\.5,0\.45/);
    assert.ok(info.texts.length > 3, `${name}: ${info.texts.length} labels`);
    assert.ok(info.shapes > 5, `${name}: ${info.shapes} shapes`);
    assert.ok(Math.abs(info.width - info.canvasWidth) <= 1, `${name}: ${info.width} vs ${info.canvasWidth}`);
    if (name === 'latent' || name === 'gapmap') assert.ok(info.images >= 1, `${name}: the heat map is embedded`);
  }
  // The panel's caption is among the SVG's labels, as on the canvas.
  const arm = await page.evaluate(() => window.loinkPlayground.exportSvg('arm'));
  assert.match(arm, /Configuration: the LOInK/);
  await assert.rejects(page.evaluate(() => window.loinkPlayground.exportSvg('nope')), /not a panel/);
  // At a chosen size: the figure is laid out at it; the canvas keeps its own.
  const sized = await page.evaluate(() => {
    const before = document.getElementById('landscape').width;
    const doc = new DOMParser().parseFromString(window.loinkPlayground.exportSvg('landscape', 1200, 500), 'image/svg+xml');
    return { width: doc.documentElement.getAttribute('width'), height: doc.documentElement.getAttribute('height'), before, after: document.getElementById('landscape').width };
  });
  assert.deepEqual([sized.width, sized.height], ['1200', '500']);
  assert.equal(sized.after, sized.before);
  await assert.rejects(page.evaluate(() => window.loinkPlayground.exportSvg('arm', -1, 5)), /two positive numbers/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
