#!/usr/bin/env node
// The tool tour (lib/tour.mjs) through the official TypeScript SDK 2.x client PINNED to protocol
// revision 2026-07-28: no session, every request self-describing (server/discover at connect,
// per-request _meta, Mcp-Method / Mcp-Name headers). Same tour file and judgement as
// sdk-client-tour.mjs (SDK 1.x, 2025-11-25 sessions); the client fails to connect if the server
// does not offer 2026-07-28 via server/discover.
//
//   node sdk2-client-tour.mjs <tour.json>
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { fail } from './lib/summary.mjs';
import { runTour } from './lib/tour.mjs';

const PINNED = '2026-07-28';
const [tourFile] = process.argv.slice(2);
if (!tourFile) fail('usage: sdk2-client-tour.mjs <tour.json>', 2);
await runTour(tourFile, async (t, session, token, onStderr) => {
  let transport;
  if (t.kind === 'stdio') {
    transport = new StdioClientTransport({ command: t.command, args: t.args, stderr: 'pipe' });
    transport.stderr?.on('data', onStderr);
  } else {
    transport = new StreamableHTTPClientTransport(new URL(t.url), {
      requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : undefined
    });
  }
  const c = new Client({ name: `sluice-sdk2-tour-${session}`, version: '2.4.0' },
    { versionNegotiation: { mode: { pin: PINNED } } });
  await c.connect(transport);
  if (c.getNegotiatedProtocolVersion() !== PINNED) {
    throw new Error(`negotiated ${c.getNegotiatedProtocolVersion()}, not ${PINNED}`);
  }
  c.tourCall = (params, options) => c.callTool(params, options);
  return c;
});
