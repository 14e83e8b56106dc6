#!/usr/bin/env node
// Third-party client check over Streamable HTTP with the official TypeScript SDK.
//
//   node sdk-client-http.mjs <url> [token]
//
// Connects (initialize + notifications/initialized), lists tools, calls connection_list {} and
// prints a JSON summary. Exits 1 on any failure, including an isError tool result.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { summarize, fail, captureVersion } from './lib/summary.mjs';

const [url, token] = process.argv.slice(2);
if (!url) fail('usage: sdk-client-http.mjs <url> [token]', 2);

const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : undefined
});
captureVersion(transport);
const client = new Client({ name: 'sluice-sdk-client-http', version: '1.0.0' });
try {
  await client.connect(transport);
  const summary = await summarize(client, { transport: 'streamable-http', url });
  summary.sessionId = transport.sessionId ?? null;
  // Ends the session the way a polite client does (DELETE /mcp); 405 is fine too.
  try {
    await transport.terminateSession();
    summary.sessionTerminated = true;
  } catch (e) {
    summary.sessionTerminated = `failed: ${e.message}`;
  }
  console.log(JSON.stringify(summary, null, 2));
  await client.close();
  process.exit(summary.ok ? 0 : 1);
} catch (e) {
  await client.close().catch(() => {});
  fail(e);
}
