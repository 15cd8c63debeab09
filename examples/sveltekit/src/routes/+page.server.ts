import type { PageServerLoad } from './$types';

// The CSRF cookie's value, for the page to send back in a header.
export const load: PageServerLoad = ({ cookies }) => ({ csrf: cookies.get('csrf') });
