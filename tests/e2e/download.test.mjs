// The slim page's download, measured as the page loads it: every script, wasm module and model
// file the bare page fetches before it is ready, gzipped at level 9 (what a static host serves),
// stays within 300 kB; the lessons' bundle and the full bundle stay out of it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { startAll } from './harness.mjs';

let env;
before(async () => { env = await startAll(); });
after(async () => { await env?.close(); });

/** Most gzipped bytes of wasm, JavaScript and model weights the bare page may download. */
const BUDGET = 300_000;

test('the bare page downloads at most 300 kB gzipped of wasm, JavaScript and weights', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  const bodies = new Map();
  page.on('response', async (r) => {
    const url = new URL(r.url());
    if (!/\.(wasm|js|json)$/.test(url.pathname) || r.status() !== 200) return;
    bodies.set(url.pathname, r.body().catch(() => null));
  });
  await page.goto(`${env.base}/index.html`);
  await page.evaluate(() => window.loinkPlayground.ready);
  const sizes = {};
  for (const [path, body] of bodies) {
    const bytes = await body;
    assert.ok(bytes, `${path}: no body`);
    sizes[path] = gzipSync(bytes, { level: 9 }).length;
  }
  const paths = Object.keys(sizes);
  assert.ok(paths.some((p) => p.endsWith('.wasm')), `no wasm among ${paths}`);
  assert.ok(paths.some((p) => p.includes('/web/models/')), `no weights among ${paths}`);
  assert.ok(!paths.some((p) => p.includes('/pkg/lessons/')), `the full bundle was fetched: ${paths}`);
  assert.ok(!paths.some((p) => p.includes('/pkg/train/') || p.endsWith('/train.js') || p.endsWith('/train-worker.js')),
    `the trainer was fetched: ${paths}`);
  const total = Object.values(sizes).reduce((a, b) => a + b, 0);
  console.log(`slim page download: ${(total / 1000).toFixed(1)} kB gzipped`, sizes);
  assert.ok(total <= BUDGET, `${total} B gzipped > ${BUDGET} B: ${JSON.stringify(sizes)}`);
  await context.close();
});
