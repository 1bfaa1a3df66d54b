import { render } from '@testing-library/preact';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AccountSwitcher } from '@/components/AccountSwitcher';
import { AccountsSection } from '@/components/options/AccountsSection';
import { EntryOrigin } from '@/components/options/EntryNote';
import { StatusMessage } from '@/components/StatusMessage';
import { createApiClient } from '@/lib/api';
import { isolatedSegments, isolateText, t } from '@/lib/i18n';
import { fakeFetch, json } from '../api/fake-fetch';

const RLO = '\u202E';
const FSI = '\u2068';
const PDI = '\u2069';

/** The isolates of `text` are balanced and nothing follows the last one's close. */
function isolatesBalanced(text: string): boolean {
  let depth = 0;
  for (const character of text) {
    if ('\u2066\u2067\u2068'.includes(character)) depth += 1;
    else if (character === PDI) {
      depth -= 1;
      if (depth < 0) return false;
    }
  }
  return depth === 0;
}

describe('values inserted into sentences are direction-isolated', () => {
  it('a reason with a right-to-left override is wrapped in an isolate; plain values are left alone', () => {
    expect(t('registration.notRegistered', { reason: `${RLO}evil` })).toBe(
      `Not registered: ${FSI}${RLO}evil${PDI}`,
    );
    expect(t('registration.notRegistered', { reason: 'no answer' })).toBe('Not registered: no answer');
    expect(t('registration.notRegistered', { reason: 'שלום' })).toBe(`Not registered: ${FSI}שלום${PDI}`);
  });

  it('whatever the value holds, its isolate stays balanced and closes where the value ends', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(
            'a',
            ' ',
            'א',
            '\u202A',
            '\u202B',
            '\u202C',
            RLO,
            '\u2066',
            '\u2067',
            FSI,
            PDI,
          ),
        }),
        (value) => {
          const sentence = t('registration.notRegistered', { reason: value });
          expect(isolatesBalanced(sentence)).toBe(true);
          const segments = isolatedSegments(sentence);
          if (sentence === `Not registered: ${value}`) {
            // Left alone only when nothing in it is directional.
            expect(value).toMatch(/^[a ]*$/);
          } else {
            expect(sentence.startsWith(`Not registered: ${FSI}`) && sentence.endsWith(PDI)).toBe(true);
            expect(segments[0]).toEqual({ text: 'Not registered: ', isolated: false });
            // One isolated value (none when only stray closers were in it), nothing after it.
            expect(segments.slice(1).every((segment) => segment.isolated)).toBe(true);
            expect(segments.length).toBeLessThanOrEqual(2);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a stray closing isolate in the value cannot end the wrapper early', () => {
    expect(isolateText(`${PDI}${RLO}x`)).toBe(`${FSI}${RLO}x${PDI}`);
    expect(isolateText(`\u2067x`)).toBe(`${FSI}\u2067x${PDI}${PDI}`);
  });

  it("the service's reason with U+202E is shown inside a <bdi> in the status region, the sentence outside it", async () => {
    const { fetch } = fakeFetch(() => json({ status: 'failed', reason: `${RLO}Refused by policy` }));
    const api = createApiClient({ baseUrl: 'https://dns.example', form: 'A', key: 'KEY123', fetch });
    const error = await api.addDomain('whitelist', 'example.com', 'default').then(
      () => null,
      (thrown: Error) => thrown,
    );
    expect(error?.message).toContain(`${FSI}${RLO}Refused by policy${PDI}`);
    const view = render(<StatusMessage status={{ state: 'failed', message: error?.message ?? '' }} />);
    const status = view.getByRole('status');
    const isolated = [...status.querySelectorAll('bdi')].map((element) => element.textContent);
    expect(isolated).toContain(`${RLO}Refused by policy`);
    const reasonNode = [...status.querySelectorAll('bdi')].find((element) =>
      element.textContent?.includes('Refused by policy'),
    );
    expect(reasonNode?.closest('bdi')).toBe(reasonNode);
    expect(status.textContent?.startsWith('Could not ')).toBe(true);
  });
});

describe('account names and notes are shown isolated', () => {
  const HEBREW = 'משרד';

  it('in the Account combobox, each name is its own unit', () => {
    const view = render(
      <AccountSwitcher
        accounts={[
          { id: 'a', name: `${HEBREW} 2` },
          { id: 'b', name: 'Office' },
        ]}
        activeId="b"
        onChoose={() => undefined}
      />,
    );
    const options = [...view.getByRole('combobox', { name: 'Account' }).querySelectorAll('option')];
    expect(options.map((option) => option.textContent)).toEqual([`${FSI}${HEBREW} 2${PDI}`, 'Office']);
  });

  it('in the Accounts section, each name is in a <bdi>', () => {
    const view = render(
      <AccountsSection
        view={{
          activeId: 'a',
          accounts: [
            {
              id: 'a',
              name: `${HEBREW} 2`,
              baseUrl: 'https://my.cleanbrowsing.org',
              form: 'A',
              hasKey: true,
              waiting: 0,
            },
          ],
        }}
        actions={{
          maxAccounts: 10,
          checkName: (typed) => typed,
          add: async () => ({ active: false }),
          testConnection: async () => [],
          rename: async () => undefined,
          remove: async () => undefined,
          activate: async () => undefined,
        }}
      />,
    );
    const list = view.getByRole('list', { name: 'Your accounts' });
    expect([...list.querySelectorAll('bdi')].map((element) => element.textContent)).toContain(`${HEBREW} 2`);
  });

  it('under a list entry, the note is in a <bdi>: an override in it reorders nothing after it', () => {
    const view = render(
      <EntryOrigin
        record={{
          scope: 'A:default',
          list: 'whitelist',
          domain: 'school.example',
          note: `${RLO}latrop loohcs`,
          at: 1,
        }}
      />,
    );
    const isolated = [...view.container.querySelectorAll('bdi')].map((element) => element.textContent);
    expect(isolated).toEqual([`${RLO}latrop loohcs`]);
  });
});
