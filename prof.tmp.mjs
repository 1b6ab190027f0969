import { chromium } from '@playwright/test';
import { CHROMIUM } from './scripts/chromium.mjs';
const browser = await chromium.launch(CHROMIUM);
const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
await page.goto('http://127.0.0.1:4183/buddyscope/#/playground');
await page.waitForFunction(() => !!window.__buddyscope, null, { timeout: 60000 });
await page.evaluate(async () => { const b = await window.__buddyscope.bench(); await b.stepViewsBench(2, b.BIG_WORKLOAD); });
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Profiler.start');
await page.evaluate(async () => { const b = await window.__buddyscope.bench(); await b.stepViewsBench(15, b.BIG_WORKLOAD); });
const { profile } = await cdp.send('Profiler.stop');
const self = new Map(); const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const dt = profile.timeDeltas; const counts = new Map();
profile.samples.forEach((id, i) => counts.set(id, (counts.get(id) ?? 0) + (dt[i] ?? 0)));
for (const [id, us] of counts) { const n = byId.get(id); const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + us); }
console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([k, us]) => `${(us / 1000).toFixed(0).padStart(6)} ms ${k}`).join('\n'));
await browser.close();
