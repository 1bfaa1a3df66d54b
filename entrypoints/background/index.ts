import { browser } from 'wxt/browser';
import { registerDiagnosis } from './diagnosis';
import {
  onAlarm,
  onCommand,
  onMenuClicked,
  onMessage,
  onStorageChanged,
  reconcileSchedulesNow,
  run,
  setUp,
  setUpAfterInstall,
} from './handlers';

export default defineBackground(() => {
  // Listeners are registered synchronously here: an MV3 worker may be woken by any of them, and
  // an event whose listener is added later (after an await) is lost.
  browser.runtime.onInstalled.addListener(({ reason }) => {
    // A new user lands on setup: nothing works until a key is saved.
    if (reason === 'install') void browser.runtime.openOptionsPage();
    // Stored values are migrated first; menus are created here (they outlive the worker); alarms
    // only when missing.
    run(setUpAfterInstall);
  });
  browser.runtime.onStartup.addListener(() => run(setUp));
  browser.runtime.onMessage.addListener((message, sender) => onMessage(message, sender));
  browser.alarms.onAlarm.addListener((alarm) => run(() => onAlarm(alarm)));
  browser.contextMenus.onClicked.addListener((info, tab) => run(() => onMenuClicked(info, tab)));
  browser.commands.onCommand.addListener((command, tab) => run(() => onCommand(command, tab)));
  browser.storage.onChanged.addListener((changes, area) => run(() => onStorageChanged(changes, area)));
  // Page diagnosis: its optional permissions' listeners, when granted (see ./diagnosis.ts).
  registerDiagnosis();
  // The worker started (woken by any event): schedules missed while it slept are put right, with
  // no call when nothing differs (docs/schedules.md, "Reconciliation").
  run(reconcileSchedulesNow);
});
