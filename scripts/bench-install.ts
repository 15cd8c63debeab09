// The install footprint for npm run bench: the tarball as npm pack makes it,
// installed into an empty project, as an element-only user does.
//   packages  every package under node_modules (nested ones too)
//   files     every file under node_modules, and their bytes (apparent size)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

type Row = [string, string, string];

/** Packages, files and bytes under a node_modules directory. */
function footprint(modules: string): { packages: number; files: number; bytes: number } {
  const total = { packages: 0, files: 0, bytes: 0 };
  const walk = (dir: string) => {
    const [parent, grandparent] = [basename(dirname(dir)), basename(dirname(dirname(dir)))];
    const name = basename(dir);
    // A package: node_modules/name or node_modules/@scope/name.
    if (
      (parent === 'node_modules' && !/^[.@]/.test(name)) ||
      (grandparent === 'node_modules' && parent.startsWith('@'))
    )
      total.packages++;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        total.files++;
        total.bytes += statSync(path).size;
      }
    }
  };
  walk(modules);
  return total;
}

/** Packs the package (which builds it), installs the tarball into an empty project, and measures. */
export function installRows(root = process.cwd()): Row[] {
  const work = mkdtempSync(join(tmpdir(), 'connect-provider-bench-install-'));
  try {
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const packed = JSON.parse(out.slice(out.search(/^\[\s*\{/m)))[0] as {
      filename: string;
      size: number;
      unpackedSize: number;
      entryCount: number;
    };
    const app = join(work, 'app');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'empty', private: true }));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', join(work, packed.filename)], {
      cwd: app,
      stdio: 'ignore',
    });
    const installed = footprint(join(app, 'node_modules'));
    const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
    return [
      [
        'install: npm install connect-provider into an empty project: packages, files',
        String(installed.packages),
        `${installed.files} files`,
      ],
      [
        'install: size on disk (node_modules), tarball unpacked / packed',
        mb(installed.bytes),
        `${mb(packed.unpackedSize)} / ${mb(packed.size)}`,
      ],
      ['install: tarball entries', String(packed.entryCount), ''],
    ];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
