/**
 * The popup's first modules (its page's module script and everything it imports statically, in
 * each built browser) carry no zod: pages read stored values by their structure and load zod only
 * to write one (docs/architecture.md, "Storage"). One static import of the wrong module brings it
 * back and costs every opening its loading, which no test of behaviour would notice. And they are one
 * file: the popup is built on its own (scripts/build/popup-own-build.ts), so no chunk it shares
 * with the options page is a second module to load as it opens; and the page asks for that module
 * before its first script (scripts/build/preload-page-module.ts). And every file its lazy
 * imports fetch first is in the build.
 *
 * Run after the builds: `npx tsx scripts/check-popup-modules.ts` (npm test does).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sizeOfPage } from './bench/bundle-size.ts';
import { modulePreloadLink } from './build/preload-page-module.ts';

const ROOT = join(import.meta.dirname, '..');
const BUILDS = ['chrome-mv3', 'firefox-mv3'];

/** Text only each library's code has, as it stands in a minified chunk. */
const MARKERS = [
  // Every zod schema keeps its internals under this property; minifiers never rename properties.
  { library: 'zod', text: '._zod' },
];

/**
 * The files a chunk's lazy imports fetch before they run (Vite's `__vite__mapDeps` list, paths
 * from the build folder). One that is missing fails that import: the popup's stylesheet is in
 * its page, not a file (scripts/build/inline-page-css.ts), so no chunk may name it here.
 */
function preloadedFiles(code: string): string[] {
  const list = /__vite__mapDeps=.*?m\.f=(\[[^\]]*\])/.exec(code)?.[1];
  return list ? (JSON.parse(list) as string[]) : [];
}

let failures = 0;
for (const build of BUILDS) {
  const dir = join(ROOT, '.output', build);
  if (!existsSync(join(dir, 'popup.html'))) {
    console.error(`${build}: no build (run npm run build and npm run build:firefox first)`);
    failures++;
    continue;
  }
  const { initial, lazy } = sizeOfPage(dir, 'popup.html');
  for (const file of [...initial.files, ...lazy.files]) {
    const code = readFileSync(join(dir, file), 'utf8');
    const missing = preloadedFiles(code).filter((needed) => !existsSync(join(dir, needed)));
    if (missing.length > 0) {
      console.error(`${build}: ${file} loads ${missing.join(', ')} first, which the build does not have`);
      failures++;
    }
    if (!initial.files.includes(file)) continue;
    for (const { library, text } of MARKERS) {
      if (code.includes(text)) {
        console.error(`${build}: the popup's first modules include ${library} (${file})`);
        failures++;
      }
    }
  }
  const modules = initial.files.filter((file) => file.startsWith('chunks/'));
  if (modules.length !== 1) {
    console.error(
      `${build}: the popup opens with ${modules.length} modules, not one (${modules.join(', ')})`,
    );
    failures++;
  }
  const html = readFileSync(join(dir, 'popup.html'), 'utf8');
  const preload = html.indexOf(modulePreloadLink(`/${modules[0]}`));
  if (preload === -1 || preload > html.indexOf('<script')) {
    console.error(`${build}: popup.html does not ask for its module before its first script`);
    failures++;
  }
  if (failures === 0)
    console.log(`${build}: the popup's first script and its one module (asked for first) have no zod`);
}
process.exit(failures === 0 ? 0 : 1);
