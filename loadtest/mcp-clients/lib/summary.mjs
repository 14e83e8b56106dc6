// Shared by the sdk-client-*.mjs checks: what a third-party client sees of the gateway.
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

/** Lists tools, calls connection_list {} and returns the JSON summary; ok=false on isError. */
export async function summarize(client, where) {
  const tools = await client.listTools();
  const names = tools.tools.map((t) => t.name);
  if (!names.includes('connection_list')) {
    throw new Error(`tools/list has no connection_list; tools: ${names.join(', ') || 'none'}`);
  }
  const result = await client.callTool({ name: 'connection_list', arguments: {} }, CallToolResultSchema);
  return {
    ok: result.isError !== true,
    ...where,
    protocolVersion: negotiatedVersion(client),
    serverInfo: client.getServerVersion() ?? null,
    serverCapabilities: client.getServerCapabilities() ?? null,
    tools: names,
    connectionList: {
      isError: result.isError === true,
      structuredContent: result.structuredContent ?? null,
      text: (result.content ?? []).filter((c) => c.type === 'text').map((c) => c.text)
    }
  };
}

/**
 * Records the revision the server answers in initialize: Client.connect() hands it to
 * transport.setProtocolVersion() when the transport has one (HTTP does, stdio does not).
 * Call before connect().
 */
export function captureVersion(transport) {
  const original = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (v) => {
    transport.sluiceNegotiatedVersion = v;
    original?.(v);
  };
  return transport;
}

function negotiatedVersion(client) {
  return client.transport?.sluiceNegotiatedVersion ?? null;
}

export function fail(e, code = 1) {
  const msg = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  console.error(JSON.stringify({ ok: false, error: msg }));
  process.exit(code);
}
