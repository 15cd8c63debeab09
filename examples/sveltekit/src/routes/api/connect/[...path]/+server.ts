// src/routes/api/connect/[...path]/+server.ts
// readme:start
import type { RequestHandler } from './$types';
import { connect } from '$lib/server/connect';

// Every method (GET, POST, PATCH, DELETE) of /api/connect/...
export const fallback: RequestHandler = ({ request }) => connect(request);
// readme:end
