// Accessibility checked by a tool: axe-core on the main page, the embed builder and one lesson,
// no serious or critical violation; every control reachable by keyboard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startAll, ROOT } from './harness.mjs';

let env;
before(async () => { env = await startAll(); });
after(async () => { await env?.close(); });

const AXE = join(ROOT, 'tests', 'node_modules', 'axe-core', 'axe.min.js');

async function open(hash) {
  // The page's CSP admits no inline script: the test context injects axe past it.
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 1000 }, bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${env.base}/index.html${hash}`);
  await page.evaluate(() => window.loinkPlayground.ready);
  await page.addScriptTag({ path: AXE });
  return page;
}

async function seriousViolations(page) {
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

test('axe-core finds no serious or critical violation on the main page or in the embed builder', async () => {
  const page = await open('');
  assert.deepEqual(await seriousViolations(page), []);
  await page.click('#embed-open');
  await page.locator('#embed-preview').waitFor();
  assert.deepEqual(await seriousViolations(page), []);
  await page.context().close();
});

test('axe-core finds no serious or critical violation on a lesson page', async () => {
  const page = await open('#lesson=latent');
  await page.evaluate(() => window.loinkLessons.ready);
  assert.deepEqual(await seriousViolations(page), []);
  await page.context().close();
});

test('every control of the page is reachable by keyboard', async () => {
  const page = await open('#model=planar3-h38w&solver=loink-refine&sigma=0.3');
  const controls = await page.evaluate(() => [...document.querySelectorAll('#controls select, #controls input, #controls button, #way-in a, canvas[tabindex]')]
    .filter((el) => el.offsetParent !== null).map((el) => el.id || el.textContent.trim()));
  const reached = new Set();
  for (let i = 0; i < 150 && controls.some((c) => !reached.has(c)); i++) {
    await page.keyboard.press('Tab');
    reached.add(await page.evaluate(() => document.activeElement.id || document.activeElement.textContent.trim()));
  }
  const missing = controls.filter((c) => !reached.has(c));
  assert.deepEqual(missing, [], `not reachable by Tab: ${missing.join(', ')}`);
  await page.context().close();
});
