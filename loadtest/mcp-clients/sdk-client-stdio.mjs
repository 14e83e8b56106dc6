#!/usr/bin/env node
// Third-party client check over stdio with the official TypeScript SDK.
//
//   node sdk-client-stdio.mjs <java> <jar> [args...]
//
// Spawns `<java> -jar <jar> [args...]` (args default to `stdio`, so pass e.g.
// `stdio --config conf.yaml` when the gateway needs more), then does what sdk-client-http.mjs
// does: initialize, tools/list, tools/call connection_list {}, JSON summary on stdout.
// The server's stderr (its logs) is kept and its tail printed only on failure.
// Exits 1 on any failure, including an isError tool result.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { summarize, fail, captureVersion } from './lib/summary.mjs';

// JVM options (-X..., -D...) may come between the java executable and the jar
const [java, ...more] = process.argv.slice(2);
const jvmOptions = [];
while (more.length && more[0].startsWith('-')) jvmOptions.push(more.shift());
const [jar, ...rest] = more;
if (!java || !jar) fail('usage: sdk-client-stdio.mjs <java> [jvm options] <jar> [args...]', 2);
const args = [...jvmOptions, '-jar', jar, ...(rest.length ? rest : ['stdio'])];

const transport = new StdioClientTransport({ command: java, args, stderr: 'pipe' });
let stderrTail = '';
transport.stderr?.on('data', (d) => {
  stderrTail = (stderrTail + d.toString()).slice(-4000);
});
captureVersion(transport);
const client = new Client({ name: 'sluice-sdk-client-stdio', version: '1.0.0' });
const timer = setTimeout(() => {
  console.error(stderrTail);
  fail(new Error('timed out after 60s'));
}, 60_000);
try {
  await client.connect(transport);
  const summary = await summarize(client, { transport: 'stdio', command: [java, ...args].join(' ') });
  summary.serverPid = transport.pid ?? null;
  console.log(JSON.stringify(summary, null, 2));
  await client.close(); // closes stdin; the SDK then SIGTERMs the child if it lingers
  clearTimeout(timer);
  process.exit(summary.ok ? 0 : 1);
} catch (e) {
  await client.close().catch(() => {});
  if (stderrTail) console.error(`--- server stderr (tail) ---\n${stderrTail}`);
  fail(e);
}
