// The baseline for GET /v1/models: Koa with no router and no middleware, answering the same JSON.
// Run as its own process: PORT=<port> BODY='<json>' node --import tsx bench/bare-koa-server.ts
import Koa from 'koa';

const port = Number(process.env.PORT);
const body: unknown = JSON.parse(process.env.BODY ?? '{}');

const app = new Koa();
app.use((ctx) => {
  ctx.body = body;
});
const server = app.listen(port, '127.0.0.1', () => process.stdout.write(`bare koa listening on ${port}\n`));
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
