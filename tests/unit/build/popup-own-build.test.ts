// @vitest-environment node

import { describe, expect, it } from 'vitest';
import type { Entrypoint, EntrypointGroup } from 'wxt';
import { buildPopupAlone } from '../../../scripts/build/popup-own-build';

const entry = (name: string, type: Entrypoint['type']) => ({ name, type }) as Entrypoint;

describe('buildPopupAlone', () => {
  it("moves the popup out of the pages' shared build step into one of its own, still built as a page", () => {
    const popup = entry('popup', 'popup');
    const options = entry('options', 'options');
    const worker = entry('background', 'background');
    const groups: EntrypointGroup[] = [[popup, options], worker];
    buildPopupAlone(groups);
    expect(groups).toEqual([[options], worker, [popup]]);
  });

  it('leaves the groups alone when the popup already builds alone or there is none', () => {
    const alone: EntrypointGroup[] = [[entry('options', 'options')], [entry('popup', 'popup')]];
    const without: EntrypointGroup[] = [[entry('options', 'options'), entry('page', 'unlisted-page')]];
    const before = [structuredClone(alone), structuredClone(without)];
    buildPopupAlone(alone);
    buildPopupAlone(without);
    expect([alone, without]).toEqual(before);
  });
});
