// server/api/connect/[...path].ts
// readme:start
import { defineEventHandler, toWebRequest } from 'h3'; // Nuxt also auto-imports both
import { connect } from '../../utils/connect';

// Every method (GET, POST, PATCH, DELETE) of /api/connect/...: h3's event as a Web Request, the Response sent as is.
export default defineEventHandler((event) => connect(toWebRequest(event)));
// readme:end
