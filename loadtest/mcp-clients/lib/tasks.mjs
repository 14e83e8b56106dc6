// The Tasks extension (io.modelcontextprotocol/tasks) on top of the TypeScript SDK 2.x client.
//
// SDK 2.4 ships no Tasks support for revision 2026-07-28: its result decoder accepts only
// resultType "complete" and "input_required", so Client.callTool throws on a CreateTaskResult
// (resultType "task"); its migration guide has task interop go through explicit-schema requests,
// and tasks/get and tasks/cancel are the two extension names its era gate lets through. So a task is
// started here by sending tools/call on the client's own transport (same envelope, same headers the
// client derives from the body) and reading the raw answer; tasks/get and tasks/cancel go through
// Client.request with a schema.
import * as z from 'zod/v4';

export const TASKS = 'io.modelcontextprotocol/tasks';

const TaskSchema = z.looseObject({
  taskId: z.string(),
  status: z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']),
  statusMessage: z.string().optional(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  ttlMs: z.number().nullable(),
  pollIntervalMs: z.number().optional(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.record(z.string(), z.unknown()).optional()
});
const EmptySchema = z.looseObject({});

let seq = 0;

/**
 * tools/call as the Tasks extension sees it: resolves with the raw JSON-RPC result, a
 * CreateTaskResult (resultType "task") or an ordinary one (resultType "complete"); rejects on a
 * JSON-RPC error.
 */
export async function callMaybeTask(client, params, protocolVersion) {
  const transport = client.transport;
  const id = `sluice-task-call-${++seq}`;
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': protocolVersion,
    'io.modelcontextprotocol/clientInfo': client._clientInfo,
    'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } }
  };
  const previous = transport.onmessage;
  return new Promise((resolve, reject) => {
    transport.onmessage = (message, extra) => {
      if (message.id !== id) {
        previous?.(message, extra);
        return;
      }
      transport.onmessage = previous;
      if (message.error) reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
      else resolve(message.result);
    };
    transport.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { ...params, _meta: envelope } })
      .catch((e) => {
        transport.onmessage = previous;
        reject(e);
      });
  });
}

export function getTask(client, taskId) {
  return client.request({ method: 'tasks/get', params: { taskId } }, TaskSchema);
}

export function cancelTask(client, taskId) {
  return client.request({ method: 'tasks/cancel', params: { taskId } }, EmptySchema);
}

/** Polls tasks/get at the task's pollIntervalMs until it is terminal (or the deadline passes). */
export async function awaitTask(client, task, deadlineMs = 120_000) {
  const until = Date.now() + deadlineMs;
  const polls = [];
  let t = task;
  while (!['completed', 'failed', 'cancelled'].includes(t.status)) {
    if (Date.now() > until) throw new Error(`task ${task.taskId} still ${t.status} after ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, Math.max(100, t.pollIntervalMs ?? 1000)));
    t = await getTask(client, task.taskId);
    polls.push(t.status);
  }
  return { task: t, polls };
}
