// Runs the code blocks of the documentation (README.md and docs/*.md) marked
// "ts example:NAME", so the documentation cannot drift from what the package
// does. Names are unique across all the files. All blocks are written into
// one temporary folder as NAME.ts, so an example can import another
// (`./connect.js`), with the package's entry points pointed at src/.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Where each public entry point lives in the source tree. */
const ENTRIES: Record<string, string> = {
  'connect-provider/api': 'src/api/index.ts',
  'connect-provider/server': 'src/server/index.ts',
  'connect-provider/emulator': 'src/emulator/index.ts',
};

/** The documentation's files, relative to the repository: README.md, then docs/*.md by name. */
export function documentationFiles(): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

/** Each documentation file's text, by its path relative to the repository. */
export function documentation(): Map<string, string> {
  return new Map(documentationFiles().map((file) => [file, readFileSync(join(root, file), 'utf8')]));
}

/** The blocks marked "LANG example:NAME" in the documentation, by name; a name used twice throws. */
export function documentationBlocks(lang: string): Map<string, { file: string; code: string }> {
  const blocks = new Map<string, { file: string; code: string }>();
  const pattern = new RegExp(`\`\`\`${lang} example:([\\w-]+)\\n([\\s\\S]*?)\`\`\``, 'g');
  for (const [file, text] of documentation()) {
    for (const match of text.matchAll(pattern)) {
      const seen = blocks.get(match[1]);
      if (seen) throw new Error(`"${lang} example:${match[1]}" is in both ${seen.file} and ${file}: names are unique`);
      blocks.set(match[1], { file, code: match[2] });
    }
  }
  return blocks;
}

/** The TypeScript examples of README.md and docs/*.md, by name. */
export function readmeExamples(): Map<string, string> {
  return new Map([...documentationBlocks('ts')].map(([name, { code }]) => [name, code]));
}

/** Writes every example of the documentation into a fresh folder; returns it and a cleanup. */
export function writeReadmeExamples(): { dir: string; file(name: string): string; cleanup(): void } {
  // Inside the repo, so the examples' bare imports (express, hono) resolve from its node_modules.
  const cache = join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'readme-examples-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  for (const [name, original] of readmeExamples()) {
    let code = original;
    for (const [specifier, file] of Object.entries(ENTRIES))
      code = code.replaceAll(`'${specifier}'`, `'${join(root, file)}'`);
    writeFileSync(join(dir, `${name}.ts`), code);
  }
  return {
    dir,
    file: (name) => {
      if (!readmeExamples().has(name))
        throw new Error(`neither README.md nor docs/*.md has a block "ts example:${name}"`);
      return join(dir, `${name}.ts`);
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs a README example to its end with Node (through tsx). */
export function runReadmeExample(
  name: string,
  env: Record<string, string>,
  timeoutMs = 20000,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const examples = writeReadmeExamples();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', examples.file(name)],
      { cwd: root, env: { ...process.env, ...env }, timeout: timeoutMs },
      (error, stdout, stderr) => {
        examples.cleanup();
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/** Starts a README example that serves HTTP, waits until `url` answers, and gives a stop(). */
export async function serveReadmeExample(
  name: string,
  env: Record<string, string>,
  url: string,
): Promise<{ stop(): Promise<void>; output(): string }> {
  const examples = writeReadmeExamples();
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', examples.file(name)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  const stop = () =>
    new Promise<void>((resolve) => {
      examples.cleanup();
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) break;
    const up = await fetch(url).then(
      () => true,
      () => false,
    );
    if (up) return { stop, output: () => output };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`README example ${name} did not start serving ${url}:\n${output}`);
}
