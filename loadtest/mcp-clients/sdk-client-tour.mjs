#!/usr/bin/env node
// Every tool, its success path and its errors, through the official TypeScript SDK client.
//
//   node sdk-client-tour.mjs <tour.json>
//
// tour.json:
//   {"transport": {"kind": "http", "url": "...", "sessions": {"main": "<token or null>", "other": "<token>"}}
//              or {"kind": "stdio", "command": "/path/to/java", "args": ["-jar", "sluice.jar", "stdio", ...]},
//    "calls": [{"label", "tool", "args", "session"?, "expect": "ok" | "<error_type>", "text": ["..."],
//               "retryWhile"?: "<error_type>", "retryWhileText"?: "<phrase>", "until"?: {"field", "in": [...]}, "save"?: {"var": "field"},
//               "background"?: "<name>"} | {"await": "<name>", "label", "expect", "text"}]}
//
// Each call goes through Client.callTool after Client.listTools, so the SDK validates every
// structuredContent against the tool's outputSchema as it does for any agent. A call passes when it
// does not throw, isError matches expect, an error's text starts with '<error_type>: ' and carries no
// structuredContent, and the text holds every phrase in "text". "${name}" in arguments is replaced by a
// value saved earlier ({"save": {"runId": "runId"}}); a "background" call runs on while the next
// ones do, and its progress messages' "queryId <id>" is saved as "${<name>.queryId}".
// Prints a JSON summary {ok, tools, calls: [...]}; exits 1 when a call fails.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fail } from './lib/summary.mjs';
import { runTour } from './lib/tour.mjs';

const [tourFile] = process.argv.slice(2);
if (!tourFile) fail('usage: sdk-client-tour.mjs <tour.json>', 2);
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
  const c = new Client({ name: `sluice-sdk-tour-${session}`, version: '1.0.0' });
  await c.connect(transport);
  c.tourCall = (params, options) => c.callTool(params, undefined, options);
  return c;
});
