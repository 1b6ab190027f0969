// chromium.mjs: how every tool here launches Debian's Chromium (no downloaded browsers): the
// Playwright tests, the browser benchmarks and the README screenshot. BUDDYSCOPE_CHROMIUM points
// elsewhere when the binary lives elsewhere.
export const CHROMIUM = {
  executablePath: process.env.BUDDYSCOPE_CHROMIUM ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
