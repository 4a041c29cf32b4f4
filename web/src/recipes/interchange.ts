// Recipe interchange: import of a BeerXML or BeerJSON file, and the export links.
import { ApiError, client, unwrap, type Schemas } from '../api/client';

export type ImportResult = Schemas['ImportResponse'];
export type ExportFormat = Schemas['ExportFormat'];

/** The API's cap on an import body. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

/** What the file is, from its name, then its MIME type, then its first bytes. */
export async function importKind(file: Blob & { name?: string }): Promise<'beerxml' | 'beerjson'> {
  const name = (file.name ?? '').toLowerCase();
  if (name.endsWith('.xml')) return 'beerxml';
  if (name.endsWith('.json')) return 'beerjson';
  if (/xml/.test(file.type)) return 'beerxml';
  if (/json/.test(file.type)) return 'beerjson';
  const head = new Uint8Array(await file.slice(0, 64).arrayBuffer());
  // A UTF-16 byte order mark: BeerXML (BeerJSON is UTF-8).
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return 'beerxml';
  const first = Array.from(head).find((b) => b !== 0xef && b !== 0xbb && b !== 0xbf && b > 0x20);
  return first === 0x7b /* { */ ? 'beerjson' : 'beerxml';
}

export const formatName = { beerxml: 'BeerXML', beerjson: 'BeerJSON' } as const;

/** Sends the file's bytes as they are, with the content type of its format. */
export async function importRecipes(file: Blob & { name?: string }): Promise<ImportResult> {
  const kind = await importKind(file);
  if (file.size > MAX_IMPORT_BYTES) throw new ApiError(413, 'The file is larger than 5 MiB');
  try {
    return await unwrap(
      client.POST('/v1/recipes/import', {
        body: file as unknown as string,
        bodySerializer: (b: unknown) => b as Blob,
        headers: { 'Content-Type': kind === 'beerxml' ? 'application/xml' : 'application/json' },
      }),
    );
  } catch (e) {
    if (e instanceof ApiError && e.status === 413) throw new ApiError(413, 'The file is larger than 5 MiB');
    if (e instanceof ApiError && e.status === 400) throw new ApiError(400, `This file is not valid ${formatName[kind]}: ${e.message}`);
    if (e instanceof ApiError && e.status === 422) throw new ApiError(422, `This ${formatName[kind]} file cannot be imported`, e.details);
    throw e;
  }
}

/** A path into the file, for people: `RECIPES › RECIPE 1 › HOPS › HOP 3 › AMOUNT` (positions from 1). */
export function filePath(path: readonly (string | number)[]): string {
  const out: string[] = [];
  for (const seg of path) {
    const s = String(seg);
    if (/^\d+$/.test(s) && out.length) out[out.length - 1] += ` ${Number(s) + 1}`;
    else if (/^\d+$/.test(s)) out.push(`#${Number(s) + 1}`);
    else out.push(s);
  }
  return out.join(' › ');
}

export function exportHref(id: string, format: ExportFormat): string {
  return `/v1/recipes/${encodeURIComponent(id)}/export?format=${format}`;
}
