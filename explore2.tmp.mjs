import { chromium } from '@playwright/test';
import { CHROMIUM } from './scripts/chromium.mjs';
const browser = await chromium.launch(CHROMIUM);
const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
page.on('console', (m) => console.log('console', m.type(), m.text().slice(0, 300)));
await page.goto('http://127.0.0.1:4183/buddyscope/#/playground');
await page.waitForFunction(() => !!window.__buddyscope, null, { timeout: 60000 });
const r = await page.evaluate(async () => { const b = await window.__buddyscope.bench(); return b.stepViewsBench(15); }).catch(e => String(e));
const f = (t) => `med ${t.median.toFixed(1)} p95 ${t.p95.toFixed(1)} max ${t.max.toFixed(1)}`;
if (typeof r === 'string') console.log(r); else { for (const k of ['back','forward','seek']) console.log(k, 'total', f(r[k].total), '| player', f(r[k].player), '| views', f(r[k].views)); console.log(r.checkpoints, r.snapshotBytes, r.frames, r.panels); }
await browser.close();
