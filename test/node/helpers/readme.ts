// Runs the code blocks of README.md marked "ts example:NAME", so the README
// cannot drift from what the package does.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Where each public entry point lives in the source tree. */
const ENTRIES: Record<string, string> = {
  'connect-provider/api': 'src/api/index.ts',
  'connect-provider/server': 'src/server/index.ts',
  'connect-provider/emulator': 'src/emulator/index.ts',
};

export function readmeExample(name: string): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const match = new RegExp('```ts example:' + name + '\\n([\\s\\S]*?)```').exec(readme);
  if (!match) throw new Error(`README.md has no block "ts example:${name}"`);
  return match[1];
}

/** Runs a README example with Node (through tsx), its package imports pointed at src/. */
export function runReadmeExample(
  name: string,
  env: Record<string, string>,
  timeoutMs = 20000,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let code = readmeExample(name);
  for (const [specifier, file] of Object.entries(ENTRIES)) {
    code = code.replaceAll(`'${specifier}'`, `'${join(root, file)}'`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'readme-example-'));
  const file = join(dir, `${name}.mts`);
  writeFileSync(file, code);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', file],
      { cwd: root, env: { ...process.env, ...env }, timeout: timeoutMs },
      (error, stdout, stderr) => {
        rmSync(dir, { recursive: true, force: true });
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}
