/** How long the page keeps a saved file's object URL: the browser has started the download long before. */
const OBJECT_URL_KEPT_MS = 60_000;

/** Saves a file the page holds to the browser's downloads, as a link with `download` would. */
export function saveInBrowser(file: Blob, fileName: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), OBJECT_URL_KEPT_MS);
}
