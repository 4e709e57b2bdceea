// The browser benchmark: opens index.html?bench=1 in headless Chromium, which times
// 1,000 whole frames (solve + all panels) and each interactive solver in wasm (Rust does the
// timing: Playground.bench); runs the same solve benchmark natively
// (crates/loink-web/examples/native_bench.rs) for the wasm/native ratio; measures the gzipped
// download (wasm + JS + the default model's weights; the lessons' bundle is listed apart) and the
// first interactive and first full frames on localhost.
// The shipped page carries no benchmark: this script builds the playground with its `bench`
// feature into target/bench-pkg (scripts/build-web.sh --bench) and serves that bundle in place of
// pkg/ to the benchmarked pages; the download sizes are the shipped pkg/'s.
//   cd tests && node e2e/bench.mjs [FRAMES]
import { spawnSync } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { startAll, ROOT } from './harness.mjs';

const frames = Number(process.argv[2]) || 1000;
const gz = (rel) => gzipSync(readFileSync(join(ROOT, rel)), { level: 9 }).length;

const BENCH_PKG = join(ROOT, 'target', 'bench-pkg');
const built = spawnSync(join(ROOT, 'scripts', 'build-web.sh'), ['--bench', BENCH_PKG], { cwd: ROOT, encoding: 'utf8' });
if (built.status !== 0) {
  console.error(built.stderr);
  process.exit(1);
}

/** Serves the benchmark bundle in place of pkg/'s playground bundle to `page`. */
async function routeBenchBundle(page) {
  for (const file of ['loink_web_bg.wasm', 'loink_web.js']) {
    await page.route(`**/pkg/${file}`, (route) => route.fulfill({
      path: join(BENCH_PKG, file),
      contentType: file.endsWith('.wasm') ? 'application/wasm' : 'text/javascript',
    }));
  }
}

/** The same solve benchmark natively (crates/loink-web/examples/native_bench.rs): one row a solver. */
function nativeBench() {
  const run = spawnSync('cargo', ['run', '--quiet', '--release', '-p', 'loink-web', '--features', 'bench', '--example', 'native_bench', '--', String(frames)],
    { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) {
    console.error(run.stderr);
    process.exit(1);
  }
  return run.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

const nativeBefore = nativeBench();
const env = await startAll();
let report;
const LOADS = 9;
const interactiveFrame = [];
const firstFrame = [];
const phases = []; // the page script's User Timing marks per load
let defaultModel;
try {
  const models = JSON.parse(readFileSync(join(ROOT, 'tests', 'e2e', 'bench-models.json'), 'utf8'));
  // A link that does not name `feedback` opens the one-shot inverse (settings.rs): the bench
  // names the bare page's default so it times what a newcomer runs, like native_bench.
  const bare = await env.browser.newContext();
  const probe = await bare.newPage();
  await probe.goto(`${env.base}/index.html`);
  await probe.evaluate(() => window.loinkPlayground.ready);
  const feedback = await probe.evaluate(() => window.loinkPlayground.settings().feedback);
  await bare.close();
  report = [];
  for (const model of models) {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await routeBenchBundle(page);
    await page.goto(`${env.base}/index.html?bench=1&frames=${frames}#model=${model}&feedback=${feedback}`);
    await page.waitForFunction(() => window.loinkBench, null, { timeout: 600_000, polling: 500 });
    const r = await page.evaluate(() => window.loinkBench);
    r.readyAtMs = Number(await page.evaluate(() => document.documentElement.dataset.readyAtMs));
    r.consoleErrors = errors;
    report.push(r);
    await context.close();
  }
  // First frames, nine fresh loads (fresh context: no HTTP or code cache), navigation start →
  // the arm panel with its readouts drawn and input live (`interactive`), and → all four
  // panels drawn (`ready`, one frame later).
  for (let i = 0; i < LOADS; i++) {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${env.base}/index.html`);
    await page.evaluate(() => window.loinkPlayground.ready);
    defaultModel ??= await page.evaluate(() => window.loinkPlayground.models()[0]);
    const at = await page.evaluate(() => ({ ...document.documentElement.dataset }));
    phases.push(await page.evaluate(() => Object.fromEntries(performance.getEntriesByType('mark')
      .filter((m) => m.name.startsWith('loink:')).map((m) => [m.name.slice(6), m.startTime]))));
    interactiveFrame.push(Number(at.interactiveAtMs));
    firstFrame.push(Number(at.readyAtMs));
    await context.close();
  }
} finally {
  await env.close();
}

const nativeAfter = nativeBench();
// This machine's speed drifts by up to ~1.7× over minutes: the native half runs before and
// after the browser half, and each ratio uses the mean of the two (both are printed).
const nativeRows = nativeBefore.map((b) => {
  const a = nativeAfter.find((x) => x.model === b.model && x.solver === b.solver && x.feedback === b.feedback);
  return { ...b, before: b.medianMicros, after: a?.medianMicros, medianMicros: a ? (b.medianMicros + a.medianMicros) / 2 : b.medianMicros };
});

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sizes = {
  wasm: gz('pkg/loink_web_bg.wasm'),
  // Lesson pages alone load web/lessons.js and web/lessons.css (counted with the lessons).
  js: gz('pkg/loink_web.js') + gz('web/app.min.js'),
  page: gz('index.html') + gz('web/style.css'),
  // The catalog's first model is the one the page loads when the hash names none.
  weights: defaultModel && existsSync(join(ROOT, defaultModel.file)) ? gz(defaultModel.file) : 0,
  // Fetched by lesson pages only (#lesson=…), not part of the playground's download.
  lessons: gz('pkg/lessons/loink_web_bg.wasm') + gz('pkg/lessons/loink_web.js') + gz('web/lessons.js') + gz('web/lessons.css'),
};
sizes.total = sizes.wasm + sizes.js + sizes.weights;

console.log(`browser bench, ${frames} frames per model, headless Chromium on 127.0.0.1`);
for (const r of report) {
  console.log(`  ${r.model}: frame (solve + all panels) median ${r.frameMedianMs.toFixed(2)} ms, p95 ${r.frameP95Ms.toFixed(2)} ms${r.consoleErrors.length ? `, console errors: ${r.consoleErrors.length}` : ''}`);
  for (const s of r.solves) {
    const n = nativeRows.find((x) => x.model === s.model && x.solver === s.solver && x.feedback === s.feedback);
    const ratio = n ? (s.medianMicros / n.medianMicros).toFixed(2) : 'n/a';
    const nat = n ? `${n.medianMicros.toFixed(1)} µs (before ${n.before.toFixed(1)}, after ${n.after?.toFixed(1) ?? 'n/a'})` : 'n/a';
    const label = s.solver.startsWith('loink') ? `${s.solver} fb ${s.feedback}` : s.solver;
    console.log(`    ${label.padEnd(18)} wasm median ${s.medianMicros.toFixed(1)} µs (p95 ${s.p95Micros.toFixed(1)}), native ${nat}, wasm/native ${ratio}, converged ${s.converged}/${s.frames}`);
  }
}
const listed = (xs) => `median of ${xs.length}: ${median(xs).toFixed(0)} ms [${xs.map((x) => x.toFixed(0)).join(', ')}]`;
console.log(`  first interactive frame (navigation start → arm panel, readouts and input live), ${listed(interactiveFrame)}`);
console.log(`  first full frame (navigation start → all four panels drawn), ${listed(firstFrame)}`);
const names = Object.keys(phases[0] || {});
console.log(`  start-up phases, median ms after navigation start: ${names.map((n) => `${n} ${median(phases.map((p) => p[n])).toFixed(0)}`).join(', ')}`);
console.log(`  download gzipped: wasm ${(sizes.wasm / 1024).toFixed(1)} KiB + JS ${(sizes.js / 1024).toFixed(1)} KiB + default weights (${defaultModel?.name}) ${(sizes.weights / 1024).toFixed(1)} KiB = ${(sizes.total / 1024).toFixed(1)} KiB = ${(sizes.total / 1000).toFixed(1)} kB (page html+css ${(sizes.page / 1024).toFixed(1)} KiB; lesson pages add ${(sizes.lessons / 1024).toFixed(1)} KiB)`);
console.log(JSON.stringify({ frames, report, nativeRows, interactiveFrameMs: interactiveFrame, firstFrameMs: firstFrame, sizes }));
