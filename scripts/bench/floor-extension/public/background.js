// The floor extension's background: on install it stores the one value its popup reads and opens
// host.html, the extension page the bench reads the popup through in Firefox
// (browser.extension.getViews answers only the extension's own pages).
const api = globalThis.browser ?? globalThis.chrome;
api.runtime.onInstalled.addListener(async () => {
  await api.storage.local.set({ word: 'Ready' });
  await api.tabs.create({ url: 'host.html', active: false });
});
