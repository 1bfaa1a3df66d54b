#!/usr/bin/env node
/**
 * Adds to package-lock.json the entries of platform-specific optional packages that npm left out
 * (other operating systems' builds of rollup, biome…), without which `npm ci` refuses to run
 * ("Missing: @rollup/rollup-darwin-arm64@ from lock file"). npm leaves them out when the registry
 * it uses does not serve those builds (a filtered mirror) and through npm/cli#4828.
 *
 * Each added entry names the exact version its parent asks for and the os/cpu/libc its name
 * encodes, so `npm ci` skips it on every other platform and never downloads it here.
 * Run after any change to package-lock.json: `node scripts/complete-lockfile.mjs`; `--check` only
 * reports (exit 1 when something is missing).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const LOCK = join(dirname(fileURLToPath(import.meta.url)), '..', 'package-lock.json');
const OS = [
  'android',
  'darwin',
  'freebsd',
  'linux',
  'netbsd',
  'openbsd',
  'openharmony',
  'sunos',
  'win32',
  'aix',
];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el'];

/** `@rollup/rollup-linux-arm-musleabihf` → { os: linux, cpu: arm, libc: musl } */
function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = OS.find((candidate) => tokens.includes(candidate));
  const cpu = CPU.find((candidate) => tokens.includes(candidate));
  if (!os || !cpu) return null;
  const libc = tokens.some((t) => t.startsWith('musl'))
    ? 'musl'
    : os === 'linux' && tokens.some((t) => t.startsWith('gnu'))
      ? 'glibc'
      : undefined;
  return { os, cpu, libc };
}

/** Where node would find `name` from the package at `parentPath`, if the lock has it. */
function resolvedIn(packages, parentPath, name) {
  for (let base = parentPath; ; ) {
    if (packages[`${base ? `${base}/` : ''}node_modules/${name}`]) return true;
    if (!base) return false;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut === -1 ? '' : base.slice(0, cut);
  }
}

const checkOnly = process.argv.includes('--check');
const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const added = [];
const problems = [];
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    if (resolvedIn(lock.packages, path, name)) continue;
    const platform = platformOf(name);
    if (!platform || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(spec)) {
      problems.push(
        `${name}@${spec} (wanted by ${path || 'the project'}): cannot tell its platform or exact version`,
      );
      continue;
    }
    const key = lock.packages[`node_modules/${name}`]
      ? `${path}/node_modules/${name}`
      : `node_modules/${name}`;
    lock.packages[key] = {
      version: spec,
      cpu: [platform.cpu],
      dev: entry.dev,
      ...(platform.libc ? { libc: [platform.libc] } : {}),
      optional: true,
      os: [platform.os],
    };
    if (!entry.dev) delete lock.packages[key].dev;
    added.push(`${key}@${spec}`);
  }
}

for (const problem of problems) console.error(problem);
if (checkOnly) {
  for (const entry of added) console.log(`missing: ${entry}`);
  if (!added.length && !problems.length)
    console.log('package-lock.json lists every optional platform build npm ci checks for.');
  else if (added.length) console.log('Run `node scripts/complete-lockfile.mjs` to add them.');
  process.exit(added.length || problems.length ? 1 : 0);
}
if (added.length) {
  const { '': root, ...rest } = lock.packages;
  lock.packages = { '': root };
  for (const key of Object.keys(rest).sort((a, b) => a.localeCompare(b, 'en')))
    lock.packages[key] = rest[key];
  writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
}
console.log(`${added.length} entries added to package-lock.json`);
for (const entry of added) console.log(`  ${entry}`);
process.exit(problems.length ? 1 : 0);
