/**
 * Hands a downloaded file to the browser as a save (the API answers need the bearer header, so a plain
 * link cannot fetch them): an object URL on a temporary link, revoked once the click has been handled.
 */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
