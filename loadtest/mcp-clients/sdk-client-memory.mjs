#!/usr/bin/env node
// memory_ingest through the official TypeScript SDK over Streamable HTTP.
//
//   node sdk-client-memory.mjs <url> <connectionId> <otherConnectionId>
//
// Ingests a note scoped to <connectionId>, polls memory_ingest_status until the run ends, then
// checks that wiki_search and discover_data scoped to <connectionId> find the page and that
// wiki_search scoped to <otherConnectionId> does not. Prints a JSON summary; exits 1 on failure.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { fail } from './lib/summary.mjs';

const [url, connectionId, otherId] = process.argv.slice(2);
if (!url || !connectionId || !otherId) fail('usage: sdk-client-memory.mjs <url> <connectionId> <otherConnectionId>', 2);

const client = new Client({ name: 'sluice-sdk-client-memory', version: '1.0.0' });
const messages = [];
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => messages.push(n.params));

async function tool(name, args) {
  const r = await client.callTool({ name, arguments: args }, CallToolResultSchema);
  if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.structuredContent ?? r.content)}`);
  return r.structuredContent;
}

try {
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  await client.setLoggingLevel('info');
  const content = '# Returns window\nCustomers may return items within 30 days; refunds show up in '
    + 'payments with status refunded. #policy\n';
  const { runId } = await tool('memory_ingest', { content, connectionId });
  let status;
  for (let i = 0; i < 500; i++) {
    status = await tool('memory_ingest_status', { runId });
    if (status.status === 'completed' || status.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const key = status.pages?.[0]?.key;
  const wiki = await tool('wiki_search', { query: 'return items refunds', connectionId });
  const discover = await tool('discover_data', { query: 'returns window refunds', connectionId, limit: 5 });
  const elsewhere = await tool('wiki_search', { query: 'return items refunds', connectionId: otherId });
  const summary = {
    runId,
    status: status.status,
    key,
    wikiSearchFound: wiki.pages.some((p) => p.key === key),
    discoverFound: discover.refs.some((r) => r.kind === 'wiki' && r.id === key),
    invisibleElsewhere: !elsewhere.pages.some((p) => p.key === key),
    notificationsReceived: messages.filter((m) => m.data?.runId === runId).map((m) => m.data.status)
  };
  summary.ok = summary.status === 'completed' && summary.wikiSearchFound && summary.discoverFound
    && summary.invisibleElsewhere;
  console.log(JSON.stringify(summary, null, 2));
  await client.close();
  process.exit(summary.ok ? 0 : 1);
} catch (e) {
  await client.close().catch(() => {});
  fail(e);
}
