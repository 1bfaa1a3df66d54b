/** The key goes only to an origin the user confirmed (Test connection with a typed, unsaved origin). */
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import { confirmKeyDestination, type KeyDestinationQuestion } from '@/lib/permissions/key-destination';

function deps(answers: { confirm: boolean; grant: boolean }, saved = 'https://saved.example') {
  const questions: KeyDestinationQuestion[] = [];
  const requests: string[][] = [];
  const order: string[] = [];
  return {
    questions,
    requests,
    order,
    confirmed: new Set<string>(),
    savedOrigin: async () => saved,
    confirm: async (question: KeyDestinationQuestion) => {
      order.push('confirm');
      questions.push(question);
      return answers.confirm;
    },
    permissions: {
      request: async ({ origins }: { origins: string[] }) => {
        order.push('request');
        requests.push(origins);
        return answers.grant;
      },
    },
  };
}

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('confirmKeyDestination', () => {
  it.each([
    ['the saved origin', 'https://saved.example'],
    ['the saved origin with a path', 'https://saved.example/ignored'],
    ['the default service', 'https://my.cleanbrowsing.org'],
  ])('%s needs no question', async (_, baseUrl) => {
    const d = deps({ confirm: false, grant: false });
    await confirmKeyDestination(baseUrl, d);
    expect(d.questions).toEqual([]);
    expect(d.requests).toEqual([]);
  });

  it('a new origin: asks, naming it and the saved one, then asks the browser for its permission', async () => {
    const d = deps({ confirm: true, grant: true });
    await confirmKeyDestination('https://attacker.example', d);
    expect(d.questions).toEqual([
      { origin: 'https://attacker.example', host: 'attacker.example', saved: 'https://saved.example' },
    ]);
    expect(d.order).toEqual(['confirm', 'request']);
    expect(d.requests).toEqual([['https://attacker.example/*']]);
    // Confirmed once on this page: not asked again.
    await confirmKeyDestination('https://attacker.example', d);
    expect(d.questions).toHaveLength(1);
  });

  it('a No stops it before the permission, on the base URL field', async () => {
    const d = deps({ confirm: false, grant: true });
    const error = await refusal(confirmKeyDestination('https://attacker.example', d));
    expect(error.kind).toBe('invalid-input');
    expect(error.details.field).toBe('baseUrl');
    expect(error.message).toBe('Not tested: the key was not sent to https://attacker.example.');
    expect(d.requests).toEqual([]);
    expect(d.confirmed.size).toBe(0);
  });

  it('a permission the browser does not grant stops it too', async () => {
    const d = deps({ confirm: true, grant: false });
    const error = await refusal(confirmKeyDestination('https://attacker.example', d));
    expect(error.message).toMatch(
      /^Not tested: the extension needs your permission to contact https:\/\/attacker\.example/,
    );
    expect(d.confirmed.size).toBe(0);
  });

  it('a loopback origin is asked about too, though it needs no permission', async () => {
    const d = deps({ confirm: true, grant: false });
    await confirmKeyDestination('http://127.0.0.1:9999', d);
    expect(d.questions).toHaveLength(1);
    expect(d.requests).toEqual([]);
  });
});
