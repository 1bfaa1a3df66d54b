/**
 * `npm run bench -- --baseline=<git-rev>`: the extension as it was at another revision, built to
 * be measured beside today's in the same browser run (README.md, "Benchmarks").
 *
 * The revision is checked out into a temporary git worktree, removed afterwards whatever happens,
 * and built there with its own wxt.config.ts and the bench's build variable, so the baseline is
 * built the way the bench built it at that revision. Both browsers install it beside the current
 * build: Chromium gives an unpacked extension an id that follows its folder, and Firefox reads
 * the add-on id from the manifest, which gets a `-baseline` suffix here.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type BaselineBrowser = 'chrome' | 'firefox';
const BROWSERS: readonly BaselineBrowser[] = ['chrome', 'firefox'];

export interface BaselineBuild {
  /** The revision as asked for and the commit it names, for the table's notes. */
  label: string;
  commit: string;
  dirs: Record<BaselineBrowser, string>;
  /** The Firefox add-on id the baseline installs under. */
  geckoId: string;
}

/** Records which commit the last baseline builds are of, so --no-build reuses only those. */
const STAMP = 'bench-baseline.json';

function git(root: string, args: string[]): string {
  const result = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

/** `name@domain` → `name-baseline@domain`: an id of its own, in the form Firefox accepts. */
export function baselineGeckoId(id: string): string {
  const at = id.indexOf('@');
  if (at <= 0) throw new Error(`The baseline's gecko id "${id}" is not of the form name@domain`);
  return `${id.slice(0, at)}-baseline${id.slice(at)}`;
}

/** Gives the Firefox build its own add-on id; returns it. */
function renameGeckoId(dir: string): string {
  const file = join(dir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  const gecko = manifest.browser_specific_settings?.gecko;
  if (typeof gecko?.id !== 'string') throw new Error("The baseline's Firefox manifest has no gecko id");
  gecko.id = baselineGeckoId(gecko.id);
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  return gecko.id;
}

/** Runs a command to its end; rejects with its output when it fails. */
function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  track: (child: ChildProcess | null) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    track(child);
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      track(null);
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} ended with ${signal ?? code}:\n${output}`));
    });
  });
}

/**
 * Builds the extension at `rev` for both browsers into `.output/bench-baseline-<browser>-mv3`
 * (beside the bench's own builds), or with `reuse` keeps the builds there if they are of the
 * same commit.
 */
export async function prepareBaseline(
  root: string,
  rev: string,
  options: { reuse: boolean; log(line: string): void },
): Promise<BaselineBuild> {
  const resolved = spawnSync('git', ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], {
    cwd: root,
    encoding: 'utf8',
  });
  if (resolved.status !== 0) throw new Error(`--baseline=${rev}: no such git revision`);
  const commit = resolved.stdout.trim();
  const label = `${rev} (${git(root, ['log', '-1', '--format=%h', commit])})`;
  options.log(`Baseline ${label}: ${git(root, ['log', '-1', '--format=%s', commit])}`);
  const dirs = Object.fromEntries(
    BROWSERS.map((browser) => [browser, join(root, '.output', `bench-baseline-${browser}-mv3`)]),
  ) as Record<BaselineBrowser, string>;
  const stampFile = join(root, '.output', STAMP);
  const stamp = existsSync(stampFile) ? JSON.parse(readFileSync(stampFile, 'utf8')) : null;
  if (options.reuse && stamp?.commit === commit && BROWSERS.every((b) => existsSync(dirs[b]))) {
    options.log(`Baseline ${label}: reusing its last builds`);
    return { label, commit, dirs, geckoId: stamp.geckoId };
  }

  rmSync(stampFile, { force: true });
  const parent = mkdtempSync(join(tmpdir(), 'bench-baseline-'));
  const worktree = join(parent, 'src');
  let child: ChildProcess | null = null;
  let removed = false;
  const removeWorktree = () => {
    if (removed) return;
    removed = true;
    child?.kill();
    spawnSync('git', ['worktree', 'remove', '--force', worktree], { cwd: root });
    rmSync(parent, { recursive: true, force: true });
    spawnSync('git', ['worktree', 'prune'], { cwd: root });
  };
  // An interrupted bench removes the worktree too; the signal then ends the process as usual.
  const onSignal = (signal: NodeJS.Signals) => {
    removeWorktree();
    process.kill(process.pid, signal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    options.log(`Baseline ${label}: building in a temporary worktree (${worktree})…`);
    git(root, ['worktree', 'add', '--detach', worktree, commit]);
    symlinkSync(realpathSync(join(root, 'node_modules')), join(worktree, 'node_modules'));
    const track = (running: ChildProcess | null) => {
      child = running;
    };
    await run('npx', ['wxt', 'prepare'], worktree, process.env, track);
    let geckoId = '';
    for (const browser of BROWSERS) {
      options.log(`Baseline ${label}: building for ${browser}…`);
      await run(
        'npx',
        ['wxt', 'build', '-b', browser],
        worktree,
        { ...process.env, WXT_BENCH: 'shipped' },
        track,
      );
      // The bench's own folder at that revision, or WXT's default where it had none.
      const built = [`bench-shipped-${browser}-mv3`, `${browser}-mv3`]
        .map((folder) => join(worktree, '.output', folder))
        .find((folder) => existsSync(join(folder, 'manifest.json')));
      if (!built) throw new Error(`The baseline's ${browser} build left no manifest.json in .output/`);
      rmSync(dirs[browser], { recursive: true, force: true });
      cpSync(built, dirs[browser], { recursive: true });
      if (browser === 'firefox') geckoId = renameGeckoId(dirs[browser]);
    }
    writeFileSync(stampFile, `${JSON.stringify({ commit, geckoId })}\n`);
    return { label, commit, dirs, geckoId };
  } finally {
    removeWorktree();
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}
