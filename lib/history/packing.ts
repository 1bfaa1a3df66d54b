/**
 * A record as stored: its JSON deflated and in base64 (docs/history.md, "Size"). Lists of
 * domains deflate to well under half, which keeps 90 days of a large account within the
 * extension's storage; `CompressionStream` is in every browser the extension supports and in Node.
 */

async function throughStream(
  bytes: Uint8Array<ArrayBuffer>,
  stream: GenericTransformStream,
): Promise<Uint8Array<ArrayBuffer>> {
  const output = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(output).arrayBuffer());
}

/** Base64 without building one argument list per byte (large records would overflow the stack). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let at = 0; at < bytes.length; at += chunk) {
    binary += String.fromCharCode(...bytes.subarray(at, at + chunk));
  }
  return btoa(binary);
}

export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
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
