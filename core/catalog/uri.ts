import type { Library } from "../manifest";

/** The base of every URI the catalog mints. These are versioned identifiers, not promised landing pages. */
export const URI_BASE = "https://w3id.org/clauz3/";

/**
 * The namespace of a library's terms, versioned and ending in `/`:
 * `https://w3id.org/clauz3/stdlib/filesystem/0.1.0/` for clauz3's stdlib,
 * `https://w3id.org/clauz3/library/<domain>/<version>/` for other libraries.
 */
export function libraryNamespace(library: Pick<Library, "stdlib" | "domain" | "version">): string {
  const kind = library.stdlib ? "stdlib" : "library";
  return `${URI_BASE}${kind}/${encodeURIComponent(library.domain)}/${encodeURIComponent(library.version)}/`;
}
