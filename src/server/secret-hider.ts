// Hides secrets (a user's credential, the API key in what onError gets) in every form a platform could repeat them
// in: as typed, percent- and form-encoded, HTML-escaped, JSON-escaped (`\"`, `\u0026`, `\/`, `\u00e9`), hex, base64
// at any alignment (standard and URL-safe), and any run of WINDOW characters of any of these. The text forms are
// matched in any case; base64 exactly.
import { base64Forms, hexOf } from './scrub.js';

const REDACTED = '[redacted]';
/** The shortest run of a form that is hidden on its own (a shorter form is hidden whole). */
export const SECRET_WINDOW = 12;

/** Lower-cased unit by unit, so every position of the text keeps its index. */
function fold(text: string): string {
  return text.replace(/[A-Z\u0080-\uffff]/g, (c) => {
    const lower = c.toLowerCase();
    return lower.length === 1 ? lower : c;
  });
}

const unicodeEscape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

function tryEncode(encode: (text: string) => string, text: string): string[] {
  try {
    return [encode(text)];
  } catch {
    return []; // a lone surrogate: no such form
  }
}

/** The text forms of a secret (matched in any case). */
export function textForms(secret: string): string[] {
  const uri = tryEncode(encodeURIComponent, secret);
  const form = [...uri.map((u) => u.replace(/%20/g, '+')), new URLSearchParams({ v: secret }).toString().slice(2)];
  const amp = secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const html = [
    amp,
    amp.replace(/"/g, '&quot;'),
    amp.replace(/"/g, '&quot;').replace(/'/g, '&#39;'),
    amp.replace(/"/g, '&#34;').replace(/'/g, '&#39;'),
    amp.replace(/"/g, '&quot;').replace(/'/g, '&#x27;'),
    amp.replace(/"/g, '&quot;').replace(/'/g, '&apos;'),
  ];
  const json = JSON.stringify(secret).slice(1, -1);
  const htmlSafe = json.replace(/[<>&\u2028\u2029]/g, unicodeEscape); // Go's encoding/json
  const asciiOnly = (text: string) => text.replace(/[\u0080-\uffff]/g, unicodeEscape); // Python's json.dumps
  const jsonForms = [
    json,
    htmlSafe,
    asciiOnly(json),
    asciiOnly(htmlSafe),
    asciiOnly(json).replace(/\//g, '\\/'), // PHP's json_encode
    [...secret].map((c) => (/^[A-Za-z0-9]$/.test(c) ? c : [...c].map(unicodeEscape).join(''))).join(''),
  ];
  return [secret, ...uri, ...form, ...html, ...jsonForms, hexOf(secret)];
}

interface FormSet {
  forms: string[];
  caseless: boolean;
}

// A polynomial hash of `width` units, rolled one unit at a time (mod 2^32); a match is confirmed by comparing text.
const BASE = 0x01000193;
function power(width: number): number {
  let p = 1;
  for (let i = 1; i < width; i++) p = Math.imul(p, BASE);
  return p;
}
function rollingHashes(text: string, width: number, each: (hash: number, start: number) => void): void {
  if (text.length < width) return;
  const top = power(width);
  let h = 0;
  for (let i = 0; i < width; i++) h = (Math.imul(h, BASE) + text.charCodeAt(i)) | 0;
  each(h, 0);
  for (let i = width; i < text.length; i++) {
    h = (Math.imul((h - Math.imul(text.charCodeAt(i - width), top)) | 0, BASE) + text.charCodeAt(i)) | 0;
    each(h, i - width + 1);
  }
}

/** Marks every position of `text` that a run of `width` units of a form covers. */
function markRuns(text: string, forms: readonly string[], marks: Uint8Array): void {
  const byWidth = new Map<number, string[]>();
  for (const form of forms) {
    const width = Math.min(SECRET_WINDOW, form.length);
    if (width === 0) continue;
    byWidth.set(width, [...(byWidth.get(width) ?? []), form]);
  }
  for (const [width, group] of byWidth) {
    if (text.length < width) continue;
    // Where each run of the text starts, by its hash: O(text), whatever the forms.
    const starts = new Map<number, number[]>();
    rollingHashes(text, width, (hash, start) => {
      const list = starts.get(hash);
      if (list) list.push(start);
      else starts.set(hash, [start]);
    });
    for (const form of group) {
      rollingHashes(form, width, (hash, at) => {
        const list = starts.get(hash);
        if (!list) return;
        const run = form.slice(at, at + width);
        // Each start is marked once and then forgotten: a text or a secret of one repeated character stays linear.
        const left = list.filter((start) => {
          if (!text.startsWith(run, start)) return true;
          marks.fill(1, start, start + width);
          return false;
        });
        if (left.length === 0) starts.delete(hash);
        else if (left.length < list.length) starts.set(hash, left);
      });
    }
  }
}

/**
 * A function that replaces by `[redacted]` every form of each secret in a text (see the file's head); the empty
 * secret is none. The work on a text is linear in the text and in the secrets' length.
 */
export function createSecretHider(secrets: readonly string[]): (text: string) => string {
  const values = [...new Set(secrets.filter((s) => typeof s === 'string' && s !== ''))];
  if (values.length === 0) return (text) => text;
  const sets: FormSet[] = [
    { forms: [...new Set(values.flatMap(textForms).map(fold))], caseless: true },
    { forms: [...new Set(values.flatMap(base64Forms))], caseless: false },
  ];
  return (text) => {
    if (typeof text !== 'string' || text === '') return text;
    const marks = new Uint8Array(text.length);
    for (const { forms, caseless } of sets) markRuns(caseless ? fold(text) : text, forms, marks);
    let out = '';
    for (let i = 0; i < text.length; i++) {
      if (!marks[i]) {
        out += text[i];
        continue;
      }
      out += REDACTED;
      while (i + 1 < text.length && marks[i + 1]) i++;
    }
    return out;
  };
}
