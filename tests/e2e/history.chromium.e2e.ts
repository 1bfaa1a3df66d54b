import { test } from './harness/index.ts';
import { historyStory } from './history-steps.ts';

test('a change made elsewhere shows in History and is rolled back to the snapshot', async ({
  chromium,
  emulator,
}) => {
  await historyStory(await chromium.openOptions(), emulator);
});
