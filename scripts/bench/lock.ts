/**
 * The passphrase lock's derivation (docs/lock.md, "Design"): PBKDF2-SHA-256 at the rounds the
 * product uses, and opening the sealed keys with it, as an unlock does. In Node's WebCrypto, the
 * same primitives the browsers run off the page's main thread.
 */
import { deriveKey, newSalt, open, PBKDF2_ITERATIONS, seal } from '../../lib/lock/crypto.ts';
import { below, type Figure, figure } from './figures.ts';

export async function measureLockKdf(options: { runs: number }): Promise<Figure[]> {
  const derivation = { salt: newSalt(), iterations: PBKDF2_ITERATIONS };
  const sealed = await seal(
    await deriveKey('bench passphrase', derivation.salt, derivation.iterations),
    JSON.stringify({ apiKey: 'k'.repeat(32), accountKeys: {} }),
    derivation,
  );
  const unlockMs: number[] = [];
  for (let run = 0; run < options.runs; run++) {
    const start = performance.now();
    const key = await deriveKey('bench passphrase', derivation.salt, derivation.iterations);
    if ((await open(key, sealed)) === null) throw new Error('the sealed keys did not open');
    unlockMs.push(Math.round(performance.now() - start));
  }
  return [
    figure(
      'lock-unlock-ms',
      'Unlock: key derivation and opening the keys',
      'ms',
      unlockMs,
      below(1000, '< 1 s'),
      `PBKDF2-SHA-256, ${PBKDF2_ITERATIONS.toLocaleString('en')} rounds, then AES-GCM; Node's WebCrypto`,
    ),
  ];
}
