// Content codings (RFC 9110 §8.4): a server may code a body even for a request without
// Accept-Encoding ("any content coding is considered acceptable", §12.5.3), so every answer's body
// is decoded here, whatever the request asked. Codings are undone in the reverse of the order they
// were applied. A body that cannot be decoded (a coding Node has no decoder for, or corrupt bytes)
// is not an exchange lost: the answer keeps its status and headers and says what went wrong.
import zlib from 'node:zlib';

export interface Decoded {
  body: Buffer;
  /** Cut at the limit (a decompression bomb stops there). */
  truncated: boolean;
  /** Why the body could not be decoded; `body` is then empty. */
  problem?: string;
}

/** The codings named by a Content-Encoding value, in the order they were applied, lower-case. */
export function codingsOf(contentEncoding: string | undefined): string[] {
  return (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

/**
 * "deflate" is the zlib format (RFC 9110 §8.4.1.2), but servers often send raw deflate: a zlib
 * stream is told apart by its two-byte header (method 8, a multiple of 31).
 */
const isZlibWrapped = (b: Buffer) => b.length >= 2 && (b[0]! & 0x0f) === 8 && ((b[0]! << 8) | b[1]!) % 31 === 0;

function decoderFor(coding: string, input: Buffer, lenient: boolean): zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress | undefined {
  // A body cut at the read limit ends mid-stream: decode what there is.
  const flush = lenient ? { finishFlush: zlib.constants.Z_SYNC_FLUSH } : {};
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip(flush);
    case 'deflate':
      return isZlibWrapped(input) ? zlib.createInflate(flush) : zlib.createInflateRaw(flush);
    case 'br':
      return zlib.createBrotliDecompress(lenient ? { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH } : {});
    default:
      return undefined;
  }
}

/** One coding undone, its output cut at `max` bytes. */
function decodeOne(coding: string, input: Buffer, max: number, lenient: boolean): Promise<Decoded> {
  const decoder = decoderFor(coding, input, lenient);
  if (!decoder) return Promise.resolve({ body: Buffer.alloc(0), truncated: false, problem: `content coding "${coding}" cannot be decoded` });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    decoder.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > max) {
        decoder.destroy();
        resolve({ body: Buffer.concat(chunks).subarray(0, max), truncated: true });
      }
    });
    decoder.on('end', () => resolve({ body: Buffer.concat(chunks), truncated: false }));
    decoder.on('error', () => resolve({ body: Buffer.alloc(0), truncated: false, problem: `the ${coding} body is corrupt` }));
    decoder.end(input);
  });
}

/**
 * The body with every content coding undone, at most `max` bytes. `cut`: the raw body was cut at
 * the read limit, so its last coding ends mid-stream.
 */
export async function decodeBody(raw: Buffer, contentEncoding: string | undefined, max: number, cut = false): Promise<Decoded> {
  const codings = codingsOf(contentEncoding);
  // An empty body is empty in any coding (a 204, a HEAD, an empty 429 labelled gzip).
  if (codings.length === 0 || raw.length === 0) return { body: raw.subarray(0, max), truncated: cut || raw.length > max };
  let body = raw;
  let truncated = cut;
  for (const coding of codings.reverse()) {
    const step = await decodeOne(coding, body, max, truncated);
    if (step.problem) return step;
    body = step.body;
    truncated ||= step.truncated;
  }
  return { body, truncated };
}
