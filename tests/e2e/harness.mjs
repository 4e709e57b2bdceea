// Shared set-up of the end-to-end tests: a static server for the repository root on
// 127.0.0.1 (Python's http.server, as scripts/serve.sh) and Debian's headless Chromium
// driven by playwright-core (no browser download). Every page records its console errors,
// page errors and failed requests so each test can assert that there were none.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const ARTIFACTS = join(ROOT, 'tests', 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves once the server says it serves (its first line of output), rejects if it exits. */
function serving(server) {
  return new Promise((resolve, reject) => {
    const said = (chunk) => { if (/Serving HTTP/.test(String(chunk))) resolve(); };
    server.stdout.on('data', said);
    server.stderr.on('data', said);
    server.once('exit', (code) => reject(new Error(`the server exited (${code}) before serving`)));
  });
}

/** Starts the server and the browser; returns {base, browser, close()}. */
export async function startAll() {
  const port = await freePort();
  // -u: the server's "Serving HTTP" line arrives at once, not when a buffer fills.
  const server = spawn('python3', ['-u', '-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', ROOT],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  const base = `http://127.0.0.1:${port}`;
  await serving(server);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    // playwright-core gives every launch a fresh temporary profile (it refuses --user-data-dir).
    args: FLAGS,
  });
  return {
    base,
    browser,
    async close() {
      await browser.close();
      server.kill();
    },
  };
}

/** Opens the page at `hash` (and `query`), waits for `loinkPlayground.ready`, and collects
 *  problems (console errors, page errors, failed or 4xx/5xx requests) into `page.problems`. */
export async function openPlayground(env, { hash = '', query = '', viewport = { width: 1280, height: 1000 }, dpr = 1, delay = {} } = {}) {
  const context = await env.browser.newContext({ viewport, deviceScaleFactor: dpr });
  const page = await context.newPage();
  // delay: {'web/lessons.js': ms, …} holds those responses back (load-order races, on purpose).
  for (const [path, ms] of Object.entries(delay)) {
    await page.route(`${env.base}/${path}`, async (route) => {
      await new Promise((r) => setTimeout(r, ms));
      await route.continue();
    });
  }
  page.problems = [];
  page.on('console', (m) => { if (m.type() === 'error') page.problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => page.problems.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => page.problems.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => { if (r.status() >= 400) page.problems.push(`http ${r.status()}: ${r.url()}`); });
  page.on('request', (r) => {
    if (!r.url().startsWith(env.base) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) {
      page.problems.push(`third-party request: ${r.url()}`);
    }
  });
  await page.goto(`${env.base}/index.html${query}${hash}`);
  await page.evaluate(() => window.loinkPlayground.ready);
  return page;
}

/** The CSS-pixel position inside canvas#arm of world point (x, y), in page coordinates. */
export async function armPoint(page, x, y) {
  const [px, py] = await page.evaluate(([a, b]) => window.loinkPlayground.worldToCanvas(a, b), [x, y]);
  const box = await page.locator('canvas#arm').boundingBox();
  return [box.x + px, box.y + py];
}

/** Drags the mouse on canvas#arm from world point `from` to world point `to`. */
export async function dragArm(page, from, to, steps = 12) {
  const [x0, y0] = await armPoint(page, ...from);
  const [x1, y1] = await armPoint(page, ...to);
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  await page.mouse.move(x1, y1, { steps });
  await page.mouse.up();
  // Let the queued animation frame run.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}
