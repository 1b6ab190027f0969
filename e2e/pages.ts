// Every page of the site, relative to the base URL. The accessibility test scans each one:
// add a page here when you add it to the app.
export const PAGES: { name: string; path: string; ready: string }[] = [
  // `ready` is a heading (exact text) that shows once the page has loaded its content.
  { name: 'home', path: './', ready: 'Your simulated machine' },
  { name: 'playground', path: './#/playground', ready: 'Memory map' },
  { name: 'model notes', path: './#/model-notes', ready: 'Model notes: where Buddyscope simplifies the kernel' },
  { name: 'keyboard', path: './#/keys', ready: 'Keyboard' },
];
