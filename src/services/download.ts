/** Saves text the studio made (a CSV export) as a file through the browser's download. */
export function saveTextFile(name: string, text: string, type = 'text/csv;charset=utf-8'): void {
  // A byte-order mark, so spreadsheet programs read the UTF-8 (Turkish letters) correctly.
  saveBlob(name, new Blob(['\uFEFF', text], { type }));
}

/** Saves a file (text the studio made, an evidence package the server sent) through the browser's download. */
export function saveBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Long enough for the browser to start writing a large file.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
