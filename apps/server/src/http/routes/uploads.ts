import { Elysia } from 'elysia';
import { DomainError } from '../../domain/errors.ts';
import {
  abortUpload,
  completeUpload,
  createItem,
  parseUploadMetadata,
  partNumber,
  receivePart,
  unfinishedUploads,
  uploadStatus,
  uploadVersion,
  type FilesDeps,
} from '../../domain/files/index.ts';
import { MAX_REQUEST_BODY_BYTES } from '../plugins/body-limit.ts';
import type { SessionPlugin } from '../plugins/session.ts';
import { LinkOnlyQuery, PartParams, UnfinishedQuery, UploadBody, UploadParams } from './file-schemas.ts';

/**
 * POST /api/upload and the part protocol (docs/protocol.md "Files and uploads"). The multipart
 * body of POST /api/upload is read with a cap of one part (a larger file goes up in parts);
 * part bodies stream straight into the blob store. GET /api/uploads: the unfinished uploads in
 * the caller's own tree, whoever started them.
 */
export function uploadRoutes(deps: { files: FilesDeps; session: SessionPlugin }) {
  const { files } = deps;
  return new Elysia({ name: 'upload-routes' })
    .use(deps.session)
    .post(
      '/api/upload',
      async ({ body, principal, set }) => {
        const metadata = parseUploadMetadata(body.metadata);
        const created =
          'versionOf' in metadata
            ? await uploadVersion(files, principal, metadata, body.file)
            : await createItem(files, principal, metadata, body.file);
        set.status = 201;
        return created;
      },
      {
        parse: async (context) => {
          const { request, set } = context;
          // A local parse runs before the macro's: decide who is calling before reading a byte.
          await context.principalOf(context);
          try {
            return await readCappedForm(request, MAX_REQUEST_BODY_BYTES);
          } catch (error) {
            // The rest of the body is never read: the connection cannot be reused.
            set.headers.connection = 'close';
            throw error;
          }
        },
        body: UploadBody,
        query: LinkOnlyQuery,
        principal: true,
      },
    )
    .put(
      '/api/upload/:uploadId/part/:n',
      async ({ params, request, principal, set }) => {
        try {
          const declared = request.headers.get('content-length');
          const length = declared === null ? null : Number(declared);
          await receivePart(files, principal, params.uploadId, partNumber(params.n), request.body, length);
        } catch (error) {
          // A part refused before (or while) its body is read leaves bytes on the wire.
          set.headers.connection = 'close';
          throw error;
        }
        set.status = 204;
      },
      { parse: 'none', params: PartParams, query: LinkOnlyQuery, principal: true },
    )
    .get('/api/upload/:uploadId', ({ params, principal }) => uploadStatus(files, principal, params.uploadId), {
      params: UploadParams,
      query: LinkOnlyQuery,
      principal: true,
    })
    .post('/api/upload/:uploadId/complete', ({ params, principal }) => completeUpload(files, principal, params.uploadId), {
      params: UploadParams,
      query: LinkOnlyQuery,
      principal: true,
    })
    .delete(
      '/api/upload/:uploadId',
      async ({ params, principal, set }) => {
        await abortUpload(files, principal, params.uploadId);
        set.status = 204;
      },
      { params: UploadParams, query: LinkOnlyQuery, principal: true },
    )
    .get('/api/uploads', ({ query, user }) => unfinishedUploads(files, user.id, query), {
      query: UnfinishedQuery,
      session: true,
    });
}

/** The multipart fields of POST /api/upload (docs/protocol.md); anything else is refused. */
const UPLOAD_FIELDS = new Set(['metadata', 'file']);

/**
 * Reads a multipart body of at most `max` bytes (413 past it, as soon as it is passed) and
 * returns its fields: strings as text, files as File. A field sent twice is refused; a
 * `metadata` sent as a file part is read as text.
 */

async function readCappedForm(request: Request, max: number): Promise<Record<string, string | File>> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    throw new DomainError('VALIDATION', 'Expected a multipart/form-data body');
  }
  const declared = Number(request.headers.get('content-length') ?? 0);
  const tooLarge = () => new DomainError('TOO_LARGE', `Request body larger than ${max} bytes; send the file in parts`);
  if (declared > max) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > max) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  let form: FormData;
  try {
    form = await new Response(Buffer.concat(chunks), { headers: { 'content-type': type } }).formData();
  } catch {
    throw new DomainError('VALIDATION', 'Malformed multipart body');
  }
  const fields = new Map<string, string | File>();
  for (const [name, value] of form) {
    if (!UPLOAD_FIELDS.has(name)) throw new DomainError('VALIDATION', 'Only the fields metadata and file are accepted');
    if (fields.has(name)) throw new DomainError('VALIDATION', `Field ${name.slice(0, 40)} sent twice`);
    fields.set(name, name === 'metadata' && typeof value !== 'string' ? await value.text() : value);
  }
  return Object.fromEntries(fields);
}
