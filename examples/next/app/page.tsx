// A server component: it reads the CSRF cookie and hands its value to the client component.
import { cookies } from 'next/headers';
import { Connect } from './connect';

export default async function Page() {
  const csrf = (await cookies()).get('csrf')?.value;
  return (
    <main>
      <h1>Integrations</h1>
      {csrf ? <Connect csrf={csrf} /> : <a href="/dev-login">Sign in (development)</a>}
    </main>
  );
}
