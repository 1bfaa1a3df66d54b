/**
 * npm run emulator -- [--port 8787] [--host 127.0.0.1] [--key demo-key-0000] [--seed demo|empty]
 *                     [--big-day-mb 0] [--today yyyy-mm-dd] [--big-stats-day yyyy-mm-dd]
 *                     [--no-dump-guard] [--latency ms]
 * Runs until Ctrl-C.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { DEFAULT_KEY, startEmulator } from './index.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8787' },
    host: { type: 'string', default: '127.0.0.1' },
    key: { type: 'string', default: DEFAULT_KEY },
    seed: { type: 'string', default: 'demo' },
    'big-day-mb': { type: 'string', default: '0' },
    today: { type: 'string' },
    'big-stats-day': { type: 'string' },
    'no-dump-guard': { type: 'boolean', default: false },
    latency: { type: 'string', default: '0' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  console.log(
    'Usage: npm run emulator -- [--port 8787] [--host 127.0.0.1] [--key KEY] [--seed demo|empty]\n' +
      '       [--big-day-mb N] [--today yyyy-mm-dd] [--big-stats-day yyyy-mm-dd] [--no-dump-guard] [--latency ms]',
  );
  process.exit(0);
}

const args = z
  .object({
    port: z.coerce.number().int().min(0).max(65535),
    seed: z.enum(['demo', 'empty']),
    bigDayMb: z.coerce.number().nonnegative(),
    latency: z.coerce.number().nonnegative(),
  })
  .parse({ port: values.port, seed: values.seed, bigDayMb: values['big-day-mb'], latency: values.latency });

const emulator = await startEmulator({
  port: args.port,
  host: values.host,
  key: values.key,
  seed: args.seed,
  bigDayMb: args.bigDayMb,
  today: values.today,
  bigStatsDay: values['big-stats-day'],
  dumpGuard: !values['no-dump-guard'],
});
emulator.admin.setLatency(args.latency);

const { emulator: info } = emulator.admin.state();
console.log(`DNS filtering service emulator at ${emulator.url}
  Form A:     ${emulator.url}/api
  Form B:     ${emulator.url}/api/v1/
  API key:    ${emulator.key}   (demo key)
  IP lookup:  ${emulator.url}/ip  and  ${emulator.url}/ip.json  (answers ${info.publicIp})
  Log days:   ${emulator.admin.state().logs.length}, newest ${info.today}${info.bigDay ? `, big day ${info.bigDay}` : ''}
  Admin:      ${emulator.url}/__admin/state
Ctrl-C to stop.`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void emulator.close().finally(() => process.exit(0));
  });
}
