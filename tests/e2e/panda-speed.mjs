// The Panda view's speed in headless Chromium: three drags of the target (40 steps each) with
// LOInK + refine 3, the page's frame time (solve + every panel) at each step, then the settled
// solve readout (timed by repetition while idle). Prints figures; asserts nothing.
//   node tests/e2e/panda-speed.mjs            the Panda's position view
//   node tests/e2e/panda-speed.mjs HASH       another 3-D view, e.g. the pose:
//     '#model=panda-pose&solver=loink-refine&refine=3&target=0.3088,-0.4336,0.5452,0.3473,0.7982,-0.4689,-0.1497'
import { startAll, openPlayground } from './harness.mjs';
const hash = process.argv[2] ?? '#model=panda&solver=loink-refine&refine=3&target=0.45,-0.2,0.35';
const env = await startAll();
try {
  const page = await openPlayground(env, { hash });
  await page.evaluate(() => window.loinkPlayground.whenIdle());
  const box = await page.locator('canvas#arm').boundingBox();
  const frames = [];
  for (let round = 0; round < 3; round++) {
    const s0 = await page.evaluate(() => window.loinkPlayground.getState());
    const [px, py] = await page.evaluate((q) => window.loinkPlayground.worldToCanvas(...q), s0.target);
    await page.mouse.move(box.x + px, box.y + py);
    await page.mouse.down();
    for (let k = 1; k <= 40; k++) {
      await page.mouse.move(box.x + px + 2 * k * (round % 2 ? -1 : 1), box.y + py - k);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
      const s = await page.evaluate(() => window.loinkPlayground.getState());
      frames.push(s.frameMs);
    }
    await page.mouse.up();
  }
  const med = (a) => { const b = [...a].sort((x, y) => x - y); return b[b.length >> 1]; };
  await page.evaluate(() => window.loinkPlayground.whenIdle());
  const s = await page.evaluate(() => window.loinkPlayground.getState());
  console.log(JSON.stringify({ n: frames.length, frameMedian: med(frames), frameMax: Math.max(...frames), settledSolveUs: s.readouts['solve-us'], status: s.status }));
} finally { await env.close(); }
