import { browser } from 'wxt/browser';

export default defineBackground(() => {
  // Listeners are registered synchronously here: an MV3 worker may be woken by any of them.
  browser.runtime.onInstalled.addListener(({ reason }) => {
    // A new user lands on setup: nothing works until a key is saved.
    if (reason === 'install') void browser.runtime.openOptionsPage();
  });
});
