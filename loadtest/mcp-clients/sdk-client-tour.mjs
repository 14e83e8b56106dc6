#!/usr/bin/env node
// Every tool, its success path and its errors, through the official TypeScript SDK client.
//
//   node sdk-client-tour.mjs <tour.json>
//
// tour.json:
//   {"transport": {"kind": "http", "url": "...", "sessions": {"main": "<token or null>", "other": "<token>"}}
//              or {"kind": "stdio", "command": "/path/to/java", "args": ["-jar", "sluice.jar", "stdio", ...]},
//    "calls": [{"label", "tool", "args", "session"?, "expect": "ok" | "<error_type>", "text": ["..."],
//               "retryWhile"?: "<error_type>", "until"?: {"field", "in": [...]}, "save"?: {"var": "field"},
//               "background"?: "<name>"} | {"await": "<name>", "label", "expect", "text"}]}
//
// Each call goes through Client.callTool after Client.listTools, so the SDK validates every
// structuredContent against the tool's outputSchema as it does for any agent. A call passes when it
// does not throw, isError matches expect, an error's text starts with '<error_type>: ' and carries no
// structuredContent, and the text holds every phrase in "text". "${name}" in arguments is replaced by a
// value saved earlier ({"save": {"runId": "runId"}}); a "background" call runs on while the next
// ones do, and its progress messages' "queryId <id>" is saved as "${<name>.queryId}".
// Prints a JSON summary {ok, tools, calls: [...]}; exits 1 when a call fails.
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fail } from './lib/summary.mjs';

const [tourFile] = process.argv.slice(2);
if (!tourFile) fail('usage: sdk-client-tour.mjs <tour.json>', 2);
const tour = JSON.parse(readFileSync(tourFile, 'utf8'));
const vars = {};
const clients = {};
let stderrTail = '';

async function client(session = 'main') {
  if (clients[session]) return clients[session];
  const t = tour.transport;
  let transport;
  if (t.kind === 'stdio') {
    if (session !== 'main') throw new Error('stdio has one session');
    transport = new StdioClientTransport({ command: t.command, args: t.args, stderr: 'pipe' });
    transport.stderr?.on('data', (d) => { stderrTail = (stderrTail + d.toString()).slice(-4000); });
  } else {
    const token = t.sessions?.[session];
    transport = new StreamableHTTPClientTransport(new URL(t.url), {
      requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : undefined
    });
  }
  const c = new Client({ name: `sluice-sdk-tour-${session}`, version: '1.0.0' });
  await c.connect(transport);
  // listTools caches every outputSchema: from here on callTool validates structuredContent
  c.toolNames = (await c.listTools()).tools.map((x) => x.name);
  clients[session] = c;
  return c;
}

function substitute(value) {
  if (typeof value === 'string') {
    return value.replace(/\$\{([^}]+)\}/g, (_, name) => {
      if (!(name in vars)) throw new Error(`\${${name}} was never saved`);
      return vars[name];
    });
  }
  if (Array.isArray(value)) return value.map(substitute);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v)]));
  }
  return value;
}

function textOf(result) {
  return (result?.content ?? []).filter((b) => b.type === 'text').map((b) => b.text).join('\n');
}

/** What an agent gets from one call: the result, or the exception the client threw instead. */
async function invoke(step, onprogress) {
  const c = await client(step.session);
  try {
    const result = await c.callTool({ name: step.tool, arguments: substitute(step.args ?? {}) }, undefined,
      { timeout: 120_000, ...(onprogress ? { onprogress } : {}) });
    return { result };
  } catch (e) {
    return { threw: `${e.name}: ${e.message}` };
  }
}

function judge(step, outcome) {
  const problems = [];
  const { result, threw } = outcome;
  const text = textOf(result);
  const errorType = result?.isError ? (text.match(/^([a-z_]+): /)?.[1] ?? null) : null;
  if (threw) {
    problems.push(`the client threw instead of returning the result: ${threw}`);
  } else if (step.expect === 'ok') {
    if (result.isError) problems.push(`expected success, got ${text.slice(0, 300)}`);
    if (!result.structuredContent) problems.push('success without structuredContent');
  } else {
    if (!result.isError) problems.push(`expected ${step.expect}, got a success: ${text.slice(0, 200)}`);
    else if (errorType !== step.expect) problems.push(`expected ${step.expect}, got ${errorType}: ${text.slice(0, 300)}`);
    if (result?.structuredContent) problems.push('an error result carries structuredContent');
    // after the headline, the whole body: what to do next comes with every error
    if (result?.isError && !text.includes('"hint":"')) problems.push('the error text has no hint');
  }
  for (const phrase of step.text ?? []) {
    if (!text.includes(substitute(phrase))) problems.push(`text lacks "${phrase}": ${text.slice(0, 300)}`);
  }
  return {
    label: step.label ?? step.tool, tool: step.tool, session: step.session ?? 'main', expect: step.expect,
    got: threw ? 'exception' : result.isError ? errorType : 'ok', ok: problems.length === 0, problems,
    text: text.slice(0, 400)
  };
}

async function run(step) {
  const retry = step.retryWhile || step.until;
  for (let attempt = 0; ; attempt++) {
    const outcome = await invoke(step);
    const r = outcome.result;
    const again = retry && attempt < 300 && !outcome.threw && (
      (step.retryWhile && r.isError && textOf(r).startsWith(`${step.retryWhile}: `))
      || (step.until && !r.isError && !step.until.in.includes(r.structuredContent?.[step.until.field])));
    if (!again) {
      if (!outcome.threw && !r.isError) {
        for (const [name, field] of Object.entries(step.save ?? {})) vars[name] = r.structuredContent?.[field];
      }
      return judge(step, outcome);
    }
    await new Promise((res) => setTimeout(res, 100));
  }
}

const background = {};
const results = [];
const timer = setTimeout(() => {
  if (stderrTail) console.error(`--- server stderr (tail) ---\n${stderrTail}`);
  fail(new Error(`tour timed out after 300 s; done so far: ${JSON.stringify(results)}`));
}, 300_000);
try {
  for (const step of tour.calls) {
    if (step.await) {
      results.push(judge({ ...background[step.await].step, ...step }, await background[step.await].done));
    } else if (step.background) {
      const name = step.background;
      const started = invoke(step, (p) => {
        const id = p.message?.match(/queryId ([0-9a-f-]{36})/)?.[1];
        if (id) vars[`${name}.queryId`] = id;
      });
      background[name] = { step, done: started };
      for (let i = 0; i < 300 && !vars[`${name}.queryId`]; i++) await new Promise((res) => setTimeout(res, 100));
      if (!vars[`${name}.queryId`]) throw new Error(`${name}: no progress named its queryId within 30 s`);
    } else {
      results.push(await run(step));
    }
  }
  const main = await client('main');
  const summary = { ok: results.every((r) => r.ok), transport: tour.transport.kind, tools: main.toolNames, calls: results };
  console.log(JSON.stringify(summary, null, 2));
  clearTimeout(timer);
  await Promise.all(Object.values(clients).map((c) => c.close()));
  if (!summary.ok && stderrTail) console.error(`--- server stderr (tail) ---\n${stderrTail}`);
  process.exit(summary.ok ? 0 : 1);
} catch (e) {
  await Promise.all(Object.values(clients).map((c) => c.close().catch(() => {})));
  if (stderrTail) console.error(`--- server stderr (tail) ---\n${stderrTail}`);
  fail(e);
}
