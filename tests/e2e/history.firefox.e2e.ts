import { test } from './harness/index.ts';
import { historyStory } from './history-steps.ts';

test('a change made elsewhere shows in History and is rolled back to the snapshot (Firefox)', {
  timeout: 120_000,
}, async ({ firefox, emulator }) => {
  await historyStory(firefox.optionsPage, emulator);
});
