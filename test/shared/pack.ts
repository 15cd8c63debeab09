// The package's tarball for the suites that install it (test/package, test/examples): `npm pack` (which builds) into
// a folder of the suite's, or the tarball that `npm test` packed once for all of them, named by CONNECT_PROVIDER_PACK
// (the file holding `npm pack --json`'s output, beside the tarball).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** What `npm pack --json` says of the tarball. */
export interface Packed {
  filename: string;
  files: Array<{ path: string; size: number }>;
  unpackedSize: number;
  entryCount: number;
}

/** `npm pack --json`'s output: prepack's build logs come first; the JSON array is the rest. */
function parse(stdout: string): Packed {
  return (JSON.parse(stdout.slice(stdout.search(/^\[\s*\{/m))) as Packed[])[0]!;
}

/** The tarball's path and what npm pack said of it; packs into `destination` unless `npm test` packed already. */
export async function packedPackage(destination: string): Promise<{ tarball: string; packed: Packed }> {
  const shared = process.env.CONNECT_PROVIDER_PACK;
  if (shared) {
    const packed = parse(readFileSync(shared, 'utf8'));
    return { tarball: join(dirname(shared), packed.filename), packed };
  }
  const { stdout } = await promisify(execFile)('npm', ['pack', '--json', '--pack-destination', destination], {
    cwd: root,
    timeout: 300_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const packed = parse(stdout);
  return { tarball: join(destination, packed.filename), packed };
}
