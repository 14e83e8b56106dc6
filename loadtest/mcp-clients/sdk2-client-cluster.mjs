#!/usr/bin/env node
// Round-robin over the nodes of a cluster with no affinity, through the official TypeScript SDK 2.x
// client pinned to revision 2026-07-28: each request goes to the next node (a fetch that turns the
// URL, as a load balancer would), and every result must come from the node that received the
// request (its _meta names the answering node: nothing was forwarded). Several agents call tools
// at once; one long query runs as a task created on one node and polled and fetched through the
// others (the task lives in the shared state store), and one is cancelled through a node that does
// not run it (the cancel reaches the owner over the cluster bus).
//
//   node sdk2-client-cluster.mjs <connectionId> <agents> <callsPerAgent> <url1> <url2> <url3> ...
//
// Prints {ok, calls, errors, forwarded, perNode, task, cancel}; exits 1 on any error or forwarded answer.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { fail } from './lib/summary.mjs';
import { TASKS, awaitTask, callMaybeTask, cancelTask } from './lib/tasks.mjs';

const PINNED = '2026-07-28';
const NODE_META = 'dev.sluice/node';
const [connectionId, agentsArg, callsArg, ...urls] = process.argv.slice(2);
if (!connectionId || urls.length < 2) {
  fail('usage: sdk2-client-cluster.mjs <connectionId> <agents> <callsPerAgent> <url1> <url2> ...', 2);
}
const agents = Number(agentsArg);
const callsPerAgent = Number(callsArg);

// which node each URL is: /health names it
const nodeOf = {};
for (const u of urls) {
  const health = await (await fetch(new URL('/health', u))).json();
  nodeOf[u] = health.nodeId;
}

let turn = 0;
/** A client whose every request goes to the next node in turn; `last` is where its last one went. */
async function roundRobinClient(name, capabilities = {}) {
  const state = { last: null, sent: [] };
  const rotate = (input, init) => {
    const url = urls[turn++ % urls.length];
    state.last = nodeOf[url];
    state.sent.push(state.last);
    return fetch(url, init);
  };
  const transport = new StreamableHTTPClientTransport(new URL(urls[0]), { fetch: rotate });
  const client = new Client({ name, version: '2.4.0' }, { capabilities, versionNegotiation: { mode: { pin: PINNED } } });
  await client.connect(transport);
  return { client, state };
}

const perNode = Object.fromEntries(Object.values(nodeOf).map((n) => [n, 0]));
let calls = 0;
let errors = 0;
const forwarded = [];
const failures = [];
const statements = ['SELECT count(*) AS n FROM orders', 'SELECT status, count(*) FROM orders GROUP BY status',
  'SELECT id, total FROM orders ORDER BY total DESC LIMIT 5'];

async function agent(i) {
  const { client, state } = await roundRobinClient(`sluice-sdk2-cluster-${i}`);
  for (let k = 0; k < callsPerAgent; k++) {
    const tool = k % 4 === 3 ? { name: 'connection_list', arguments: {} }
      : { name: 'sql_execution', arguments: { connectionId, sql: statements[k % statements.length] } };
    try {
      const r = await client.callTool(tool, { timeout: 60_000 });
      // sequential per agent: the last request this client sent is the one just answered
      const answeredBy = r._meta?.[NODE_META];
      calls++;
      perNode[answeredBy] = (perNode[answeredBy] ?? 0) + 1;
      if (r.isError) {
        errors++;
        failures.push(`${tool.name}: ${JSON.stringify(r.content).slice(0, 200)}`);
      }
      if (answeredBy !== state.last) forwarded.push({ sentTo: state.last, answeredBy });
    } catch (e) {
      calls++;
      errors++;
      failures.push(`${tool.name} threw ${e.message}`);
    }
  }
  await client.close();
}

try {
  const started = Date.now();
  await Promise.all(Array.from({ length: agents }, (_, i) => agent(i)));
  const elapsedMs = Date.now() - started;

  // a long query as a task: created where the request lands, polled and fetched through the others
  // (40 million rows: about 5 s on an idle machine, so past the 2 s after which a call becomes a
  // task on a fast machine too; 15 million once finished in 1.7 s and answered inline)
  const { client: tasker, state } = await roundRobinClient('sluice-sdk2-cluster-tasks', { extensions: { [TASKS]: {} } });
  const created = await callMaybeTask(tasker, { name: 'sql_execution', arguments: { connectionId,
    sql: 'WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 40000000) SELECT count(*) AS n FROM s' } },
  PINNED);
  const createdOn = state.last;
  const before = state.sent.length;
  const done = created.resultType === 'task' ? await awaitTask(tasker, created) : null;
  const polledOn = state.sent.slice(before);
  const task = { resultType: created.resultType, createdOn, polls: polledOn.length,
    polledElsewhere: polledOn.filter((n) => n !== createdOn).length, status: done?.task.status,
    rows: done?.task.result?.structuredContent?.rows };

  // tasks/cancel through another node reaches the node running the task
  const doomed = await callMaybeTask(tasker, { name: 'sql_execution', arguments: { connectionId,
    sql: 'WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 2000000000) SELECT count(*) FROM s' } },
  PINNED);
  const runningOn = state.last;
  await cancelTask(tasker, doomed.taskId);
  const cancelledVia = state.last;
  const ended = doomed.resultType === 'task' ? await awaitTask(tasker, doomed, 30_000) : null;
  const cancel = { resultType: doomed.resultType, runningOn, cancelledVia, status: ended?.task.status };
  await tasker.close();

  const ok = errors === 0 && forwarded.length === 0 && task.status === 'completed'
    && JSON.stringify(task.rows ?? []).includes('40000000') && task.polledElsewhere > 0
    && cancel.status === 'cancelled' && cancel.runningOn !== cancel.cancelledVia;
  console.log(JSON.stringify({ ok, agents, calls, errors, forwarded: forwarded.length, elapsedMs, perNode, task, cancel,
    failures: failures.slice(0, 10), forwardedSample: forwarded.slice(0, 5) }, null, 2));
  process.exit(ok ? 0 : 1);
} catch (e) {
  fail(e);
}
