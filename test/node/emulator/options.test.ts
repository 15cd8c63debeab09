// The options createEmulator refuses, with a TypeError saying what it takes, and the edge values it takes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulator, type EmulatorOptions } from '../../../src/emulator/index.js';

describe('emulator options', () => {
  for (const [options, message] of [
    [{ apiKey: '' }, 'connect-provider emulator: apiKey must not be empty'],
    [{ verifyDelay: -1 }, 'connect-provider emulator: verifyDelay must be a number of milliseconds >= 0'],
    [{ urlFormat: 'xml' }, "connect-provider emulator: urlFormat is 'json' or 'text'"],
    [{ jwtSecret: 'x'.repeat(15) }, 'connect-provider emulator: jwtSecret must be 16 characters or more'],
    [{ publicUrl: 'ftp://emulator.example' }, 'connect-provider emulator: publicUrl is an http(s) URL'],
  ] as Array<[EmulatorOptions, string]>) {
    it(`refuses ${JSON.stringify(options)} with a TypeError saying what it takes`, () => {
      assert.throws(() => createEmulator(options), { name: 'TypeError', message });
    });
  }

  it('refuses options it cannot honour with a TypeError, and takes the edge values it can', () => {
    for (const [options, why] of [
      [{ apiKey: '' }, 'an empty API key'],
      [{ verifyDelay: -1 }, 'a negative delay'],
      [{ verifyDelay: Number.NaN }, 'a delay that is not a number'],
      [{ verifyDelay: Number.POSITIVE_INFINITY }, 'an endless delay'],
      [{ urlFormat: 'xml' }, 'an unknown URL format'],
      [{ jwtSecret: 'x'.repeat(15) }, 'a secret of 15 characters'],
      [{ publicUrl: 'ftp://files.example' }, 'a public URL that is not http(s)'],
    ] as const) {
      assert.throws(() => createEmulator(options as never), TypeError, why);
    }
    assert.doesNotThrow(() => createEmulator({ verifyDelay: 0, jwtSecret: 'x'.repeat(16), urlFormat: 'text' }));
    assert.doesNotThrow(() => createEmulator({ publicUrl: 'http://plain.example' }));
  });
});
