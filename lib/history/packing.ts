/**
 * A record as stored: its JSON deflated and in base64 (docs/history.md, "Size"). Lists of
 * domains deflate to well under half, which keeps 90 days of a large account within the
 * extension's storage; `CompressionStream` is in every browser the extension supports and in Node.
 */
import { fromBase64, toBase64 } from '@/lib/encoding/base64';

async function throughStream(
  bytes: Uint8Array<ArrayBuffer>,
  stream: GenericTransformStream,
): Promise<Uint8Array<ArrayBuffer>> {
  const output = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(output).arrayBuffer());
}

export async function pack(value: unknown): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(value));
  return toBase64(await throughStream(json, new CompressionStream('deflate-raw')));
}

/** The value packed; rejects on anything that is not a packed record. */
export async function unpack(packed: string): Promise<unknown> {
  const bytes = await throughStream(fromBase64(packed), new DecompressionStream('deflate-raw'));
  return JSON.parse(new TextDecoder().decode(bytes));
}
