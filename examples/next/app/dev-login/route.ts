// app/dev-login/route.ts
// readme:start
// Development only: visit /dev-login once and you are signed in as the sessions map's user.
export function GET() {
  if (process.env.DEV_LOGIN !== '1') return new Response('Not Found', { status: 404 });
  const headers = new Headers({ location: '/' });
  headers.append('set-cookie', 'sid=demo-session; Path=/; HttpOnly; SameSite=Lax');
  headers.append('set-cookie', `csrf=${crypto.randomUUID()}; Path=/; HttpOnly; SameSite=Lax`);
  return new Response(null, { status: 302, headers });
}
// readme:end
