// The last PGN loaded, kept between visits in IndexedDB as a Blob (a chosen File is copied
// there by the browser, outside the JS heap). IndexedDB's quota is a share of the disk, not the
// ~5 MB of localStorage, so a file under the server's 16 MiB limit fits. Any failure (private
// mode, quota, no IndexedDB) only means the PGN is not remembered.

const DB = 'tabla';
const STORE = 'pgn';
const KEY = 'last';
/** Where older versions kept the PGN text: moved to IndexedDB on the first visit. */
const LEGACY_KEY = 'tabla.pgn';

export interface StoredPgn {
  blob: Blob;
  name: string;
}

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function run<T>(mode: IDBTransactionMode, action: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = action(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

/** Keeps `blob` as the last PGN; `false` when it could not be kept. */
export async function rememberPgn(blob: Blob, name: string): Promise<boolean> {
  try {
    await run('readwrite', (s) => s.put({ blob, name } satisfies StoredPgn, KEY));
    return true;
  } catch {
    return false;
  }
}

/** The last PGN kept, or null. */
export async function recallPgn(): Promise<StoredPgn | null> {
  try {
    const legacy = localStorage.getItem(LEGACY_KEY);
    if (legacy !== null) {
      localStorage.removeItem(LEGACY_KEY);
      const blob = new Blob([legacy], { type: 'application/x-chess-pgn' });
      await rememberPgn(blob, 'pasted text');
      return { blob, name: 'pasted text' };
    }
    const stored = (await run('readonly', (s) => s.get(KEY))) as StoredPgn | undefined;
    return stored && stored.blob instanceof Blob ? stored : null;
  } catch {
    return null;
  }
}

/** Forgets the last PGN. */
export async function forgetPgn(): Promise<void> {
  try {
    localStorage.removeItem(LEGACY_KEY);
    await run('readwrite', (s) => s.delete(KEY));
  } catch {
    // Nothing kept, nothing to forget.
  }
}
