#!/usr/bin/env node
// What revision 2026-07-28 adds, through the official TypeScript SDK 2.x client pinned to it:
// progress on a call's own stream, cancellation by closing that stream (the caller checks that the
// engine stopped: pg_stat_activity), and the Tasks extension: a long sql_execution, an sql_compare
// and a memory_ingest run as tasks polled to completion and fetched, a task cancelled with
// tasks/cancel, and tasks/* refused (-32021) to a client that did not declare the extension.
//
//   node sdk2-client-features.mjs <url> <pgConnectionId> <marker> [token]
//
// Statements carry <marker>_progress, <marker>_cancel, <marker>_task and <marker>_taskcancel as
// column aliases, so the caller can watch them in pg_stat_activity. Prints a JSON summary
// {ok, checks: {...}}; exits 1 when a check fails.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { fail } from './lib/summary.mjs';
import { TASKS, awaitTask, callMaybeTask, cancelTask } from './lib/tasks.mjs';

const PINNED = '2026-07-28';
const [url, pg, marker, token] = process.argv.slice(2);
if (!url || !pg || !marker) fail('usage: sdk2-client-features.mjs <url> <pgConnectionId> <marker> [token]', 2);
const log = (event, data = {}) => console.error(JSON.stringify({ atMs: Date.now() - t0, event, ...data }));
const t0 = Date.now();

async function connect(name, capabilities = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : undefined
  });
  const c = new Client({ name, version: '2.4.0' }, { capabilities, versionNegotiation: { mode: { pin: PINNED } } });
  await c.connect(transport);
  return c;
}

const checks = {};
const problems = [];
const expect = (cond, what) => { if (!cond) problems.push(what); };
const text = (r) => (r?.content ?? []).filter((b) => b.type === 'text').map((b) => b.text).join('\n');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const plain = await connect('sluice-sdk2-features');
const tasking = await connect('sluice-sdk2-tasks', { extensions: { [TASKS]: {} } });
try {
  // connect: server/discover offered the pinned revision and the Tasks extension
  const discover = plain.getDiscoverResult?.() ?? await plain.discover();
  checks.discover = { version: plain.getNegotiatedProtocolVersion(), supportedVersions: discover.supportedVersions,
    tasksExtension: Boolean(discover.capabilities?.extensions?.[TASKS]) };
  expect(checks.discover.version === PINNED, `negotiated ${checks.discover.version}`);
  expect(checks.discover.tasksExtension, 'server/discover does not advertise the Tasks extension');

  // progress, on the call's own SSE stream
  const progress = [];
  const r1 = await plain.callTool({ name: 'sql_execution', arguments: { connectionId: pg,
    sql: `SELECT pg_sleep(1) AS ${marker}_progress` } }, { onprogress: (p) => progress.push(p) });
  checks.progress = { count: progress.length, messages: progress.map((p) => p.message), isError: r1.isError === true };
  expect(!r1.isError, `progress call failed: ${text(r1).slice(0, 200)}`);
  expect(progress.length >= 2, `expected progress notifications, got ${progress.length}`);
  expect(progress.every((p, i) => i === 0 || p.progress > progress[i - 1].progress), 'progress values do not increase');

  // cancel: abort the request, which closes its stream; the engine must stop the statement
  const abort = new AbortController();
  let running = false;
  const cancelled = plain.callTool({ name: 'sql_execution', arguments: { connectionId: pg,
    sql: `SELECT pg_sleep(60) AS ${marker}_cancel` } }, { signal: abort.signal, timeout: 120_000,
    onprogress: (p) => { if (/executing/.test(p.message ?? '')) running = true; } })
    .then(() => 'answered', (e) => `threw: ${e.message}`);
  for (let i = 0; i < 200 && !running; i++) await sleep(50);
  log('cancel.running', { running });
  await sleep(2_000); // the caller sees the statement in pg_stat_activity meanwhile
  abort.abort('the agent changed its mind');
  log('cancel.aborted');
  checks.cancel = { sawExecuting: running, outcome: await cancelled };
  expect(running, 'the query to cancel never reported executing');
  expect(checks.cancel.outcome.startsWith('threw'), `the cancelled call ${checks.cancel.outcome}`);

  // a quick call with the Tasks extension declared still answers inline
  const quick = await callMaybeTask(tasking, { name: 'sql_execution', arguments: { connectionId: pg, sql: 'SELECT 1 AS one' } }, PINNED);
  checks.inline = { resultType: quick.resultType };
  expect(quick.resultType === 'complete', `a quick call became ${quick.resultType}`);

  // a long query as a task, polled until done, its result fetched
  const created = await callMaybeTask(tasking, { name: 'sql_execution', arguments: { connectionId: pg,
    sql: `SELECT pg_sleep(4) AS ${marker}_task, 42 AS answer` } }, PINNED);
  expect(created.resultType === 'task', `the long query answered ${created.resultType}, not a task`);
  const done = await awaitTask(tasking, created);
  const rows = done.task.result?.structuredContent?.rows;
  checks.task = { resultType: created.resultType, taskId: created.taskId, status: done.task.status, polls: done.polls.length,
    rows };
  expect(done.task.status === 'completed', `task ended ${done.task.status}`);
  expect(JSON.stringify(rows ?? []).includes('42'), `the task's result lacks the answer: ${JSON.stringify(done.task.result)}`);

  // sql_compare as a task: six timed runs of a one-second statement
  const compare = await callMaybeTask(tasking, { name: 'sql_compare', arguments: { connectionId: pg,
    baselineSql: 'SELECT pg_sleep(0.5), 1 AS x', candidateSql: 'SELECT pg_sleep(0.5), 1 AS x' } }, PINNED);
  const compared = compare.resultType === 'task' ? (await awaitTask(tasking, compare)).task : null;
  checks.compare = { resultType: compare.resultType, status: compared?.status,
    equal: compared?.result?.structuredContent?.equal };
  expect(compare.resultType === 'task' && compared.status === 'completed', `sql_compare: ${JSON.stringify(checks.compare)}`);
  expect(compared?.result?.structuredContent?.equal === true, 'sql_compare as a task did not find the two equal');

  // tasks/cancel stops the engine's work too
  const doomed = await callMaybeTask(tasking, { name: 'sql_execution', arguments: { connectionId: pg,
    sql: `SELECT pg_sleep(60) AS ${marker}_taskcancel` } }, PINNED);
  expect(doomed.resultType === 'task', `the query to cancel answered ${doomed.resultType}`);
  await sleep(1_000);
  await cancelTask(tasking, doomed.taskId);
  log('task.cancelled', { taskId: doomed.taskId });
  const afterCancel = await awaitTask(tasking, doomed, 30_000);
  checks.taskCancel = { status: afterCancel.task.status };
  expect(afterCancel.task.status === 'cancelled', `the cancelled task ended ${afterCancel.task.status}`);

  // memory_ingest is a task whose run memory_ingest_status (the 2025-era view) also shows
  const ingest = await callMaybeTask(tasking, { name: 'memory_ingest', arguments: {
    content: `# ${marker}\n\nNotes written by the 2026-07-28 features check.` } }, PINNED);
  const ingested = ingest.resultType === 'task' ? (await awaitTask(tasking, ingest)).task : null;
  const runId = ingested?.result?.structuredContent?.runId;
  const status = runId ? await plain.callTool({ name: 'memory_ingest_status', arguments: { runId } }) : null;
  checks.ingest = { resultType: ingest.resultType, status: ingested?.status, runId,
    statusTool: status?.structuredContent?.status };
  expect(ingest.resultType === 'task' && ingested.status === 'completed', `memory_ingest: ${JSON.stringify(checks.ingest)}`);
  expect(status?.structuredContent?.status === 'completed', `memory_ingest_status says ${checks.ingest.statusTool}`);

  // a client that did not declare the extension may not use it
  const refused = await plain.request({ method: 'tasks/get', params: { taskId: created.taskId } },
    (await import('zod/v4')).looseObject({})).then(() => null, (e) => e.code);
  checks.undeclared = { code: refused };
  expect(refused === -32021, `tasks/get without the extension answered ${refused}`);

  const ok = problems.length === 0;
  console.log(JSON.stringify({ ok, problems, checks }, null, 2));
  await plain.close();
  await tasking.close();
  process.exit(ok ? 0 : 1);
} catch (e) {
  console.error(JSON.stringify({ problems, checks }));
  await plain.close().catch(() => {});
  await tasking.close().catch(() => {});
  fail(e);
}
