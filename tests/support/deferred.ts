/** A promise and the function that settles it, for a test that decides when something ends (`Promise.withResolvers`). */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
