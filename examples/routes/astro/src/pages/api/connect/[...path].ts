// src/pages/api/connect/[...path].ts
// readme:start
import type { APIRoute } from 'astro';
import { connect } from '../../../lib/connect';

export const prerender = false; // served on each request (needs an adapter: @astrojs/node, Vercel...)

// Every method (GET, POST, PATCH, DELETE) of /api/connect/...
export const ALL: APIRoute = ({ request }) => connect(request);
// readme:end
