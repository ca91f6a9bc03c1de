/**
 * RFC 4180 CSV: fields separated by commas, optionally in double quotes (a doubled quote is a quote;
 * quoted fields may hold commas and line breaks). CRLF or LF line ends; a trailing Ctrl-Z (OFAC's files
 * end with one) and a byte-order mark are ignored. Yields one row at a time.
 */
export function* csvRows(text: string): Generator<string[]> {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const end = text.length;
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let touched = false;
  while (i < end) {
    const char = text[i] as string;
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += char;
      i++;
      continue;
    }
    if (char === '"') {
      quoted = true;
      touched = true;
      i++;
    } else if (char === ',') {
      row.push(field);
      field = '';
      touched = true;
      i++;
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      i++;
      if (touched || field.length > 0) {
        row.push(field);
        yield row;
      }
      row = [];
      field = '';
      touched = false;
    } else if (char === '\u001a') {
      i++;
    } else {
      field += char;
      touched = true;
      i++;
    }
  }
  if (touched || field.length > 0) {
    row.push(field);
    yield row;
  }
}
