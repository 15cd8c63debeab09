// A person answering the emulator's consent page, as the tests of its flow need it: press a button, follow the
// redirect to the callback page, read the completion message that page posts to the opener.
import assert from 'node:assert/strict';
import type { CompletionMessage } from '../../../src/emulator/pages.js';

/** Posts the consent form of `url` with `decision` (not following the 303 it answers). */
export const decide = (url: string, decision: string, contentType = 'application/x-www-form-urlencoded') =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: `decision=${decision}`,
    redirect: 'manual',
  });

/** The completion message a callback page posts to window.opener. */
export const messageOf = (page: string): CompletionMessage => JSON.parse(/var message = (\{.*\});/.exec(page)![1]);

/** Answers the consent page with `decision` and returns the callback page it redirects to. */
export async function callbackOf(url: string, decision: string): Promise<Response> {
  const post = await decide(url, decision);
  assert.equal(post.status, 303);
  return fetch(new URL(post.headers.get('location')!, url));
}

/** Allows the link (or answers `decision`) and returns the connection ID its callback page posts to the opener. */
export async function allow(url: string, decision = 'allow'): Promise<string> {
  return (messageOf(await (await callbackOf(url, decision)).text()).data as { connection: string }).connection;
}
