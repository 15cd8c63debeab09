// src/routes/dev-login/+server.ts
// readme:start
import { error, redirect } from '@sveltejs/kit';
import { env } from '$env/dynamic/private';
import type { RequestHandler } from './$types';

// Development only: visit /dev-login once and you are signed in as the sessions map's user.
export const GET: RequestHandler = ({ cookies, url }) => {
  if (env.DEV_LOGIN !== '1') error(404);
  const options = { path: '/', httpOnly: true, sameSite: 'lax', secure: url.protocol === 'https:' } as const;
  cookies.set('sid', 'demo-session', options);
  cookies.set('csrf', crypto.randomUUID(), options);
  redirect(303, '/');
};
// readme:end
