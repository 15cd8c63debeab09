// app/api/connect/[...path]/route.ts
// readme:start
import { connect } from '@/lib/connect';

export const GET = connect;
export const POST = connect;
export const PATCH = connect;
export const DELETE = connect; // the element's Disconnect (allowDisconnect)
// readme:end
