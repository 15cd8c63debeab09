// Koa middleware for @web/test-runner: fixture HTTP routes for browser tests.
// Later issues mount the connect handler and the emulator here.
export async function testMiddleware(ctx, next) {
  if (ctx.path === '/__test__/ping') {
    ctx.type = 'application/json';
    ctx.body = JSON.stringify({ ok: true });
    return;
  }
  return next();
}
