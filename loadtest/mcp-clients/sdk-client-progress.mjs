#!/usr/bin/env node
// Calls sql_execution through the official TypeScript SDK with an onprogress callback and
// prints the progress notifications received, then the result.
//
//   node sdk-client-progress.mjs <url> <connectionId> <sql> [token]
//
// The SDK puts `_meta.progressToken` (= the request's JSON-RPC id, a number) on the request
// when onprogress is given; the server must echo it in each notifications/progress. Output is
// one JSON object: {ok, progress: [{atMs, progress, total, message}], result}. Exits 1 on a
// transport/protocol failure or when the tool result has isError: true.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { fail } from './lib/summary.mjs';

const [url, connectionId, sql, token] = process.argv.slice(2);
if (!url || !connectionId || !sql) {
  fail('usage: sdk-client-progress.mjs <url> <connectionId> <sql> [token]', 2);
}
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : undefined
});
const client = new Client({ name: 'sluice-sdk-client-progress', version: '1.0.0' });
const progress = [];
const t0 = Date.now();
try {
  await client.connect(transport);
  const result = await client.callTool(
    { name: 'sql_execution', arguments: { connectionId, sql } },
    CallToolResultSchema,
    {
      onprogress: (p) => progress.push({ atMs: Date.now() - t0, ...p }),
      timeout: 120_000
    }
  );
  const ok = result.isError !== true;
  console.log(JSON.stringify({ ok, elapsedMs: Date.now() - t0, progressCount: progress.length, progress, result }, null, 2));
  await transport.terminateSession().catch(() => {});
  await client.close();
  process.exit(ok ? 0 : 1);
} catch (e) {
  console.error(JSON.stringify({ progress }));
  await client.close().catch(() => {});
  fail(e);
}
