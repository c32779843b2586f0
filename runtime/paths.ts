declare const filePathBrand: unique symbol;
declare const directoryPathBrand: unique symbol;

/** A path naming one file. A branded string: it is a `string` at run time. */
export type FilePath = string & { readonly [filePathBrand]: true };
/** A path naming a directory; contracts over it use resolved containment. */
export type DirectoryPath = string & { readonly [directoryPathBrand]: true };

/** Mark a literal path as naming a file (for guarantee arguments). */
export function FilePath(path: string): FilePath {
  if (typeof path !== "string") throw new TypeError("FilePath expects a string");
  return path as FilePath;
}

/** Mark a literal path as naming a directory (for guarantee arguments). */
export function DirectoryPath(path: string): DirectoryPath {
  if (typeof path !== "string") throw new TypeError("DirectoryPath expects a string");
  return path as DirectoryPath;
}
