#!/usr/bin/env node
// One session across a three-node cluster, through the official TypeScript SDK.
//
//   node sdk-client-cluster.mjs <urlA> <urlB> <urlC> <connectionId>
//
// Initializes on node A; sends tools/call through node B and node C with the same session id and
// collects their progress notifications and results; holds the session's GET stream on node C and
// waits there for a server-initiated notifications/message (a memory_ingest run reporting its
// status); then a fresh session on node C searches the wiki for the page the run wrote (found only
// if the nodes share their state store). Prints a JSON summary; exits 1 on failure.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { fail } from './lib/summary.mjs';

const [urlA, urlB, urlC, connectionId] = process.argv.slice(2);
if (!urlA || !urlB || !urlC || !connectionId) fail('usage: sdk-client-cluster.mjs <urlA> <urlB> <urlC> <connectionId>', 2);

// A session has one standalone GET stream (a second is refused with 409), and this check wants it on
// node C: the clients on A and B opt out of it, as a client may, by treating GET as unsupported.
const noGetStream = (input, init) => (init?.method === 'GET'
  ? Promise.resolve(new Response(null, { status: 405 })) : fetch(input, init));

/** A client on another node that joins an existing session instead of initializing a new one. */
async function join(url, sessionId, protocolVersion, options = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(url), { sessionId, ...options });
  transport.setProtocolVersion(protocolVersion);
  const client = new Client({ name: 'sluice-sdk-client-cluster', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function tool(client, name, args, onprogress) {
  const r = await client.callTool({ name, arguments: args }, CallToolResultSchema, onprogress ? { onprogress } : {});
  if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.structuredContent ?? r.content)}`);
  return r.structuredContent;
}

try {
  const a = new Client({ name: 'sluice-sdk-client-cluster', version: '1.0.0' });
  const transportA = new StreamableHTTPClientTransport(new URL(urlA), { fetch: noGetStream });
  await a.connect(transportA);
  const sessionId = transportA.sessionId;
  const b = await join(urlB, sessionId, transportA.protocolVersion, { fetch: noGetStream });
  const c = await join(urlC, sessionId, transportA.protocolVersion);

  const calls = {};
  for (const [node, client] of [['B', b], ['C', c]]) {
    const progress = [];
    // a statement that runs well past the gateway's stream delay (10 ms): a quicker call is
    // answered as one JSON body, without progress
    const sql = 'SELECT count(*) AS n FROM customers WHERE (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL '
      + 'SELECT x + 1 FROM c WHERE x < 2000000) SELECT count(*) FROM c) > 0';
    const result = await tool(client, 'sql_execution', { connectionId, sql }, (p) => progress.push(p));
    calls[node] = { progress: progress.length, rows: result.rows };
  }

  // The session's GET stream, held on node C: the SDK opens it once it has sent notifications/initialized.
  const pushed = new Promise((resolve) => {
    c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      if (n.params.logger === 'memory_ingest') resolve(n.params);
    });
  });
  await c.setLoggingLevel('info');
  c.onerror = (e) => console.error(`node C client: ${e}`);
  await c.notification({ method: 'notifications/initialized' });
  await new Promise((r) => setTimeout(r, 500));
  const heading = `Cluster handover ${Date.now()}`;
  const { runId } = await tool(b, 'memory_ingest', { content: `# ${heading}\nNotes written on one node are `
    + 'read on every node of the cluster. #cluster\n', connectionId });
  const message = await Promise.race([pushed, new Promise((_, reject) =>
    setTimeout(() => reject(new Error('no notifications/message on the GET stream held on node C in 30 s')), 30_000))]);
  let status;
  for (let i = 0; i < 500; i++) {
    status = await tool(a, 'memory_ingest_status', { runId });
    if (status.status === 'completed' || status.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 20));
  }

  // A session of node C's own: its wiki_search runs on C, against the store C reads.
  const own = new Client({ name: 'sluice-sdk-client-cluster', version: '1.0.0' });
  await own.connect(new StreamableHTTPClientTransport(new URL(urlC)));
  const found = await tool(own, 'wiki_search', { query: heading, connectionId });
  const key = status.pages?.[0]?.key;
  const summary = {
    ok: status.status === 'completed' && calls.B.progress > 0 && calls.C.progress > 0
      && (found.pages ?? []).some((p) => p.key === key),
    sessionId, calls, pushedOnC: message.data?.runId === runId, runStatus: status.status, key,
    foundOnC: (found.pages ?? []).map((p) => p.key)
  };
  console.log(JSON.stringify(summary));
  await Promise.all([a.close(), b.close(), c.close(), own.close()]);
  process.exit(summary.ok ? 0 : 1);
} catch (e) {
  fail(e);
}
